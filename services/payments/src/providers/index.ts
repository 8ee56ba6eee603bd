// The provider the configuration asks for: Stripe with its keys, the service's own test mode without.
import type { Logger } from '@shop/service-kit';
import type { PaymentsConfig } from '../config.js';
import type { PaymentModels } from '../models/payments.js';
import { StripeProvider } from './stripe.js';
import { TestModeProvider } from './test-mode.js';

export type Provider = StripeProvider | TestModeProvider;

export function providerFor(config: PaymentsConfig, models: PaymentModels, log: Logger): Provider {
  return config.stripe ? new StripeProvider(config.stripe, log) : new TestModeProvider(models.PaymentIntent);
}

export type { NewIntent, PaymentProvider, ProviderIntent } from './provider.js';
export { StripeProvider } from './stripe.js';
export { TestModeProvider } from './test-mode.js';
