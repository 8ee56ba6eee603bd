// The pure rules of quote payment and the configuration: what is charged and when it is refused, the
// idempotency key, the test-mode cards, verification, and Stripe mode versus test mode.
import { describe, expect, it } from 'vitest';
import { paymentMessages, type OrderPaymentQuote } from '@shop/contracts';
import { idempotencyKeyOf, payableAmount, testCardOutcome, verifyIntent } from '../src/domain/payment-rules.js';
import { loadConfig } from '../src/config.js';
import { stripeKeys } from './support/keys.js';
import { testGatewayKey } from '@shop/service-kit/testing';

const now = new Date('2026-11-22T12:00:00Z');
const quoted = (
  over: Partial<OrderPaymentQuote> = {},
  quote: Partial<NonNullable<OrderPaymentQuote['quote']>> = {},
): OrderPaymentQuote => ({
  orderId: 'o1',
  orderNumber: 'CC-AAAA0001',
  customerName: 'Jane Doe',
  email: 'jane@example.com',
  status: 'quote_sent',
  quote: {
    amount: 100,
    discountAmount: 0,
    taxRate: 0.0625,
    taxAmount: 6.25,
    finalAmount: 106.25,
    expiresAt: '2026-12-22T12:00:00Z',
    ...quote,
  },
  payment: null,
  ...over,
});

describe('what a quote payment charges', () => {
  it("charges the quote's total in cents (subtotal - discount + tax as orders computed it)", () => {
    expect(payableAmount(quoted(), now)).toEqual({ ok: true, amount: 10625 });
    expect(payableAmount(quoted({ status: 'awaiting_payment' }, { finalAmount: 0.1 + 0.2 }), now)).toEqual({
      ok: true,
      amount: 30,
    });
  });

  it('refuses an order already paid, without a quote, not awaiting payment, or with an expired quote', () => {
    const refusal = (q: OrderPaymentQuote) => {
      const result = payableAmount(q, now);
      return result.ok ? null : result.refusal;
    };
    expect(refusal(quoted({ status: 'paid' }))).toEqual({
      status: 409,
      code: 'ALREADY_PAID',
      message: paymentMessages.alreadyPaid,
    });
    expect(refusal(quoted({ status: 'in_progress' }))?.message).toBe(paymentMessages.alreadyPaid);
    expect(refusal(quoted({ payment: { paymentIntentId: 'pi_1', paidAt: '2026-11-21T00:00:00Z' } }))?.code).toBe(
      'ALREADY_PAID',
    );
    expect(refusal(quoted({ status: 'pending_quote', quote: null }))).toEqual({
      status: 409,
      code: 'NO_QUOTE',
      message: paymentMessages.noQuote,
    });
    expect(refusal(quoted({ status: 'cancelled' }))).toEqual({
      status: 409,
      code: 'NOT_AWAITING_PAYMENT',
      message: paymentMessages.notAwaitingPayment,
    });
    expect(refusal(quoted({}, { expiresAt: '2026-11-22T11:59:59Z' }))).toEqual({
      status: 410,
      code: 'QUOTE_EXPIRED',
      message: paymentMessages.quoteExpired,
    });
    expect(refusal(quoted({}, { finalAmount: 0 }))?.code).toBe('NOTHING_TO_PAY');
  });

  it('keys a payment by order and amount', () => {
    expect(idempotencyKeyOf('o1', 10625)).toBe('order:o1:amount:10625');
  });
});

describe('test-mode cards', () => {
  const card = (number: string, expYear = 2030, expMonth = 12) => ({ number, expMonth, expYear });
  it('4242... succeeds, 4000 0000 0000 0002 is declined, other numbers are not test cards', () => {
    expect(testCardOutcome(card('4242424242424242'), now)).toEqual({ outcome: 'succeeded' });
    expect(testCardOutcome(card('4000000000000002'), now)).toEqual({
      outcome: 'declined',
      declineCode: 'card_declined',
      message: 'Your card was declined.',
    });
    expect(testCardOutcome(card('5555555555554444'), now)).toEqual({
      outcome: 'refused',
      message: paymentMessages.testCardUnknown,
    });
  });

  it('declines a card past its expiry month, and accepts one expiring this month', () => {
    expect(testCardOutcome(card('4242424242424242', 2026, 10), now)).toEqual({
      outcome: 'declined',
      declineCode: 'expired_card',
      message: 'Your card has expired.',
    });
    expect(testCardOutcome(card('4242424242424242', 2025, 12), now).outcome).toBe('declined');
    expect(testCardOutcome(card('4242424242424242', 2026, 11), now)).toEqual({ outcome: 'succeeded' });
  });
});

describe('payment verification', () => {
  const intent = { id: 'pi_1', status: 'succeeded', amount: 10625, orderId: 'o1' };
  it('is verified only when the intent succeeded and belongs to the order', () => {
    expect(verifyIntent('o1', intent, 'stripe')).toEqual({
      verified: true,
      paymentIntentId: 'pi_1',
      orderId: 'o1',
      amount: 10625,
      status: 'succeeded',
      provider: 'stripe',
    });
    expect(verifyIntent('o2', intent, 'stripe')).toMatchObject({
      verified: false,
      orderId: 'o1',
      reason: paymentMessages.orderMismatch,
    });
    expect(verifyIntent('o1', { ...intent, status: 'requires_payment_method' }, 'test_mode')).toMatchObject({
      verified: false,
      reason: 'The payment has not succeeded (status requires_payment_method).',
    });
    expect(verifyIntent('o1', { ...intent, orderId: null }, 'stripe').verified).toBe(false);
  });
});

describe('payments configuration', () => {
  it('runs test mode without Stripe keys, outside production', () => {
    expect(loadConfig({}).mode).toBe('test_mode');
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({ mode: 'test_mode', stripe: undefined });
  });

  it('uses Stripe when STRIPE_SECRET_KEY is set, and then needs the other two keys', () => {
    const config = loadConfig({ ...stripeKeys, STRIPE_API_URL: 'http://127.0.0.1:12111' });
    expect(config.mode).toBe('stripe');
    expect(config.stripe).toEqual({
      secretKey: stripeKeys.STRIPE_SECRET_KEY,
      publishableKey: stripeKeys.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: stripeKeys.STRIPE_WEBHOOK_SECRET,
      apiUrl: { host: '127.0.0.1', port: 12111, protocol: 'http' },
    });
    expect(loadConfig({ ...stripeKeys }).stripe?.apiUrl).toBeUndefined();
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(
      /STRIPE_PUBLISHABLE_KEY is required when STRIPE_SECRET_KEY is set.*STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set/,
    );
    expect(() => loadConfig({ ...stripeKeys, STRIPE_SECRET_KEY: 'pk_test_wrong' })).toThrow(
      /STRIPE_SECRET_KEY must be a Stripe secret key/,
    );
    expect(() => loadConfig({ ...stripeKeys, STRIPE_WEBHOOK_SECRET: 'nope' })).toThrow(
      /STRIPE_WEBHOOK_SECRET must be a webhook signing secret/,
    );
    expect(() => loadConfig({ ...stripeKeys, STRIPE_API_URL: 'ftp://x' })).toThrow(
      /STRIPE_API_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toThrow(/STRIPE_SECRET_KEY is required when/);
  });

  it('refuses to start in production without Stripe: a shop in production takes no pretend payments', () => {
    // Production also needs the gateway's signing key (service-kit); given here so the Stripe rule decides.
    const GATEWAY_SIGNING_KEY = testGatewayKey();
    expect(() => loadConfig({ NODE_ENV: 'production', GATEWAY_SIGNING_KEY })).toThrow(
      /STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are required when NODE_ENV=production/,
    );
    expect(loadConfig({ NODE_ENV: 'production', GATEWAY_SIGNING_KEY, ...stripeKeys }).mode).toBe('stripe');
  });
});
