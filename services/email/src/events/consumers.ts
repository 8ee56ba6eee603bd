// The events that become emails. Each handler runs in the service kit's transaction with the
// processed-event mark, and queues its emails in that same transaction: an event delivered twice is
// skipped, and an event whose handler failed leaves no half-queued emails behind.
import type { ClientSession, Types } from 'mongoose';
import { consumeEvent, consumeEventBatches, type Logger } from '@shop/service-kit';
import type { EmailSettings } from '../config.js';
import type { EmailModels } from '../models/index.js';
import { enqueueEmail, enqueueEmails, type QueueRequest } from '../queue/enqueue.js';
import { adminNewOrderEmail, orderConfirmationEmail, verificationCodeEmail } from '../templates/index.js';
import { currentAdminSettings } from '../settings.js';
import type { AdminSettings } from '@shop/contracts';

export interface ConsumerDeps {
  models: EmailModels;
  settings: EmailSettings;
  clock: () => Date;
  /**
   * Called once the handler queued emails, so the worker picks them up soon after the commit. With their
   * ids, called after the commit: the worker then claims those by id instead of reading the queue.
   */
  queued: (ids?: readonly Types.ObjectId[]) => void;
}

/**
 * The team's copy of an event (new order, payment): to the notification address from the admin
 * settings, and only while email notifications are on (null when they are off).
 */
export async function adminNotice(
  { models, settings }: ConsumerDeps,
  session: ClientSession,
  log: Logger,
  email: Omit<QueueRequest, 'to'>,
): Promise<QueueRequest | null> {
  return noticeTo(await currentAdminSettings(models.AdminSettings, settings, session), log, email);
}

/** The team's copy of an email under the given admin settings (null while notifications are off). */
function noticeTo(admin: AdminSettings, log: Logger, email: Omit<QueueRequest, 'to'>): QueueRequest | null {
  if (!admin.emailNotificationsEnabled) {
    log.info(
      { orderNumber: email.orderNumber, template: email.template },
      'admin notifications are off; no team email',
    );
    return null;
  }
  return { ...email, to: admin.notificationEmail };
}

/** Queues the team's copy of an event (see `adminNotice`). */
export async function queueAdminNotice(
  deps: ConsumerDeps,
  session: ClientSession,
  log: Logger,
  email: Omit<QueueRequest, 'to'>,
) {
  const notice = await adminNotice(deps, session, log, email);
  if (notice)
    await enqueueEmail(deps.models.Email, session, notice, {
      maxAttempts: deps.settings.maxAttempts,
      now: deps.clock(),
    });
}

export function emailConsumers(deps: ConsumerDeps) {
  const { models, settings, clock, queued } = deps;
  const options = () => ({ maxAttempts: settings.maxAttempts, now: clock() });
  return [
    // One quote request, two emails (the customer's confirmation, the team's notice). The quote requests
    // that arrived together are queued together: one read of the admin settings, one of the dedupe keys
    // and one insert for the whole batch, which is what lets the queue keep up with a few hundred quote
    // requests a second.
    consumeEventBatches('order.created', async (events, { session, log, afterCommit }) => {
      const admin = await currentAdminSettings(models.AdminSettings, settings, session);
      const requests = events.flatMap((event) => {
        const order = event.data;
        const common = { sourceEventId: event.id, orderId: order.orderId, orderNumber: order.orderNumber };
        const notice = noticeTo(admin, log, { ...adminNewOrderEmail(order, settings.shopUrl), ...common });
        return [
          { ...orderConfirmationEmail(order, settings.shopUrl), to: order.email, ...common },
          ...(notice ? [notice] : []),
        ];
      });
      const ids = await enqueueEmails(models.Email, session, requests, options());
      afterCommit(() => queued(ids));
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
