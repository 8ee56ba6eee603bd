// email.failed of a campaign email: the delivery is settled as failed, and a permanent failure (the
// receiving server refused the address) marks the subscriber bounced, so no campaign goes there again.
import { consumeEvent } from '@shop/service-kit';
import { campaignEmail } from './campaign-email.js';
import { settleIfDone } from '../jobs/campaign-sender.js';
import { deliveryId } from '../models/campaign.js';
import type { CommunicationModels } from '../models/index.js';

export function emailFailedConsumer(models: CommunicationModels) {
  return consumeEvent(
    'email.failed',
    async (event, { session, log }) => {
      const { campaignId, subscriberId, failedAt, permanent } = event.data;
      if (event.data.template !== 'campaign' || !campaignId || !subscriberId) return;
      const at = new Date(failedAt);
      if (permanent) {
        await models.Subscriber.updateOne(
          { _id: subscriberId },
          { $set: { status: 'bounced', bouncedAt: at } },
          { session },
        );
        log.info({ subscriberId, error: event.data.error }, 'subscriber bounced');
      }
      const settled = await models.CampaignDelivery.updateOne(
        { _id: deliveryId(campaignId, subscriberId), status: 'queued' },
        { $set: { status: 'failed', failedAt: at } },
        { session },
      );
      if (settled.modifiedCount !== 1) return;
      await models.Campaign.updateOne({ _id: campaignId }, { $inc: { failed: 1 } }, { session });
      await settleIfDone(models, campaignId, at, session);
    },
    // Only a campaign's emails concern marketing: the others (two per quote request) are acked at once,
    // without a transaction.
    { relevant: campaignEmail },
  );
}
