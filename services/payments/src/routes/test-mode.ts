// POST /api/payments/test-mode/confirm: the built-in card form's confirmation, standing in for Stripe.js
// in test mode ("Test mode: no real charge"). The intent's status and its payment.succeeded /
// payment.failed event are one transaction, so an order hears of every outcome exactly once.
import { timingSafeEqual } from 'node:crypto';
import {
  errorEnvelopeSchema,
  paymentMessages,
  paymentPaths,
  testModeConfirmBodySchema,
  testModeConfirmResponseSchema,
  type TestModeConfirmResponse,
} from '@shop/contracts';
import { AppError, badRequest, forbidden, notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import { payableAmount, testCardOutcome, testModeOffMessage } from '../domain/payment-rules.js';
import { quoteOf } from './intents.js';
import type { PaymentIntentDoc, PaymentModels } from '../models/payments.js';
import type { Provider } from '../providers/index.js';
import { awaitingCardStatus, canceledStatus } from '../providers/test-mode.js';

const sameSecret = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

const answer = (intent: Pick<PaymentIntentDoc, '_id' | 'status' | 'amount'>): TestModeConfirmResponse => ({
  success: true,
  paymentIntent: { id: intent._id, status: intent.status, amount: intent.amount, currency: 'usd' },
});

/** A payment page opened before the total changed (a discount applied or removed) tries the old intent. */
export const amountChangedMessage =
  'The amount to pay for this order has changed. Please reload the page to pay the new total.';

const amountChanged = () => new AppError(409, 'AMOUNT_CHANGED', amountChangedMessage);

export function registerTestModeRoutes(app: ServiceApp, ctx: ServiceContext<PaymentModels>, provider: Provider) {
  const { PaymentIntent } = ctx.models;

  app.post(
    paymentPaths.testModeConfirm,
    {
      schema: {
        tags: ['payments'],
        summary:
          'Test mode: confirm a payment intent with a test card (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined)',
        body: testModeConfirmBodySchema,
        response: {
          200: testModeConfirmResponseSchema,
          400: errorEnvelopeSchema,
          402: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          410: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      if (provider.mode !== 'test_mode') throw notFound(testModeOffMessage);
      const { paymentIntentId, clientSecret, card } = request.body;
      const intent = await PaymentIntent.findOne({
        _id: paymentIntentId,
        provider: 'test_mode',
      }).lean<PaymentIntentDoc>();
      if (!intent) throw notFound(paymentMessages.intentNotFound);
      if (!intent.clientSecret || !sameSecret(intent.clientSecret, clientSecret))
        throw forbidden(paymentMessages.badClientSecret);
      // Confirming again after success (a double click, a retried request) changes nothing.
      if (intent.status === 'succeeded') return answer(intent);
      // Canceled because the order's total changed (even if it has changed back since): never charged.
      if (intent.status === canceledStatus) throw amountChanged();

      const now = new Date();
      const outcome = testCardOutcome(card, now);
      if (outcome.outcome === 'refused')
        throw badRequest(outcome.message, [{ field: 'card.number', message: outcome.message }]);
      // The order's total may have changed since this intent was made (a discount applied or removed):
      // an intent for another amount is never charged; the page's next Pay gets one for the new total.
      const order = await quoteOf(ctx, intent.orderId);
      const payable = payableAmount(order, now);
      if (!payable.ok || payable.amount !== intent.amount) {
        await PaymentIntent.updateOne(
          { _id: intent._id, status: { $ne: 'succeeded' } },
          { $set: { status: canceledStatus, lastError: amountChangedMessage } },
        );
        request.log.info(
          {
            paymentIntentId,
            orderId: intent.orderId,
            intentAmount: intent.amount,
            payable: payable.ok ? payable.amount : payable.refusal.code,
          },
          'stale payment intent refused',
        );
        throw payable.ok ? amountChanged() : new AppError(409, 'AMOUNT_CHANGED', payable.refusal.message);
      }
      const cardLast4 = card.number.slice(-4);
      const event = {
        orderId: intent.orderId,
        orderNumber: intent.orderNumber,
        paymentIntentId: intent._id,
        amount: intent.amount,
        currency: 'usd' as const,
        provider: 'test_mode' as const,
      };

      if (outcome.outcome === 'declined') {
        const recorded = await ctx.withOutbox(async (session, outbox) => {
          const updated = await PaymentIntent.updateOne(
            { _id: intent._id, status: { $nin: ['succeeded', canceledStatus] } },
            {
              $set: { status: awaitingCardStatus, lastError: outcome.message },
              $push: {
                attempts: {
                  outcome: 'declined',
                  message: outcome.message,
                  declineCode: outcome.declineCode,
                  cardLast4,
                  at: now,
                },
              },
            },
            { session },
          );
          if (updated.modifiedCount === 1)
            outbox.add('payment.failed', { ...event, reason: outcome.message, failedAt: now.toISOString() });
          return updated.modifiedCount === 1;
        });
        if (!recorded) {
          // Canceled meanwhile (the total changed), or another confirmation succeeded: then it is paid,
          // whatever this card said.
          const current = await PaymentIntent.findById(intent._id, { status: 1 }).lean<
            Pick<PaymentIntentDoc, 'status'>
          >();
          if (current?.status === canceledStatus) throw amountChanged();
          return answer({ ...intent, status: 'succeeded' });
        }
        request.log.info(
          { paymentIntentId, orderId: intent.orderId, declineCode: outcome.declineCode },
          'test-mode card declined',
        );
        throw new AppError(402, 'CARD_DECLINED', outcome.message, { declineCode: outcome.declineCode });
      }

      const succeeded = await ctx.withOutbox(async (session, outbox) => {
        // Only the confirmation that moves the intent to succeeded announces it (two at once: one event),
        // and never for an intent canceled meanwhile (the order's total changed while the card was checked).
        const updated = await PaymentIntent.findOneAndUpdate(
          { _id: intent._id, status: { $nin: ['succeeded', canceledStatus] } },
          {
            $set: { status: 'succeeded', succeededAt: now },
            $unset: { lastError: 1 },
            $push: { attempts: { outcome: 'succeeded', cardLast4, at: now } },
          },
          { session, returnDocument: 'after' },
        ).lean<PaymentIntentDoc>();
        if (updated) outbox.add('payment.succeeded', { ...event, paidAt: now.toISOString() });
        return updated;
      });
      if (succeeded) {
        request.log.info(
          { paymentIntentId, orderId: intent.orderId, amount: intent.amount },
          'test-mode payment succeeded',
        );
        return answer(succeeded);
      }
      // Not moved: another confirmation succeeded first, or the intent was canceled meanwhile.
      const current = await PaymentIntent.findById(intent._id, { status: 1 }).lean<Pick<PaymentIntentDoc, 'status'>>();
      if (current?.status === canceledStatus) throw amountChanged();
      return answer({ ...intent, status: 'succeeded' });
    },
  );
}
