// Apply Discount end to end across two real services: orders (with the stand-in payments tax table:
// TX 6.25%) and the real marketing service (redeem / give back over NATS), on one embedded MongoDB and
// one real nats-server. Money: quote or estimate, 2 decimals, never negative, tax on the discounted
// amount, paid orders frozen; the customer sees the discount on /track and the payment view.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  orderPaymentQuoteSchema,
  orderPaymentQuoteSubject,
  type AdminOrderResponse,
  type CreateOrderResponse,
  type DiscountCode,
  type DiscountCreate,
  type DiscountListResponse,
  type DiscountResponse,
  type ErrorEnvelope,
  type OrderPaymentView,
  type TrackResponse,
} from '@shop/contracts';
import { buildApp as buildMarketing } from '../../marketing/src/app.js';
import { loadConfig as marketingConfig } from '../../marketing/src/config.js';
import { discountEmailMessage, discountOn, quoteWithDiscount, totalAfter } from '../src/domain/discount.js';
import { coinOrder, orderEventsReader, postJson, startHarness, type Harness } from './helpers.js';
import { adminHeaders } from '@shop/service-kit/testing';

// Admin calls come from the gateway: signed identity headers (a fresh token each time they are read).
const admin = adminHeaders('ops@shop.local');

let h: Harness;
let marketing: Awaited<ReturnType<typeof buildMarketing>>;
let nc: NatsConnection;
let readEvents: Awaited<ReturnType<typeof orderEventsReader>>;

beforeAll(async () => {
  h = await startHarness();
  marketing = await buildMarketing(
    marketingConfig({ PORT: '0', MONGO_URL: h.mongo.uri, NATS_URL: h.nats.url, LOG_LEVEL: 'silent' }),
  );
  await marketing.start();
  nc = await connect({ servers: h.nats.url });
  readEvents = await orderEventsReader(nc, 'discounts-test');
});

afterAll(async () => {
  // Marketing's stop is bounded: its other parts (jobs, order-event consumers) are not what this file
  // tests, and a slow stop there must not hide these results. Stopping NATS and MongoDB ends it anyway.
  const stopped = await Promise.race([
    marketing?.stop().then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 15_000)),
  ]);
  if (!stopped) process.stderr.write('marketing did not stop within 15 s\n');
  await nc?.close();
  await h?.stop();
});

let seq = 0;
async function code(overrides: Partial<DiscountCreate> = {}): Promise<DiscountCode> {
  const res = await marketing.app.inject({
    method: 'POST',
    url: '/api/marketing/discounts',
    headers: admin,
    payload: {
      code: `ORD${++seq}`,
      category: 'general',
      description: 'test',
      type: 'percentage',
      value: 10,
      ...overrides,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<DiscountResponse>().discount;
}
const usedCount = async (id: string) => {
  const res = await marketing.app.inject({ method: 'GET', url: '/api/marketing/discounts', headers: admin });
  return res.json<DiscountListResponse>().discounts.find((d) => d.id === id)!.usedCount;
};

/** An admin call; the body typed as the caller says the route answers (unknown unless told). */
async function send<Body = unknown>(method: 'POST' | 'DELETE' | 'GET', path: string, body?: unknown) {
  const res = await fetch(`${h.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...admin },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Body };
}
/** Apply Discount; answered with the order's details (AdminOrderResponse), or an error envelope. */
const apply = <Body = unknown>(id: string, discountCode: string, customerCategory = 'general') =>
  send<Body>('POST', `/api/orders/${id}/discount`, { discountCode, customerCategory });
const remove = <Body = unknown>(id: string) => send<Body>('DELETE', `/api/orders/${id}/discount`);

async function newOrder(overrides = {}): Promise<{ id: string; orderNumber: string; estimatedTotal: number }> {
  const res = await postJson<CreateOrderResponse>(`${h.url}/api/orders`, coinOrder(overrides));
  expect(res.status).toBe(201);
  return res.body.order;
}
async function quoted(amount: number) {
  const order = await newOrder();
  const res = await send('POST', `/api/orders/${order.id}/generate-quote`, { quoteAmount: amount, sendEmail: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return order;
}

describe('apply and remove a discount', () => {
  it('discounts the quote: tax on the discounted amount; the payment view, /track and payments see it; the customer is emailed', async () => {
    const order = await quoted(1000);
    const c = await code({ code: 'SALUTE150', category: 'military', type: 'fixed', value: 150 });
    const res = await apply<AdminOrderResponse>(order.id, 'salute150', 'military');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const detail = res.body.order;
    expect(detail).toMatchObject({ discountCode: 'SALUTE150', discountAmount: 150 });
    // (1000 - 150) x 6.25% = 53.125 -> 53.13; 850 + 53.13 = 903.13
    expect(detail.quote).toMatchObject({ amount: 1000, taxAmount: 53.13, finalAmount: 903.13 });
    expect(detail.finalAmount).toBe(903.13);
    expect(await usedCount(c.id)).toBe(1);

    const view = await send<{ order: OrderPaymentView }>('GET', `/api/orders/${order.id}`);
    expect(view.body.order).toMatchObject({
      quoteAmount: 1000,
      discountAmount: 150,
      taxAmount: 53.13,
      finalAmount: 903.13,
    });
    const tracked = await postJson<TrackResponse>(`${h.url}/api/orders/track`, {
      orderNumber: order.orderNumber,
      email: 'jane.doe@example.com',
    });
    expect(tracked.body.order).toMatchObject({ discountCode: 'SALUTE150', discountAmount: 150, finalAmount: 903.13 });
    const quote = await h.service.ctx.bus.request(
      orderPaymentQuoteSubject,
      { orderId: order.id },
      { schema: orderPaymentQuoteSchema },
    );
    expect(quote.quote).toMatchObject({ discountAmount: 150, finalAmount: 903.13 });

    const mail = detail.emailHistory.find(
      (e) => e.subject === `A discount was applied to your order #${order.orderNumber}`,
    );
    expect(mail?.status).toBe('queued');
    expect(mail?.preview).toContain('$150.00');
    expect(mail?.preview).toContain('$903.13');

    // The same apply again (a retry): same figures, no second use, no second email.
    const again = await apply<AdminOrderResponse>(order.id, 'SALUTE150', 'military');
    expect(again.status).toBe(200);
    expect(await usedCount(c.id)).toBe(1);
    expect(again.body.order.emailHistory.filter((e) => e.subject.startsWith('A discount was applied'))).toHaveLength(1);

    // Removing gives the use back and the quote its full price; removing twice is refused.
    const removed = await remove<AdminOrderResponse>(order.id);
    expect(removed.status).toBe(200);
    expect(removed.body.order).toMatchObject({ discountCode: null, discountAmount: 0 });
    expect(removed.body.order.quote).toMatchObject({ taxAmount: 62.5, finalAmount: 1062.5 });
    expect(await usedCount(c.id)).toBe(0);
    const twice = await remove<ErrorEnvelope>(order.id);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('This order has no discount to remove.');
  });

  it('a percentage before the quote discounts the estimate, then follows the quoted amount', async () => {
    const order = await newOrder();
    await code({ code: 'PCT15', type: 'percentage', value: 15 });
    const before = await apply<AdminOrderResponse>(order.id, 'PCT15');
    expect(before.status).toBe(200);
    expect(before.body.order.discountAmount).toBe(Math.round(order.estimatedTotal * 15) / 100);
    expect(before.body.order.quote).toBeNull();
    const q = await send<AdminOrderResponse>('POST', `/api/orders/${order.id}/generate-quote`, {
      quoteAmount: 333.33,
    });
    // 15% of 333.33 = 50.00; (333.33 - 50) x 6.25% = 17.708 -> 17.71; total 301.04
    expect(q.body.order).toMatchObject({ discountAmount: 50, finalAmount: 301.04 });
  });

  it('a fixed discount larger than the quote makes the total 0, never negative', async () => {
    const order = await quoted(80);
    await code({ code: 'BIG500', type: 'fixed', value: 500 });
    const res = await apply<AdminOrderResponse>(order.id, 'BIG500');
    expect(res.body.order).toMatchObject({ discountAmount: 80, finalAmount: 0 });
    expect(res.body.order.quote?.taxAmount).toBe(0);
  });

  it('replacing a code gives the old one its use back', async () => {
    const order = await quoted(200);
    const first = await code({ code: 'FIRST5', type: 'fixed', value: 5 });
    const second = await code({ code: 'SECOND10', type: 'fixed', value: 10 });
    await apply(order.id, 'FIRST5');
    const res = await apply<AdminOrderResponse>(order.id, 'SECOND10');
    expect(res.body.order).toMatchObject({ discountCode: 'SECOND10', discountAmount: 10 });
    expect(await usedCount(first.id)).toBe(0);
    expect(await usedCount(second.id)).toBe(1);
  });

  it("passes marketing's refusals on in their own words", async () => {
    const order = await quoted(100);
    await code({ code: 'RESPOND', category: 'first_responder' });
    const wrong = await apply<ErrorEnvelope>(order.id, 'RESPOND', 'military');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'This discount code is not offered to Military Personnel' });
    const unknown = await apply<ErrorEnvelope>(order.id, 'NOSUCH');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Discount code not found');
    await code({ code: 'MIN500', minOrder: 500 });
    expect((await apply<ErrorEnvelope>(order.id, 'MIN500')).body.error).toBe(
      'This discount code needs an order of at least $500.00',
    );
    const once = await code({ code: 'ONCE', maxUses: 1 });
    expect((await apply(order.id, 'ONCE')).status).toBe(200);
    const other = await quoted(100);
    const usedUp = await apply<ErrorEnvelope>(other.id, 'ONCE');
    expect(usedUp.status).toBe(409);
    expect(usedUp.body.error).toBe('This discount code has reached its maximum uses');
    expect(await usedCount(once.id)).toBe(1);
    expect((await apply(order.id, '')).status).toBe(400);
    expect((await apply('0123456789abcdef01234567', 'ONCE')).status).toBe(404);
  });

  it('a paid order can neither get nor lose a discount', async () => {
    const order = await quoted(300);
    await code({ code: 'PAIDTEST', type: 'fixed', value: 20 });
    expect((await apply(order.id, 'PAIDTEST')).status).toBe(200);
    await h.service.ctx.models.Order.updateOne(
      { _id: order.id },
      {
        $set: {
          status: 'paid',
          payment: { paymentIntentId: 'pi_test', paidAt: new Date(), amount: 298.75, provider: 'test_mode' },
        },
      },
    );
    const add = await apply<ErrorEnvelope>(order.id, 'PAIDTEST');
    expect(add.status).toBe(409);
    expect(add.body.error).toBe('This order has already been paid: its discount cannot change.');
    expect((await remove(order.id)).status).toBe(409);
  });

  it('says so when marketing does not answer, and changes nothing', async () => {
    const order = await quoted(100);
    await marketing.stop();
    try {
      const res = await apply<ErrorEnvelope>(order.id, 'ANY');
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('Discount codes cannot be checked right now. Please try again in a moment.');
      expect(
        (await send<AdminOrderResponse>('GET', `/api/orders/${order.id}/details`)).body.order.discountCode,
      ).toBeNull();
    } finally {
      marketing = await buildMarketing(
        marketingConfig({ PORT: '0', MONGO_URL: h.mongo.uri, NATS_URL: h.nats.url, LOG_LEVEL: 'silent' }),
      );
      await marketing.start();
    }
  });
});

describe('what a discount tells and keeps', () => {
  const totalChanges = async (orderId: string, count: number) =>
    (
      await readEvents(
        (all) =>
          all.filter((e) => e.type === 'order.total_changed' && (e.data as { orderId: string }).orderId === orderId)
            .length >= count,
      )
    )
      .filter((e) => e.type === 'order.total_changed' && (e.data as { orderId: string }).orderId === orderId)
      .map((e) => e.data);

  it('announces each new quote total (order.total_changed) so payments cancels intents for the old one; not a retry, not before a quote', async () => {
    const order = await quoted(400);
    await code({ code: 'TOTAL40', type: 'fixed', value: 40 });
    expect((await apply(order.id, 'TOTAL40')).status).toBe(200);
    expect((await apply(order.id, 'TOTAL40')).status).toBe(200); // a retry: same total
    expect((await remove(order.id)).status).toBe(200);
    const changes = await totalChanges(order.id, 2);
    // (400 - 40) x 1.0625 = 382.50, then back to 425.00.
    expect(changes).toEqual([
      expect.objectContaining({
        orderNumber: order.orderNumber,
        finalAmount: 382.5,
        discountCode: 'TOTAL40',
        discountAmount: 40,
        reason: 'discount_applied',
        changedBy: 'admin:ops@shop.local',
      }),
      expect.objectContaining({ finalAmount: 425, discountCode: null, discountAmount: 0, reason: 'discount_removed' }),
    ]);

    // Before a quote: the discount email goes out (same transaction as any total change would), no total change.
    const unquoted = await newOrder();
    expect((await apply(unquoted.id, 'TOTAL40')).status).toBe(200);
    const events = await readEvents((all) =>
      all.some((e) => e.type === 'order.email_requested' && (e.data as { orderId: string }).orderId === unquoted.id),
    );
    expect(
      events.some((e) => e.type === 'order.email_requested' && (e.data as { orderId: string }).orderId === unquoted.id),
    ).toBe(true);
    expect(
      events.filter((e) => e.type === 'order.total_changed' && (e.data as { orderId: string }).orderId === unquoted.id),
    ).toEqual([]);
  });

  it("keeps the category chosen in the modal with the discount, never as the order's own category", async () => {
    const order = await quoted(500);
    await code({ code: 'RANKS25', category: 'military', type: 'fixed', value: 25 });
    const res = await apply<AdminOrderResponse>(order.id, 'RANKS25', 'military');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.order).toMatchObject({
      customerCategory: 'general',
      discountCode: 'RANKS25',
      discountCategory: 'military',
      taxExempt: false,
    });
    const stored = await h.service.ctx.models.Order.findById(order.id).lean();
    expect(stored).toMatchObject({
      customerCategory: 'general',
      taxExempt: false,
      discount: { code: 'RANKS25', customerCategory: 'military' },
    });
    // The quote's tax still follows the order (a general customer in TX), on the discounted amount.
    expect(stored?.quote).toMatchObject({ taxRate: 0.0625, finalAmount: 504.69 }); // (500 - 25) x 1.0625 = 504.6875
    const removed = await remove<AdminOrderResponse>(order.id);
    expect(removed.body.order).toMatchObject({ customerCategory: 'general', discountCategory: null });
  });
});

describe('discount money rules', () => {
  it('recomputes a held discount on a new amount and the totals after it', () => {
    expect(discountOn({ amount: 10, type: 'percentage', value: 10 }, 250)).toBe(25);
    expect(discountOn({ amount: 100, type: 'fixed', value: 100 }, 40)).toBe(40);
    expect(discountOn(null, 40)).toBe(0);
    const quote = {
      amount: 100,
      taxRate: 0.0625,
      taxAmount: 6.25,
      finalAmount: 106.25,
      expiresAt: new Date(),
      sentAt: new Date(),
    };
    expect(quoteWithDiscount(quote, 33.33)).toMatchObject({ taxAmount: 4.17, finalAmount: 70.84 });
    expect(totalAfter({ quote: null, estimatedTotal: 50 }, 80)).toBe(0);
    expect(discountEmailMessage({ quote: null, estimatedTotal: 1200 }, 'X', 120)).toBe(
      'Good news: the discount code X takes $120.00 off your order. Your new estimated total is $1,080.00.',
    );
  });
});
