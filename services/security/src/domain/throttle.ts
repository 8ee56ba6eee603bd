// Login throttling rules: per account, a lockout after repeated failures; per client address, a cap
// on failures in a window (stops one address from trying many accounts). Counters live in MongoDB.

export const ACCOUNT_MAX_FAILURES = 5;
export const ACCOUNT_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_LOCK_MS = 15 * 60 * 1000;

export const IP_MAX_FAILURES = 20;
export const IP_WINDOW_MS = 15 * 60 * 1000;

export const accountKey = (email: string) => `account:${email}`;
export const ipKey = (ip: string) => `ip:${ip}`;

export function lockedMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts. Sign-in is locked for ${minutes} minute${minutes === 1 ? '' : 's'}; please try again later.`;
}

export function ipLimitedMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts from your network. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}
