// campaign.send_requested: one batch of a marketing campaign becomes one queued email per recipient, in
// the consumer's transaction. The dedupe key is the (campaign, subscriber) pair, not the event: however
// often a batch is delivered or re-published (marketing restarted mid-send), each subscriber gets the
// campaign once. The worker then sends them like every other email (retries, email.sent/failed).
import { consumeEvent } from '@shop/service-kit';
import { campaignEmail } from '../templates/campaign.js';
import type { ConsumerDeps } from './consumers.js';

export const campaignDedupeKey = (campaignId: string, subscriberId: string) => `campaign:${campaignId}:${subscriberId}`;

export function campaignConsumer({ models, settings, clock, queued }: ConsumerDeps) {
  return consumeEvent('campaign.send_requested', async (event, { session, log, afterCommit }) => {
    const campaign = event.data;
    const keys = campaign.recipients.map((r) => campaignDedupeKey(campaign.campaignId, r.subscriberId));
    const existing = new Set(
      (
        await models.Email.find({ dedupeKey: { $in: keys } }, { dedupeKey: 1 })
          .session(session)
          .lean<{ dedupeKey: string }[]>()
      ).map((e) => e.dedupeKey),
    );
    const now = clock();
    const fresh = campaign.recipients.filter(
      (r) => !existing.has(campaignDedupeKey(campaign.campaignId, r.subscriberId)),
    );
    if (fresh.length > 0) {
      const inserted = await models.Email.insertMany(
        fresh.map((recipient) => {
          const rendered = campaignEmail(campaign, recipient, settings.shopUrl);
          return {
            to: recipient.email,
            subject: rendered.subject,
            html: rendered.html,
            text: rendered.text,
            template: rendered.template,
            status: 'queued',
            attempts: 0,
            maxAttempts: settings.maxAttempts,
            nextAttemptAt: now,
            sourceEventId: event.id,
            campaignId: campaign.campaignId,
            subscriberId: recipient.subscriberId,
            headers: rendered.headers,
            dedupeKey: campaignDedupeKey(campaign.campaignId, recipient.subscriberId),
          };
        }),
        { session },
      );
      afterCommit(() => queued(inserted.map((email) => email._id)));
    }
    log.info(
      { campaignId: campaign.campaignId, batch: campaign.batch, queued: fresh.length, alreadyQueued: existing.size },
      'campaign batch queued',
    );
  });
}
