// email.sent of a campaign email: its delivery is settled as sent (once: the delivery moves from
// queued), the campaign's sent count grows, and the campaign is `sent` when every delivery is settled.
import { emailSentSubject } from '@shop/contracts';
import { consumeEvent } from '@shop/service-kit';
import { campaignEmail } from './campaign-email.js';
import { settleIfDone } from '../jobs/campaign-sender.js';
import { deliveryId } from '../models/campaign.js';
import type { CommunicationModels } from '../models/index.js';

export function emailSentConsumer(models: CommunicationModels) {
  return consumeEvent(
    'email.sent',
    async (event, { session }) => {
      const { campaignId, subscriberId, sentAt } = event.data;
      if (event.data.template !== 'campaign' || !campaignId || !subscriberId) return;
      const settled = await models.CampaignDelivery.updateOne(
        { _id: deliveryId(campaignId, subscriberId), status: 'queued' },
        { $set: { status: 'sent', sentAt: new Date(sentAt) } },
        { session },
      );
      if (settled.modifiedCount !== 1) return;
      await models.Campaign.updateOne({ _id: campaignId }, { $inc: { sent: 1 } }, { session });
      await settleIfDone(models, campaignId, new Date(sentAt), session);
    },
    // Only a campaign's emails concern marketing, and only they are published on this subject: the others
    // (two per quote request) never reach it. The check stays for events published on `email.sent` itself
    // before that subject existed: acked at once, without a transaction.
    { subject: emailSentSubject('campaign'), relevant: campaignEmail },
  );
}
