// Test mode, the embedded default without Stripe keys: the payments service is the provider. Its intents
// live in its own `payment_intents` collection with Stripe-like ids (`pi_test_...`) and client secrets
// (`<id>_secret_<random>`); the built-in card form confirms them (routes/test-mode.ts).
import { randomBytes } from 'node:crypto';
import type { Model } from 'mongoose';
import type { PaymentIntentDoc } from '../models/payments.js';
import type { NewIntent, PaymentProvider, ProviderIntent } from './provider.js';

const random = (bytes: number) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, '').slice(0, bytes);

export const newTestIntentId = () => `pi_test_${random(24)}`;
export const newClientSecret = (intentId: string) => `${intentId}_secret_${random(24)}`;

/** The status a new intent waits in, as at Stripe: until a card is confirmed. */
export const awaitingCardStatus = 'requires_payment_method';

/** Stripe's terminal status of an intent that can no longer be paid. */
export const canceledStatus = 'canceled';
/** Kept on a canceled intent's record: why it can no longer be paid. */
export const intentCanceledNote = "Canceled: the order's total changed after this payment was started.";

export function intentOfRecord(record: PaymentIntentDoc): ProviderIntent {
  return {
    id: record._id,
    clientSecret: record.clientSecret ?? '',
    amount: record.amount,
    currency: record.currency,
    status: record.status,
    orderId: record.orderId,
    orderNumber: record.orderNumber,
  };
}

export class TestModeProvider implements PaymentProvider {
  readonly mode = 'test_mode' as const;

  constructor(private readonly intents: Model<PaymentIntentDoc>) {}

  async create(input: NewIntent): Promise<ProviderIntent> {
    // The intent exists once the route stores its record (under the unique idempotency key).
    const id = newTestIntentId();
    return {
      id,
      clientSecret: newClientSecret(id),
      amount: input.amount,
      currency: 'usd',
      status: awaitingCardStatus,
      orderId: input.orderId,
      orderNumber: input.orderNumber,
    };
  }

  async resume(record: PaymentIntentDoc): Promise<ProviderIntent> {
    return intentOfRecord(record);
  }

  async cancel(record: PaymentIntentDoc): Promise<ProviderIntent | null> {
    // Conditional, like the card confirmation's success update: whichever comes first wins.
    const updated = await this.intents
      .findOneAndUpdate(
        { _id: record._id, provider: 'test_mode', status: { $nin: ['succeeded', canceledStatus] } },
        { $set: { status: canceledStatus, lastError: intentCanceledNote } },
        { returnDocument: 'after' },
      )
      .lean<PaymentIntentDoc>();
    return updated ? intentOfRecord(updated) : this.retrieve(record._id);
  }

  async retrieve(id: string): Promise<ProviderIntent | null> {
    const record = await this.intents.findOne({ _id: id, provider: 'test_mode' }).lean<PaymentIntentDoc>();
    return record ? intentOfRecord(record) : null;
  }
}
