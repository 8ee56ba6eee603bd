// Quote payment in test mode, the embedded default, with all real parts: the payments service as the
// provider, the REAL orders service answering the quote over NATS (and asking payments for the tax rate
// when the admin applies the quote), the embedded MongoDB, and the PAYMENTS stream read through a real
// JetStream consumer.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  paymentConfigResponseSchema,
  paymentMessages,
  paymentPaths,
  taxRateResultSchema,
  taxRateSubject,
  testModeConfirmResponseSchema,
  type CreateIntentResponse,
  type ErrorEnvelope,
  type TestModeConfirmResponse,
} from '@shop/contracts';
import { orderUnavailableMessage } from '../src/routes/intents.js';
import {
  ask,
  createIntent,
  eventsOf,
  parseIntent,
  placeOrder,
  quotedOrder,
  send,
  useHarness,
  verifyPayment,
} from './support/harness.js';

const h = useHarness();

const card = (number: string, over: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) => ({
  number,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
  cvc: '123',
  ...over,
});

async function confirm(paymentIntentId: string, clientSecret: string, number: string, over = {}) {
  return send<Partial<TestModeConfirmResponse> & Partial<ErrorEnvelope>>(
    'POST',
    `${h.paymentsUrl}${paymentPaths.testModeConfirm}`,
    {
      paymentIntentId,
      clientSecret,
      card: card(number, over),
      billingDetails: { name: 'Jane Doe', email: 'jane.doe@example.com' },
    },
  );
}

describe('payment configuration', () => {
  it('tells the page it is in test mode, with no Stripe key', async () => {
    const res = await send('GET', `${h.paymentsUrl}${paymentPaths.config}`);
    expect(res.status).toBe(200);
    expect(paymentConfigResponseSchema.parse(res.body)).toEqual({ success: true, mode: 'test_mode' });
  });
});

describe('create-intent', () => {
  it("charges the quote's total computed by the server (the browser sent 1 cent)", async () => {
    const order = await quotedOrder(h, 100);
    // Texas: 6.25% from payments' own tax table, applied by orders at quote time.
    expect(order.quote).toMatchObject({ amount: 100, taxRate: 0.0625, taxAmount: 6.25, finalAmount: 106.25 });
    const res = await createIntent<CreateIntentResponse>(h, order, 1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const intent = parseIntent(res.body);
    expect(intent).toMatchObject({ amount: 10625, currency: 'usd', status: 'requires_payment_method' });
    expect(intent.id).toMatch(/^pi_test_[A-Za-z0-9]{16,}$/);
    expect(intent.client_secret.startsWith(`${intent.id}_secret_`)).toBe(true);
    expect(res.body.mode).toBe('test_mode');

    const record = await h.payments.ctx.models.PaymentIntent.findById(intent.id).lean();
    expect(record).toMatchObject({
      provider: 'test_mode',
      idempotencyKey: `order:${order.id}:amount:10625`,
      orderId: order.id,
      orderNumber: order.orderNumber,
      amount: 10625,
      receiptEmail: 'jane.doe@example.com',
    });
  });

  it('gives repeated clicks the same intent, also when they arrive at once', async () => {
    const order = await quotedOrder(h, 250);
    const first = parseIntent((await createIntent(h, order)).body);
    const again = parseIntent((await createIntent(h, order, 99_999)).body);
    expect(again).toEqual(first);
    const other = await quotedOrder(h, 80);
    const together = await Promise.all([
      createIntent<CreateIntentResponse>(h, other),
      createIntent<CreateIntentResponse>(h, other),
      createIntent<CreateIntentResponse>(h, other),
    ]);
    expect(together.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(together.map((r) => r.body.paymentIntent.id)).size).toBe(1);
    expect(new Set(together.map((r) => r.body.paymentIntent.client_secret)).size).toBe(1);
    expect(await h.payments.ctx.models.PaymentIntent.countDocuments({ orderId: { $in: [order.id, other.id] } })).toBe(
      2,
    );
  });

  it('refuses an unknown order (404), an order without a quote (409), and a bad body (400)', async () => {
    const unknown = await createIntent(h, { id: 'ffffffffffffffffffffffff', orderNumber: 'CC-NOPE0000' });
    expect(unknown).toMatchObject({ status: 404, body: { error: paymentMessages.orderNotFound, code: 'NOT_FOUND' } });

    const unquoted = await placeOrder(h);
    expect(await createIntent(h, unquoted)).toMatchObject({
      status: 409,
      body: { error: paymentMessages.noQuote, code: 'NO_QUOTE' },
    });

    const noOrder = await send<ErrorEnvelope>('POST', `${h.paymentsUrl}${paymentPaths.createIntent}`, {
      amount: 100,
      currency: 'usd',
      metadata: {},
    });
    expect(noOrder.status).toBe(400);
    expect(noOrder.body.error).toMatch(/metadata\.orderId is required/);
    const euros = await send<ErrorEnvelope>('POST', `${h.paymentsUrl}${paymentPaths.createIntent}`, {
      amount: 100,
      currency: 'eur',
      metadata: { orderId: unquoted.id },
    });
    expect(euros.status).toBe(400);
    expect(euros.body.error).toMatch(/currency must be "usd"/);
  });

  it('refuses an expired quote (410) and an order no longer awaiting payment (409), creating no intent', async () => {
    const { Order } = h.orders.ctx.models;
    const expired = await quotedOrder(h, 120);
    await Order.updateOne({ _id: expired.id }, { $set: { 'quote.expiresAt': new Date(Date.now() - 60_000) } });
    expect(await createIntent(h, expired)).toMatchObject({
      status: 410,
      body: { error: paymentMessages.quoteExpired, code: 'QUOTE_EXPIRED' },
    });

    const cancelled = await quotedOrder(h, 130);
    await Order.updateOne({ _id: cancelled.id }, { $set: { status: 'cancelled' } });
    expect(await createIntent(h, cancelled)).toMatchObject({
      status: 409,
      body: { error: paymentMessages.notAwaitingPayment },
    });

    const paid = await quotedOrder(h, 140);
    await Order.updateOne({ _id: paid.id }, { $set: { status: 'in_progress' } });
    expect(await createIntent(h, paid)).toMatchObject({
      status: 409,
      body: { error: paymentMessages.alreadyPaid, code: 'ALREADY_PAID' },
    });

    expect(
      await h.payments.ctx.models.PaymentIntent.countDocuments({
        orderId: { $in: [expired.id, cancelled.id, paid.id] },
      }),
    ).toBe(0);
  });
});

describe('test-mode confirmation', () => {
  let order: Awaited<ReturnType<typeof quotedOrder>>;
  let intent: ReturnType<typeof parseIntent>;

  beforeAll(async () => {
    order = await quotedOrder(h, 200);
    intent = parseIntent((await createIntent(h, order)).body);
  });

  it('refuses a wrong client secret and an unknown intent, recording nothing', async () => {
    const wrong = await confirm(intent.id, `${intent.id}_secret_guessed`, '4242424242424242');
    expect(wrong).toMatchObject({ status: 403, body: { error: paymentMessages.badClientSecret } });
    const other = await confirm('pi_test_doesnotexist', intent.client_secret, '4242424242424242');
    expect(other).toMatchObject({ status: 404, body: { error: paymentMessages.intentNotFound } });
    const unknownCard = await confirm(intent.id, intent.client_secret, '5555555555554444');
    expect(unknownCard).toMatchObject({ status: 400, body: { error: paymentMessages.testCardUnknown } });
    const record = await h.payments.ctx.models.PaymentIntent.findById(intent.id).lean();
    expect(record).toMatchObject({ status: 'requires_payment_method', attempts: [] });
  });

  it('declines 4000 0000 0000 0002 with 402 and the card message, and publishes payment.failed', async () => {
    const declined = await confirm(intent.id, intent.client_secret, '4000000000000002');
    expect(declined).toMatchObject({ status: 402, body: { error: 'Your card was declined.', code: 'CARD_DECLINED' } });
    const expired = await confirm(intent.id, intent.client_secret, '4242424242424242', { expMonth: 1, expYear: 2020 });
    expect(expired).toMatchObject({ status: 402, body: { error: 'Your card has expired.' } });

    const all = await h.paymentEvents((events) => eventsOf(events, intent.id).length >= 2);
    const failed = eventsOf(all, intent.id);
    expect(failed.map((e) => e.type)).toEqual(['payment.failed', 'payment.failed']);
    expect(failed[0].data).toMatchObject({
      orderId: order.id,
      orderNumber: order.orderNumber,
      amount: 21250, // 200 + 6.25% tax = 212.50
      currency: 'usd',
      provider: 'test_mode',
      reason: 'Your card was declined.',
    });
    expect(failed[1].data).toMatchObject({ reason: 'Your card has expired.' });
    const record = await h.payments.ctx.models.PaymentIntent.findById(intent.id).lean();
    expect(record?.attempts.map((a) => [a.outcome, a.cardLast4])).toEqual([
      ['declined', '0002'],
      ['declined', '4242'],
    ]);
  });

  it('succeeds with 4242 4242 4242 4242 and publishes payment.succeeded on the PAYMENTS stream, once', async () => {
    const paid = await confirm(intent.id, intent.client_secret, '4242424242424242');
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(testModeConfirmResponseSchema.parse(paid.body).paymentIntent).toEqual({
      id: intent.id,
      status: 'succeeded',
      amount: 21250,
      currency: 'usd',
    });
    // Confirming again (a double click) answers the same and announces nothing new.
    const again = await confirm(intent.id, intent.client_secret, '4242424242424242');
    expect(again).toMatchObject({ status: 200, body: { paymentIntent: { status: 'succeeded' } } });
    const declinedAfter = await confirm(intent.id, intent.client_secret, '4000000000000002');
    expect(declinedAfter).toMatchObject({ status: 200, body: { paymentIntent: { status: 'succeeded' } } });

    const all = await h.paymentEvents((events) =>
      eventsOf(events, intent.id).some((e) => e.type === 'payment.succeeded'),
    );
    const succeeded = eventsOf(all, intent.id).filter((e) => e.type === 'payment.succeeded');
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0].source).toBe('payments');
    expect(succeeded[0].data).toMatchObject({
      orderId: order.id,
      orderNumber: order.orderNumber,
      amount: 21250,
      currency: 'usd',
      provider: 'test_mode',
    });
  });

  it('two confirmations at the same moment publish one payment.succeeded', async () => {
    const other = await quotedOrder(h, 150);
    const pending = parseIntent((await createIntent(h, other)).body);
    const answers = await Promise.all([
      confirm(pending.id, pending.client_secret, '4242424242424242'),
      confirm(pending.id, pending.client_secret, '4242424242424242'),
    ]);
    expect(answers.map((a) => [a.status, a.body.paymentIntent?.status])).toEqual([
      [200, 'succeeded'],
      [200, 'succeeded'],
    ]);
    const all = await h.paymentEvents((events) => eventsOf(events, pending.id).length > 0);
    expect(eventsOf(all, pending.id).map((e) => e.type)).toEqual(['payment.succeeded']);
  });

  it('answers verification from its own record: verified only for this order and a succeeded intent', async () => {
    const verified = await verifyPayment(h, order.id, intent.id);
    expect(verified).toMatchObject({
      verified: true,
      orderId: order.id,
      amount: 21250,
      status: 'succeeded',
      provider: 'test_mode',
    });
    expect(verified.paidAt).toBeDefined();
    const otherOrder = await verifyPayment(h, 'aaaaaaaaaaaaaaaaaaaaaaaa', intent.id);
    expect(otherOrder).toMatchObject({ verified: false, reason: paymentMessages.orderMismatch });
    const unknown = await verifyPayment(h, order.id, 'pi_test_nothing');
    expect(unknown).toMatchObject({ verified: false, status: 'not_found', reason: paymentMessages.intentNotFound });

    const unpaid = await quotedOrder(h, 90);
    const pending = parseIntent((await createIntent(h, unpaid)).body);
    const notYet = await verifyPayment(h, unpaid.id, pending.id);
    expect(notYet).toMatchObject({ verified: false, status: 'requires_payment_method' });
  });
});

describe('outside test mode', () => {
  it('has no Stripe webhook in test mode', async () => {
    const res = await fetch(`${h.paymentsUrl}${paymentPaths.webhook}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      body: '{}',
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: paymentMessages.stripeNotConfigured, code: 'NOT_FOUND' });
  });

  it('answers the tax rate of a quote over NATS from its table', async () => {
    expect(
      taxRateResultSchema.parse(await ask(h, taxRateSubject, { state: 'CA', country: 'US', taxExempt: false })),
    ).toEqual({
      taxRate: 0.0725,
      basis: 'California (CA) state sales tax 7.25%',
    });
    expect(await ask(h, taxRateSubject, { state: 'CA', country: 'US', taxExempt: true })).toEqual({
      taxRate: 0,
      basis: 'Tax-exempt military order',
    });
  });
});

describe('when orders does not answer', () => {
  // Last in this file: it stops the orders service.
  it('refuses create-intent with 503 in words for the customer, creating nothing', async () => {
    const order = await quotedOrder(h, 100);
    await h.orders.stop();
    const res = await createIntent(h, order);
    expect(res).toMatchObject({ status: 503, body: { error: orderUnavailableMessage, code: 'UPSTREAM_UNAVAILABLE' } });
    expect(await h.payments.ctx.models.PaymentIntent.countDocuments({ orderId: order.id })).toBe(0);
  });
});
