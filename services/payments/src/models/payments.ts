// The payments service's own collections: one record per payment intent it created (Stripe's or its
// own test-mode intent), and each Stripe webhook event it has handled.
import { Schema, type Connection } from 'mongoose';
import { paymentModeSchema, type PaymentMode } from '@shop/contracts';

/**
 * A payment the provider took that does not pay its order (issue 13): made for an order total that
 * changed since (a discount applied or removed), for an order already paid, or for an order that no
 * longer exists. The order is not marked paid; the money is owed back to the customer.
 */
export interface RefundDueRecord {
  reason: string;
  /** Cents taken. */
  amount: number;
  /** Cents the order's total was when the payment arrived (null: no quote, or no order). */
  orderTotal: number | null;
  stripeEventId?: string;
  recordedAt: Date;
  /** When the team marked it refunded, and who (`admin:<email>`). */
  refundedAt?: Date | null;
  refundedBy?: string | null;
}

export interface PaymentAttempt {
  outcome: 'succeeded' | 'declined';
  /** The card message shown to the customer (declines only). */
  message?: string;
  declineCode?: string;
  /** Last four digits, for the team reading the record; never the card number. */
  cardLast4?: string;
  at: Date;
}

/**
 * A payment intent for one order and amount. `_id` is the provider's intent id (`pi_...` at Stripe,
 * `pi_test_...` in test mode). `idempotencyKey` (`order:<id>:amount:<cents>`) is unique, so repeated
 * clicks on "Pay" find the one intent instead of creating another.
 */
export interface PaymentIntentDoc {
  _id: string;
  provider: PaymentMode;
  idempotencyKey: string;
  orderId: string;
  orderNumber: string;
  /** Cents. */
  amount: number;
  currency: 'usd';
  /** Provider status as last seen (test mode: the truth; Stripe: a copy, Stripe stays the truth). */
  status: string;
  /** Test mode only: the secret the card form proves it holds (Stripe keeps its own). */
  clientSecret?: string;
  receiptEmail?: string;
  description?: string;
  attempts: PaymentAttempt[];
  succeededAt?: Date;
  lastError?: string;
  /** Set when the payment succeeded but does not pay the order: to refund (see RefundDueRecord). */
  refundDue?: RefundDueRecord | null;
  createdAt: Date;
  updatedAt: Date;
}

const attemptSchema = new Schema<PaymentAttempt>(
  {
    outcome: { type: String, enum: ['succeeded', 'declined'], required: true },
    message: String,
    declineCode: String,
    cardLast4: String,
    at: { type: Date, required: true },
  },
  { _id: false },
);

const refundDueSchema = new Schema<RefundDueRecord>(
  {
    reason: { type: String, required: true },
    amount: { type: Number, required: true },
    orderTotal: { type: Number, default: null },
    stripeEventId: String,
    recordedAt: { type: Date, required: true },
    refundedAt: { type: Date, default: null },
    refundedBy: { type: String, default: null },
  },
  { _id: false },
);

export const paymentIntentSchema = new Schema<PaymentIntentDoc>(
  {
    _id: { type: String, required: true },
    provider: { type: String, enum: paymentModeSchema.options, required: true },
    idempotencyKey: { type: String, required: true },
    orderId: { type: String, required: true },
    orderNumber: { type: String, required: true },
    amount: { type: Number, required: true },
    currency: { type: String, enum: ['usd'], required: true },
    status: { type: String, required: true },
    clientSecret: String,
    receiptEmail: String,
    description: String,
    attempts: { type: [attemptSchema], default: [] },
    succeededAt: Date,
    lastError: String,
    refundDue: { type: refundDueSchema, default: undefined },
  },
  { collection: 'payment_intents', timestamps: true, versionKey: false },
);
paymentIntentSchema.index({ idempotencyKey: 1 }, { unique: true });
paymentIntentSchema.index({ orderId: 1, createdAt: -1 });
paymentIntentSchema.index({ 'refundDue.recordedAt': -1 });

/**
 * A Stripe webhook event, recorded once: `_id` is Stripe's event id, inserted in the same transaction as
 * the event it causes, so a redelivery finds it and causes nothing.
 */
export interface WebhookEventDoc {
  _id: string;
  type: string;
  paymentIntentId?: string;
  orderId?: string;
  /** What the service did with it: the event it published, or why none. */
  outcome: string;
  /** When Stripe created it. */
  createdAt: Date;
  receivedAt: Date;
}

export const webhookEventSchema = new Schema<WebhookEventDoc>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    paymentIntentId: String,
    orderId: String,
    outcome: { type: String, required: true },
    createdAt: { type: Date, required: true },
    receivedAt: { type: Date, required: true },
  },
  { collection: 'webhook_events', versionKey: false },
);
webhookEventSchema.index({ receivedAt: -1 });

export function paymentModels(connection: Connection) {
  return {
    PaymentIntent: connection.model<PaymentIntentDoc>('PaymentIntent', paymentIntentSchema),
    WebhookEvent: connection.model<WebhookEventDoc>('WebhookEvent', webhookEventSchema),
  };
}
export type PaymentModels = ReturnType<typeof paymentModels>;
