// The one backoff rule of the email queue: a failed send waits base, 2x base, 4x base... up to a cap
// before its next attempt; the worker's recorder uses it too when writing outcomes fails for a moment.

/** Delay before retry number `attempt + 1`, after `attempt` failed attempts: base, 2x base, 4x base... capped. */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
