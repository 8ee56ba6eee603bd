// GET /api/payments/refunds-due (admin; the gateway lets only a signed-in admin reach /api/payments/**):
// payments the provider took that did not pay their order (issue 13: made for an order total that
// changed after the page was opened, a second payment for an order already paid, an order that no
// longer exists). The webhook records them instead of marking the order paid; the team refunds each in
// Stripe's dashboard. Newest first.
import { z } from 'zod';
import { errorEnvelopeSchema } from '@shop/contracts';
import type { ServiceApp, ServiceContext } from '@shop/service-kit';
import type { PaymentIntentDoc, PaymentModels } from '../../models/payments.js';

export const refundsDuePath = '/api/payments/refunds-due';

const refundDueView = z.object({
  paymentIntentId: z.string(),
  provider: z.enum(['stripe', 'test_mode']),
  orderId: z.string(),
  orderNumber: z.string(),
  /** Dollars taken. */
  amount: z.number(),
  /** Dollars the order's total was when the payment arrived; null without a quote or an order. */
  orderTotal: z.number().nullable(),
  reason: z.string(),
  paidAt: z.string().nullable(),
  recordedAt: z.string(),
  stripeEventId: z.string().nullable(),
});

export const refundsDueResponseSchema = z.object({ success: z.literal(true), refundsDue: z.array(refundDueView) });

/** At most this many are listed (newest first): more than a handful means something else is wrong. */
const listLimit = 500;

export function registerRefundsDueRoute(app: ServiceApp, ctx: ServiceContext<PaymentModels>) {
  const { PaymentIntent } = ctx.models;
  app.get(
    refundsDuePath,
    {
      schema: {
        tags: ['admin'],
        summary:
          'Payments taken that did not pay their order (the total changed after the page was opened, or the order was paid another way): refund them',
        response: { 200: refundsDueResponseSchema, 500: errorEnvelopeSchema },
      },
    },
    async () => {
      const records = await PaymentIntent.find({ 'refundDue.recordedAt': { $exists: true } })
        .sort({ 'refundDue.recordedAt': -1 })
        .limit(listLimit)
        .lean<(PaymentIntentDoc & { refundDue: NonNullable<PaymentIntentDoc['refundDue']> })[]>();
      return {
        success: true as const,
        refundsDue: records.map((r) => ({
          paymentIntentId: r._id,
          provider: r.provider,
          orderId: r.orderId,
          orderNumber: r.orderNumber,
          amount: r.refundDue.amount / 100,
          orderTotal: r.refundDue.orderTotal === null ? null : r.refundDue.orderTotal / 100,
          reason: r.refundDue.reason,
          paidAt: r.succeededAt ? new Date(r.succeededAt).toISOString() : null,
          recordedAt: new Date(r.refundDue.recordedAt).toISOString(),
          stripeEventId: r.refundDue.stripeEventId ?? null,
        })),
      };
    },
  );
}
