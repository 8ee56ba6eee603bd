// Refunds due (admin; the gateway lets only a signed-in admin reach /api/payments/**): payments the
// provider took that did not pay their order (issue 13: made for an order total that changed after the
// page was opened, a second payment for an order already paid, an order that no longer exists). The
// webhook records them instead of marking the order paid; the back office lists them on the orders
// dashboard, the team refunds each in Stripe's dashboard and marks it refunded here.
//   GET   /api/payments/refunds-due?state=open|refunded|all   newest first
//   PATCH /api/payments/refunds-due/{paymentIntentId}/refunded
import { z } from 'zod';
import {
  errorEnvelopeSchema,
  refundDueMessages,
  refundDueResponseSchema,
  refundsDuePaths,
  refundsDueQuerySchema,
  refundsDueResponseSchema,
  type RefundDue,
} from '@shop/contracts';
import { adminActor, conflict, notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import type { PaymentIntentDoc, PaymentModels, RefundDueRecord } from '../../models/payments.js';

/** At most this many are listed (newest first): more than a handful means something else is wrong. */
const listLimit = 500;

type WithRefundDue = PaymentIntentDoc & { refundDue: RefundDueRecord };

const iso = (at: Date | string) => new Date(at).toISOString();

function refundDueView(r: WithRefundDue): RefundDue {
  return {
    paymentIntentId: r._id,
    provider: r.provider,
    orderId: r.orderId,
    orderNumber: r.orderNumber,
    amount: r.refundDue.amount / 100,
    orderTotal: r.refundDue.orderTotal === null ? null : r.refundDue.orderTotal / 100,
    reason: r.refundDue.reason,
    paidAt: r.succeededAt ? iso(r.succeededAt) : null,
    recordedAt: iso(r.refundDue.recordedAt),
    stripeEventId: r.refundDue.stripeEventId ?? null,
    refundedAt: r.refundDue.refundedAt ? iso(r.refundDue.refundedAt) : null,
    refundedBy: r.refundDue.refundedBy ?? null,
  };
}

const stateFilter = {
  open: { 'refundDue.recordedAt': { $exists: true }, 'refundDue.refundedAt': null },
  refunded: { 'refundDue.refundedAt': { $ne: null } },
  all: { 'refundDue.recordedAt': { $exists: true } },
} as const;

const errors = { '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema };

export function registerRefundsDueRoutes(app: ServiceApp, ctx: ServiceContext<PaymentModels>) {
  const { PaymentIntent } = ctx.models;
  app.get(
    refundsDuePaths.list,
    {
      schema: {
        tags: ['admin'],
        summary:
          'Payments taken that did not pay their order (the total changed after the page was opened, or the order was paid another way): refund them',
        querystring: refundsDueQuerySchema,
        response: { 200: refundsDueResponseSchema, ...errors },
      },
    },
    async (request) => {
      const records = await PaymentIntent.find(stateFilter[request.query.state])
        .sort({ 'refundDue.recordedAt': -1 })
        .limit(listLimit)
        .lean<WithRefundDue[]>();
      return { success: true as const, refundsDue: records.map(refundDueView) };
    },
  );

  app.patch(
    `${refundsDuePaths.list}/:paymentIntentId/refunded`,
    {
      schema: {
        tags: ['admin'],
        summary: 'Mark a payment due for a refund as refunded (the team refunded it in Stripe): who and when',
        params: z.object({ paymentIntentId: z.string().min(1).max(255) }),
        response: { 200: refundDueResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { paymentIntentId } = request.params;
      const refundedBy = adminActor(request);
      // Conditional on still open, so two admins marking it at once record the first only.
      const updated = await PaymentIntent.findOneAndUpdate(
        { _id: paymentIntentId, 'refundDue.recordedAt': { $exists: true }, 'refundDue.refundedAt': null },
        { $set: { 'refundDue.refundedAt': new Date(), 'refundDue.refundedBy': refundedBy } },
        { returnDocument: 'after' },
      ).lean<WithRefundDue>();
      if (!updated) {
        const existing = await PaymentIntent.findById(paymentIntentId, { refundDue: 1 }).lean<PaymentIntentDoc>();
        if (existing?.refundDue?.recordedAt) throw conflict(refundDueMessages.alreadyRefunded);
        throw notFound(refundDueMessages.notFound);
      }
      request.log.info({ paymentIntentId, orderId: updated.orderId, admin: refundedBy }, 'refund due marked refunded');
      return { success: true as const, refundDue: refundDueView(updated) };
    },
  );
}
