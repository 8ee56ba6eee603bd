// The production page's retry rule without zod (operations-http.ts re-exports it): the storefront's first
// screen needs it, and with "sideEffects": false (package.json) a browser bundle takes this file without
// zod.

/** The page's retry delay before attempt n (1-based): 1 s x 2^(n-1), at most 5 s (§8). */
export function productionRetryDelayMs(attempt: number): number {
  return Math.min(5_000, 1_000 * 2 ** Math.max(0, attempt - 1));
}
