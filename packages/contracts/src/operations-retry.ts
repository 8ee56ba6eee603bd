// The shop's one back-off rule, and the production page's retry delays built on it, without zod
// (operations-http.ts re-exports it): the storefront's first screen needs it, and with "sideEffects": false
// (package.json) a browser bundle takes this file without zod.

/**
 * Exponential back-off: the delay before attempt `attempt` (1-based) is base, 2x base, 4x base... at most
 * `maxMs`. Used by the outbox, the event consumers, the email queue and the pages' retries.
 */
export function backoffDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  // The exponent is capped so a loop failing for days never computes Infinity.
  return Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(0, attempt - 1), 30));
}

/** The page's retry delay before attempt n (1-based): 1 s x 2^(n-1), at most 5 s (§8). */
export function productionRetryDelayMs(attempt: number): number {
  return backoffDelayMs(attempt, 1_000, 5_000);
}
