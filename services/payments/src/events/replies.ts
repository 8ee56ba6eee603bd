// What the payments service answers over NATS request/reply: orders asks whether a payment intent
// succeeded for an order (before it accepts the payment page's "paid"), and the tax rate of a quote.
import {
  paymentVerifyRequestSchema,
  paymentVerifySubject,
  taxRateRequestSchema,
  taxRateSubject,
} from '@shop/contracts';
import { replyTo, type ServiceContext } from '@shop/service-kit';
import { refundDueMessage, unknownIntent, verifyIntent } from '../domain/payment-rules.js';
import { taxRateFor } from '../domain/tax.js';
import type { PaymentIntentDoc, PaymentModels } from '../models/payments.js';
import type { Provider } from '../providers/index.js';

export function paymentReplies(ctx: ServiceContext<PaymentModels>, provider: Provider) {
  const { PaymentIntent } = ctx.models;
  return [
    // The provider is the truth (Stripe: paymentIntents.retrieve; test mode: the service's own record).
    replyTo(paymentVerifySubject, paymentVerifyRequestSchema, async ({ orderId, paymentIntentId }, { log }) => {
      const intent = await provider.retrieve(paymentIntentId);
      if (!intent) {
        log.info({ orderId, paymentIntentId }, 'payment verification: unknown intent');
        return unknownIntent(paymentIntentId, provider.mode);
      }
      const record = await PaymentIntent.findById(paymentIntentId, { succeededAt: 1, refundDue: 1 }).lean<
        Pick<PaymentIntentDoc, 'succeededAt' | 'refundDue'>
      >();
      const verified = verifyIntent(orderId, { ...intent, paidAt: record?.succeededAt }, provider.mode);
      // A payment kept for a refund (it did not pay the order when it arrived) never pays it later.
      const result =
        verified.verified && record?.refundDue
          ? { ...verified, verified: false, reason: `${refundDueMessage} ${record.refundDue.reason}` }
          : verified;
      if (!result.verified)
        log.info(
          { orderId, paymentIntentId, reason: result.reason, intentOrderId: intent.orderId },
          'payment not verified',
        );
      return result;
    }),
    replyTo(taxRateSubject, taxRateRequestSchema, async (question) => taxRateFor(question)),
  ];
}
