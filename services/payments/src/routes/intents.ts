// GET /api/payments/config and POST /api/payments/create-intent (storefront §7). The intent is for the
// amount the server computes from the order's quote (asked from orders over NATS), never the browser's;
// one intent per order and amount, so repeated clicks on Pay get the same one, and a new one cancels the
// order's older open intents (for a total that changed).
import {
  createIntentBodySchema,
  createIntentResponseSchema,
  errorEnvelopeSchema,
  orderPaymentQuoteSchema,
  orderPaymentQuoteSubject,
  paymentConfigResponseSchema,
  paymentMessages,
  paymentPaths,
  type CreateIntentResponse,
  type OrderPaymentQuote,
} from '@shop/contracts';
import { AppError, notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import { idempotencyKeyOf, payableAmount } from '../domain/payment-rules.js';
import type { PaymentIntentDoc, PaymentModels } from '../models/payments.js';
import type { Provider, ProviderIntent } from '../providers/index.js';
import { cancelStaleIntents } from '../providers/stale-intents.js';

export const orderUnavailableMessage =
  'We could not load your order to take the payment. Please try again in a few minutes.';

const isDuplicateKey = (err: unknown) =>
  (err as { code?: number })?.code === 11000 || (err as { cause?: { code?: number } })?.cause?.code === 11000;

/** The order's quote from the orders service; its "not found" is said in the payment page's words. */
export async function quoteOf(ctx: ServiceContext<PaymentModels>, orderId: string): Promise<OrderPaymentQuote> {
  try {
    return await ctx.bus.request(orderPaymentQuoteSubject, { orderId }, { schema: orderPaymentQuoteSchema });
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) throw notFound(paymentMessages.orderNotFound);
    if (err instanceof AppError && err.statusCode >= 500) {
      // Orders not answering: say so in the customer's words; the subject and cause go to the log.
      ctx.log.warn({ err, orderId }, 'orders did not answer the payment quote request');
      throw new AppError(err.statusCode, err.code, orderUnavailableMessage, undefined, { cause: err });
    }
    throw err;
  }
}

function view(mode: Provider['mode'], intent: ProviderIntent): CreateIntentResponse {
  return {
    success: true,
    mode,
    paymentIntent: {
      id: intent.id,
      client_secret: intent.clientSecret,
      amount: intent.amount,
      currency: 'usd',
      status: intent.status,
    },
  };
}

export function registerIntentRoutes(app: ServiceApp, ctx: ServiceContext<PaymentModels>, provider: Provider) {
  const { PaymentIntent } = ctx.models;
  const errors = {
    400: errorEnvelopeSchema,
    404: errorEnvelopeSchema,
    409: errorEnvelopeSchema,
    410: errorEnvelopeSchema,
    502: errorEnvelopeSchema,
    503: errorEnvelopeSchema,
    504: errorEnvelopeSchema,
  };

  app.get(
    paymentPaths.config,
    {
      schema: {
        tags: ['payments'],
        summary: "Which payment provider the page uses (stripe or test_mode), and Stripe's publishable key",
        response: { 200: paymentConfigResponseSchema },
      },
    },
    async () => ({
      success: true as const,
      mode: provider.mode,
      ...(provider.mode === 'stripe' ? { publishableKey: provider.publishableKey } : {}),
    }),
  );

  app.post(
    paymentPaths.createIntent,
    {
      schema: {
        tags: ['payments'],
        summary:
          "Payment intent for an order's quote: charges the server's total (quote - discount + tax), one intent per order and amount",
        body: createIntentBodySchema,
        response: { 200: createIntentResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { orderId } = request.body.metadata;
      const order = await quoteOf(ctx, orderId);
      const payable = payableAmount(order, new Date());
      if (!payable.ok) {
        request.log.info({ orderId, status: order.status, refusal: payable.refusal.code }, 'payment refused');
        throw new AppError(payable.refusal.status, payable.refusal.code, payable.refusal.message);
      }
      const { amount } = payable;
      if (request.body.amount !== undefined && request.body.amount !== amount) {
        // The browser's figure is only a hint; a difference means a stale page or a tampered request.
        request.log.warn(
          { orderId, browserAmount: request.body.amount, amount },
          'browser amount differs from the quote; charging the quote',
        );
      }

      const idempotencyKey = idempotencyKeyOf(orderId, amount);
      // What the provider gets: the same as our key, except after a canceled intent (below).
      let providerKey = idempotencyKey;
      const existing = await PaymentIntent.findOne({ idempotencyKey }).lean<PaymentIntentDoc>();
      if (existing) {
        const resumed = await provider.resume(existing);
        if (resumed.status !== 'canceled') return view(provider.mode, resumed);
        // Canceled at the provider (Stripe cancels abandoned intents; the team can cancel one in its
        // dashboard): it can never be paid, so retire its record and start a new intent under a new
        // provider key (the old key would give back the canceled intent).
        await PaymentIntent.updateOne(
          { _id: existing._id, idempotencyKey },
          { $set: { idempotencyKey: `${idempotencyKey}:canceled:${existing._id}`, status: 'canceled' } },
        );
        providerKey = `${idempotencyKey}:after:${existing._id}`;
        request.log.info(
          { orderId, canceledIntent: existing._id },
          'stored payment intent was canceled at the provider; creating a new one',
        );
      }

      const intent = await provider.create({
        amount,
        orderId,
        orderNumber: order.orderNumber,
        receiptEmail: order.email || undefined,
        description: `Order #${order.orderNumber}`,
        idempotencyKey: providerKey,
      });
      try {
        await PaymentIntent.create({
          _id: intent.id,
          provider: provider.mode,
          idempotencyKey,
          orderId,
          orderNumber: order.orderNumber,
          amount,
          currency: 'usd',
          status: intent.status,
          ...(provider.mode === 'test_mode' ? { clientSecret: intent.clientSecret } : {}),
          ...(order.email ? { receiptEmail: order.email } : {}),
          description: `Order #${order.orderNumber}`,
          attempts: [],
        });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // Two clicks at once: the first record wins and both get its intent (at Stripe the idempotency
        // key already made it the same intent).
        const winner = await PaymentIntent.findOne({ idempotencyKey }).lean<PaymentIntentDoc>();
        if (!winner) throw err;
        return view(provider.mode, await provider.resume(winner));
      }
      request.log.info(
        { orderId, paymentIntentId: intent.id, amount, provider: provider.mode },
        'payment intent created',
      );
      // A new intent means the order's older open ones (made for a total that changed) must never be
      // charged: canceled at the provider now, whatever page still holds them.
      try {
        await cancelStaleIntents(PaymentIntent, provider, ctx.log, orderId, { amount, intentId: intent.id });
      } catch (err) {
        // The customer's new intent stands; order.total_changed's consumer retries, and the webhook
        // never lets a payment of another amount pay the order.
        request.log.error({ err, orderId }, 'older payment intents could not be canceled');
      }
      return view(provider.mode, intent);
    },
  );
}
