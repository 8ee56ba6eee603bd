// The payment page's two calls (storefront §2 payment page, §7): the public payment view of an order and
// the confirmation after a card payment. The spec lets the browser mark an order paid; here the order
// becomes paid only when the payments service has verified with the provider that this intent succeeded
// for this order and this amount. Any other status change from the public is refused.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  orderPaymentConfirmBodySchema,
  orderPaymentViewResponseSchema,
  paymentMessages,
  paymentVerifyResultSchema,
  paymentVerifySubject,
  toCents,
  type PaymentVerifyResult,
} from '@shop/contracts';
import { AppError, type ServiceContext } from '@shop/service-kit';
import { paymentViewOf } from '../domain/payment.js';
import { markOrderPaid } from '../events/payments.js';
import type { OrderDoc, OrderModels } from '../models/order.js';
import type { OrdersApp } from '../app.js';
import { fail, failureResponse, validationIssues } from './respond.js';

/** Order ids are 24 hex characters (see newOrderId); anything else is not an order. */
const orderIdPattern = /^[0-9a-f]{24}$/;
const params = z.object({ id: z.string().max(100) });
const errors = { '4xx': failureResponse, '5xx': failureResponse };

export function registerPaymentRoutes(app: OrdersApp, ctx: ServiceContext<OrderModels>) {
  const { Order } = ctx.models;

  /**
   * The order; null for an unknown one; 'no-route' for a segment that cannot be an order id, answered
   * like any unknown path (so `/api/orders/anything` stays "No route") without asking the database.
   */
  const find = async (id: string) =>
    orderIdPattern.test(id) ? Order.findById(id).lean<OrderDoc>() : ('no-route' as const);

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    fail(request, reply, 404, 'NOT_FOUND', paymentMessages.orderNotFound);

  const view = (order: OrderDoc) => ({ success: true as const, order: paymentViewOf(order) });

  app.get(
    '/api/orders/:id',
    {
      schema: {
        tags: ['payment'],
        summary: 'The payment page view of an order: only what the page shows (public; the id is unguessable)',
        params,
        response: { 200: orderPaymentViewResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const order = await find(request.params.id);
      if (order === 'no-route') return reply.callNotFound();
      return order ? view(order) : notFound(request, reply);
    },
  );

  /** The provider's answer for this intent; a refusal by payments counts as not verified. */
  async function verify(orderId: string, paymentIntentId: string): Promise<PaymentVerifyResult | AppError> {
    try {
      return await ctx.bus.request(
        paymentVerifySubject,
        { orderId, paymentIntentId },
        { schema: paymentVerifyResultSchema },
      );
    } catch (err) {
      if (err instanceof AppError) return err;
      throw err;
    }
  }

  app.patch(
    '/api/orders/:id/status',
    {
      attachValidation: true,
      schema: {
        tags: ['payment'],
        summary:
          "The payment page's confirmation: only 'paid', with a payment intent the provider confirms for this order and amount",
        params,
        body: orderPaymentConfirmBodySchema,
        response: { 200: orderPaymentViewResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (request.validationError) {
        const issues = validationIssues(request);
        return fail(
          request,
          reply,
          400,
          'VALIDATION_FAILED',
          `Invalid request: ${issues.map((i) => i.message).join('; ')}`,
          issues,
        );
      }
      const { status, paymentIntentId } = request.body;
      const order = await find(request.params.id);
      if (order === 'no-route') return reply.callNotFound();
      if (!order) return notFound(request, reply);
      const log = { orderId: order._id, paymentIntentId, requestedStatus: status };
      if (status !== 'paid') {
        request.log.warn(log, 'public status change refused');
        return fail(request, reply, 403, 'FORBIDDEN', paymentMessages.publicStatusRefused);
      }
      if (!paymentIntentId)
        return fail(request, reply, 400, 'VALIDATION_FAILED', paymentMessages.paymentIdRequired, [
          { field: 'paymentIntentId', message: paymentMessages.paymentIdRequired },
        ]);
      if (order.payment) {
        if (order.payment.paymentIntentId === paymentIntentId) return view(order);
        request.log.warn(
          { ...log, recordedIntent: order.payment.paymentIntentId },
          'confirmation with another intent for a paid order',
        );
        return fail(request, reply, 409, 'CONFLICT', paymentMessages.alreadyPaid);
      }
      if (!order.quote) return fail(request, reply, 409, 'CONFLICT', paymentMessages.noQuote);

      const result = await verify(order._id, paymentIntentId);
      if (result instanceof AppError) {
        if (result.statusCode >= 500) {
          request.log.warn({ ...log, err: result }, 'payments did not answer the verification');
          return fail(
            request,
            reply,
            503,
            'SERVICE_UNAVAILABLE',
            'The payment could not be checked right now. It will be confirmed as soon as the payment provider tells us; please do not pay again.',
          );
        }
        request.log.warn({ ...log, refusal: result.message }, 'payment not verified: payments refused the intent');
        return fail(request, reply, 402, 'PAYMENT_NOT_VERIFIED', paymentMessages.paymentNotVerified);
      }
      const expected = toCents(order.quote.finalAmount);
      if (!result.verified) {
        request.log.warn(
          { ...log, status: result.status, reason: result.reason },
          'payment not verified: the intent did not succeed',
        );
        return fail(request, reply, 402, 'PAYMENT_NOT_VERIFIED', paymentMessages.paymentNotVerified);
      }
      if (result.orderId !== order._id) {
        request.log.warn(
          { ...log, intentOrderId: result.orderId },
          'payment not verified: the intent belongs to another order',
        );
        return fail(request, reply, 409, 'PAYMENT_NOT_VERIFIED', paymentMessages.paymentNotVerified);
      }
      if (result.amount !== expected) {
        request.log.warn(
          { ...log, charged: result.amount, expected },
          'payment not verified: the intent is for another amount',
        );
        return fail(request, reply, 409, 'PAYMENT_NOT_VERIFIED', paymentMessages.paymentNotVerified);
      }
      const marked = await markOrderPaid(ctx, {
        orderId: order._id,
        paymentIntentId,
        paidAt: result.paidAt ? new Date(result.paidAt) : new Date(),
        amount: result.amount / 100,
        provider: result.provider,
      });
      if (marked.outcome === 'missing') return notFound(request, reply);
      if (marked.outcome === 'other') return fail(request, reply, 409, 'CONFLICT', paymentMessages.alreadyPaid);
      return view(marked.order);
    },
  );
}
