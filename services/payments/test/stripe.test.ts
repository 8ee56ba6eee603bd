// The Stripe code path with the real stripe SDK pointed at a local fake of Stripe's HTTP API, webhook
// signatures made with the SDK's own test-header helper, the REAL orders service in process, the
// embedded MongoDB and a real nats-server: intents at Stripe for the server's amount (one per order and
// amount), verification through paymentIntents.retrieve, the webhook refusing bad signatures with nothing
// recorded and turning each Stripe event into one payment event, and the orders side: the same event
// twice marks the order paid once, and the payment page's PATCH is accepted only for a verified intent.
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  paymentConfigResponseSchema,
  paymentMessages,
  paymentPaths,
  type AdminOrderResponse,
  type CreateIntentResponse,
  type ErrorEnvelope,
} from '@shop/contracts';
import { testModeOffMessage } from '../src/domain/payment-rules.js';
import {
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
// Only for its offline helpers (signatures); it never makes a call.
const stripe = new Stripe('sk_test_helper_only');

/** Posts a webhook the way Stripe does: the raw JSON and a signature over exactly those bytes. */
async function deliver(
  event: Stripe.Event | Record<string, unknown>,
  secret: string = stripeKeys.STRIPE_WEBHOOK_SECRET,
  signature?: string,
) {
  const payload = JSON.stringify(event, null, 2);
  const header = signature ?? stripe.webhooks.generateTestHeaderString({ payload, secret });
  const res = await fetch(`${h.paymentsUrl}${paymentPaths.webhook}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

type OrderLean = NonNullable<Awaited<ReturnType<typeof findOrder>>>;
const findOrder = (orderId: string) => h.orders.ctx.models.Order.findById(orderId).lean();

/** Polls the order in the orders service's database until `check` holds (or 20 s pass). */
async function orderWhen(orderId: string, check: (order: OrderLean | null) => boolean) {
  const deadline = Date.now() + 20_000;
  let order = await findOrder(orderId);
  while (!check(order) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    order = await findOrder(orderId);
  }
  return order;
}

describe('Stripe mode', () => {
  it("gives the page Stripe's publishable key", async () => {
    const res = await send('GET', `${h.paymentsUrl}${paymentPaths.config}`);
    expect(paymentConfigResponseSchema.parse(res.body)).toEqual({
      success: true,
      mode: 'stripe',
      publishableKey: stripeKeys.STRIPE_PUBLISHABLE_KEY,
    });
  });

  it('has no test-mode confirmation', async () => {
    const res = await send('POST', `${h.paymentsUrl}${paymentPaths.testModeConfirm}`, {
      paymentIntentId: 'pi_x',
      clientSecret: 'pi_x_secret_y',
      card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' },
    });
    expect(res).toMatchObject({ status: 404, body: { error: testModeOffMessage } });
  });
});

describe('create-intent through Stripe', () => {
  it("creates the intent at Stripe for the server's amount, with the order in its metadata and one idempotency key", async () => {
    const order = await quotedOrder(h, 100);
    const before = h.fake.requests.length;
    const res = await createIntent<CreateIntentResponse>(h, order, 1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const intent = parseIntent(res.body);
    expect(res.body.mode).toBe('stripe');
    expect(intent).toMatchObject({ amount: 10625, currency: 'usd', status: 'requires_payment_method' });
    expect(intent.client_secret).toBe(h.fake.intents.get(intent.id)!.client_secret);

    const [call, ...others] = h.fake.requests.slice(before);
    expect(others).toEqual([]);
    expect(call).toMatchObject({
      method: 'POST',
      path: '/v1/payment_intents',
      authorization: `Bearer ${stripeKeys.STRIPE_SECRET_KEY}`,
      idempotencyKey: `order:${order.id}:amount:10625`,
      body: {
        amount: '10625',
        currency: 'usd',
        receipt_email: 'jane.doe@example.com',
        description: `Order #${order.orderNumber}`,
        metadata: { orderId: order.id, orderNumber: order.orderNumber },
        allowed_payment_method_types: ['card'],
      },
    });
    const record = await h.payments.ctx.models.PaymentIntent.findById(intent.id).lean();
    // Stripe keeps the client secret; the service does not store it.
    expect(record).toMatchObject({
      provider: 'stripe',
      amount: 10625,
      orderId: order.id,
      status: 'requires_payment_method',
    });
    expect(record?.clientSecret).toBeUndefined();
  });

  it('gives repeated clicks the same intent: the stored one, retrieved from Stripe for its client secret', async () => {
    const order = await quotedOrder(h, 300);
    const first = parseIntent((await createIntent(h, order)).body);
    const before = h.fake.requests.length;
    const again = parseIntent((await createIntent(h, order, 500)).body);
    expect(again).toEqual(first);
    expect(h.fake.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/payment_intents/${first.id}`,
    ]);

    // Even without the stored record, Stripe's idempotency key gives back the same intent.
    await h.payments.ctx.models.PaymentIntent.deleteOne({ _id: first.id });
    const replayed = parseIntent((await createIntent(h, order)).body);
    expect(replayed.id).toBe(first.id);
    expect([...h.fake.intents.values()].filter((i) => i.metadata.orderId === order.id)).toHaveLength(1);
  });

  it('replaces an intent canceled at Stripe with a new one for the next click, and keeps that one', async () => {
    const order = await quotedOrder(h, 310);
    const first = parseIntent((await createIntent(h, order)).body);
    h.fake.setIntent(first.id, { status: 'canceled' });
    const second = parseIntent((await createIntent(h, order)).body);
    expect(second.id).not.toBe(first.id);
    expect(second.status).not.toBe('canceled');
    expect(second.amount).toBe(first.amount);
    // The next click gets the new intent again, not a third one.
    expect(parseIntent((await createIntent(h, order)).body).id).toBe(second.id);
    expect([...h.fake.intents.values()].filter((i) => i.metadata.orderId === order.id)).toHaveLength(2);
  });

  it('answers 502 with "Failed to create payment" when Stripe fails, storing nothing', async () => {
    const order = await quotedOrder(h, 60);
    h.fake.failNext(10);
    const res = await createIntent(h, order);
    h.fake.failNext(0);
    expect(res).toMatchObject({
      status: 502,
      body: { error: paymentMessages.createFailed, code: 'PAYMENT_PROVIDER_ERROR' },
    });
    expect(await h.payments.ctx.models.PaymentIntent.countDocuments({ orderId: order.id })).toBe(0);
  });
});

describe('verification through Stripe', () => {
  it("is verified only when Stripe says succeeded and the intent's metadata names this order", async () => {
    const order = await quotedOrder(h, 40);
    const intent = parseIntent((await createIntent(h, order)).body);
    expect(await verifyPayment(h, order.id, intent.id)).toMatchObject({
      verified: false,
      status: 'requires_payment_method',
      provider: 'stripe',
    });

    h.fake.setIntent(intent.id, { status: 'succeeded' });
    expect(await verifyPayment(h, order.id, intent.id)).toMatchObject({
      verified: true,
      orderId: order.id,
      amount: 4250,
      status: 'succeeded',
      provider: 'stripe',
    });
    expect(await verifyPayment(h, 'bbbbbbbbbbbbbbbbbbbbbbbb', intent.id)).toMatchObject({
      verified: false,
      orderId: order.id,
      reason: paymentMessages.orderMismatch,
    });
    expect(await verifyPayment(h, order.id, 'pi_unknown_at_stripe')).toMatchObject({
      verified: false,
      status: 'not_found',
      reason: paymentMessages.intentNotFound,
    });
  });
});

describe('the Stripe webhook', () => {
  it('refuses a bad, missing or foreign signature with 400 and records nothing', async () => {
    const order = await quotedOrder(h, 70);
    const intent = parseIntent((await createIntent(h, order)).body);
    const event = h.fake.event('payment_intent.succeeded', h.fake.setIntent(intent.id, { status: 'succeeded' }));

    const forged = await deliver(event, 'whsec_someone_else');
    expect(forged).toMatchObject({ status: 400, body: { error: paymentMessages.badSignature, code: 'BAD_REQUEST' } });
    const garbage = await deliver(event, undefined, 't=1,v1=deadbeef');
    expect(garbage.status).toBe(400);
    const missing = await fetch(`${h.paymentsUrl}${paymentPaths.webhook}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: paymentMessages.badSignature });
    // A body changed after signing (the signature covers the exact bytes).
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: stripeKeys.STRIPE_WEBHOOK_SECRET });
    const tampered = await fetch(`${h.paymentsUrl}${paymentPaths.webhook}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload.replace(String(intent.amount), '1'),
    });
    expect(tampered.status).toBe(400);

    expect(await h.payments.ctx.models.WebhookEvent.countDocuments({})).toBe(0);
    const all = await h.paymentEvents();
    expect(eventsOf(all, intent.id)).toEqual([]);
    expect((await h.payments.ctx.models.PaymentIntent.findById(intent.id).lean())?.status).toBe(
      'requires_payment_method',
    );
  });

  it("turns payment_intent.payment_failed into payment.failed with Stripe's message", async () => {
    const order = await quotedOrder(h, 75);
    const intent = parseIntent((await createIntent(h, order)).body);
    const failed = h.fake.setIntent(intent.id, {
      status: 'requires_payment_method',
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      },
    });
    const res = await deliver(h.fake.event('payment_intent.payment_failed', failed));
    expect(res).toMatchObject({ status: 200, body: { received: true, duplicate: false, outcome: 'payment.failed' } });
    const all = await h.paymentEvents((events) => eventsOf(events, intent.id).length > 0);
    const events = eventsOf(all, intent.id);
    expect(events.map((e) => e.type)).toEqual(['payment.failed']);
    expect(events[0].data).toMatchObject({
      orderId: order.id,
      orderNumber: order.orderNumber,
      amount: 7969,
      provider: 'stripe',
      reason: 'Your card was declined.',
    });
  });

  it('records an intent without an order id, and events of other types, without publishing anything', async () => {
    const stranger = h.fake.addIntent({ amount: 5000, status: 'succeeded', amount_received: 5000 });
    const noOrder = await deliver(h.fake.event('payment_intent.succeeded', stranger));
    expect(noOrder).toMatchObject({
      status: 200,
      body: { duplicate: false, outcome: 'no orderId in the payment intent metadata: no event' },
    });
    const other = await deliver({
      ...h.fake.event('charge.refunded', stranger),
      data: { object: { id: 'ch_1', object: 'charge' } },
    });
    expect(other).toMatchObject({ status: 200, body: { duplicate: false, outcome: 'recorded' } });
    expect(
      await h.payments.ctx.models.WebhookEvent.find({ paymentIntentId: stranger.id }, { type: 1, outcome: 1 }).lean(),
    ).toHaveLength(1);
    const all = await h.paymentEvents();
    expect(eventsOf(all, stranger.id)).toEqual([]);
  });
});

describe('paying an order through Stripe (with the real orders service)', () => {
  it('the same webhook event twice publishes one payment.succeeded and marks the order paid once', async () => {
    const order = await quotedOrder(h, 500);
    const intent = parseIntent((await createIntent(h, order)).body);
    expect(intent.amount).toBe(53125);
    const event = h.fake.event('payment_intent.succeeded', h.fake.setIntent(intent.id, { status: 'succeeded' }));

    const first = await deliver(event);
    const second = await deliver(event);
    expect(first).toMatchObject({ status: 200, body: { duplicate: false, outcome: 'payment.succeeded' } });
    expect(second).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(await h.payments.ctx.models.WebhookEvent.countDocuments({ _id: event.id })).toBe(1);
    expect((await h.payments.ctx.models.PaymentIntent.findById(intent.id).lean())?.status).toBe('succeeded');

    const payments = eventsOf(await h.paymentEvents((all) => eventsOf(all, intent.id).length > 0), intent.id);
    expect(payments.map((e) => e.type)).toEqual(['payment.succeeded']);
    expect(payments[0].data).toMatchObject({
      orderId: order.id,
      orderNumber: order.orderNumber,
      amount: 53125,
      currency: 'usd',
      provider: 'stripe',
    });

    const paid = await orderWhen(order.id, (o) => o?.payment != null);
    expect(paid).toMatchObject({
      status: 'paid',
      payment: { paymentIntentId: intent.id, provider: 'stripe', amount: 531.25 },
    });
    expect(paid!.statusHistory.filter((s: { status: string }) => s.status === 'paid')).toHaveLength(1);
    const orderEvents = await h.orderEvents((all) =>
      all.some((e) => e.type === 'order.paid' && (e.data as { orderId: string }).orderId === order.id),
    );
    expect(
      orderEvents.filter((e) => e.type === 'order.paid' && (e.data as { orderId: string }).orderId === order.id),
    ).toHaveLength(1);

    // The order is paid now: Pay again is refused, and the public view says paid.
    expect(await createIntent(h, order)).toMatchObject({ status: 409, body: { error: paymentMessages.alreadyPaid } });
    const view = await send('GET', `${h.ordersUrl}/api/orders/${order.id}`);
    expect(view).toMatchObject({ status: 200, body: { order: { id: order.id, status: 'paid', finalAmount: 531.25 } } });
  });

  it('the same event delivered twice at the same moment still publishes one payment.succeeded', async () => {
    const order = await quotedOrder(h, 45);
    const intent = parseIntent((await createIntent(h, order)).body);
    const event = h.fake.event('payment_intent.succeeded', h.fake.setIntent(intent.id, { status: 'succeeded' }));
    const answers = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
    expect(await h.payments.ctx.models.WebhookEvent.countDocuments({ _id: event.id })).toBe(1);
    const payments = eventsOf(await h.paymentEvents((all) => eventsOf(all, intent.id).length > 0), intent.id);
    expect(payments.map((e) => e.type)).toEqual(['payment.succeeded']);
    const paid = await orderWhen(order.id, (o) => o?.payment != null);
    expect(paid!.statusHistory.filter((s: { status: string }) => s.status === 'paid')).toHaveLength(1);
  });

  it("refuses the page's PATCH to paid for an intent that did not succeed, belongs to another order, or has another amount", async () => {
    const order = await quotedOrder(h, 50);
    const other = await quotedOrder(h, 50);
    const patch = (paymentIntentId: string) =>
      send<Partial<AdminOrderResponse> & Partial<ErrorEnvelope>>(
        'PATCH',
        `${h.ordersUrl}/api/orders/${order.id}/status`,
        { status: 'paid', paymentIntentId, notes: 'Payment completed via Stripe' },
      );

    // Not succeeded (the card step never finished).
    const pending = parseIntent((await createIntent(h, order)).body);
    const notSucceeded = await patch(pending.id);
    expect(notSucceeded.status).toBeGreaterThanOrEqual(400);
    expect(notSucceeded.body.error).toBe(paymentMessages.paymentNotVerified);

    // Succeeded, but for another order.
    const othersIntent = parseIntent((await createIntent(h, other)).body);
    h.fake.setIntent(othersIntent.id, { status: 'succeeded' });
    const foreign = await patch(othersIntent.id);
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(foreign.body.error).toBe(paymentMessages.paymentNotVerified);

    // Succeeded for this order, but for another amount (made outside the shop, e.g. in the dashboard).
    const cheap = h.fake.addIntent({
      amount: 100,
      status: 'succeeded',
      amount_received: 100,
      metadata: { orderId: order.id, orderNumber: order.orderNumber },
    });
    const wrongAmount = await patch(cheap.id);
    expect(wrongAmount.status).toBeGreaterThanOrEqual(400);
    expect(wrongAmount.body.error).toBe(paymentMessages.paymentNotVerified);

    // Not a payment at all.
    const unknown = await patch('pi_never_created');
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(await h.orders.ctx.models.Order.findById(order.id).lean()).toMatchObject({
      status: 'quote_sent',
      payment: null,
    });

    // The right one: this order's intent, succeeded, for the quote's total.
    h.fake.setIntent(pending.id, { status: 'succeeded' });
    const accepted = await patch(pending.id);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.order).toMatchObject({ id: order.id, status: 'paid' });
    const paid = await h.orders.ctx.models.Order.findById(order.id).lean();
    expect(paid).toMatchObject({ status: 'paid', payment: { paymentIntentId: pending.id } });
    // The other order stays unpaid by the first order's PATCH.
    expect(await h.orders.ctx.models.Order.findById(other.id).lean()).toMatchObject({
      status: 'quote_sent',
      payment: null,
    });
  });
});
