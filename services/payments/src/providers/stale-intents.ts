// Payment intents that must never be charged: made for an order total that is no longer the order's
// (a discount applied or removed, a new quote) while a payment page may still hold them. They are
// canceled at the provider (Stripe: paymentIntents.cancel; test mode: its own record), so the old page
// cannot confirm them; the next Pay gets an intent for the current total.
import { toCents, type OrderPaymentQuote } from '@shop/contracts';
import type { Logger } from '@shop/service-kit';
import type { Model } from 'mongoose';
import type { PaymentIntentDoc } from '../models/payments.js';
import type { Provider } from './index.js';
import { canceledStatus, intentCanceledNote } from './test-mode.js';

/** Statuses after which an intent can no longer be charged, or never again. */
const settledStatuses = ['succeeded', canceledStatus];

export interface StaleIntent {
  id: string;
  amount: number;
  /** The provider's status after the cancel: `canceled`, or what it already was when too late. */
  status: string;
}

export const hasOpenIntents = async (intents: Model<PaymentIntentDoc>, orderId: string) =>
  Boolean(await intents.exists({ orderId, status: { $nin: settledStatuses } }));

/**
 * The amount (cents) an order may still be charged, or null when nothing more may be (paid, no quote,
 * or no such order): every open intent at another amount is stale.
 */
export function chargeableAmount(order: OrderPaymentQuote | null): number | null {
  if (!order || order.payment || !order.quote) return null;
  return toCents(order.quote.finalAmount);
}

/**
 * Cancels the order's open intents except those for `keep.amount` cents and the intent `keep.intentId`.
 * A provider failure throws (the caller decides whether to retry); an intent the provider already
 * settled is left to the webhook, which never lets a payment of another amount pay the order.
 */
export async function cancelStaleIntents(
  intents: Model<PaymentIntentDoc>,
  provider: Provider,
  log: Logger,
  orderId: string,
  keep: { amount?: number | null; intentId?: string },
): Promise<StaleIntent[]> {
  const filter: Record<string, unknown> = { orderId, status: { $nin: settledStatuses } };
  if (keep.amount != null) filter.amount = { $ne: keep.amount };
  if (keep.intentId) filter._id = { $ne: keep.intentId };
  const open = await intents.find(filter).sort({ createdAt: 1 }).lean<PaymentIntentDoc[]>();
  const done: StaleIntent[] = [];
  for (const record of open) {
    const now = await provider.cancel(record);
    // Unknown at the provider: it can never be paid either.
    const status = now?.status ?? canceledStatus;
    if (status === canceledStatus) {
      // Test mode's cancel wrote this already; for Stripe it is our copy of Stripe's status.
      await intents.updateOne(
        { _id: record._id, status: { $nin: settledStatuses } },
        { $set: { status, lastError: intentCanceledNote } },
      );
      log.info({ orderId, paymentIntentId: record._id, amount: record.amount, keep }, 'stale payment intent canceled');
    } else {
      log.warn(
        { orderId, paymentIntentId: record._id, amount: record.amount, status },
        'stale payment intent could not be canceled: the provider already settled it',
      );
    }
    done.push({ id: record._id, amount: record.amount, status });
  }
  return done;
}
