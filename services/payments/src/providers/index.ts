// The provider the configuration asks for: Stripe with its keys, the service's own test mode without.
import type { Logger } from '@shop/service-kit';
import type { PaymentsConfig } from '../config.js';
import type { PaymentModels } from '../models/payments.js';
import type { StripeProvider } from './stripe.js';
import { TestModeProvider } from './test-mode.js';

export type Provider = StripeProvider | TestModeProvider;

/**
 * Makes the provider once the kit has the models and the logger. Stripe's SDK (about 1 MiB of code, 4 MiB
 * of heap in every payments process) is loaded only when Stripe is configured (issue 20: stack memory).
 */
export async function providerMaker(config: PaymentsConfig): Promise<(models: PaymentModels, log: Logger) => Provider> {
  const stripe = config.stripe;
  if (!stripe) return (models) => new TestModeProvider(models.PaymentIntent);
  const { StripeProvider } = await import('./stripe.js');
  return (_models, log) => new StripeProvider(stripe, log);
}

export type { NewIntent, PaymentProvider, ProviderIntent } from './provider.js';
export { TestModeProvider } from './test-mode.js';
