// Reading what a service published: a real JetStream consumer of the test's own on a stream, so a test
// sees the events exactly as other services would (parsed with the shared envelope schema).
import type { NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { eventEnvelopeSchema, type AnyEventEnvelope } from '@shop/contracts';

/** Reads on until the stream stays quiet and `until` holds (or 20 s pass); every event seen so far. */
export type EventReader = (until?: (all: AnyEventEnvelope[]) => boolean) => Promise<AnyEventEnvelope[]>;

/** A durable consumer `durable` on `stream` for `subject`, from the stream's first event. */
export async function streamEventsReader(
  nc: NatsConnection,
  { stream, subject, durable }: { stream: string; subject: string; durable: string },
): Promise<EventReader> {
  const jsm = await jetstreamManager(nc);
  await jsm.consumers.add(stream, {
    durable_name: durable,
    filter_subject: subject,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
  });
  const consumer = await jetstream(nc).consumers.get(stream, durable);
  const seen: AnyEventEnvelope[] = [];
  return async (until = () => true) => {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const batch = await consumer.fetch({ max_messages: 100, expires: 1000 });
      let got = 0;
      for await (const m of batch) {
        got++;
        seen.push(eventEnvelopeSchema.parse(m.json()));
        m.ack();
      }
      if (got === 0 && until(seen)) break;
    }
    return [...seen];
  };
}

/** The ORDERS stream's events (order.created, order.paid, order.status_changed...). */
export function orderEventsReader(nc: NatsConnection, durable: string): Promise<EventReader> {
  return streamEventsReader(nc, { stream: 'ORDERS', subject: 'order.>', durable });
}
