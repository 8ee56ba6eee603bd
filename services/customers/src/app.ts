// Builds the customers service (testable without listening): customer profiles built from order
// events, and the returning-customer lookup with emailed verification codes.
import { readFileSync } from 'node:fs';
import { createService, type ServiceDefinition } from '@shop/service-kit';
import { loadConfig, type CustomersConfig } from './config.js';
import { orderCreatedConsumer } from './events/order-created.js';
import { registerModels } from './models/index.js';
import { lookupRoutes } from './routes/lookup.js';

// package.json sits one level above both src/ and dist/.
export const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface CustomersTestHooks extends Pick<ServiceDefinition<unknown>, 'logDestination' | 'relay'> {
  /** The time the lookup rules see (code expiry, rate-limit windows). Default: the real clock. */
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
      description: 'Customer profiles built from order events, and the returning-customer lookup with emailed verification codes.',
    },
    models: registerModels,
    routes: (app, ctx) => lookupRoutes(app, ctx, { settings: config.lookup, clock }),
    consumers: (ctx) => [orderCreatedConsumer(ctx.models)],
    ...kitHooks,
  });
  if (config.lookup.secretIsDevelopmentDefault) {
    service.ctx.log.warn('VERIFICATION_CODE_SECRET is not set: verification codes are hashed with the development secret');
  }
  return service;
}
