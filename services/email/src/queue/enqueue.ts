// Puts rendered emails into the queue inside the caller's transaction (an event consumer's), so the
// event is marked processed if and only if its emails are queued.
import { Types, type ClientSession } from 'mongoose';
import { insertComplete } from '@shop/service-kit';
import type { EmailModels } from '../models/index.js';
import type { RenderedEmail } from '../templates/index.js';

export interface QueueRequest extends RenderedEmail {
  to: string;
  sourceEventId: string;
  orderId?: string;
  orderNumber?: string;
  emailRecordId?: string;
  /** Replaces `<sourceEventId>:<template>` when one event makes many emails of one template (a campaign batch). */
  dedupeKey?: string;
  campaignId?: string;
  subscriberId?: string;
  headers?: Record<string, string>;
}

/** Queues the email unless this event already queued its twin; returns whether it was queued. */
export async function enqueueEmail(
  Email: EmailModels['Email'],
  session: ClientSession | null,
  request: QueueRequest,
  options: { maxAttempts: number; now: Date },
): Promise<boolean> {
  return (await enqueueEmails(Email, session, [request], options)).length === 1;
}

/**
 * Queues several emails in two round trips whatever their number (one read of their dedupe keys, one
 * insert), skipping any this event already queued; returns the ids of those queued.
 */
export async function enqueueEmails(
  Email: EmailModels['Email'],
  session: ClientSession | null,
  requests: QueueRequest[],
  options: { maxAttempts: number; now: Date },
): Promise<Types.ObjectId[]> {
  if (requests.length === 0) return [];
  const keyed = requests.map((request) => ({
    request,
    dedupeKey: request.dedupeKey ?? `${request.sourceEventId}:${request.template}`,
  }));
  // processed_events already stops a second delivery; this also holds if that record were lost.
  const queued = await Email.find({ dedupeKey: { $in: keyed.map((k) => k.dedupeKey) } }, { dedupeKey: 1 })
    .session(session)
    .lean<{ dedupeKey: string }[]>();
  const seen = new Set(queued.map((q) => q.dedupeKey));
  const fresh = keyed.filter((k) => !seen.has(k.dedupeKey) && (seen.add(k.dedupeKey), true));
  if (fresh.length === 0) return [];
  // Through the driver: every field the schema would add is written here (defaults, timestamps, version
  // key); hydrating and validating each email was most of the consumer's CPU for a burst of quote requests.
  const stamped = new Date(); // mongoose's timestamps are the wall clock's, not the queue's clock
  const ids = fresh.map(() => new Types.ObjectId());
  await insertComplete(
    Email,
    fresh.map(({ request, dedupeKey }, i) => ({
      _id: ids[i],
      to: request.to,
      subject: request.subject,
      html: request.html,
      text: request.text,
      template: request.template,
      status: 'queued',
      attempts: 0,
      maxAttempts: options.maxAttempts,
      nextAttemptAt: options.now,
      lockedUntil: null,
      claimId: null,
      lastError: null,
      orderId: request.orderId ?? null,
      orderNumber: request.orderNumber ?? null,
      sourceEventId: request.sourceEventId,
      dedupeKey,
      emailRecordId: request.emailRecordId ?? null,
      campaignId: request.campaignId ?? null,
      subscriberId: request.subscriberId ?? null,
      headers: request.headers ?? null,
      sentAt: null,
      failedAt: null,
      smtpMessageId: null,
      createdAt: stamped,
      updatedAt: stamped,
      __v: 0,
    })),
    session,
  );
  return ids;
}
