// Builds the marketing service (testable without listening): Email campaigns, discount codes, SMS templates, subscribers and the editable site content.
// Its routes, models and event handlers arrive with their features; the service kit already gives it
// health, readiness, OpenAPI, its info route GET /api/marketing/_service and the outbox.
import { readFileSync } from 'node:fs';
import { createService, type ServiceConfig, type ServiceDefinition } from '@shop/service-kit';
import { loadConfig } from './config.js';
import { discountReplies } from './events/discount-redemptions.js';
import { discountModels } from './models/discount.js';
import { registerAdminDiscountRoutes } from './routes/admin/discounts.js';

// package.json sits one level above both src/ and dist/.
export const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function buildApp(config: ServiceConfig = loadConfig(), testHooks: Pick<ServiceDefinition<unknown>, 'logDestination'> = {}) {
  return createService({
    name: 'marketing',
    version,
    config,
    openapi: {
      title: 'Shop marketing service',
      description: 'Email campaigns, discount codes, SMS templates, subscribers and the editable site content.',
    },
    models: (connection) => ({ ...discountModels(connection) }),
    routes(app, ctx) {
      registerAdminDiscountRoutes(app, ctx);
    },
    replies: (ctx) => [...discountReplies(ctx)],
    ...testHooks,
  });
}
