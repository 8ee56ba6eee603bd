// The events that become emails. Each handler runs in the service kit's transaction with the
// processed-event mark, and queues its emails in that same transaction: an event delivered twice is
// skipped, and an event whose handler failed leaves no half-queued emails behind.
import type { ClientSession } from 'mongoose';
import { consumeEvent, type Logger } from '@shop/service-kit';
import type { EmailSettings } from '../config.js';
import type { EmailModels } from '../models/index.js';
import { enqueueEmail, type QueueRequest } from '../queue/enqueue.js';
import { adminNewOrderEmail, orderConfirmationEmail, verificationCodeEmail } from '../templates/index.js';
import { currentAdminSettings } from '../settings.js';

export interface ConsumerDeps {
  models: EmailModels;
  settings: EmailSettings;
  clock: () => Date;
  /** Called once the handler returns, so the worker picks the new emails up soon after the commit. */
  queued: () => void;
}

/**
 * The team's copy of an event (new order, payment): to the notification address from the admin
 * settings, and only while email notifications are on.
 */
export async function queueAdminNotice(
  { models, settings, clock }: ConsumerDeps,
  session: ClientSession,
  log: Logger,
  email: Omit<QueueRequest, 'to'>,
) {
  const admin = await currentAdminSettings(models.AdminSettings, settings, session);
  if (!admin.emailNotificationsEnabled) {
    log.info(
      { orderNumber: email.orderNumber, template: email.template },
      'admin notifications are off; no team email',
    );
    return;
  }
  await enqueueEmail(
    models.Email,
    session,
    { ...email, to: admin.notificationEmail },
    { maxAttempts: settings.maxAttempts, now: clock() },
  );
}

export function emailConsumers(deps: ConsumerDeps) {
  const { models, settings, clock, queued } = deps;
  const options = () => ({ maxAttempts: settings.maxAttempts, now: clock() });
  return [
    consumeEvent('order.created', async (event, { session, log }) => {
      const order = event.data;
      const common = { sourceEventId: event.id, orderId: order.orderId, orderNumber: order.orderNumber };
      await enqueueEmail(
        models.Email,
        session,
        { ...orderConfirmationEmail(order, settings.shopUrl), to: order.email, ...common },
        options(),
      );
      await queueAdminNotice(deps, session, log, { ...adminNewOrderEmail(order, settings.shopUrl), ...common });
      queued();
    }),
    consumeEvent('customer.verification_requested', async (event, { session, log }) => {
      // A code past its expiry is useless to the customer (and must not go out late, e.g. after an
      // outage): mark the event handled and send nothing.
      if (new Date(event.data.expiresAt).getTime() <= clock().getTime()) {
        log.info({ expiresAt: event.data.expiresAt }, 'verification code already expired; no email sent');
        return;
      }
      await enqueueEmail(
        models.Email,
        session,
        { ...verificationCodeEmail(event.data), to: event.data.email, sourceEventId: event.id },
        options(),
      );
      queued();
    }),
  ];
}
