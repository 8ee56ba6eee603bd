// Durable pull consumers, one per (service, event type). Events are handled in batches: the events
// waiting when the consumer is free are handled together, in stream order, in ONE MongoDB transaction
// that also records their ids in `processed_events` (so an event delivered twice acts once), and are
// acked after that commit. At a few hundred events a second this is one transaction (start, processed
// read, processed insert, commit) per batch instead of per event; at a trickle a batch is one event.
// When a batch fails, its events are handled again one at a time, so only a failing event is nak'ed
// (with a growing delay) and the others go through. A consumer may let a batch gather for a while
// (`gatherMs`) when its events need not be acted on at once.
// A consumer may take only the events of its type published on a narrower subject (`subject`, e.g.
// `email.sent.order`): JetStream then never delivers it the others. When a durable's filter changes, the
// messages its old filter still holds (a service down while they came) are handled first, then the
// durable is made again with the new filter from the stream's start (see `ensure`).
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { nanos } from '@nats-io/nats-core';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { ClientSession, Connection, Model } from 'mongoose';
import {
  backoffDelayMs,
  eventTypeFilter,
  filterWithinType,
  parseEvent,
  streamForEventType,
  type EventEnvelope,
  type EventSource,
  type EventType,
} from '@shop/contracts';
import type { Logger } from '../logger.js';
import type { OutboxDoc, ProcessedEventDoc } from './models.js';
import { insertComplete } from '../mongo.js';
import { runInOutboxTransaction, type Outbox } from './outbox.js';
import { contextFromNatsHeaders } from './trace.js';

/** What a handler of a batch of events gets: one transaction for the whole batch. */
export interface BatchContext {
  /** Use it for every write, so the writes, the processed marks and any new events commit together. */
  session: ClientSession;
  outbox: Outbox;
  log: Logger;
  /** Runs `fn` once the batch's transaction committed (e.g. to refresh an in-memory copy). */
  afterCommit: (fn: () => void) => void;
}

export interface ConsumerContext extends BatchContext {
  /** 1 on first delivery. */
  deliveryCount: number;
}

/** Events handled together in one transaction at most, unless a consumer says otherwise. */
export const defaultBatchSize = 32;

export interface ConsumerOptions<T extends EventType = EventType> {
  /**
   * Events handled together in one transaction, at most (default `defaultBatchSize`); 1 gives each
   * event its own transaction. Either way events are handled in stream order, one batch at a time.
   */
  batchSize?: number;
  /**
   * False for an event the handler would do nothing with: it is acked at once, without a transaction
   * or a processed mark (a repeat of it is just as irrelevant). Default: every event is handled.
   */
  relevant?(event: EventEnvelope<T>): boolean;
  /**
   * Only the events published on this subject (one under the type's, see `eventSubject` in the
   * contracts): the rest are never delivered. Default: every event of the type.
   */
  subject?: string;
  /**
   * Wait up to this long (ms) after a batch's first event arrived for more to join it, unless the batch
   * fills first. For a projection nobody waits on (an order's email history): a stream of events then
   * costs one transaction per `gatherMs` instead of one per handful. Default 0: a batch is what waits
   * when the consumer is free.
   */
  gatherMs?: number;
}

export interface EventConsumer<T extends EventType = EventType> extends ConsumerOptions<T> {
  event: T;
  /** Handles the new (not yet processed) events of a batch, in stream order, in the batch's transaction. */
  handleBatch(events: EventEnvelope<T>[], ctx: BatchContext, deliveryCounts: number[]): Promise<void>;
}

/** Declares a consumer with the handler typed from the event type: called once per event, in stream order. */
export function consumeEvent<T extends EventType>(
  event: T,
  handle: (event: EventEnvelope<T>, ctx: ConsumerContext) => Promise<void>,
  options: ConsumerOptions<T> = {},
): EventConsumer<T> {
  return {
    event,
    async handleBatch(events, ctx, deliveryCounts) {
      for (const [i, one] of events.entries())
        await handle(one, {
          ...ctx,
          log: events.length > 1 ? ctx.log.child({ eventId: one.id }) : ctx.log,
          deliveryCount: deliveryCounts[i] ?? 1,
        });
    },
    ...options,
  };
}

/**
 * Declares a consumer that handles a batch's events at once (set-based: one read and one write for the
 * whole batch instead of one per event). The batch may be a single event.
 */
export function consumeEventBatches<T extends EventType>(
  event: T,
  handleBatch: (events: EventEnvelope<T>[], ctx: BatchContext) => Promise<void>,
  options: ConsumerOptions<T> = {},
): EventConsumer<T> {
  return { event, handleBatch: (events, ctx) => handleBatch(events, ctx), ...options };
}

export function durableName(service: string, type: string) {
  // Durable names may not contain '.', so `order.created` becomes `order-created`.
  return `${service}--${type.replace(/\./g, '-')}`;
}

const tracer = trace.getTracer('@shop/service-kit');
const maxNakDelayMs = 60_000;
/** How often a durable draining its old filter checks whether anything is left under it. */
const drainCheckMs = 1000;

export interface ConsumerDeps {
  service: EventSource;
  connection: Connection;
  outbox: Model<OutboxDoc>;
  processed: Model<ProcessedEventDoc>;
  log: Logger;
  jsm: () => JetStreamManager | undefined;
  js: () => JetStreamClient | undefined;
  /** The events a batch's transaction stored, once it committed (for the relay to publish). */
  onEventsWritten: (events: OutboxDoc[]) => void;
}

export class ConsumerRunner {
  private stopped = false;
  private readonly active = new Set<ConsumerMessages>();
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly deps: ConsumerDeps,
    private readonly consumers: EventConsumer[],
  ) {
    const seen = new Set<string>();
    for (const c of consumers) {
      // processed_events is keyed by event id alone, so one handler per event type per service.
      if (seen.has(c.event))
        throw new Error(`Two consumers of "${c.event}" in ${deps.service}: merge them into one handler`);
      seen.add(c.event);
      if (c.subject !== undefined && !filterWithinType(c.event, c.subject))
        throw new Error(
          `Consumer of "${c.event}" in ${deps.service}: subject "${c.subject}" is not one of its events'`,
        );
    }
  }

  start() {
    for (const c of this.consumers) this.loops.push(this.run(c));
  }

  /** Re-creates consumers after NATS came back (e.g. a server with a fresh store). */
  async ensureAll() {
    for (const c of this.consumers) await this.ensure(c);
  }

  async stop() {
    this.stopped = true;
    for (const messages of this.active) await messages.close().catch(() => undefined);
    await Promise.allSettled(this.loops);
  }

  /**
   * Creates the durable consumer, or brings an existing one to the consumer's filter. `draining`: its old
   * filter still holds messages, so it keeps that filter until they are handled (see `run`).
   */
  private async ensure(c: EventConsumer) {
    const jsm = this.deps.jsm();
    if (!jsm) throw new Error('JetStream is not connected');
    const stream = streamForEventType(c.event);
    const durable = durableName(this.deps.service, c.event);
    const filter = c.subject ?? eventTypeFilter(c.event);
    const config = {
      durable_name: durable,
      filter_subject: filter,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(30_000),
      max_ack_pending: 256,
    };
    try {
      const info = await jsm.consumers.info(stream, durable);
      if (info.config.filter_subject !== filter) {
        // Moving the filter would skip what the old one still holds (e.g. events published on the type's
        // own subject before they had narrower ones): those are handled first.
        if (info.num_pending + info.num_ack_pending > 0) return { stream, durable, draining: true };
        // Made again rather than updated: nats-server 2.9 does not wake a waiting pull for the subjects of
        // a filter changed by an update (each message then waited ~15 s for the client's next pull). It
        // starts at the stream's first message: what the old filter took was handled (processed marks
        // outlive the streams' max age, so those are skipped); what only the new one takes never came.
        await jsm.consumers.delete(stream, durable).catch((err: unknown) => {
          if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound)) throw err;
        });
        await jsm.consumers.add(stream, config);
        this.deps.log.info({ stream, durable, filter, previous: info.config.filter_subject }, 'consumer filter moved');
      }
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound)) throw err;
      await jsm.consumers.add(stream, config);
      this.deps.log.info({ stream, durable, filter }, 'consumer created');
    }
    return { stream, durable, draining: false };
  }

  /** While a durable drains its old filter: ends `messages` once nothing is left under it, so `run` starts over. */
  private watchDrain(stream: string, durable: string, messages: ConsumerMessages, log: Logger) {
    log.info('consumer filter moves once the messages of its old one are handled');
    const timer = setInterval(() => {
      const jsm = this.deps.jsm();
      if (!jsm) return;
      jsm.consumers.info(stream, durable).then(
        (info) => {
          if (info.num_pending + info.num_ack_pending > 0) return;
          clearInterval(timer);
          void messages.close().catch(() => undefined);
        },
        (err: unknown) => log.warn({ err }, 'could not read the draining consumer'),
      );
    }, drainCheckMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async run(c: EventConsumer) {
    let failures = 0;
    const batchSize = Math.max(1, Math.floor(c.batchSize ?? defaultBatchSize));
    const gatherMs = Math.max(0, c.gatherMs ?? 0);
    while (!this.stopped) {
      try {
        const js = this.deps.js();
        if (!js) throw new Error('JetStream is not connected');
        const { stream, durable, draining } = await this.ensure(c);
        const log = this.deps.log.child({ event: c.event, consumer: durable });
        const consumer = await js.consumers.get(stream, durable);
        // The client holds up to this many: the next batch gathers while one is handled.
        const messages = await consumer.consume({
          max_messages: Math.max(64, 2 * batchSize),
          abort_on_missing_resource: true,
        });
        this.active.add(messages);
        const stopWatching = draining ? this.watchDrain(stream, durable, messages, log) : undefined;
        failures = 0;
        const waiting: JsMsg[] = [];
        /** When each waiting message arrived (`gatherMs`). */
        const arrivals: number[] = [];
        let handling: Promise<void> | undefined;
        let batchHandled: Promise<void> = Promise.resolve();
        /** Ends a gathering wait early (the batch is full). */
        let gathered: (() => void) | undefined;
        const gather = async () => {
          const wait = arrivals[0] + gatherMs - Date.now();
          if (wait <= 0) return;
          let timer: NodeJS.Timeout | undefined;
          batchHandled = new Promise((resolve) => {
            gathered = resolve;
            timer = setTimeout(resolve, wait);
          });
          await batchHandled;
          clearTimeout(timer);
          gathered = undefined;
        };
        const handleWaiting = async () => {
          // Let the messages the client already holds join the first batch. (The loop below waits on this
          // too when a batch is full: waiting on a settled promise there would starve the event loop.)
          batchHandled = new Promise((resolve) => setImmediate(resolve));
          await batchHandled;
          try {
            while (waiting.length > 0 && !this.stopped) {
              if (gatherMs > 0 && waiting.length < batchSize) await gather();
              if (this.stopped) break;
              arrivals.splice(0, batchSize);
              batchHandled = this.handleBatch(c, durable, log, waiting.splice(0, batchSize));
              await batchHandled;
            }
          } finally {
            handling = undefined;
          }
        };
        try {
          for await (const m of messages) {
            waiting.push(m);
            if (gatherMs > 0) arrivals.push(Date.now());
            if (waiting.length >= batchSize) gathered?.();
            handling ??= handleWaiting();
            // Hold at most one batch beyond the one being handled; the client buffers the rest.
            while (waiting.length >= batchSize && handling !== undefined) await batchHandled;
            if (this.stopped) break;
          }
        } finally {
          // Stopping or interrupted: the batch in hand finishes (its acks go out) before the loop ends;
          // messages not yet handled are redelivered after their ack wait.
          await handling;
          stopWatching?.();
          this.active.delete(messages);
        }
      } catch (err) {
        if (this.stopped) break;
        failures += 1;
        this.deps.log.warn({ err, event: c.event }, 'consumer interrupted; restarting');
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, backoffDelayMs(failures + 1, 500, 10_000)));
    }
  }

  /**
   * Handles a batch of messages and acks them after its commit; never throws. A message that does not
   * match its contract is terminated, an irrelevant one acked at once. When the batch's transaction
   * fails, its events are handled again one at a time and only the failing ones are nak'ed.
   */
  private async handleBatch(c: EventConsumer, durable: string, log: Logger, batch: JsMsg[]): Promise<void> {
    const received: Received[] = [];
    for (const m of batch) {
      let event: EventEnvelope<EventType>;
      try {
        event = parseEvent(c.event, m.json());
      } catch (err) {
        // A message that does not match its contract will never succeed: park it, do not loop on it.
        log.error({ err, seq: m.seq }, 'invalid event dropped');
        // No reason text: nats-server 2.9 does not understand '+TERM <reason>' and would ignore it.
        m.term();
        continue;
      }
      if (c.relevant && !c.relevant(event)) {
        m.ack();
        continue;
      }
      received.push({ m, event });
    }
    if (received.length === 0) return;
    try {
      await this.commitBatch(c, durable, log, received);
    } catch (err) {
      if (received.length > 1) {
        log.warn({ err, events: received.length }, 'event batch failed; handling its events one at a time');
        for (const one of received)
          await this.commitBatch(c, durable, log, [one]).catch((e: unknown) => nak(log, one, e));
      } else nak(log, received[0], err);
    }
  }

  /** One transaction: the events not processed yet are handled and marked processed; then all are acked. */
  private async commitBatch(c: EventConsumer, durable: string, log: Logger, received: Received[]) {
    const single = received.length === 1 ? received[0] : undefined;
    // One event: its span continues the publisher's trace. A batch: a span of its own, linked to each.
    const parent = single ? contextFromNatsHeaders(single.m.headers) : context.active();
    const links = single
      ? []
      : received.flatMap(({ m }) => {
          const linked = trace.getSpanContext(contextFromNatsHeaders(m.headers));
          return linked ? [{ context: linked }] : [];
        });
    await context.with(parent, () =>
      tracer.startActiveSpan(
        `${c.event} process`,
        {
          kind: SpanKind.CONSUMER,
          links,
          attributes: {
            'messaging.system': 'nats',
            'messaging.destination.name': c.event,
            'messaging.consumer.group.name': durable,
            ...(single
              ? { 'messaging.message.id': single.event.id }
              : { 'messaging.batch.message_count': received.length }),
          },
        },
        async (span) => {
          try {
            let committed: (() => void)[] = [];
            const { result: acted, events } = await runInOutboxTransaction(
              this.deps.connection,
              this.deps.outbox,
              this.deps.service,
              async (session, outbox) => {
                // Rebuilt on every attempt: a retried transaction never runs an aborted attempt's callbacks.
                committed = [];
                const ids = received.map((r) => r.event.id);
                // Through the driver, like the insert below: ids need no casting (mongoose's query cost more).
                const seen = new Set(
                  (
                    await this.deps.processed.collection
                      .find<{ _id: string }>({ _id: { $in: ids } } as never, { projection: { _id: 1 }, session })
                      .toArray()
                  ).map((doc) => doc._id),
                );
                // A redelivery can sit in the same batch as its first delivery: acted on once.
                const fresh = received.filter((r) => !seen.has(r.event.id) && (seen.add(r.event.id), true));
                if (fresh.length === 0) return 0;
                await c.handleBatch(
                  fresh.map((r) => r.event),
                  {
                    session,
                    outbox,
                    log: fresh.length === 1 ? log.child({ eventId: fresh[0].event.id }) : log,
                    afterCommit: (fn) => committed.push(fn),
                  },
                  fresh.map((r) => r.m.info.deliveryCount),
                );
                const processedAt = new Date();
                await insertComplete(
                  this.deps.processed,
                  fresh.map((r) => ({ _id: r.event.id, type: r.event.type, consumer: durable, processedAt })),
                  session,
                );
                return fresh.length;
              },
            );
            for (const fn of committed) {
              try {
                fn();
              } catch (err) {
                log.warn({ err }, 'after-commit callback failed');
              }
            }
            for (const { m } of received) m.ack();
            if (events.length > 0) this.deps.onEventsWritten(events);
            for (const { event } of received) log.debug({ eventId: event.id, batch: received.length }, 'event handled');
            log.debug({ events: received.length, acted }, 'event batch committed');
          } catch (err) {
            span.recordException(err as Error);
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw err;
          } finally {
            span.end();
          }
        },
      ),
    );
  }
}

interface Received {
  m: JsMsg;
  event: EventEnvelope<EventType>;
}

/** Hands a failed event back to JetStream for a later try, waiting longer after each failure. */
function nak(log: Logger, { m, event }: Received, err: unknown) {
  const delay = backoffDelayMs(m.info.deliveryCount, 1000, maxNakDelayMs);
  log.error(
    { err, eventId: event.id, seq: m.seq, deliveryCount: m.info.deliveryCount, retryInMs: delay },
    'event handler failed; will retry',
  );
  m.nak(delay);
}
