// Quote requests are inserted without mongoose's hydration (issue 20): the stored order must be exactly
// what the schema would have stored (every default, the version key, nothing invalid), and a price change
// must reach the next quote request as soon as the content.changed consumer has acted on it, although the
// routes keep the price list in memory.
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEvent,
  defaultSiteContent,
  idempotencyKeyHeader,
  type CreateOrderResponse,
  type OrderRequest,
} from '@shop/contracts';
import { coinOrder, eventually, postJson, shirtOrder, startHarness, type Harness } from './helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

const address = { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' };

describe('a stored quote request', () => {
  const bodies: [string, OrderRequest][] = [
    ['a coin order', coinOrder({ email: 'stored-coin@example.com' })],
    ['a shirt order with sizes', shirtOrder({ email: 'stored-shirt@example.com' })],
    [
      'an order with a phone and both addresses (line 2 left out)',
      coinOrder({
        email: 'stored-address@example.com',
        phone: '512-555-0100',
        shippingAddress: address,
        billingAddress: { ...address, line1: '2 Side St' },
      }),
    ],
  ];

  it.each(bodies)('is what the schema would store: %s', async (_name, body) => {
    const res = await postJson<CreateOrderResponse>(`${h.url}/api/orders`, body, {
      [idempotencyKeyHeader]: `stored-${body.email}`,
    });
    expect(res.status).toBe(201);
    const { Order } = h.service.ctx.models;
    const raw = await Order.collection.findOne<Record<string, unknown>>({ orderNumber: res.body.order.orderNumber });
    expect(raw).not.toBeNull();
    expect(raw!.__v).toBe(0);
    // Hydrating the stored document adds no default and finds nothing invalid.
    const hydrated = new Order(raw);
    await hydrated.validate();
    expect(hydrated.toObject()).toEqual(raw);
    expect(Object.values(raw!).includes(undefined)).toBe(false);
    // The key is kept on the order with its body's fingerprint; nothing goes to the old key collection.
    expect(raw!.idempotencyKey).toBe(`stored-${body.email}`);
    expect(raw!.idempotencyBodyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await h.service.ctx.models.IdempotencyKey.exists({ _id: `stored-${body.email}` })).toBeNull();
  });

  it('uses a new price from the next quote request once content.changed is handled', async () => {
    const estimate = async (email: string) => {
      const res = await postJson<CreateOrderResponse>(`${h.url}/api/orders`, coinOrder({ email }));
      expect(res.status).toBe(201);
      return res.body.order.estimatedTotal;
    };
    // The catalog price (25.99 x 50 less 10 % bulk); this read puts the price list in memory.
    expect(await estimate('price-before@example.com')).toBe(1170);
    const event = createEvent('content.changed', 'marketing', {
      version: 10,
      prices: { coin: 30, patch: 12.99, shirt: 39.99 },
      features: defaultSiteContent.features,
      changedBy: 'admin:ops@shop.local',
      changedAt: new Date().toISOString(),
    });
    const nc = await connect({ servers: h.nats.url });
    try {
      await jetstream(nc).publish('content.changed', JSON.stringify(event), { msgID: event.id });
      // Acked: the consumer committed the change (and forgot the copy) before acking it.
      const jsm = await jetstreamManager(nc);
      await eventually(
        () => jsm.consumers.info('MARKETING', 'orders--content-changed'),
        (info) => info.delivered.stream_seq >= 1 && info.num_pending === 0 && info.num_ack_pending === 0,
      );
    } finally {
      await nc.close();
    }
    // At once, not after the copy's reuse time: 30 x 50 less 10 %.
    expect(await estimate('price-after@example.com')).toBe(1350);
  });
});
