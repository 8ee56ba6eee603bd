// order.created handled in batches: one batch gives exactly what the same events give one at a time. One
// customer's quote requests (the first subscribing to email only, the next two to SMS, the last of them
// twice under one event id) go through in one batch, a twin customer's one event per transaction; the
// subscriber (created once, every quote request counted) and the SMS (one per event, decided on the
// subscriber as that event left it) must match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, type EventEnvelope, type SmsTemplate } from '@shop/contracts';
import type { StartedMongo, StartedNats } from '@shop/test-support';
import { orderCreatedConsumer } from '../src/events/order-created.js';
import { call, orderCreated, startInfra, startMarketing, type MarketingService } from './support/harness.js';

let infra: { mongo: StartedMongo; nats: StartedNats };
let marketing: MarketingService;
let template: SmsTemplate;

beforeAll(async () => {
  infra = await startInfra();
  marketing = await startMarketing(infra);
  template = (
    (await call(marketing, 'POST', '/api/marketing/sms', {
      name: 'Quote received',
      content: 'Hi {name}, we got {orderNumber}.',
      trigger: 'quote_request_received',
    })) as { body: { template: SmsTemplate } }
  ).body.template;
});

afterAll(async () => {
  await marketing?.stop();
  await Promise.all([infra?.nats.stop(), infra?.mongo.stop()]);
});

/** Runs the consumer's handler on `events` in one transaction, as the service kit does for one batch. */
async function handle(events: EventEnvelope<'order.created'>[]) {
  const consumer = orderCreatedConsumer(marketing.ctx.models, () => undefined);
  await marketing.ctx.withOutbox((session, outbox) =>
    consumer.handleBatch(
      events,
      { session, outbox, log: marketing.ctx.log, afterCommit: () => undefined },
      events.map(() => 1),
    ),
  );
}

function quoteRequests(email: string) {
  const sms = { subscribeSMS: true, phone: '(555) 010-4040' };
  const events = [
    orderCreated({ email, customerName: 'Jo Park', subscribeEmail: true }),
    orderCreated({ email, customerName: 'Jo Park', ...sms }),
    orderCreated({ email, customerName: 'Jo Park', ...sms }),
  ].map((data) => createEvent('order.created', 'orders', data));
  return [...events, events[2]];
}

/** The subscriber without what differs between the two customers. */
async function subscriberOf(email: string) {
  const subscriber = await marketing.ctx.models.Subscriber.findOne({ email }).lean();
  const {
    _id,
    email: _email,
    createdAt: _created,
    updatedAt: _updated,
    ...rest
  } = subscriber as never as Record<string, unknown>;
  return rest;
}

describe('order.created in one batch', () => {
  it('one customer three times (a repeat among them) gives what one event at a time gives', async () => {
    const batched = quoteRequests('jo.batch@example.com');
    const apart = quoteRequests('jo.apart@example.com');
    const smsOf = async (events: EventEnvelope<'order.created'>[]) =>
      (
        await marketing.ctx.models.SmsMessage.find({
          dedupeKey: { $in: events.map((e) => `${e.id}:${template.id}`) },
        }).lean()
      ).map((m) => ({ key: m.dedupeKey.split(':')[0], to: m.to, body: m.body }));

    await handle(batched);
    for (const event of apart) await handle([event]);

    const [one, other] = await Promise.all([
      subscriberOf('jo.batch@example.com'),
      subscriberOf('jo.apart@example.com'),
    ]);
    // The repeat reaches the handler here (the service kit's processed mark is bypassed): it counts, but
    // its SMS is not queued again.
    expect(one).toMatchObject({ emailSubscribed: true, smsSubscribed: true, totalOrders: 4, status: 'active' });
    expect(one).toEqual(other);
    // The first quote request subscribed to email only: no SMS for it; one for each of the other two events.
    const sent = await smsOf(batched);
    expect(sent.map((m) => m.key).sort()).toEqual([batched[1].id, batched[2].id].sort());
    expect(sent[0].to).toBe('+15550104040');
    expect(sent[0].body).toMatch(/^Hi Jo, we got CC-/);
    expect((await smsOf(apart)).map((m) => m.key).sort()).toEqual([apart[1].id, apart[2].id].sort());
  });
});
