// Quote payment, the orders side, over real HTTP and a real nats-server with the embedded MongoDB: the
// quote payments asks for over NATS, the public payment view, the payment confirmation (verified with a
// stand-in for the payments service's reply) and payment.succeeded, each marking the order paid once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { AppError, durableName } from '@shop/service-kit';
import {
  adminOrderResponseSchema,
  createEvent,
  orderPaymentQuoteSchema,
  orderPaymentQuoteSubject,
  orderPaymentViewResponseSchema,
  orderPaymentViewSchema,
  type EventData,
  type CreateOrderResponse,
  type Failure,
  type OrderPaymentView,
} from '@shop/contracts';
import { coinOrder, eventually, orderEventsReader, postJson, startHarness, type Harness } from './helpers.js';
import { adminHeaders } from '@shop/service-kit/testing';

let h: Harness;
let nc: NatsConnection;
let readEvents: Awaited<ReturnType<typeof orderEventsReader>>;
const admin = adminHeaders('boss@shop.test');

beforeAll(async () => {
  h = await startHarness();
  nc = await connect({ servers: h.nats.url });
  readEvents = await orderEventsReader(nc, 'payment-test');
}, 60_000);

afterAll(async () => {
  await nc?.close();
  await h?.stop();
});

/** The payment view is answered as { success, order }. */
type PaymentViewAnswer = { success: true; order: OrderPaymentView };

/** A public call; the body typed as the caller says the route answers (unknown unless told). */
async function call<Body = unknown>(method: 'GET' | 'PATCH', path: string, body?: unknown) {
  const res = await fetch(`${h.url}${path}`, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Body };
}
const confirm = <Body = unknown>(id: string, body: unknown) => call<Body>('PATCH', `/api/orders/${id}/status`, body);
const stored = async (id: string) => (await h.service.ctx.models.Order.findById(id).lean())!;

/** The stand-in provider's word on an intent: succeeded for `orderId` and `cents`. */
function succeeded(paymentIntentId: string, orderId: string, cents: number) {
  h.payments.verified.set(paymentIntentId, {
    verified: true,
    paymentIntentId,
    orderId,
    amount: cents,
    status: 'succeeded',
    provider: 'test_mode',
    paidAt: '2026-11-22T10:15:00.000Z',
  });
}

/** A new order with a quote sent: shipped to TX (6.25% in the stand-in table). */
async function quotedOrder(quoteAmount = 1000, overrides: Parameters<typeof coinOrder>[0] = {}) {
  const created = await postJson<CreateOrderResponse>(`${h.url}/api/orders`, coinOrder(overrides));
  expect(created.status).toBe(201);
  const id = created.body.order.id;
  const quote = await postJson(`${h.url}/api/orders/${id}/generate-quote`, { quoteAmount }, admin);
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  return { id, orderNumber: created.body.order.orderNumber };
}

const askQuote = (orderId: string) =>
  h.service.ctx.bus.request(orderPaymentQuoteSubject, { orderId }, { schema: orderPaymentQuoteSchema });

describe('the quote payments asks for (NATS)', () => {
  it('answers the quote with tax and expiry, no payment yet', async () => {
    const { id, orderNumber } = await quotedOrder(1000);
    const quote = await askQuote(id);
    expect(quote).toMatchObject({
      orderId: id,
      orderNumber,
      customerName: 'Jane Doe',
      email: 'jane.doe@example.com',
      status: 'quote_sent',
      payment: null,
    });
    expect(quote.quote).toMatchObject({
      amount: 1000,
      discountAmount: 0,
      taxRate: 0.0625,
      taxAmount: 62.5,
      finalAmount: 1062.5,
    });
    const validDays = (Date.parse(quote.quote!.expiresAt) - Date.now()) / (24 * 60 * 60 * 1000);
    expect(validDays).toBeGreaterThan(29.9);
    expect(validDays).toBeLessThanOrEqual(30);
  });

  it('an order without a quote answers quote null; an unknown order is refused with 404', async () => {
    const created = await postJson<CreateOrderResponse>(`${h.url}/api/orders`, coinOrder());
    expect((await askQuote(created.body.order.id)).quote).toBeNull();
    const refusal = await askQuote('0123456789abcdef01234567').catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ statusCode: 404, message: 'Order not found' });
  });
});

describe('the public payment view', () => {
  it('shows only what the payment page needs', async () => {
    const { id, orderNumber } = await quotedOrder(1000);
    const res = await call<PaymentViewAnswer>('GET', `/api/orders/${id}`);
    expect(res.status).toBe(200);
    const view = orderPaymentViewResponseSchema.parse(res.body).order;
    expect(view).toMatchObject({
      id,
      orderNumber,
      customerName: 'Jane Doe',
      itemType: 'coin',
      quantity: 50,
      status: 'quote_sent',
      quoteAmount: 1000,
      discountAmount: 0,
      taxRate: 0.0625,
      taxAmount: 62.5,
      finalAmount: 1062.5,
    });
    expect(Date.parse(view.quoteExpiresAt!)).toBeGreaterThan(Date.now());
    // Nothing beyond the view's fields: no email, address, files or history.
    const allowed = Object.keys(orderPaymentViewSchema.shape);
    expect(Object.keys(res.body.order).filter((k) => !allowed.includes(k))).toEqual([]);
    expect(JSON.stringify(res.body)).not.toContain('jane.doe@example.com');
  });

  it('an unknown id is "Order not found"; a segment that cannot be an id is no route', async () => {
    const res = await call('GET', '/api/orders/0123456789abcdef01234567');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: 'Order not found' });
    for (const id of ['o1', 'ZZZZ56789abcdef012345678', '%24where', '0123456789ABCDEF01234567']) {
      const bad = await call('GET', `/api/orders/${id}`);
      expect(bad.status, id).toBe(404);
      expect(bad.body).toMatchObject({ code: 'NOT_FOUND', error: `No route for GET /api/orders/${id}` });
      expect((await confirm(id, { status: 'paid', paymentIntentId: 'pi_x' })).status, id).toBe(404);
    }
  });
});

describe('the payment confirmation (PATCH status)', () => {
  it('refuses any other status, a missing intent, and intents the provider does not confirm for this order and amount', async () => {
    const { id } = await quotedOrder(1000);
    const other = await quotedOrder(500);
    for (const status of ['completed', 'shipped', 'cancelled', 'in_progress']) {
      const res = await confirm<Failure>(id, { status, paymentIntentId: 'pi_x' });
      expect(res.status, status).toBe(403);
      expect(res.body.error).toBe('Only a verified payment can change the status of an order here.');
    }
    const missing = await confirm<Failure>(id, { status: 'paid' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('paymentIntentId is required to mark an order paid.');

    const unknown = await confirm<Failure>(id, { status: 'paid', paymentIntentId: 'pi_unknown' });
    expect(unknown.status).toBe(402);
    expect(unknown.body.error).toBe('The payment could not be verified for this order.');
    h.payments.verified.set('pi_failed', {
      verified: false,
      paymentIntentId: 'pi_failed',
      orderId: id,
      amount: 106250,
      status: 'requires_payment_method',
      provider: 'test_mode',
      reason: 'card declined',
    });
    expect((await confirm(id, { status: 'paid', paymentIntentId: 'pi_failed' })).status).toBe(402);
    succeeded('pi_other_order', other.id, 53125);
    const wrongOrder = await confirm<Failure>(id, { status: 'paid', paymentIntentId: 'pi_other_order' });
    expect(wrongOrder.status).toBe(409);
    expect(wrongOrder.body.error).toBe('The payment could not be verified for this order.');
    succeeded('pi_wrong_amount', id, 100000);
    expect((await confirm(id, { status: 'paid', paymentIntentId: 'pi_wrong_amount' })).status).toBe(409);

    // Payments not answering: 503, and the customer is told not to pay again.
    succeeded('pi_later', id, 106250);
    await h.payments.answering('verify', false);
    try {
      const down = await confirm<Failure>(id, { status: 'paid', paymentIntentId: 'pi_later' });
      expect(down.status).toBe(503);
      expect(down.body.error).toMatch(/could not be checked right now.*please do not pay again/);
    } finally {
      await h.payments.answering('verify', true);
    }

    const order = await stored(id);
    expect(order).toMatchObject({ status: 'quote_sent', payment: null });
    expect(order.statusHistory.map((e) => e.status)).toEqual(['pending_quote', 'quote_sent']);
    expect(h.payments.verifyRequests).toContainEqual({ orderId: id, paymentIntentId: 'pi_other_order' });
  });

  it('a verified intent marks the order paid once; the same intent again is fine, another is refused', async () => {
    const { id, orderNumber } = await quotedOrder(1000);
    succeeded('pi_good', id, 106250);
    const res = await confirm(id, { status: 'paid', paymentIntentId: 'pi_good', notes: 'Payment completed' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(orderPaymentViewResponseSchema.parse(res.body).order).toMatchObject({
      id,
      status: 'paid',
      paidAt: '2026-11-22T10:15:00.000Z',
    });

    const again = await confirm<PaymentViewAnswer>(id, { status: 'paid', paymentIntentId: 'pi_good' });
    expect(again.status).toBe(200);
    expect(again.body.order.status).toBe('paid');
    succeeded('pi_second', id, 106250);
    const second = await confirm<Failure>(id, { status: 'paid', paymentIntentId: 'pi_second' });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('This order has already been paid.');

    const order = await stored(id);
    expect(order.payment).toEqual({
      paymentIntentId: 'pi_good',
      paidAt: new Date('2026-11-22T10:15:00.000Z'),
      amount: 1062.5,
      provider: 'test_mode',
    });
    const paid = order.statusHistory.filter((e) => e.status === 'paid');
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      changedBy: 'payment:test_mode',
      note: 'Payment received on Nov 22, 2026 (payment intent pi_good)',
    });
    const receipts = order.emailHistory!.filter((e) => e.subject === `Payment received for order #${orderNumber}`);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ status: 'queued', to: 'jane.doe@example.com', type: 'status_update' });

    // The back office's details view shows the payment and the quote's tax.
    const detail = adminOrderResponseSchema.parse(
      await (await fetch(`${h.url}/api/orders/${id}/details`, { headers: admin })).json(),
    ).order;
    expect(detail.payment).toEqual({
      paymentIntentId: 'pi_good',
      paidAt: '2026-11-22T10:15:00.000Z',
      amount: 1062.5,
      provider: 'test_mode',
    });
    expect(detail.quote).toMatchObject({
      taxRate: 0.0625,
      taxBasis: 'TX state sales tax',
      taxAmount: 62.5,
      finalAmount: 1062.5,
    });

    const all = await readEvents((e) =>
      e.some((x) => x.type === 'order.paid' && (x.data as { orderId: string }).orderId === id),
    );
    const paidEvents = all.filter((x) => x.type === 'order.paid' && (x.data as { orderId: string }).orderId === id);
    expect(paidEvents).toHaveLength(1);
    expect(paidEvents[0].data).toMatchObject({
      orderNumber,
      email: 'jane.doe@example.com',
      quantity: 50,
      amount: 1062.5,
      quoteAmount: 1000,
      taxAmount: 62.5,
      paymentIntentId: 'pi_good',
      provider: 'test_mode',
      paidAt: '2026-11-22T10:15:00.000Z',
      emailRecordId: receipts[0].id,
    });
    // Status followers hear of it too, but the customer's one email is the receipt: no emailRecordId here.
    const changes = all.filter(
      (x) => x.type === 'order.status_changed' && (x.data as { orderId: string }).orderId === id,
    );
    expect(changes).toHaveLength(1);
    expect(changes[0].data).toMatchObject({
      previousStatus: 'quote_sent',
      status: 'paid',
      changedBy: 'payment:test_mode',
      total: 1062.5,
    });
    expect(changes[0].data).not.toHaveProperty('emailRecordId');
  });
});

describe('payment.succeeded from the provider', () => {
  async function publish(data: EventData<'payment.succeeded'>, times: number, id?: string) {
    const event = createEvent('payment.succeeded', 'payments', data);
    const envelope = id ? { ...event, id } : event;
    for (let i = 0; i < times; i++)
      await jetstream(nc).publish('payment.succeeded', JSON.stringify(envelope), { msgID: `${envelope.id}-${i}` });
    return envelope;
  }

  /** Every payment.succeeded published so far has been handled by the orders service. */
  async function handled() {
    const jsm = await jetstreamManager(nc);
    const info = await eventually(
      () => jsm.consumers.info('PAYMENTS', durableName('orders', 'payment.succeeded')),
      (i) => i.num_pending === 0 && i.num_ack_pending === 0,
    );
    expect(info.num_pending + info.num_ack_pending).toBe(0);
  }

  it('marks the order paid once however often it comes, and the page confirming afterwards changes nothing', async () => {
    const { id, orderNumber } = await quotedOrder(1000);
    const data: EventData<'payment.succeeded'> = {
      orderId: id,
      orderNumber,
      paymentIntentId: 'pi_hook',
      amount: 106250,
      currency: 'usd',
      provider: 'stripe',
      paidAt: '2026-11-21T23:59:00.000Z',
    };
    await publish(data, 2);
    await publish(data, 1);
    await handled();
    const order = await stored(id);
    expect(order.status).toBe('paid');
    expect(order.payment).toMatchObject({ paymentIntentId: 'pi_hook', amount: 1062.5, provider: 'stripe' });
    succeeded('pi_hook', id, 106250);
    const before = h.payments.verifyRequests.length;
    expect((await confirm(id, { status: 'paid', paymentIntentId: 'pi_hook' })).status).toBe(200);
    // Already recorded with this intent: the provider is not asked again.
    expect(h.payments.verifyRequests.length).toBe(before);

    const all = await readEvents(
      (e) => e.filter((x) => x.type === 'order.paid' && (x.data as { orderId: string }).orderId === id).length >= 1,
    );
    expect(all.filter((x) => x.type === 'order.paid' && (x.data as { orderId: string }).orderId === id)).toHaveLength(
      1,
    );
    const after = await stored(id);
    expect(after.statusHistory.filter((e) => e.status === 'paid')).toEqual([
      expect.objectContaining({
        changedBy: 'payment:stripe',
        note: 'Payment received on Nov 21, 2026 (payment intent pi_hook)',
      }),
    ]);
    expect(after.emailHistory!.filter((e) => e.subject.startsWith('Payment received'))).toHaveLength(1);
  });

  it('an amount other than the quote total is still recorded, with a note saying so', async () => {
    const { id, orderNumber } = await quotedOrder(1000);
    await publish(
      {
        orderId: id,
        orderNumber,
        paymentIntentId: 'pi_odd',
        amount: 100000,
        currency: 'usd',
        provider: 'stripe',
        paidAt: '2026-11-22T08:00:00.000Z',
      },
      1,
    );
    const order = await eventually(
      () => stored(id),
      (o) => o.status === 'paid',
    );
    expect(order.payment).toMatchObject({ paymentIntentId: 'pi_odd', amount: 1000 });
    expect(order.statusHistory.at(-1)!.note).toBe(
      'Payment received on Nov 22, 2026 (payment intent pi_odd). Amount charged $1,000.00 differs from the quote total $1,062.50.',
    );
  });
});
