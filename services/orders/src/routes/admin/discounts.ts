// Apply Discount and its removal (admin part A §2, §7: POST/DELETE /api/orders/{id}/discount). Marketing
// owns the codes: orders asks it over NATS to redeem the code for this order (it enforces active, dates,
// maxUses, minimum order and the category rule, and counts each order once) and to give the use back.
// The order changes only while it is unpaid (a conditional update), with the customer's email in the
// same transaction (outbox), and order.total_changed when the quote's total moves: payments then cancels
// the order's open payment intents for the old amount, and keys intents by order and amount, so the next
// Pay charges the new total.
import { z } from 'zod';
import {
  adminOrderMessages,
  adminOrderResponseSchema,
  alreadyPaidStatuses,
  discountMessages,
  discountRedeemResultSchema,
  discountRedeemSubject,
  discountReleaseResultSchema,
  discountReleaseSubject,
  orderDiscountApplySchema,
  toCents,
  type DiscountRedeemResult,
} from '@shop/contracts';
import {
  AppError,
  badRequest,
  adminActor,
  conflict,
  notFound,
  serviceUnavailable,
  type Outbox,
  type ServiceContext,
} from '@shop/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import { adminDetail } from '../../domain/admin-orders.js';
import {
  discountBase,
  discountEmailMessage,
  discountEmailSubject,
  isPaidOrder,
  quoteWithDiscount,
  type OrderDiscount,
} from '../../domain/discount.js';
import type { OrderDoc, OrderModels } from '../../models/order.js';
import type { OrdersApp } from '../../app.js';
import { failureResponse } from '../respond.js';
import { queuedEntry } from './orders.js';

const idParams = z.object({ id: z.string().min(1).max(64) });
const errors = { '4xx': failureResponse, '5xx': failureResponse };

/** Only an order without a payment, and still holding what we read, may change. */
const unpaid = (order: OrderDoc) => ({
  _id: order._id,
  payment: null,
  status: { $nin: [...alreadyPaidStatuses] },
  'discount.code': order.discount?.code ?? null,
});

/**
 * Tells payments the quote's total changed (same transaction as the change), so it cancels the order's
 * open payment intents made for another amount: a payment page opened before cannot charge the old
 * total. Nothing to tell before a quote (no payment can be started) or when the total stayed the same.
 */
function totalChanged(
  outbox: Outbox,
  order: OrderDoc,
  discount: OrderDiscount | null,
  reason: 'discount_applied' | 'discount_removed',
  admin: string,
  at: Date,
) {
  const quote = quoteWithDiscount(order.quote, discount?.amount ?? 0);
  if (!quote || quote.finalAmount === order.quote?.finalAmount) return;
  outbox.add('order.total_changed', {
    orderId: order._id,
    orderNumber: order.orderNumber,
    finalAmount: quote.finalAmount,
    discountCode: discount?.code ?? null,
    discountAmount: discount?.amount ?? 0,
    reason,
    changedBy: admin,
    changedAt: at.toISOString(),
  });
}

export function registerAdminDiscountRoutes(app: OrdersApp, ctx: ServiceContext<OrderModels>) {
  const { Order } = ctx.models;
  const path = '/api/orders/:id/discount';

  async function load(id: string): Promise<OrderDoc> {
    const order = await Order.findById(id).lean<OrderDoc>();
    if (!order) throw notFound(adminOrderMessages.orderNotFound);
    return order;
  }

  /** Marketing's refusals (4xx) pass on with their own words; silence is a 503 the admin can retry. */
  async function askMarketing<T>(
    subject: string,
    data: unknown,
    schema: z.ZodType<T>,
    log: FastifyBaseLogger,
  ): Promise<T> {
    try {
      return await ctx.bus.request(subject, data, { schema, timeout: 10_000 });
    } catch (err) {
      if (err instanceof AppError && err.statusCode < 500) throw err;
      log.warn({ err, subject }, 'marketing did not answer a discount request');
      throw serviceUnavailable(discountMessages.marketingUnavailable);
    }
  }

  /** Gives a use back; a failure is logged (the use stays counted: maxUses can only be under-used, never exceeded). */
  async function release(orderId: string, code: string, log: FastifyBaseLogger) {
    try {
      await ctx.bus.request(discountReleaseSubject, { orderId, code }, { schema: discountReleaseResultSchema });
    } catch (err) {
      log.warn({ err, orderId, code }, 'discount use could not be given back');
    }
  }

  app.post(
    path,
    {
      schema: {
        tags: ['admin orders'],
        summary:
          'Apply Discount: marketing redeems the code for this order; the quote (or the estimate) is discounted, tax recomputed, the customer emailed',
        params: idParams,
        body: orderDiscountApplySchema,
        response: { 200: adminOrderResponseSchema, ...errors },
      },
    },
    async (request) => {
      const admin = adminActor(request);
      const { discountCode, customerCategory } = request.body;
      const order = await load(request.params.id);
      if (isPaidOrder(order)) throw conflict(discountMessages.orderPaid);
      const base = discountBase(order);
      if (!(base > 0)) throw badRequest(discountMessages.nothingToDiscount);

      const redeemed: DiscountRedeemResult = await askMarketing(
        discountRedeemSubject,
        { orderId: order._id, code: discountCode, customerCategory, orderAmountCents: toCents(base) },
        discountRedeemResultSchema,
        request.log,
      );
      const amount = redeemed.discountCents / 100;
      const previous = order.discount ?? null;
      const sameAsBefore = previous?.code === redeemed.discount.code && previous.amount === amount;
      const now = new Date();
      const discount: OrderDiscount = {
        code: redeemed.discount.code,
        amount,
        type: redeemed.discount.type,
        value: redeemed.discount.value,
        customerCategory,
        appliedAt: now,
        appliedBy: admin,
      };

      const changed = await ctx.withOutbox(async (session, outbox) => {
        const entry = sameAsBefore
          ? null
          : queuedEntry(
              order,
              discountEmailSubject(order.orderNumber),
              discountEmailMessage(order, discount.code, amount),
              'status_update',
              now,
            );
        const result = await Order.updateOne(
          unpaid(order),
          {
            $set: { discount, quote: quoteWithDiscount(order.quote, amount), updatedAt: now },
            ...(entry ? { $push: { emailHistory: entry } } : {}),
          },
          { session, timestamps: false },
        );
        if (result.modifiedCount !== 1) return false;
        totalChanged(outbox, order, discount, 'discount_applied', admin, now);
        if (entry) {
          outbox.add('order.email_requested', {
            orderId: order._id,
            orderNumber: order.orderNumber,
            customerName: order.customerName,
            email: order.email,
            subject: entry.subject,
            message: discountEmailMessage(order, discount.code, amount),
            type: 'status_update',
            emailRecordId: entry.id,
          });
        }
        return true;
      });

      if (!changed) {
        // Paid (or changed by another admin) between the read and the write: nothing applied.
        if (redeemed.newlyRedeemed) await release(order._id, redeemed.discount.code, request.log);
        const now = await load(order._id);
        throw conflict(
          isPaidOrder(now) ? discountMessages.orderPaid : 'The order changed meanwhile. Please try again.',
        );
      }
      // The code it replaces gives its use back.
      if (previous && previous.code !== discount.code) await release(order._id, previous.code, request.log);
      request.log.info(
        { orderId: order._id, code: discount.code, amount, admin, replaced: previous?.code },
        'discount applied',
      );
      return { success: true as const, order: adminDetail(await load(order._id)) };
    },
  );

  app.delete(
    path,
    {
      schema: {
        tags: ['admin orders'],
        summary:
          'Remove the discount: the quote (or the estimate) is back to full price, and marketing gets the use back',
        params: idParams,
        response: { 200: adminOrderResponseSchema, ...errors },
      },
    },
    async (request) => {
      const order = await load(request.params.id);
      if (isPaidOrder(order)) throw conflict(discountMessages.orderPaid);
      if (!order.discount) throw conflict(discountMessages.noDiscount);
      const admin = adminActor(request);
      const now = new Date();
      const removed = await ctx.withOutbox(async (session, outbox) => {
        const result = await Order.updateOne(
          unpaid(order),
          { $set: { discount: null, quote: quoteWithDiscount(order.quote, 0), updatedAt: now } },
          { session, timestamps: false },
        );
        if (result.modifiedCount !== 1) return false;
        totalChanged(outbox, order, null, 'discount_removed', admin, now);
        return true;
      });
      if (!removed) {
        const now = await load(order._id);
        throw conflict(
          isPaidOrder(now) ? discountMessages.orderPaid : 'The order changed meanwhile. Please try again.',
        );
      }
      await release(order._id, order.discount.code, request.log);
      request.log.info({ orderId: order._id, code: order.discount.code, admin }, 'discount removed');
      return { success: true as const, order: adminDetail(await load(order._id)) };
    },
  );
}
