// Builds the marketing service (testable without listening): email campaigns, subscribers, SMS
// templates, marketing stats and discount codes. The service kit gives it health, readiness, OpenAPI,
// its info route GET /api/marketing/_service and the outbox.
import { readFileSync } from 'node:fs';
import { createService, type ServiceConfig, type ServiceDefinition } from '@shop/service-kit';
import { loadConfig, type MarketingConfig } from './config.js';
import { discountReplies } from './events/discount-redemptions.js';
import { emailFailedConsumer } from './events/email-failed.js';
import { emailSentConsumer } from './events/email-sent.js';
import { orderCreatedConsumer } from './events/order-created.js';
import { orderPaidConsumer } from './events/order-paid.js';
import { orderQuoteSentConsumer } from './events/order-quote-sent.js';
import { orderStatusChangedConsumer } from './events/order-status-changed.js';
import { CampaignSender } from './jobs/campaign-sender.js';
import { Scheduler } from './jobs/scheduler.js';
import { SmsSender } from './jobs/sms-sender.js';
import { contentModels } from './models/content.js';
import { discountModels } from './models/discount.js';
import { communicationModels } from './models/index.js';
import { registerAdminDiscountRoutes } from './routes/admin/discounts.js';
import { registerAdminEmailRoutes } from './routes/admin/emails.js';
import { registerAdminSmsRoutes } from './routes/admin/sms.js';
import { registerAdminStatsRoutes } from './routes/admin/stats.js';
import { registerAdminSubscriberRoutes } from './routes/admin/subscribers.js';
import { registerContentRoutes } from './routes/content.js';
import { registerTrackingRoutes } from './routes/tracking.js';
import { registerUnsubscribeRoutes } from './routes/unsubscribe.js';
import { smsProviderFor, type SmsProvider } from './sms/provider.js';
import { erasureRequestedConsumer } from './privacy/erasure.js';
import { privacyExportReply } from './privacy/export.js';

// package.json sits one level above both src/ and dist/.
export const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface MarketingTestHooks extends Pick<ServiceDefinition<unknown>, 'logDestination' | 'relay'> {
  /** Replaces the SMS provider chosen from the config. */
  smsProvider?: SmsProvider;
}

export async function buildApp(
  config: ServiceConfig &
    Partial<Pick<MarketingConfig, 'twilio' | 'campaignBatchSize' | 'jobIntervalMs'>> = loadConfig(),
  testHooks: MarketingTestHooks = {},
) {
  const { smsProvider, ...kitHooks } = testHooks;
  let scheduler: Scheduler | undefined;
  let campaigns: CampaignSender | undefined;
  const kick = () => scheduler?.kick();
  const service = await createService({
    name: 'marketing',
    version,
    config,
    openapi: {
      title: 'Shop marketing service',
      description: 'Email campaigns, discount codes, SMS templates, subscribers and the editable site content.',
    },
    models: (connection) => ({
      ...discountModels(connection),
      ...communicationModels(connection),
      ...contentModels(connection),
    }),
    routes(app, ctx) {
      registerAdminDiscountRoutes(app, ctx);
      registerAdminEmailRoutes(app, ctx, kick);
      registerAdminSubscriberRoutes(app, ctx);
      registerAdminSmsRoutes(app, ctx);
      registerAdminStatsRoutes(app, ctx);
      registerUnsubscribeRoutes(app, ctx);
      registerTrackingRoutes(app, ctx);
      registerContentRoutes(app, ctx);
      // Jobs start once MongoDB is connected (afterConnect) and stop when the HTTP server closes, which
      // stop() does before closing MongoDB.
      app.addHook('onClose', async () => {
        await scheduler?.stop();
      });
    },
    async afterConnect(ctx) {
      campaigns = new CampaignSender(ctx, { batchSize: config.campaignBatchSize ?? 200 });
      const sms = new SmsSender(ctx, smsProvider ?? smsProviderFor(config.twilio));
      scheduler = new Scheduler(
        [
          { name: 'campaign-sender', run: (stop) => campaigns!.pass(stop) },
          { name: 'sms-sender', run: (stop) => sms.pass(stop) },
        ],
        config.jobIntervalMs ?? 5000,
        ctx.log,
      );
      scheduler.start();
    },
    replies: (ctx) => [...discountReplies(ctx), privacyExportReply(ctx.models)],
    consumers: (ctx) => [
      orderCreatedConsumer(ctx.models, kick),
      orderQuoteSentConsumer(ctx.models, kick),
      orderStatusChangedConsumer(ctx.models, kick),
      orderPaidConsumer(ctx.models, kick),
      emailSentConsumer(ctx.models),
      emailFailedConsumer(ctx.models),
      erasureRequestedConsumer(ctx.models),
    ],
    ...kitHooks,
  });
  service.ctx.log.info(
    { sms: config.twilio ? 'twilio' : 'dev_outbox' },
    config.twilio ? 'SMS through Twilio' : 'SMS kept in the local development outbox',
  );
  return Object.assign(service, { kick });
}
