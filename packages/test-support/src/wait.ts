// Waiting for something another process does (a consumer, a worker, a relay): poll, never sleep blind.

/** Polls `probe` every 100 ms until `ok` holds, or throws with the last value after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T> | T,
  ok: (value: T) => boolean = Boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in time; last value ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
