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
}

export interface EventConsumer<T extends EventType = EventType> {
  event: T;
  handle(event: EventEnvelope<T>, ctx: ConsumerContext): Promise<void>;
}

/** Declares a consumer with the handler typed from the event type. */
export function consumeEvent<T extends EventType>(
  event: T,
  handle: (event: EventEnvelope<T>, ctx: ConsumerContext) => Promise<void>,
): EventConsumer<T> {
  return { event, handle };
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
        const messages = await consumer.consume({ max_messages: 32, abort_on_missing_resource: true });
        this.active.add(messages);
        failures = 0;
        try {
          for await (const m of messages) {
            await this.handle(c, durable, m);
            if (this.stopped) break;
          }
        } finally {
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

  private async handle(c: EventConsumer, durable: string, m: JsMsg) {
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
              event = parseEvent(c.event, m.json());
            } catch (err) {
              // A message that does not match its contract will never succeed: park it, do not loop on it.
              log.error({ err, seq: m.seq }, 'invalid event dropped');
              // No reason text: nats-server 2.9 does not understand '+TERM <reason>' and would ignore it.
              m.term();
              span.setStatus({ code: SpanStatusCode.ERROR, message: 'invalid event' });
              return;
            }
            span.setAttribute('messaging.message.id', event.id);
            const { result: acted, events } = await runInOutboxTransaction(
              this.deps.connection,
              this.deps.outbox,
              this.deps.service,
              async (session, outbox) => {
                const seen = await this.deps.processed.findById(event.id).session(session).lean();
                if (seen) return false;
                await c.handle(event, {
                  session,
                  outbox,
                  log: log.child({ eventId: event.id }),
                  deliveryCount: m.info.deliveryCount,
                });
                await this.deps.processed.create(
                  [{ _id: event.id, type: event.type, consumer: durable, processedAt: new Date() }],
                  { session },
                );
                return true;
              },
            );
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
