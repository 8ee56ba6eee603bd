// Builds the support service (testable without listening): Support messages from visitors and the admin replies, returns, and the public contact configuration.
// Routes: the contact config, support messages (public and admin), returns (public and admin); consumers:
// the orders service's events that feed the return window. The service kit gives it health, readiness,
// OpenAPI, GET /api/support/_service and the outbox.
import { readFileSync } from 'node:fs';
import { createService, type ServiceDefinition } from '@shop/service-kit';
import { loadConfig, type SupportConfig } from './config.js';
import { registerModels } from './models/index.js';
import { orderCreatedConsumer } from './events/order-created.js';
import { orderStatusChangedConsumer } from './events/order-status-changed.js';
import { erasureRequestedConsumer } from './privacy/erasure.js';
import { privacyExportReply } from './privacy/export.js';
import { adminReturnRoutes } from './routes/admin/returns.js';
import { adminSupportRoutes } from './routes/admin/support.js';
import { contactRoutes } from './routes/contact.js';
import { returnRoutes } from './routes/returns.js';
import { supportRoutes } from './routes/support.js';

// package.json sits one level above both src/ and dist/.
export const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export async function buildApp(
  config: SupportConfig = loadConfig(),
  testHooks: Pick<ServiceDefinition<unknown>, 'logDestination'> = {},
) {
  const service = await createService({
    name: 'support',
    version,
    config,
    openapi: {
      title: 'Shop support service',
      description:
        'Support messages from visitors and the admin replies, returns, and the public contact configuration.',
    },
    models: registerModels,
    routes: async (app, ctx) => {
      contactRoutes(app, ctx, config.contactDefaults);
      supportRoutes(app, ctx, config.contactDefaults);
      adminSupportRoutes(app, ctx);
      await returnRoutes(app, ctx);
      adminReturnRoutes(app, ctx);
    },
    consumers: (ctx) => [
      orderCreatedConsumer(ctx),
      orderStatusChangedConsumer(ctx),
      erasureRequestedConsumer(ctx.models),
    ],
    replies: (ctx) => [privacyExportReply(ctx.models)],
    ...testHooks,
  });
  service.ctx.log.info(
    { supportEmail: config.contactDefaults.supportEmail, supportPhone: config.contactDefaults.supportPhone || null },
    'default contact details until an admin saves them',
  );
  return service;
}
