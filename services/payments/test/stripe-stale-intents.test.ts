// Issue 13 through Stripe (the real stripe SDK pointed at the local fake, the REAL orders and marketing
// services): a payment page still holding an intent for the old total (before a discount was applied or
// removed) cannot charge it, because payments cancels it at Stripe (on order.total_changed, and when the
// next Pay makes a new intent); and a payment that Stripe took anyway for another amount than the order's
// total, or for an order already paid, is kept as a refund due and never marks the order paid.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  paymentMessages,
  paymentPaths,
  refundDueMessages,
  refundDueResponseSchema,
  refundsDuePaths,
  refundsDueResponseSchema,
  type AdminOrderResponse,
  type ErrorEnvelope,
} from '@shop/contracts';
import { buildApp as buildMarketing } from '../../marketing/src/app.js';
import { loadConfig as marketingConfig } from '../../marketing/src/config.js';
import { refundDueMessage } from '../src/domain/payment-rules.js';
import {
  admin,
  createIntent,
  eventsOf,
  parseIntent,
  quotedOrder,
  send,
  stripeKeys,
  useHarness,
  verifyPayment,
} from './support/harness.js';

const h = useHarness({ stripe: true });
let marketing: Awaited<ReturnType<typeof buildMarketing>>;
// Only for its offline helper (webhook signatures); it never makes a call.
const stripe = new Stripe('sk_test_helper_only');

beforeAll(async () => {
  marketing = await buildMarketing(
    marketingConfig({ PORT: '0', MONGO_URL: h.mongo.uri, NATS_URL: h.nats.url, LOG_LEVEL: 'silent' }),
  );
  await marketing.start();
});

afterAll(async () => {
  // Bounded: marketing's jobs and consumers are not under test here.
  await Promise.race([marketing?.stop(), new Promise((r) => setTimeout(r, 15_000))]);
});

let seq = 0;
/** A fixed discount code made in marketing, applied to the order by an admin through orders. */
async function applyDiscount(orderId: string, dollars: number) {
  const code = `STALE${++seq}`;
  const created = await marketing.app.inject({
    method: 'POST',
    url: '/api/marketing/discounts',
    headers: admin,
    payload: { code, category: 'general', description: 'x', type: 'fixed', value: dollars },
  });
  expect(created.statusCode, created.body).toBe(201);
  const applied = await send<AdminOrderResponse>(
    'POST',
    `${h.ordersUrl}/api/orders/${orderId}/discount`,
    { discountCode: code, customerCategory: 'general' },
    admin,
  );
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  return applied.body.order;
}

async function deliver(event: Stripe.Event) {
  const payload = JSON.stringify(event);
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: stripeKeys.STRIPE_WEBHOOK_SECRET });
  const res = await fetch(`${h.paymentsUrl}${paymentPaths.webhook}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls until `check` holds (20 s at most); answers the last value. */
async function until<T>(read: () => T | Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  let value = await read();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

const orderDoc = async (id: string) => h.orders.ctx.models.Order.findById(id).lean();
/** An admin marks the refund due of a payment as made (PATCH, as the back office's Mark refunded does). */
const markRefunded = <Body = unknown>(paymentIntentId: string) =>
  send<Body>('PATCH', `${h.paymentsUrl}${refundsDuePaths.markRefunded(paymentIntentId)}`, undefined, admin);

describe('an intent for the old total, at Stripe', () => {
  it('is canceled at Stripe when a discount is applied, so the old page cannot pay it; the new total is paid with a new intent', async () => {
    const order = await quotedOrder(h, 400);
    const old = parseIntent((await createIntent(h, order)).body);
    expect(old.amount).toBe(42500);

    // (400 - 40) x 1.0625 = 382.50: orders announces the new total, payments cancels the old intent.
    expect((await applyDiscount(order.id, 40)).finalAmount).toBe(382.5);
    const canceled = await until(
      () => h.fake.intents.get(old.id)!,
      (i) => i.status === 'canceled',
    );
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    expect(h.fake.requests.some((r) => r.method === 'POST' && r.path === `/v1/payment_intents/${old.id}/cancel`)).toBe(
      true,
    );
    expect(
      await until(
        () => h.payments.ctx.models.PaymentIntent.findById(old.id).lean(),
        (r) => r?.status === 'canceled',
      ),
    ).toMatchObject({ status: 'canceled' });

    // The page opened before the discount tries to pay with Stripe.js: Stripe refuses.
    const stale = h.fake.confirm(old.id);
    expect(stale).toMatchObject({ ok: false, code: 'payment_intent_unexpected_state' });

    const fresh = parseIntent((await createIntent(h, order)).body);
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.amount).toBe(38250);
    const paid = h.fake.confirm(fresh.id);
    expect(paid.ok).toBe(true);
    expect(await deliver(h.fake.event('payment_intent.succeeded', h.fake.intents.get(fresh.id)!))).toMatchObject({
      status: 200,
      body: { outcome: 'payment.succeeded' },
    });
    expect(
      await until(
        () => orderDoc(order.id),
        (o) => o?.payment != null,
      ),
    ).toMatchObject({ status: 'paid', payment: { paymentIntentId: fresh.id, amount: 382.5 } });
  });

  it('is canceled at Stripe when the discount is removed too, and the next Pay at the old figure gets a new intent', async () => {
    const order = await quotedOrder(h, 200);
    await applyDiscount(order.id, 20);
    const discounted = parseIntent((await createIntent(h, order)).body);
    expect(discounted.amount).toBe(19125); // (200 - 20) x 1.0625
    const removed = await send('DELETE', `${h.ordersUrl}/api/orders/${order.id}/discount`, undefined, admin);
    expect(removed.status).toBe(200);
    expect(
      await until(
        () => h.fake.intents.get(discounted.id)!.status,
        (s) => s === 'canceled',
      ),
    ).toBe('canceled');
    expect(h.fake.confirm(discounted.id).ok).toBe(false);
    const full = parseIntent((await createIntent(h, order)).body);
    expect(full).toMatchObject({ amount: 21250, status: 'requires_payment_method' });
  });

  it("is canceled by the next Pay's new intent, even when no event said the total changed", async () => {
    const order = await quotedOrder(h, 100);
    const old = parseIntent((await createIntent(h, order)).body);
    // The total changes behind payments' back (no order.total_changed): only the next Pay can tell.
    await h.orders.ctx.models.Order.updateOne({ _id: order.id }, { $set: { 'quote.finalAmount': 99 } });
    const fresh = parseIntent((await createIntent(h, order)).body);
    expect(fresh.amount).toBe(9900);
    // Canceled before the new intent was handed to the page, not later.
    expect(h.fake.intents.get(old.id)).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    expect(await h.payments.ctx.models.PaymentIntent.findById(old.id).lean()).toMatchObject({ status: 'canceled' });
    expect(h.fake.intents.get(fresh.id)!.status).toBe('requires_payment_method');
  });
});

describe('a payment Stripe took that does not pay the order', () => {
  it('for the old total (the card went through before the cancel): kept as a refund due, the order stays unpaid', async () => {
    const order = await quotedOrder(h, 300);
    const old = parseIntent((await createIntent(h, order)).body);
    expect(old.amount).toBe(31875);
    // The customer pays on the old page a moment before the admin applies the discount.
    expect(h.fake.confirm(old.id).ok).toBe(true);
    expect((await applyDiscount(order.id, 30)).finalAmount).toBe(286.88); // (300 - 30) x 1.0625 = 286.875

    const res = await deliver(h.fake.event('payment_intent.succeeded', h.fake.intents.get(old.id)!));
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe(
      "refund due: $318.75 was charged but the order's total is now $286.88: the total changed after this payment was started.",
    );
    const record = await h.payments.ctx.models.PaymentIntent.findById(old.id).lean();
    expect(record).toMatchObject({ status: 'succeeded', refundDue: { amount: 31875, orderTotal: 28688 } });

    // Nothing told orders it was paid, only the team that a refund is due (once, though Stripe sent the
    // success again under another event id); the payment page's confirmation is refused too.
    const resent = await deliver(h.fake.event('payment_intent.succeeded', h.fake.intents.get(old.id)!));
    expect(resent.body.outcome).toMatch(/^refund due: /);
    const all = await h.paymentEvents((events) => eventsOf(events, old.id).length > 0);
    expect(eventsOf(all, old.id)).toEqual([
      expect.objectContaining({
        type: 'payment.refund_due',
        data: {
          orderId: order.id,
          orderNumber: order.orderNumber,
          paymentIntentId: old.id,
          amount: 31875,
          currency: 'usd',
          orderTotal: 28688,
          reason:
            "$318.75 was charged but the order's total is now $286.88: the total changed after this payment was started.",
          recordedAt: expect.any(String) as unknown,
        },
      }),
    ]);
    const verify = await verifyPayment(h, order.id, old.id);
    expect(verify.verified).toBe(false);
    expect(verify.reason).toContain(refundDueMessage);
    const patch = await send<ErrorEnvelope>('PATCH', `${h.ordersUrl}/api/orders/${order.id}/status`, {
      status: 'paid',
      paymentIntentId: old.id,
      notes: 'Payment completed via Stripe',
    });
    expect(patch.body.error).toBe(paymentMessages.paymentNotVerified);
    expect(await orderDoc(order.id)).toMatchObject({ status: 'quote_sent', payment: null });

    // The team's list of refunds to make.
    const listed = await send('GET', `${h.paymentsUrl}${refundsDuePaths.list}`, undefined, admin);
    expect(listed.status).toBe(200);
    expect(
      refundsDueResponseSchema.parse(listed.body).refundsDue.find((r) => r.paymentIntentId === old.id),
    ).toMatchObject({
      provider: 'stripe',
      orderId: order.id,
      orderNumber: order.orderNumber,
      amount: 318.75,
      orderTotal: 286.88,
    });

    // The customer can still pay the new total, which pays the order.
    const fresh = parseIntent((await createIntent(h, order)).body);
    expect(fresh.amount).toBe(28688);
    h.fake.confirm(fresh.id);
    expect((await deliver(h.fake.event('payment_intent.succeeded', h.fake.intents.get(fresh.id)!))).body.outcome).toBe(
      'payment.succeeded',
    );
    expect(
      await until(
        () => orderDoc(order.id),
        (o) => o?.payment != null,
      ),
    ).toMatchObject({ status: 'paid', payment: { paymentIntentId: fresh.id, amount: 286.88 } });

    // A second payment for the order now paid (another tab, the right amount): also a refund due.
    const second = h.fake.addIntent({
      amount: 28688,
      status: 'succeeded',
      amount_received: 28688,
      metadata: { orderId: order.id, orderNumber: order.orderNumber },
    });
    const twice = await deliver(h.fake.event('payment_intent.succeeded', second));
    expect(twice.body.outcome).toBe(`refund due: The order was already paid with another payment (${fresh.id}).`);
    expect(await h.payments.ctx.models.PaymentIntent.findById(second.id).lean()).toMatchObject({
      provider: 'stripe',
      orderId: order.id,
      refundDue: { amount: 28688, orderTotal: null },
    });
    expect((await orderDoc(order.id))?.payment?.paymentIntentId).toBe(fresh.id);

    // The team refunds the first in Stripe's dashboard and marks it refunded: it leaves the open list,
    // records who, and a second mark (another admin at the same time) is refused.
    const mark = await markRefunded(old.id);
    expect(mark.status, JSON.stringify(mark.body)).toBe(200);
    expect(refundDueResponseSchema.parse(mark.body).refundDue).toMatchObject({
      paymentIntentId: old.id,
      refundedBy: 'admin:boss@shop.test',
    });
    const again = await markRefunded<ErrorEnvelope>(old.id);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(refundDueMessages.alreadyRefunded);
    const unknown = await markRefunded<ErrorEnvelope>(fresh.id);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(refundDueMessages.notFound);
    const listOf = async (state: string) =>
      refundsDueResponseSchema
        .parse((await send('GET', `${h.paymentsUrl}${refundsDuePaths.list}?state=${state}`, undefined, admin)).body)
        .refundsDue.map((r) => r.paymentIntentId);
    expect(await listOf('open')).toContain(second.id);
    expect(await listOf('open')).not.toContain(old.id);
    expect(await listOf('refunded')).toEqual([old.id]);
    expect(await listOf('all')).toEqual(expect.arrayContaining([old.id, second.id]));
    const badState = await send('GET', `${h.paymentsUrl}${refundsDuePaths.list}?state=maybe`, undefined, admin);
    expect(badState.status).toBe(400);
  });
});
