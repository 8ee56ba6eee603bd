// Ban rules: when a ban ends, whether it is in force, and whether it would lock the admin out.
import { banCovers, banDurationMs, type banDurations } from '@shop/contracts';

export function banExpiry(duration: (typeof banDurations)[number], now: Date): Date | null {
  const ms = banDurationMs[duration];
  return ms === null ? null : new Date(now.getTime() + ms);
}

export function banActive(ban: { expiresAt: Date | null }, now: Date): boolean {
  return ban.expiresAt === null || ban.expiresAt.getTime() > now.getTime();
}

/** The admin's own addresses (this call's and the session's sign-in) that the target would cover. */
export function ownAddressesCovered(target: string, ownAddresses: readonly (string | undefined)[]): string[] {
  return [...new Set(ownAddresses.filter((ip): ip is string => !!ip && banCovers(target, ip)))];
}
