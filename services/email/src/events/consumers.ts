// The events that become emails. Each handler runs in the service kit's transaction with the
// processed-event mark, and queues its emails in that same transaction: an event delivered twice is
// skipped, and an event whose handler failed leaves no half-queued emails behind.
import { consumeEvent } from '@shop/service-kit';
import type { EmailSettings } from '../config.js';
import type { EmailModels } from '../models/index.js';
import { enqueueEmail } from '../queue/enqueue.js';
import { adminNewOrderEmail, orderConfirmationEmail, verificationCodeEmail } from '../templates/index.js';
import { currentAdminSettings } from '../settings.js';

export interface ConsumerDeps {
  models: EmailModels;
  settings: EmailSettings;
  clock: () => Date;
  /** Called once the handler returns, so the worker picks the new emails up soon after the commit. */
  queued: () => void;
}

export function emailConsumers({ models, settings, clock, queued }: ConsumerDeps) {
  const options = () => ({ maxAttempts: settings.maxAttempts, now: clock() });
  return [
    consumeEvent('order.created', async (event, { session, log }) => {
      const order = event.data;
      const common = { sourceEventId: event.id, orderId: order.orderId, orderNumber: order.orderNumber };
      await enqueueEmail(models.Email, session, { ...orderConfirmationEmail(order, settings.shopUrl), to: order.email, ...common }, options());
      const admin = await currentAdminSettings(models.AdminSettings, settings, session);
      if (admin.emailNotificationsEnabled) {
        await enqueueEmail(models.Email, session, { ...adminNewOrderEmail(order, settings.shopUrl), to: admin.notificationEmail, ...common }, options());
      } else {
        log.info({ orderNumber: order.orderNumber }, 'admin notifications are off; no new-order email');
      }
      queued();
    }),
    consumeEvent('customer.verification_requested', async (event, { session }) => {
      await enqueueEmail(models.Email, session, { ...verificationCodeEmail(event.data), to: event.data.email, sourceEventId: event.id }, options());
      queued();
    }),
  ];
}
