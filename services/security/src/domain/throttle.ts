// The sign-in throttle: guessing stays slow, but no stranger can lock the real admin out. Three
// counters, each a fixed 15-minute window in MongoDB (the service kit's rate counters):
// - per account and client address: 5 failures stop that address from trying that account until the
//   window ends. An attacker locks out only their own address; the admin elsewhere is not touched.
// - per client address: 20 failures across any accounts stop that address until the window ends.
// - per account, from everywhere: no lock (that would be the switch a stranger could flip), a slowdown:
//   past 10 failures in the window every answer for that account, right password or wrong, waits
//   0.5 s more per failure, at most 5 s.

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;

export const PAIR_MAX_FAILURES = 5;
export const IP_MAX_FAILURES = 20;
export const ACCOUNT_SLOWDOWN_AFTER = 10;
export const ACCOUNT_SLOWDOWN_STEP_MS = 500;
export const ACCOUNT_SLOWDOWN_MAX_MS = 5_000;

/** Counter names in `rate_counters`. */
export const counters = {
  pair: 'login-fail-pair',
  ip: 'login-fail-ip',
  account: 'login-fail-account',
} as const;

export const pairKey = (email: string, ip: string) => `${email}|${ip}`;

/** How long an answer for an account with `failures` recent failures waits (0 below the threshold). */
export function accountSlowdownMs(failures: number): number {
  if (failures < ACCOUNT_SLOWDOWN_AFTER) return 0;
  return Math.min(ACCOUNT_SLOWDOWN_MAX_MS, (failures - ACCOUNT_SLOWDOWN_AFTER + 1) * ACCOUNT_SLOWDOWN_STEP_MS);
}

const minutesOf = (retryAfterSeconds: number) => Math.max(1, Math.ceil(retryAfterSeconds / 60));
const plural = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

export function lockedMessage(retryAfterSeconds: number): string {
  return `Too many failed sign-in attempts. Sign-in is locked for ${plural(minutesOf(retryAfterSeconds))}; please try again later.`;
}

export function ipLimitedMessage(retryAfterSeconds: number): string {
  return `Too many failed sign-in attempts from your network. Please wait ${plural(minutesOf(retryAfterSeconds))} and try again.`;
}
