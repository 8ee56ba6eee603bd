// Durable pull consumers, one per (service, event type). A handler runs inside a MongoDB transaction
// that also records the event id in `processed_events`, so an event delivered twice acts once; the
// message is acked only after that commit, and nak'ed with a growing delay when the handler fails.
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
import { parseEvent, streamForEventType, type EventEnvelope, type EventSource, type EventType } from '@shop/contracts';
import type { Logger } from '../logger.js';
import type { OutboxDoc, ProcessedEventDoc } from './models.js';
import { runInOutboxTransaction, type Outbox } from './outbox.js';
import { contextFromNatsHeaders } from './trace.js';

export interface ConsumerContext {
  /** Use it for every write, so the writes, the processed mark and any new events commit together. */
  session: ClientSession;
  outbox: Outbox;
  log: Logger;
  /** 1 on first delivery. */
  deliveryCount: number;
  /** Runs `fn` once the handler's transaction committed (e.g. to refresh an in-memory copy). */
  afterCommit: (fn: () => void) => void;
}

export interface ConsumerOptions<T extends EventType = EventType> {
  /**
   * Events handled at once (default 1: one after another, in stream order). Each runs in its own
   * transaction; a write conflict between two of them is retried by the transaction.
   */
  concurrency?: number;
  /**
   * With `concurrency` above 1: events with the same key (e.g. the order id) are handled one after
   * another in stream order, events with different keys at the same time. Without it any two may overlap.
   */
  orderKey?(event: EventEnvelope<T>): string | undefined;
  /**
   * False for an event the handler would do nothing with: it is acked at once, without a transaction
   * or a processed mark (a repeat of it is just as irrelevant). Default: every event is handled.
   */
  relevant?(event: EventEnvelope<T>): boolean;
}

export interface EventConsumer<T extends EventType = EventType> extends ConsumerOptions<T> {
  event: T;
  handle(event: EventEnvelope<T>, ctx: ConsumerContext): Promise<void>;
}

/** Declares a consumer with the handler typed from the event type. */
export function consumeEvent<T extends EventType>(
  event: T,
  handle: (event: EventEnvelope<T>, ctx: ConsumerContext) => Promise<void>,
  options: ConsumerOptions<T> = {},
): EventConsumer<T> {
  return { event, handle, ...options };
}

export function durableName(service: string, type: string) {
  // Durable names may not contain '.', so `order.created` becomes `order-created`.
  return `${service}--${type.replace(/\./g, '-')}`;
}

const tracer = trace.getTracer('@shop/service-kit');
const maxNakDelayMs = 60_000;

export interface ConsumerDeps {
  service: EventSource;
  connection: Connection;
  outbox: Model<OutboxDoc>;
  processed: Model<ProcessedEventDoc>;
  log: Logger;
  jsm: () => JetStreamManager | undefined;
  js: () => JetStreamClient | undefined;
  onEventsWritten: () => void;
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

  private async ensure(c: EventConsumer) {
    const jsm = this.deps.jsm();
    if (!jsm) throw new Error('JetStream is not connected');
    const stream = streamForEventType(c.event);
    const durable = durableName(this.deps.service, c.event);
    const config = {
      durable_name: durable,
      filter_subject: c.event,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(30_000),
      max_ack_pending: 256,
    };
    try {
      const info = await jsm.consumers.info(stream, durable);
      if (info.config.filter_subject !== c.event)
        await jsm.consumers.update(stream, durable, { filter_subject: c.event });
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound)) throw err;
      await jsm.consumers.add(stream, config);
      this.deps.log.info({ stream, durable }, 'consumer created');
    }
    return { stream, durable };
  }

  private async run(c: EventConsumer) {
    let failures = 0;
    while (!this.stopped) {
      try {
        const js = this.deps.js();
        if (!js) throw new Error('JetStream is not connected');
        const { stream, durable } = await this.ensure(c);
        const consumer = await js.consumers.get(stream, durable);
        const concurrency = Math.max(1, Math.floor(c.concurrency ?? 1));
        const messages = await consumer.consume({
          max_messages: Math.max(32, 2 * concurrency),
          abort_on_missing_resource: true,
        });
        this.active.add(messages);
        failures = 0;
        const inFlight = new Set<Promise<void>>();
        /** The last handling of each order key, so the next event with that key waits for it. */
        const tails = new Map<string, Promise<void>>();
        try {
          for await (const m of messages) {
            if (concurrency === 1) {
              await this.handle(c, durable, m);
            } else {
              while (inFlight.size >= concurrency) await Promise.race(inFlight);
              const event = this.tryParse(c, m);
              const key = event && c.orderKey ? c.orderKey(event) : undefined;
              const before = key === undefined ? undefined : tails.get(key);
              const handled: Promise<void> = (before ?? Promise.resolve())
                .then(() => this.handle(c, durable, m, event))
                .catch((err: unknown) => this.deps.log.error({ err, event: c.event }, 'event handling failed'))
                .finally(() => {
                  inFlight.delete(handled);
                  if (key !== undefined && tails.get(key) === handled) tails.delete(key);
                });
              inFlight.add(handled);
              if (key !== undefined) tails.set(key, handled);
            }
            if (this.stopped) break;
          }
        } finally {
          // Stopping or interrupted: the events in hand finish (their acks go out) before the loop ends.
          await Promise.allSettled(inFlight);
          this.active.delete(messages);
        }
      } catch (err) {
        if (this.stopped) break;
        failures += 1;
        this.deps.log.warn({ err, event: c.event }, 'consumer interrupted; restarting');
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, Math.min(10_000, 500 * 2 ** Math.min(failures, 5))));
    }
  }

  /** The event, or undefined when it does not match its contract (`handle` then drops it). */
  private tryParse(c: EventConsumer, m: JsMsg): EventEnvelope<EventType> | undefined {
    try {
      return parseEvent(c.event, m.json());
    } catch {
      return undefined;
    }
  }

  private async handle(c: EventConsumer, durable: string, m: JsMsg, parsed?: EventEnvelope<EventType>) {
    const parent = contextFromNatsHeaders(m.headers);
    await context.with(parent, () =>
      tracer.startActiveSpan(
        `${c.event} process`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            'messaging.system': 'nats',
            'messaging.destination.name': m.subject,
            'messaging.consumer.group.name': durable,
          },
        },
        async (span) => {
          const log = this.deps.log.child({ event: c.event, consumer: durable });
          try {
            let event: EventEnvelope<EventType>;
            try {
              event = parsed ?? parseEvent(c.event, m.json());
            } catch (err) {
              // A message that does not match its contract will never succeed: park it, do not loop on it.
              log.error({ err, seq: m.seq }, 'invalid event dropped');
              // No reason text: nats-server 2.9 does not understand '+TERM <reason>' and would ignore it.
              m.term();
              span.setStatus({ code: SpanStatusCode.ERROR, message: 'invalid event' });
              return;
            }
            span.setAttribute('messaging.message.id', event.id);
            if (c.relevant && !c.relevant(event)) {
              m.ack();
              log.debug({ eventId: event.id }, 'event not relevant here; acked');
              return;
            }
            let committed: (() => void)[] = [];
            const { result: acted, events } = await runInOutboxTransaction(
              this.deps.connection,
              this.deps.outbox,
              this.deps.service,
              async (session, outbox) => {
                // Rebuilt on every attempt: a retried transaction never runs an aborted attempt's callbacks.
                committed = [];
                const seen = await this.deps.processed.findById(event.id).session(session).lean();
                if (seen) return false;
                await c.handle(event, {
                  session,
                  outbox,
                  log: log.child({ eventId: event.id }),
                  deliveryCount: m.info.deliveryCount,
                  afterCommit: (fn) => committed.push(fn),
                });
                await this.deps.processed.create(
                  [{ _id: event.id, type: event.type, consumer: durable, processedAt: new Date() }],
                  { session },
                );
                return true;
              },
            );
            for (const fn of committed) {
              try {
                fn();
              } catch (err) {
                log.warn({ err, eventId: event.id }, 'after-commit callback failed');
              }
            }
            m.ack();
            if (events > 0) this.deps.onEventsWritten();
            log.debug({ eventId: event.id, acted }, acted ? 'event handled' : 'event already handled; skipped');
          } catch (err) {
            const delay = Math.min(maxNakDelayMs, 1000 * 2 ** Math.max(0, m.info.deliveryCount - 1));
            log.error(
              { err, seq: m.seq, deliveryCount: m.info.deliveryCount, retryInMs: delay },
              'event handler failed; will retry',
            );
            span.recordException(err as Error);
            span.setStatus({ code: SpanStatusCode.ERROR });
            m.nak(delay);
          } finally {
            span.end();
          }
        },
      ),
    );
  }
}
