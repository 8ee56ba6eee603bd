// The payment page's server calls (storefront §7): the public payment view of the order, the payment
// provider in use, create-intent, the test-mode confirmation and the status update after a payment.
// Each throws a PaymentError carrying the message the page shows (§8).
import {
  orderPaymentViewResponseSchema,
  orderPublicPaths,
  paymentConfigResponseSchema,
  paymentMessages,
  paymentPaths,
  type OrderPaymentView,
  type PaymentConfigResponse,
  type TestModeConfirmBody,
} from '@shop/contracts';
import { postJson, request } from '../api/http.js';
import { createIntentBody, paymentNote } from './model.js';

/** A failure with the words the customer sees; `inline` ones belong under the card field. */
export class PaymentError extends Error {
  constructor(
    message: string,
    readonly inline = false,
  ) {
    super(message);
    this.name = 'PaymentError';
  }
}

export async function loadPaymentOrder(orderId: string): Promise<OrderPaymentView> {
  const result = await request<unknown>(orderPublicPaths.paymentView(orderId));
  const parsed = orderPaymentViewResponseSchema.safeParse(result.data);
  if (!result.ok || !parsed.success) throw new PaymentError(paymentMessages.loadOrderFailed);
  return parsed.data.order;
}

export async function loadPaymentConfig(): Promise<PaymentConfigResponse> {
  const result = await request<unknown>(paymentPaths.config);
  const parsed = paymentConfigResponseSchema.safeParse(result.data);
  if (!result.ok || !parsed.success) throw new PaymentError(paymentMessages.formInitFailed);
  if (parsed.data.mode === 'stripe' && !parsed.data.publishableKey)
    throw new PaymentError(paymentMessages.scriptLoadFailed);
  return parsed.data;
}

export interface StartedIntent {
  id: string;
  clientSecret: string;
}

/** POST create-intent; the server's error or "Failed to create payment"; no client secret is refused. */
export async function createPaymentIntent(order: OrderPaymentView): Promise<StartedIntent> {
  const result = await postJson<{ paymentIntent?: { id?: unknown; client_secret?: unknown }; error?: string }>(
    paymentPaths.createIntent,
    createIntentBody(order),
  );
  if (!result.ok) throw new PaymentError(result.data?.error || paymentMessages.createFailed);
  const intent = result.data?.paymentIntent;
  if (!intent || typeof intent.client_secret !== 'string' || !intent.client_secret || typeof intent.id !== 'string') {
    throw new PaymentError(paymentMessages.invalidIntent);
  }
  return { id: intent.id, clientSecret: intent.client_secret };
}

/**
 * Test mode's stand-in for Stripe.js: the payments service confirms the card. A decline (402) and
 * refused card data (400) are card errors, shown under the card field.
 */
export async function confirmTestModePayment(body: TestModeConfirmBody): Promise<{ id: string; status: string }> {
  const result = await postJson<{ paymentIntent?: { id: string; status: string }; error?: string }>(
    paymentPaths.testModeConfirm,
    body,
  );
  if (result.status === 402 || result.status === 400)
    throw new PaymentError(result.data?.error || paymentMessages.cardFailed, true);
  if (!result.ok || !result.data?.paymentIntent) throw new PaymentError(result.data?.error || paymentMessages.generic);
  return result.data.paymentIntent;
}

/**
 * The status update after a successful payment (§4, §7). Its answer is not checked (§7): the money is
 * taken, and the provider's own confirmation (webhook / test-mode event) marks the order paid anyway.
 */
export async function confirmOrderPaid(orderId: string, paymentIntentId: string): Promise<void> {
  const result = await request<unknown>(orderPublicPaths.statusConfirm(orderId), {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'paid', paymentIntentId, notes: paymentNote() }),
  });
  if (!result.ok)
    console.warn(`The order's status update after payment answered ${result.status}: ${result.error ?? ''}`);
}
