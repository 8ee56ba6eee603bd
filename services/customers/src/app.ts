// Builds the customers service (testable without listening): customer profiles and figures built from
// order events, the back office's customer list and details, and the returning-customer lookup with
// emailed verification codes.
import { readFileSync } from 'node:fs';
import { createService, type ServiceDefinition } from '@shop/service-kit';
import { loadConfig, type CustomersConfig } from './config.js';
import { orderCreatedConsumer } from './events/order-created.js';
import { orderQuoteSentConsumer } from './events/order-quote-sent.js';
import { orderStatusChangedConsumer } from './events/order-status-changed.js';
import { applyVipThresholds } from './events/projection.js';
import { registerModels } from './models/index.js';
import { adminCustomerRoutes } from './routes/admin/customers.js';
import { lookupRoutes } from './routes/lookup.js';
import { customerPrivacyRoutes } from './routes/admin/privacy.js';
import { erasureRequestedConsumer } from './privacy/erasure.js';

// package.json sits one level above both src/ and dist/.
export const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface CustomersTestHooks extends Pick<ServiceDefinition<unknown>, 'logDestination' | 'relay'> {
  /** The time the lookup rules (code expiry, rate-limit windows) and the customer status see. Default: the real clock. */
  clock?: () => Date;
}

export async function buildApp(config: CustomersConfig = loadConfig(), testHooks: CustomersTestHooks = {}) {
  const { clock = () => new Date(), ...kitHooks } = testHooks;
  const service = await createService({
    name: 'customers',
    version,
    config,
    openapi: {
      title: 'Shop customers service',
      description:
        'Customer profiles and figures built from order events, the customer list and details for the back office, and the returning-customer lookup with emailed verification codes.',
    },
    models: registerModels,
    routes: (app, ctx) => {
      lookupRoutes(app, ctx, { settings: config.lookup, clock });
      adminCustomerRoutes(app, ctx, { thresholds: config.status, clock });
      customerPrivacyRoutes(app, ctx, { thresholds: config.status, clock });
    },
    consumers: (ctx) => [
      orderCreatedConsumer(ctx.models, config.status),
      orderStatusChangedConsumer(ctx.models, config.status),
      orderQuoteSentConsumer(ctx.models, config.status),
      erasureRequestedConsumer(ctx.models, config.status, clock),
    ],
    afterConnect: async (ctx) => {
      const changed = await applyVipThresholds(ctx.models, config.status);
      if (changed.promoted + changed.demoted > 0)
        ctx.log.info({ ...changed, ...config.status }, 'vip flags brought in line with the thresholds');
    },
    ...kitHooks,
  });
  if (config.lookup.secretIsDevelopmentDefault) {
    service.ctx.log.warn(
      'VERIFICATION_CODE_SECRET is not set: verification codes are hashed with the development secret',
    );
  }
  return service;
}
