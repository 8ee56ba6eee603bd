// Builds the orders service (testable without listening): quote requests, uploads (GridFS), AI designs,
// tracking and quote payment. The service kit gives it health, readiness, OpenAPI, its info route and the outbox.
import { readFileSync } from 'node:fs';
import { createService, type ServiceApp, type ServiceDefinition } from '@shop/service-kit';
import { imageGeneratorFor, type ImageGenerator } from './ai/images.js';
import { loadConfig, type OrdersConfig } from './config.js';
import { orderModels, type OrderModels } from './models/order.js';
import { registerAiRoutes, type AiRateLimit } from './routes/ai.js';
import { registerOrderRoutes } from './routes/orders.js';
import { registerTrackingRoutes } from './routes/tracking.js';
import { registerAdminAnalyticsRoutes } from './routes/admin/analytics.js';
import { registerAdminExportRoutes } from './routes/admin/export.js';
import { registerAdminOrderRoutes } from './routes/admin/orders.js';
import { registerAdminDiscountRoutes } from './routes/admin/discounts.js';
import { contentChangedConsumer } from './events/content-changed.js';
import { emailHistoryConsumers } from './events/email-history.js';
import { paymentConsumers, paymentReplies } from './events/payments.js';
import { erasureRequestedConsumer } from './privacy/erasure.js';
import { privacyExportReply } from './privacy/export.js';
import { registerPaymentRoutes } from './routes/payment.js';
import { registerUploadRoutes } from './routes/uploads.js';
import { startUnusedFileSweep } from './jobs/unused-files.js';

export type OrdersApp = ServiceApp;

// package.json sits one level above both src/ and dist/.
export const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface OrdersTestHooks extends Pick<ServiceDefinition<OrderModels>, 'logDestination' | 'relay'> {
  /** Replaces the image source chosen from the config (tests). */
  imageGenerator?: ImageGenerator;
  aiRateLimit?: AiRateLimit;
  /** false: no periodic unused-file sweep (tests call `sweepUnusedFiles` themselves). */
  unusedFileSweep?: boolean;
}

export function buildApp(config: OrdersConfig = loadConfig(), hooks: OrdersTestHooks = {}) {
  const { imageGenerator, aiRateLimit, unusedFileSweep = true, ...serviceHooks } = hooks;
  let sweep: ReturnType<typeof startUnusedFileSweep> | undefined;
  return createService<OrderModels>({
    name: 'orders',
    version,
    config,
    openapi: {
      title: 'Shop orders service',
      description:
        'Quote requests and orders: the order flow, uploads (GridFS), AI designs, tracking, and the back-office order tools.',
    },
    models: orderModels,
    async routes(app, ctx) {
      registerOrderRoutes(app, ctx);
      registerTrackingRoutes(app, ctx);
      registerPaymentRoutes(app, ctx);
      await registerUploadRoutes(app, ctx);
      await registerAiRoutes(app, ctx, imageGenerator ?? (await imageGeneratorFor(config.ai, ctx.log)), aiRateLimit);
      registerAdminOrderRoutes(app, ctx);
      registerAdminDiscountRoutes(app, ctx);
      registerAdminExportRoutes(app, ctx);
      registerAdminAnalyticsRoutes(app, ctx);
      // The service kit has no hook for background work: the sweep starts once MongoDB is connected
      // (afterConnect) and stops when the HTTP server closes, which stop() does before closing MongoDB.
      app.addHook('onClose', async () => {
        await sweep?.stop();
        sweep = undefined;
      });
    },
    async afterConnect(ctx) {
      if (unusedFileSweep) sweep = startUnusedFileSweep(ctx, config.uploadRetentionHours * 60 * 60 * 1000);
    },
    replies: (ctx) => [...paymentReplies(ctx), privacyExportReply(ctx.models)],
    // For the production check: whether designs come from OpenAI or the local generator (never the key).
    readinessFacts: () => ({ openaiKeySet: Boolean(config.ai.apiKey) }),
    consumers: (ctx) => [
      ...emailHistoryConsumers(ctx.models),
      ...paymentConsumers(ctx),
      contentChangedConsumer(ctx.connection),
      erasureRequestedConsumer(ctx.models),
    ],
    ...serviceHooks,
  });
}
