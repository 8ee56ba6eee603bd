// Stripe through its official SDK. With STRIPE_API_URL the SDK talks to another host (the tests' local
// fake of Stripe's HTTP API); otherwise to api.stripe.com.
import Stripe from 'stripe';
import { AppError, type Logger } from '@shop/service-kit';
import { paymentMessages } from '@shop/contracts';
import type { StripeConfig } from '../config.js';
import type { PaymentIntentDoc } from '../models/payments.js';
import type { NewIntent, PaymentProvider, ProviderIntent } from './provider.js';

export function stripeClient(config: StripeConfig): Stripe {
  return new Stripe(config.secretKey, {
    ...(config.apiUrl ? { host: config.apiUrl.host, port: config.apiUrl.port, protocol: config.apiUrl.protocol } : {}),
    telemetry: false,
    // The SDK retries a failed call itself (with the same idempotency key); a page waits for the answer.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'shop-payments' },
  });
}

export function intentOfStripe(intent: Stripe.PaymentIntent): ProviderIntent {
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    amount: intent.status === 'succeeded' && intent.amount_received > 0 ? intent.amount_received : intent.amount,
    currency: intent.currency,
    status: intent.status,
    orderId: intent.metadata?.orderId || null,
    orderNumber: intent.metadata?.orderNumber || null,
  };
}

export const providerUnreachable = 'The payment provider could not be reached. Please try again in a few minutes.';

const isMissing = (err: unknown) =>
  err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing');

/** A Stripe failure as the customer reads it; the detail goes to the log. */
function providerError(
  log: Logger,
  err: unknown,
  what: string,
  message: string = paymentMessages.createFailed,
): AppError {
  log.error(
    {
      err,
      stripe:
        err instanceof Stripe.errors.StripeError
          ? { type: err.type, code: err.code, statusCode: err.statusCode, requestId: err.requestId }
          : undefined,
    },
    `Stripe ${what} failed`,
  );
  return new AppError(502, 'PAYMENT_PROVIDER_ERROR', message, undefined, { cause: err });
}

export class StripeProvider implements PaymentProvider {
  readonly mode = 'stripe' as const;
  readonly stripe: Stripe;

  constructor(
    private readonly config: StripeConfig,
    private readonly log: Logger,
  ) {
    this.stripe = stripeClient(config);
  }

  get publishableKey() {
    return this.config.publishableKey;
  }

  async create(input: NewIntent): Promise<ProviderIntent> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: 'usd',
          // The page confirms with Stripe Elements' card field.
          allowed_payment_method_types: ['card'],
          description: input.description,
          ...(input.receiptEmail ? { receipt_email: input.receiptEmail } : {}),
          metadata: { orderId: input.orderId, orderNumber: input.orderNumber },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return intentOfStripe(intent);
    } catch (err) {
      throw providerError(this.log, err, 'payment intent creation');
    }
  }

  async resume(record: PaymentIntentDoc): Promise<ProviderIntent> {
    // Stripe keeps the client secret; ask for it again rather than storing it.
    const intent = await this.retrieve(record._id);
    if (!intent) throw new AppError(502, 'PAYMENT_PROVIDER_ERROR', paymentMessages.createFailed);
    return intent;
  }

  async retrieve(id: string): Promise<ProviderIntent | null> {
    try {
      return intentOfStripe(await this.stripe.paymentIntents.retrieve(id));
    } catch (err) {
      if (isMissing(err)) return null;
      throw providerError(this.log, err, 'payment intent lookup', providerUnreachable);
    }
  }

  async cancel(record: PaymentIntentDoc): Promise<ProviderIntent | null> {
    try {
      // 'abandoned': the page that held it is stale; the customer pays the new total with a new intent.
      return intentOfStripe(await this.stripe.paymentIntents.cancel(record._id, { cancellation_reason: 'abandoned' }));
    } catch (err) {
      if (isMissing(err)) return null;
      // Already succeeded (the card went through first) or canceled before: Stripe refuses to cancel;
      // its current state says which.
      if (err instanceof Stripe.errors.StripeError && err.code === 'payment_intent_unexpected_state')
        return this.retrieve(record._id);
      throw providerError(this.log, err, 'payment intent cancellation', providerUnreachable);
    }
  }

  /** Checks the `stripe-signature` header over the raw body; throws when it does not match. */
  constructEvent(rawBody: Buffer, signature: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.config.webhookSecret);
  }
}
