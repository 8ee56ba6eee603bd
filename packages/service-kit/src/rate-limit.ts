// Fixed-window counters in the service's own MongoDB: one document per (limit, key, window), one atomic
// upsert-and-increment per hit, so every replica sees the same count and a restart forgets nothing; a TTL
// index removes windows that are over. The customers lookup limits and the security sign-in throttle
// both count with these.
import { Schema, type Connection, type Model } from 'mongoose';

export interface RateCounterDoc {
  /** `<limit name>:<key>:<window start ms>`. */
  _id: string;
  count: number;
  expiresAt: Date;
}

export type RateCounterModel = Model<RateCounterDoc>;

const rateCounterSchema = new Schema<RateCounterDoc>(
  {
    _id: { type: String, required: true },
    count: { type: Number, default: 0 },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'rate_counters', versionKey: false },
);
rateCounterSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

/** The `rate_counters` collection of a service's connection (registered once per connection). */
export function rateCounterModel(connection: Connection): RateCounterModel {
  return (
    (connection.models.RateCounter as RateCounterModel | undefined) ??
    connection.model<RateCounterDoc>('RateCounter', rateCounterSchema)
  );
}

export interface RateWindow {
  /** Hits counted in the current window (this one included, for `countHit`). */
  count: number;
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

export interface RateDecision extends RateWindow {
  allowed: boolean;
}

function windowOf(name: string, key: string, windowMs: number, now: Date) {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  const end = start + windowMs;
  return {
    id: `${name}:${key}:${start}`,
    end,
    retryAfterSeconds: Math.max(1, Math.ceil((end - now.getTime()) / 1000)),
  };
}

/** Counts one hit for `key` in the current window and answers the count so far. */
export async function countHit(
  RateCounter: RateCounterModel,
  name: string,
  key: string,
  windowMs: number,
  now: Date,
): Promise<RateWindow> {
  const window = windowOf(name, key, windowMs, now);
  const increment = () =>
    RateCounter.findOneAndUpdate(
      { _id: window.id },
      { $inc: { count: 1 }, $setOnInsert: { expiresAt: new Date(window.end) } },
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
  return { count: doc?.count ?? 1, retryAfterSeconds: window.retryAfterSeconds };
}

/** The count of the current window without counting a hit. */
export async function readWindow(
  RateCounter: RateCounterModel,
  name: string,
  key: string,
  windowMs: number,
  now: Date,
): Promise<RateWindow> {
  const window = windowOf(name, key, windowMs, now);
  const doc = await RateCounter.findById(window.id).lean();
  return { count: doc?.count ?? 0, retryAfterSeconds: window.retryAfterSeconds };
}

/** Forgets the current window of `key` (e.g. a successful sign-in clears its failures). */
export async function clearWindow(
  RateCounter: RateCounterModel,
  name: string,
  key: string,
  windowMs: number,
  now: Date,
): Promise<void> {
  await RateCounter.deleteOne({ _id: windowOf(name, key, windowMs, now).id });
}

/** Counts a hit and says whether it is within `limit` hits per window. */
export async function hitRateLimit(
  RateCounter: RateCounterModel,
  name: string,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<RateDecision> {
  const window = await countHit(RateCounter, name, key, windowMs, now);
  return { ...window, allowed: window.count <= limit };
}
