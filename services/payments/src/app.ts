// Builds the payments service (testable without listening): quote payments through Stripe or the
// built-in test mode, Stripe's webhook, the NATS answers orders relies on (payment verification,
// tax rate), and the cancellation of intents for an order total that changed. The service kit gives it
// health, readiness, OpenAPI, its info route and the outbox.
import { readFileSync } from 'node:fs';
import { createService, type ServiceContext, type ServiceDefinition } from '@shop/service-kit';
import { loadConfig, type PaymentsConfig } from './config.js';
import { paymentReplies } from './events/replies.js';
import { orderQuoteSentConsumer } from './events/order-quote-sent.js';
import { orderTotalChangedConsumer } from './events/order-total-changed.js';
import { paymentModels, type PaymentModels } from './models/payments.js';
import { providerMaker, type Provider } from './providers/index.js';
import { registerIntentRoutes } from './routes/intents.js';
import { registerTestModeRoutes } from './routes/test-mode.js';
import { registerWebhookRoute } from './routes/webhook.js';
import { registerRefundsDueRoutes } from './routes/admin/refunds-due.js';
import { businessConfigRoutes } from './routes/admin/business-config.js';
import { businessConfigModel, currentBusinessConfig } from './models/business-config.js';
import { missingBusinessFields, permitsExpiringSoon } from '@shop/contracts';

// package.json sits one level above both src/ and dist/.
export const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export type PaymentsTestHooks = Pick<ServiceDefinition<PaymentModels>, 'logDestination' | 'relay'>;

export async function buildApp(config: PaymentsConfig = loadConfig(), testHooks: PaymentsTestHooks = {}) {
  // One provider per service, made once the kit has the models and the logger; routes and replies share it.
  const makeProvider = await providerMaker(config);
  let provider: Provider | undefined;
  const providerOf = (ctx: ServiceContext<PaymentModels>) => (provider ??= makeProvider(ctx.models, ctx.log));
  return createService<PaymentModels>({
    name: 'payments',
    version,
    config,
    openapi: {
      title: 'Shop payments service',
      description:
        'Quote payments: payment intents (Stripe or the built-in test mode), Stripe webhooks, payment verification and tax rates for orders.',
    },
    models: paymentModels,
    async routes(app, ctx) {
      const provider = providerOf(ctx);
      ctx.log.info(
        { mode: provider.mode },
        provider.mode === 'stripe' ? 'payments through Stripe' : 'payments in test mode: no real charge',
      );
      registerIntentRoutes(app, ctx, provider);
      registerTestModeRoutes(app, ctx, provider);
      await registerWebhookRoute(app, ctx, provider);
      registerRefundsDueRoutes(app, ctx);
      businessConfigRoutes(app, businessConfigModel(ctx.connection));
    },
    // For the production check: key kinds (live or test), never the keys; the registration's gaps.
    async readinessFacts(ctx) {
      const business = await currentBusinessConfig(businessConfigModel(ctx.connection));
      const kind = (key: string | undefined) =>
        key ? (/_live_/.test(key) ? 'live' : /_test_/.test(key) ? 'test' : 'unknown') : null;
      return {
        paymentMode: config.mode,
        stripe: {
          secretKey: kind(config.stripe?.secretKey),
          publishableKey: kind(config.stripe?.publishableKey),
          webhookSecretSet: Boolean(config.stripe?.webhookSecret),
        },
        business: {
          missing: missingBusinessFields(business),
          expiringPermits: permitsExpiringSoon(business).map(({ jurisdiction, permitNumber, expirationDate }) => ({
            jurisdiction,
            permitNumber,
            expirationDate,
          })),
        },
      };
    },
    replies: (ctx) => paymentReplies(ctx, providerOf(ctx)),
    // An order's total changed: its open intents for the old total are canceled at the provider.
    consumers: (ctx) => [orderTotalChangedConsumer(ctx, providerOf(ctx)), orderQuoteSentConsumer(ctx, providerOf(ctx))],
    ...testHooks,
  });
}
