// Fixed-window counters in MongoDB: one atomic upsert-and-increment per hit, so every replica sees the
// same count; a TTL index removes old windows.
import type { CustomersModels } from '../models/index.js';

export interface RateDecision {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

export async function hitRateLimit(
  RateCounter: CustomersModels['RateCounter'],
  name: string,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<RateDecision> {
  const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
  const windowEnd = windowStart + windowMs;
  const id = `${name}:${key}:${windowStart}`;
  const increment = () =>
    RateCounter.findOneAndUpdate(
      { _id: id },
      { $inc: { count: 1 }, $setOnInsert: { expiresAt: new Date(windowEnd) } },
      { upsert: true, returnDocument: 'after', lean: true },
    );
  let doc;
  try {
    doc = await increment();
  } catch (err) {
    // Two replicas inserting the same new window at once: one wins, the other increments it.
    if ((err as { code?: number }).code !== 11000) throw err;
    doc = await increment();
  }
  const count = doc?.count ?? 1;
  return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now.getTime()) / 1000)) };
}
