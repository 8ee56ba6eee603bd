// Events on subjects narrower than their type (issue 20): the relay publishes email.sent on
// `email.sent.<audience>`, a consumer that filters on one audience is never delivered the others, and a
// durable that still filtered on `email.sent` (made before) handles what that subject holds before its
// filter moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { createEvent, emailSentSubject, eventSubject, type EventData } from '@shop/contracts';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { consumeEvent, createService, durableName, type Service } from '../src/index.js';
import { ensureAllStreams } from '../src/bus/streams.js';
import { env, eventually, LogLines } from './helpers.js';

let mongo: StartedMongo;
let nats: StartedNats;
let nc: NatsConnection;
let jsm: JetStreamManager;
let service: Service<Record<string, never>>;
/** The emailIds the consumer acted on, in order. */
const handled: string[] = [];
const durable = durableName('orders', 'email.sent');

function sent(emailId: string, more: Partial<EventData<'email.sent'>>): EventData<'email.sent'> {
  return {
    emailId,
    to: 'jane@example.com',
    subject: 'Hello',
    template: 'order_confirmation',
    sentAt: new Date().toISOString(),
    ...more,
  };
}

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  nc = await connect({ servers: nats.url });
  jsm = await jetstreamManager(nc);
  const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as never;
  await ensureAllStreams(jsm, silent);
  // As a service of the previous release left it: its durable filters on the type's own subject, and an
  // event published on that subject waits for it.
  await jsm.consumers.add('EMAIL', {
    durable_name: durable,
    filter_subject: 'email.sent',
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
  });
  const old = createEvent('email.sent', 'email', sent('before', { orderId: 'o-1' }));
  await jetstream(nc).publish('email.sent', JSON.stringify(old), { msgID: old.id });
  // And one the new email service published on the new subject before this consumer moved to it.
  const early = createEvent('email.sent', 'email', sent('early', { orderId: 'o-1' }));
  await jetstream(nc).publish(eventSubject('email.sent', early.data), JSON.stringify(early), { msgID: early.id });

  service = await createService({
    name: 'orders',
    config: env(mongo.uri, nats.url, 'warn'),
    logDestination: new LogLines(),
    models: () => ({}),
    routes() {},
    consumers: () => [
      consumeEvent(
        'email.sent',
        async (event) => {
          handled.push(event.data.emailId);
        },
        { subject: emailSentSubject('order') },
      ),
    ],
  });
  await service.start();
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await nc?.close();
  await nats?.stop();
  await mongo?.stop();
});

describe('event subjects narrower than the type', () => {
  it('handles what the old filter held, then moves the filter, losing nothing published on the new subject', async () => {
    await eventually(async () => handled.includes('early'));
    expect(handled).toEqual(['before', 'early']);
    expect((await jsm.consumers.info('EMAIL', durable)).config.filter_subject).toBe('email.sent.order');
  });

  it('publishes email.sent by audience; the consumer is delivered only its own', async () => {
    const { delivered: before } = await jsm.consumers.info('EMAIL', durable);
    await service.ctx.bus.withOutbox(async (_session, outbox) => {
      outbox.add('email.sent', sent('team', { template: 'admin_new_order', orderId: 'o-2' }));
      outbox.add('email.sent', sent('customer', { orderId: 'o-2' }));
      outbox.add('email.sent', sent('campaign', { template: 'campaign', campaignId: 'c', subscriberId: 's' }));
      outbox.add('email.sent', sent('code', { template: 'verification_code' }));
    });
    const subjects = await eventually(async () => {
      const info = await jsm.streams.info('EMAIL');
      if (info.state.messages < 5) return undefined;
      const bySeq: string[] = [];
      for (let seq = info.state.last_seq - 3; seq <= info.state.last_seq; seq++)
        bySeq.push((await jsm.streams.getMessage('EMAIL', { seq }))?.subject ?? '');
      return bySeq;
    });
    expect(subjects).toEqual(['email.sent.team', 'email.sent.order', 'email.sent.campaign', 'email.sent.other']);
    // At once: a durable whose filter moved is woken by its new subject (an updated one was not, on 2.9).
    await eventually(async () => handled.includes('customer'), 5000);
    const info = await eventually(async () => {
      const now = await jsm.consumers.info('EMAIL', durable);
      return now.num_pending === 0 && now.num_ack_pending === 0 && now;
    });
    // One delivery since, the customer's email: the other three were never sent to this consumer.
    expect(info.delivered.consumer_seq - before.consumer_seq).toBe(1);
    expect(handled).toEqual(['before', 'early', 'customer']);
  });
});
