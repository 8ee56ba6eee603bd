// Transactional outbox: the change and the event that announces it are one MongoDB commit. A relay
// then publishes pending events to JetStream with the event id as the message id (so JetStream drops a
// repeat within the dedupe window), marks them sent, and retries with backoff while NATS is away.
// The events this process committed are handed to the relay as written, so it publishes them without
// reading them back; a periodic sweep reads the outbox for the rest (another process's, a failed publish,
// events committed while NATS was away).
// A sent event is kept (until a TTL) for dedupe and debugging, but an event that carries a secret in
// clear (a verification code: `eventsWithSecrets` in the contracts, or `add(..., { secret: true })`)
// loses its body in the same update that marks it sent, so the secret is not at rest in MongoDB.
import type { ClientSession, Connection, Model } from 'mongoose';
import { insertComplete } from '../mongo.js';
import type { JetStreamClient } from '@nats-io/jetstream';
import {
  backoffDelayMs,
  createEvent,
  eventSubject,
  eventsWithSecrets,
  type EventData,
  type EventEnvelope,
  type EventSource,
  type EventType,
} from '@shop/contracts';
import type { Logger } from '../logger.js';
import type { OutboxDoc } from './models.js';
import { currentTraceCarrier, toNatsHeaders } from './trace.js';

export interface AddOptions {
  /**
   * The data carries a secret in clear: drop the body from the outbox once published. Always on for the
   * types in `eventsWithSecrets`.
   */
  secret?: boolean;
}

export interface Outbox {
  /** Records an event to publish if, and only if, the surrounding transaction commits. */
  add<T extends EventType>(type: T, data: EventData<T>, options?: AddOptions): EventEnvelope<T>;
}

/** Whether an outbox document's body must go once it is published. */
export function carriesSecret(doc: Pick<OutboxDoc, 'type' | 'secret'>): boolean {
  return doc.secret === true || eventsWithSecrets.has(doc.type as EventType);
}

/** The subject a stored event is published on: its type, or the narrower one its contract gives it. */
function subjectOf(doc: OutboxDoc): string {
  const data = (doc.event as { data?: unknown } | undefined)?.data;
  return data === undefined ? doc.type : eventSubject(doc.type as EventType, data as EventData<EventType>);
}

export type OutboxWork<R> = (session: ClientSession, outbox: Outbox) => Promise<R>;

export class OutboxWriter implements Outbox {
  readonly pending: OutboxDoc[] = [];
  constructor(private readonly source: EventSource) {}

  add<T extends EventType>(type: T, data: EventData<T>, options: AddOptions = {}): EventEnvelope<T> {
    // createEvent validates the data against the contract: a wrong event fails the transaction.
    const event = createEvent(type, this.source, data);
    const now = new Date();
    this.pending.push({
      _id: event.id,
      type,
      event: event,
      ...(options.secret || eventsWithSecrets.has(type) ? { secret: true } : {}),
      traceHeaders: currentTraceCarrier(),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
    return event;
  }
}

/**
 * Runs `work` in a MongoDB transaction together with the outbox insert. mongoose's
 * `connection.transaction` retries transient errors; the writer is rebuilt on every attempt so a
 * retried attempt never carries events from an aborted one.
 */
export async function runInOutboxTransaction<R>(
  connection: Connection,
  model: Model<OutboxDoc>,
  source: EventSource,
  work: OutboxWork<R>,
): Promise<{ result: R; events: OutboxDoc[] }> {
  let result!: R;
  let events: OutboxDoc[] = [];
  await connection.transaction(async (session) => {
    const outbox = new OutboxWriter(source);
    result = await work(session, outbox);
    events = outbox.pending;
    // Through the driver: the writer built every field already; hydrating and validating them again cost a
    // quote request.
    await insertComplete(model, events, session);
  });
  return { result, events };
}

export interface RelayOptions {
  /** Periodic sweep, in case a wake-up was missed (another replica wrote, a crash before publish). */
  sweepIntervalMs?: number;
  batchSize?: number;
  maxBackoffMs?: number;
  publishTimeoutMs?: number;
}

export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private ignoreBackoff = false;
  /** A read of the outbox is asked for (start, the timer, a reconnect, `wake()` without events). */
  private sweepAsked = false;
  private stopped = true;
  /** Events this process committed and has not published yet, in commit order. */
  private readonly committed = new Map<string, OutboxDoc>();
  private readonly sweepIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxBackoffMs: number;
  private readonly publishTimeoutMs: number;

  constructor(
    private readonly model: Model<OutboxDoc>,
    private readonly js: () => JetStreamClient | undefined,
    private readonly natsUp: () => boolean,
    private readonly log: Logger,
    options: RelayOptions = {},
  ) {
    this.sweepIntervalMs = options.sweepIntervalMs ?? 2000;
    this.batchSize = options.batchSize ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.publishTimeoutMs = options.publishTimeoutMs ?? 5000;
  }

  start() {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.sweepIntervalMs);
    this.timer.unref();
    this.wake();
  }

  /**
   * Publish what is pending now: `committed` are events a transaction of this process just stored (published
   * as they are, without reading them back); without them the outbox is read. `force` skips per-event
   * backoff (used right after NATS reconnects).
   */
  wake(force = false, committed: readonly OutboxDoc[] = []) {
    if (this.stopped) return;
    if (force) this.ignoreBackoff = true;
    if (committed.length === 0) this.sweepAsked = true;
    for (const doc of committed) this.committed.set(doc._id, doc);
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once nothing is in flight (tests and shutdown). */
  async idle() {
    while (this.running) await this.running;
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
  }

  private async loop() {
    do {
      this.again = false;
      // What this process committed goes first, in batches gathered while the last one was published.
      while (this.committed.size > 0 && !this.stopped) {
        if (!this.js() || !this.natsUp()) {
          // Stored all the same: the sweep after the reconnect publishes them.
          this.committed.clear();
          break;
        }
        const docs = [...this.committed.values()].slice(0, this.batchSize);
        for (const doc of docs) this.committed.delete(doc._id);
        // A failed one stays pending with its retry time; the sweep takes it from there.
        await this.publish(docs);
      }
      if (this.sweepAsked && !this.stopped) {
        this.sweepAsked = false;
        let more = true;
        while (more && !this.stopped) more = await this.sweepBatch();
      }
    } while (this.again && !this.stopped);
  }

  /** Reads and publishes a batch of pending events; true when a full batch went out and more may be waiting. */
  private async sweepBatch(): Promise<boolean> {
    if (!this.js() || !this.natsUp()) return false;
    const force = this.ignoreBackoff;
    this.ignoreBackoff = false;
    let docs: OutboxDoc[];
    try {
      const filter: Record<string, unknown> = force
        ? { status: 'pending' }
        : { status: 'pending', nextAttemptAt: { $lte: new Date() } };
      docs = await this.model
        .find(filter as never)
        .sort({ createdAt: 1 })
        .limit(this.batchSize)
        .lean<OutboxDoc[]>();
    } catch (err) {
      this.log.warn({ err }, 'outbox relay could not read pending events');
      return false;
    }
    if (docs.length === 0) return false;
    // Read here, so not published again from the committed ones.
    for (const doc of docs) this.committed.delete(doc._id);
    return (await this.publish(docs)) && docs.length === this.batchSize;
  }

  /** Publishes the events and marks them sent (or due again later); false when one failed or the mark did. */
  private async publish(docs: OutboxDoc[]): Promise<boolean> {
    const js = this.js();
    if (!js) return false;
    // The whole batch at once: one connection writes the publishes in this order, so JetStream stores them
    // in it; waiting for each ack before the next publish made the relay a serial queue of round trips.
    const results = await Promise.allSettled(
      docs.map((doc) =>
        js.publish(subjectOf(doc), JSON.stringify(doc.event), {
          msgID: doc._id,
          headers: toNatsHeaders(doc.traceHeaders ?? {}),
          timeout: this.publishTimeoutMs,
        }),
      ),
    );
    const sent: OutboxDoc[] = [];
    const failed: { doc: OutboxDoc; err: unknown }[] = [];
    results.forEach((result, i) => {
      const doc = docs[i];
      if (result.status === 'fulfilled') {
        sent.push(doc);
        const ack = result.value;
        this.log.debug({ eventId: doc._id, type: doc.type, seq: ack.seq, duplicate: ack.duplicate }, 'event published');
      } else failed.push({ doc, err: result.reason });
    });
    // JetStream has them now (the stream keeps them only its own max age); a secret stays nowhere else.
    // One round trip marks the batch sent. If it fails the events stay pending and go again: the message
    // id makes JetStream drop a repeat within its dedupe window, and consumers act once per event id.
    const sentAt = new Date();
    const markSent = (ids: string[], unset: Record<string, ''>) =>
      ids.length === 0
        ? []
        : [
            {
              updateMany: {
                filter: { _id: { $in: ids } },
                update: { $set: { status: 'sent', sentAt }, $unset: unset },
              },
            },
          ];
    const marks = [
      ...markSent(
        sent.filter((doc) => !carriesSecret(doc)).map((doc) => doc._id),
        { lastError: '' },
      ),
      ...markSent(
        sent.filter((doc) => carriesSecret(doc)).map((doc) => doc._id),
        { lastError: '', event: '' },
      ),
    ];
    const retries = failed.map(({ doc, err }) => {
      const attempts = (doc.attempts ?? 0) + 1;
      const delay = backoffDelayMs(attempts + 1, 250, this.maxBackoffMs);
      this.log.warn(
        { err, eventId: doc._id, type: doc.type, attempts, retryInMs: delay },
        'event publish failed; will retry',
      );
      return {
        updateOne: {
          filter: { _id: doc._id },
          update: {
            $set: {
              attempts,
              lastError: String((err as Error)?.message ?? err),
              nextAttemptAt: new Date(Date.now() + delay),
            },
          },
        },
      };
    });
    try {
      // Through the driver (these updates need no casting); the usual batch, all sent, is one updateMany.
      const writes = [...marks, ...retries];
      if (writes.length === 1 && 'updateMany' in writes[0])
        await this.model.collection.updateMany(writes[0].updateMany.filter as never, writes[0].updateMany.update);
      else await this.model.collection.bulkWrite(writes as never, { ordered: false });
    } catch (err) {
      this.log.warn({ err, events: docs.length }, 'outbox relay could not mark published events; they go again');
      return false;
    }
    // After a failure (NATS away, a timeout) stop this round; the sweep or a reconnect tries again.
    return failed.length === 0;
  }
}
