// Quote payment, the orders side: the quote payments asks for over NATS (to charge the server's figure,
// never the browser's), payment.succeeded from the provider, and the one function that marks an order
// paid, used by both that event and the payment page's verified confirmation, whichever comes first.
import { randomUUID } from 'node:crypto';
import type { ClientSession } from 'mongoose';
import { consumeEvent, notFound, replyTo, type Outbox, type ServiceContext } from '@shop/service-kit';
import {
  orderPaymentQuoteRequestSchema,
  orderPaymentQuoteSubject,
  paymentMessages,
  type PaymentMode,
} from '@shop/contracts';
import { paidNote, paymentQuoteOf, receiptSubject } from '../domain/payment.js';
import type { EmailHistoryEntry, OrderDoc, OrderModels } from '../models/order.js';
import { statusChangedData } from './status-changed.js';

export function paymentReplies(ctx: ServiceContext<OrderModels>) {
  const { Order } = ctx.models;
  return [
    replyTo(orderPaymentQuoteSubject, orderPaymentQuoteRequestSchema, async ({ orderId }) => {
      const order = await Order.findById(orderId).lean<OrderDoc>();
      if (!order) throw notFound(paymentMessages.orderNotFound);
      return paymentQuoteOf(order);
    }),
  ];
}

export interface ReceivedPayment {
  orderId: string;
  paymentIntentId: string;
  paidAt: Date;
  /** Dollars, as the provider charged them. */
  amount: number;
  provider: PaymentMode;
}

/**
 * What marking paid did: `paid` now; `already` paid with this same intent (a repeated event or the page
 * after the webhook); `other` paid with another intent; `missing` no such order.
 */
export type MarkPaidOutcome =
  { outcome: 'paid' | 'already' | 'other'; order: OrderDoc } | { outcome: 'missing'; order: null };

/** Who changed the status, in status history and order.status_changed: the email service reads the prefix. */
export const paymentChangedBy = (provider: PaymentMode) => `payment:${provider}`;

/**
 * Marks an order paid exactly once: a conditional update where no payment is recorded yet, with the
 * status-history note, the receipt's email-history entry and order.paid in the same transaction.
 * order.status_changed goes out too (for anything following statuses) without an emailRecordId: the
 * customer's one email about the payment is the receipt. An amount other than the quote's total is still
 * recorded (the money was taken) and the note says so.
 */
export async function markOrderPaid(
  ctx: ServiceContext<OrderModels>,
  payment: ReceivedPayment,
  tx?: { session: ClientSession; outbox: Outbox },
): Promise<MarkPaidOutcome> {
  const { Order } = ctx.models;
  // Inside a consumer's transaction (with its processed-event record), else in a transaction of its own.
  const inTransaction = (work: (session: ClientSession, outbox: Outbox) => Promise<MarkPaidOutcome>) =>
    tx ? work(tx.session, tx.outbox) : ctx.withOutbox(work);
  const result = await inTransaction(async (session, outbox) => {
    const order = await Order.findById(payment.orderId).session(session).lean<OrderDoc>();
    if (!order) return { outcome: 'missing', order: null };
    if (order.payment)
      return { outcome: order.payment.paymentIntentId === payment.paymentIntentId ? 'already' : 'other', order };
    const now = new Date();
    const changedBy = paymentChangedBy(payment.provider);
    const note = paidNote(payment.paidAt, payment.paymentIntentId, payment.amount, order.quote?.finalAmount ?? null);
    const subject = receiptSubject(order.orderNumber);
    const receipt: EmailHistoryEntry = {
      id: randomUUID(),
      subject,
      to: order.email,
      type: 'status_update',
      preview: note,
      status: 'queued',
      timestamp: now,
    };
    const recorded = {
      paymentIntentId: payment.paymentIntentId,
      paidAt: payment.paidAt,
      amount: payment.amount,
      provider: payment.provider,
    };
    const update = await Order.updateOne(
      { _id: order._id, payment: null },
      {
        $set: { status: 'paid', payment: recorded, updatedAt: now },
        $push: { statusHistory: { status: 'paid', date: now, changedBy, note }, emailHistory: receipt },
      },
      { session, timestamps: false },
    );
    // A concurrent payment got there first inside this transaction's snapshot: nothing more to do.
    if (update.modifiedCount === 0) return { outcome: 'already', order };
    const paidAt = payment.paidAt.toISOString();
    outbox.add('order.paid', {
      orderId: order._id,
      orderNumber: order.orderNumber,
      customerName: order.customerName,
      email: order.email,
      itemType: order.itemType,
      quantity: order.quantity,
      amount: payment.amount,
      ...(order.quote ? { quoteAmount: order.quote.amount, taxAmount: order.quote.taxAmount } : {}),
      paymentIntentId: payment.paymentIntentId,
      provider: payment.provider,
      paidAt,
      emailRecordId: receipt.id,
    });
    outbox.add(
      'order.status_changed',
      statusChangedData(order, { status: 'paid', changedBy, note, total: payment.amount, at: now }),
    );
    return { outcome: 'paid', order: { ...order, status: 'paid', payment: recorded } };
  });
  const log = {
    orderId: payment.orderId,
    paymentIntentId: payment.paymentIntentId,
    provider: payment.provider,
    amount: payment.amount,
  };
  if (result.outcome === 'paid') ctx.log.info(log, 'order paid');
  else if (result.outcome === 'other')
    ctx.log.warn(
      { ...log, recordedIntent: result.order.payment?.paymentIntentId },
      'order already paid with another payment intent',
    );
  else if (result.outcome === 'missing') ctx.log.warn(log, 'payment for an unknown order');
  return result;
}

export function paymentConsumers(ctx: ServiceContext<OrderModels>) {
  return [
    // The provider's word (webhook or test mode): marks the order paid, once however often it comes.
    consumeEvent('payment.succeeded', async (event, { session, outbox, log }) => {
      const data = event.data;
      const result = await markOrderPaid(
        ctx,
        {
          orderId: data.orderId,
          paymentIntentId: data.paymentIntentId,
          paidAt: new Date(data.paidAt),
          amount: data.amount / 100,
          provider: data.provider,
        },
        { session, outbox },
      );
      if (result.outcome === 'other')
        log.error(
          { orderId: data.orderId, paymentIntentId: data.paymentIntentId },
          'a second payment succeeded for an order already paid: refund it in the provider dashboard',
        );
    }),
  ];
}
