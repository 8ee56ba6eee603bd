// Builds the email service (testable without listening): the durable email queue sent over SMTP, the
// templates of the order confirmation, the admin's new-order notification and the verification code,
// the admin notification settings and the development mailbox.
import { readFileSync } from 'node:fs';
import mongoose from 'mongoose';
import { createService, type ServiceDefinition } from '@shop/service-kit';
import { loadConfig, type EmailConfig } from './config.js';
import { alertRaisedConsumer } from './events/alert-raised.js';
import { refundDueConsumer } from './events/refund-due.js';
import { campaignConsumer } from './events/campaign-send-requested.js';
import { emailConsumers, type ConsumerDeps } from './events/consumers.js';
import { orderUpdateConsumers } from './events/order-update-consumers.js';
import { supportConsumers } from './events/support.js';
import { registerModels } from './models/index.js';
import { erasureRequestedConsumer } from './privacy/erasure.js';
import { privacyExportReply } from './privacy/export.js';
import { smtpSender, type MailSender } from './queue/transport.js';
import { EmailWorker } from './queue/worker.js';
import { mailboxRoutes } from './routes/mailbox.js';
import { diagnosticsRoutes, emailEnvironment, probeSmtp, queueStats } from './routes/diagnostics.js';
import { settingsRoutes } from './routes/settings.js';

// package.json sits one level above both src/ and dist/.
export const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface EmailTestHooks extends Pick<ServiceDefinition<unknown>, 'logDestination' | 'relay'> {
  /** The time the queue sees (retry schedule). Default: the real clock. */
  clock?: () => Date;
  /** Claim lease of the worker (default 2 minutes). */
  leaseMs?: number;
  /** Do not start the worker with the service (a test drives `worker.drain()` itself). */
  manualWorker?: boolean;
}

export async function buildApp(config: EmailConfig = loadConfig(), testHooks: EmailTestHooks = {}) {
  const { clock = () => new Date(), leaseMs, manualWorker = false, ...kitHooks } = testHooks;
  const sender: MailSender = smtpSender(config.email.smtpUrl, {
    maxConnections: config.email.sendConcurrency,
    maxMessages: config.email.smtpMaxMessages,
  });
  let worker!: EmailWorker;
  const service = await createService({
    name: 'email',
    version,
    config,
    openapi: {
      title: 'Shop email service',
      description: 'The outgoing email queue over SMTP, templates, admin notification settings and email diagnostics.',
    },
    models: registerModels,
    routes: (app, ctx) => {
      worker = new EmailWorker(ctx, {
        settings: config.email,
        sender,
        clock,
        leaseMs: leaseMs ?? config.email.claimLeaseMs,
      });
      mailboxRoutes(app, config.email.devMailboxUrl, config.nodeEnv);
      settingsRoutes(app, ctx, config.email);
      diagnosticsRoutes(app, ctx, config, () => worker);
      // The worker lives with the server: it starts once MongoDB is connected (createService listens
      // first, then connects) and stops, finishing the email in hand, when the server closes.
      app.addHook('onReady', async () => {
        if (manualWorker) return;
        if (ctx.connection.readyState === mongoose.ConnectionStates.connected) worker.start();
        else ctx.connection.once('connected', () => worker.start());
      });
      app.addHook('onClose', async () => {
        await worker.stop();
      });
    },
    // For the production check: the mail transport (a local mailbox in production is a failure), whether
    // SMTP answers, and the failed emails.
    readinessFacts: async (ctx) => {
      const [smtp, stats] = await Promise.all([probeSmtp(config.email.smtpUrl, 1_500), queueStats(ctx.models.Email)]);
      return { email: emailEnvironment(config).email, smtp, queue: stats };
    },
    consumers: (ctx) => {
      const deps: ConsumerDeps = {
        models: ctx.models,
        settings: config.email,
        clock,
        queued: (ids) => (ids ? worker.queuedHere(ids) : void setTimeout(() => worker.wake(), 50).unref()),
      };
      return [
        ...emailConsumers(deps),
        ...orderUpdateConsumers(deps),
        ...supportConsumers(deps),
        campaignConsumer(deps),
        alertRaisedConsumer(deps),
        refundDueConsumer(deps),
        erasureRequestedConsumer(ctx.models),
      ];
    },
    replies: (ctx) => [privacyExportReply(ctx.models)],
    ...kitHooks,
  });
  service.ctx.log.info(
    { smtp: redactSmtp(config.email.smtpUrl), devMailbox: config.email.devMailboxUrl ?? null },
    config.email.devMailboxUrl ? 'sending through the local dev mailbox' : 'sending over SMTP',
  );
  return Object.assign(service, { worker });
}

/** The SMTP URL without its password, for logs. */
export function redactSmtp(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@/]+)@/, '//$1:***@');
}
