// POST /api/payments/webhook: Stripe's webhook. The body is kept raw (the signature is over the exact
// bytes) and verified before anything is recorded or answered 2xx. Each Stripe event id is recorded once,
// in the same transaction as the event it causes: payment_intent.succeeded -> payment.succeeded,
// payment_intent.payment_failed -> payment.failed. A success that does not pay its order (another amount
// than the order's total now, or an order paid another way) is kept as a refund due: payment.refund_due,
// once per payment, tells the team (the email service emails them).
// Other types are recorded and acknowledged.
import type Stripe from 'stripe';
import { z } from 'zod';
import { errorEnvelopeSchema, paymentMessages, paymentPaths, toCents, type OrderPaymentQuote } from '@shop/contracts';
import { AppError, badRequest, notFound, type Outbox, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import { paymentMisfit } from '../domain/payment-rules.js';
import { quoteOf } from './intents.js';
import type { ClientSession } from 'mongoose';
import type { PaymentIntentDoc, PaymentModels } from '../models/payments.js';
import type { Provider } from '../providers/index.js';

export const webhookResponseSchema = z.object({
  received: z.literal(true),
  /** True when this event id was handled before (Stripe redelivers): nothing was done again. */
  duplicate: z.boolean(),
  outcome: z.string(),
});

const isDuplicateKey = (err: unknown) =>
  (err as { code?: number })?.code === 11000 || (err as { cause?: { code?: number } })?.cause?.code === 11000;

const handledTypes = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed']);

/** The order a succeeded payment is for, as orders has it now (null: no such order); undefined when not needed. */
async function orderOfPayment(
  ctx: ServiceContext<PaymentModels>,
  event: Stripe.Event,
): Promise<OrderPaymentQuote | null | undefined> {
  if (event.type !== 'payment_intent.succeeded') return undefined;
  const orderId = event.data.object.metadata?.orderId;
  if (!orderId) return undefined;
  try {
    return await quoteOf(ctx, orderId);
  } catch (err) {
    // Orders not answering throws on (503/504): Stripe redelivers the event later.
    if (err instanceof AppError && err.statusCode === 404) return null;
    throw err;
  }
}

/**
 * Records the event and adds what it causes to the outbox; answers what was done. `order` is the order
 * of a succeeded payment as orders answered it just before (see orderOfPayment).
 */
async function handleEvent(
  ctx: ServiceContext<PaymentModels>,
  event: Stripe.Event,
  order: OrderPaymentQuote | null | undefined,
  session: ClientSession,
  outbox: Outbox,
): Promise<{ duplicate: boolean; outcome: string; orderId?: string; paymentIntentId?: string }> {
  const { PaymentIntent, WebhookEvent } = ctx.models;
  if (await WebhookEvent.exists({ _id: event.id }).session(session))
    return { duplicate: true, outcome: 'already handled' };

  const now = new Date();
  const at = new Date(event.created * 1000);
  let outcome = 'recorded';
  let orderId: string | undefined;
  let paymentIntentId: string | undefined;

  if (handledTypes.has(event.type)) {
    const intent = event.data.object as Stripe.PaymentIntent;
    paymentIntentId = intent.id;
    orderId = intent.metadata?.orderId || undefined;
    const record = await PaymentIntent.findById(intent.id).session(session).lean<PaymentIntentDoc>();
    const orderNumber = intent.metadata?.orderNumber || record?.orderNumber;
    const amount = intent.amount_received > 0 ? intent.amount_received : intent.amount;
    const misfit =
      event.type === 'payment_intent.succeeded' && order !== undefined ? paymentMisfit(order, intent.id, amount) : null;
    if (!orderId) {
      outcome = 'no orderId in the payment intent metadata: no event';
    } else if (!orderNumber) {
      outcome = 'no orderNumber in the payment intent metadata: no event';
    } else if (intent.currency !== 'usd' || !(amount > 0)) {
      outcome = `unexpected amount ${amount} ${intent.currency}: no event`;
    } else if (misfit) {
      // The money was taken but does not pay the order (its total changed after the page was opened,
      // or it was paid another way): the order is not marked paid; the payment is kept for a refund.
      outcome = `refund due: ${misfit}`;
      const refundDue = {
        reason: misfit,
        amount,
        orderTotal: order?.quote && !order.payment ? toCents(order.quote.finalAmount) : null,
        stripeEventId: event.id,
        recordedAt: now,
      };
      await PaymentIntent.updateOne(
        { _id: intent.id },
        {
          $set: { status: 'succeeded', succeededAt: at, refundDue },
          // An intent made outside the shop (e.g. in Stripe's dashboard) gets a record too, to be refunded.
          $setOnInsert: {
            provider: 'stripe',
            idempotencyKey: `external:${intent.id}`,
            orderId,
            orderNumber,
            amount: intent.amount,
            currency: 'usd',
            attempts: [],
          },
        },
        { session, upsert: true },
      );
      // Once per payment: a second success event for the same intent only updates the record.
      if (!record?.refundDue)
        outbox.add('payment.refund_due', {
          orderId,
          orderNumber,
          paymentIntentId,
          amount,
          currency: 'usd',
          orderTotal: refundDue.orderTotal,
          reason: misfit,
          recordedAt: now.toISOString(),
        });
    } else if (event.type === 'payment_intent.succeeded') {
      outbox.add('payment.succeeded', {
        orderId,
        orderNumber,
        paymentIntentId,
        amount,
        currency: 'usd',
        provider: 'stripe',
        paidAt: at.toISOString(),
      });
      outcome = 'payment.succeeded';
      if (record) {
        await PaymentIntent.updateOne(
          { _id: intent.id },
          { $set: { status: 'succeeded', succeededAt: at }, $unset: { lastError: 1 } },
          { session },
        );
      }
    } else {
      const reason = intent.last_payment_error?.message || paymentMessages.cardFailed;
      outbox.add('payment.failed', {
        orderId,
        orderNumber,
        paymentIntentId,
        amount,
        currency: 'usd',
        provider: 'stripe',
        reason,
        failedAt: at.toISOString(),
      });
      outcome = 'payment.failed';
      if (record && record.status !== 'succeeded') {
        await PaymentIntent.updateOne(
          { _id: intent.id },
          {
            $set: { status: intent.status, lastError: reason },
            $push: {
              attempts: {
                outcome: 'declined',
                message: reason,
                ...(intent.last_payment_error?.decline_code
                  ? { declineCode: intent.last_payment_error.decline_code }
                  : {}),
                at,
              },
            },
          },
          { session },
        );
      }
    }
  }

  await WebhookEvent.create(
    [
      {
        _id: event.id,
        type: event.type,
        ...(paymentIntentId ? { paymentIntentId } : {}),
        ...(orderId ? { orderId } : {}),
        outcome,
        createdAt: at,
        receivedAt: now,
      },
    ],
    { session },
  );
  return {
    duplicate: false,
    outcome,
    ...(orderId ? { orderId } : {}),
    ...(paymentIntentId ? { paymentIntentId } : {}),
  };
}

export async function registerWebhookRoute(app: ServiceApp, ctx: ServiceContext<PaymentModels>, provider: Provider) {
  // Its own plugin: the raw-body parser applies to this route only; the others keep parsing JSON.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    scope.post(
      paymentPaths.webhook,
      {
        schema: {
          tags: ['payments'],
          summary:
            "Stripe's webhook: signature-checked raw body; payment_intent.succeeded / payment_failed become payment.succeeded / payment.failed, once per event id",
          response: {
            200: webhookResponseSchema,
            400: errorEnvelopeSchema,
            404: errorEnvelopeSchema,
            503: errorEnvelopeSchema,
            504: errorEnvelopeSchema,
          },
        },
      },
      async (request) => {
        if (provider.mode !== 'stripe') throw notFound(paymentMessages.stripeNotConfigured);
        const signature = request.headers['stripe-signature'];
        const raw = request.body;
        if (typeof signature !== 'string' || !signature || !Buffer.isBuffer(raw))
          throw badRequest(paymentMessages.badSignature);
        let event: Stripe.Event;
        try {
          event = provider.constructEvent(raw, signature);
        } catch (err) {
          request.log.warn({ err: (err as Error).message }, 'Stripe webhook refused: bad signature');
          throw badRequest(paymentMessages.badSignature);
        }

        let result: Awaited<ReturnType<typeof handleEvent>>;
        try {
          const order = await orderOfPayment(ctx, event);
          result = await ctx.withOutbox((session, outbox) => handleEvent(ctx, event, order, session, outbox));
        } catch (err) {
          // The same event delivered twice at once: the other delivery recorded it.
          if (!isDuplicateKey(err)) throw err;
          result = { duplicate: true, outcome: 'already handled' };
        }
        const log = { stripeEventId: event.id, type: event.type, ...result };
        if (result.outcome.startsWith('refund due'))
          request.log.error(log, 'payment received that does not pay its order: refund due');
        else if (result.outcome.includes('no event')) request.log.warn(log, 'Stripe webhook recorded without an event');
        else request.log.info(log, 'Stripe webhook handled');
        return { received: true as const, duplicate: result.duplicate, outcome: result.outcome };
      },
    );
  });
}
