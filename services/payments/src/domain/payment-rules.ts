// Pure rules of quote payment (storefront §4, §9; issue 6): whether an order's quote can be paid now and
// for how much, the idempotency key of a payment, the test-mode cards, and the verification answer.
// No I/O here, so the tests can pin them.
import {
  alreadyPaidStatuses,
  awaitingPaymentStatuses,
  formatMoney,
  paymentMessages,
  testModeCards,
  toCents,
  type OrderPaymentQuote,
  type PaymentMode,
  type PaymentVerifyResult,
} from '@shop/contracts';

export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** Said when a quote's total is $0 (e.g. a discount as large as the quote): there is nothing to charge. */
export const nothingToPayMessage = 'This quote has nothing to pay. Please contact us.';
/** Said by the test-mode confirmation when the shop takes payments through Stripe. */
export const testModeOffMessage = 'Test mode is off: this shop takes card payments through Stripe.';

/**
 * What to charge for an order's quote, in cents, or why it cannot be paid. The figure is always the
 * server's (quote - discount + tax as orders computed it), never the browser's.
 */
export function payableAmount(
  order: OrderPaymentQuote,
  now: Date,
): { ok: true; amount: number } | { ok: false; refusal: Refusal } {
  const refuse = (status: number, code: string, message: string) => ({
    ok: false as const,
    refusal: { status, code, message },
  });
  if (order.payment || (alreadyPaidStatuses as readonly string[]).includes(order.status)) {
    return refuse(409, 'ALREADY_PAID', paymentMessages.alreadyPaid);
  }
  if (!order.quote) return refuse(409, 'NO_QUOTE', paymentMessages.noQuote);
  if (!(awaitingPaymentStatuses as readonly string[]).includes(order.status)) {
    return refuse(409, 'NOT_AWAITING_PAYMENT', paymentMessages.notAwaitingPayment);
  }
  // Storefront §4: expired when quoteExpiresAt is earlier than now.
  if (Date.parse(order.quote.expiresAt) < now.getTime())
    return refuse(410, 'QUOTE_EXPIRED', paymentMessages.quoteExpired);
  const amount = toCents(order.quote.finalAmount);
  if (amount <= 0) return refuse(409, 'NOTHING_TO_PAY', nothingToPayMessage);
  return { ok: true, amount };
}

/** Said (with the reason) when a payment that was kept for a refund is offered as paying an order. */
export const refundDueMessage = 'This payment does not pay the order and is due for a refund:';

/**
 * Why a payment the provider says succeeded does NOT pay its order, or null when it does (issue 13).
 * `order` is the order as orders answers it when the payment arrives (null: no such order). A payment
 * for another amount than the order's current total (made before a discount was applied or removed),
 * for an order already paid another way, or for an order without a quote is kept for a refund instead.
 */
export function paymentMisfit(
  order: OrderPaymentQuote | null,
  paymentIntentId: string,
  amountCents: number,
): string | null {
  if (!order) return 'The order no longer exists.';
  if (order.payment) {
    return order.payment.paymentIntentId === paymentIntentId
      ? null
      : `The order was already paid with another payment (${order.payment.paymentIntentId}).`;
  }
  if ((alreadyPaidStatuses as readonly string[]).includes(order.status))
    return `The order is already marked paid (status ${order.status}).`;
  if (!order.quote) return 'The order has no quote.';
  const total = toCents(order.quote.finalAmount);
  if (total !== amountCents) {
    return `${formatMoney(amountCents / 100)} was charged but the order's total is now ${formatMoney(total / 100)}: the total changed after this payment was started.`;
  }
  return null;
}

/** One payment per order and amount: repeated clicks reuse it; a new quote total gets a new one. */
export const idempotencyKeyOf = (orderId: string, amountCents: number) => `order:${orderId}:amount:${amountCents}`;

export type TestCardOutcome =
  | { outcome: 'succeeded' }
  | { outcome: 'declined'; declineCode: 'card_declined' | 'expired_card'; message: string }
  | { outcome: 'refused'; message: string };

/**
 * What test mode does with a card, like Stripe's test mode: 4242... succeeds, 4000 0000 0000 0002 is
 * declined, a card past its expiry month is declined as expired; any other number is not a test card
 * (refused before it counts as a payment attempt).
 */
export function testCardOutcome(
  card: { number: string; expMonth: number; expYear: number },
  now: Date,
): TestCardOutcome {
  if (card.number !== testModeCards.succeeds && card.number !== testModeCards.declined) {
    return { outcome: 'refused', message: paymentMessages.testCardUnknown };
  }
  // A card is valid through the last day of its expiry month.
  const expired =
    card.expYear < now.getUTCFullYear() ||
    (card.expYear === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1);
  if (expired) return { outcome: 'declined', declineCode: 'expired_card', message: paymentMessages.cardExpired };
  if (card.number === testModeCards.declined)
    return { outcome: 'declined', declineCode: 'card_declined', message: paymentMessages.cardDeclined };
  return { outcome: 'succeeded' };
}

/** A payment intent as the provider has it, reduced to what verification needs. */
export interface ProviderIntentFacts {
  id: string;
  status: string;
  /** Cents charged (or to charge, before success). */
  amount: number;
  orderId: string | null;
  paidAt?: Date | undefined;
}

/** Verified only when the provider says the intent succeeded AND it carries this order's id. */
export function verifyIntent(
  askedOrderId: string,
  intent: ProviderIntentFacts,
  provider: PaymentMode,
): PaymentVerifyResult {
  const base = {
    paymentIntentId: intent.id,
    orderId: intent.orderId,
    amount: intent.amount,
    status: intent.status,
    provider,
    ...(intent.paidAt ? { paidAt: intent.paidAt.toISOString() } : {}),
  };
  if (intent.status !== 'succeeded')
    return { ...base, verified: false, reason: `The payment has not succeeded (status ${intent.status}).` };
  if (intent.orderId !== askedOrderId) return { ...base, verified: false, reason: paymentMessages.orderMismatch };
  return { ...base, verified: true };
}

/** The answer when the provider does not know the intent at all. */
export function unknownIntent(paymentIntentId: string, provider: PaymentMode): PaymentVerifyResult {
  return {
    verified: false,
    paymentIntentId,
    orderId: null,
    amount: 0,
    status: 'not_found',
    provider,
    reason: paymentMessages.intentNotFound,
  };
}
