// Sends campaigns: scheduled ones when their time comes, and every campaign in `sending` batch by batch.
// Each batch is one transaction: the next subscribers after the campaign's cursor get a delivery record,
// the cursor moves past them, and one campaign.send_requested event names them (outbox). A crash
// between batches loses nothing and repeats nothing: the next pass (this replica after a restart, or
// another one) resumes at the cursor; two replicas racing on one batch conflict on the cursor and one
// aborts. The email service queues each (campaign, subscriber) once, and email.sent / email.failed
// settle the deliveries; the campaign is `sent` once every delivery is settled.
import { randomBytes } from 'node:crypto';
import type { EventData } from '@shop/contracts';
import type { Logger, ServiceContext } from '@shop/service-kit';
import type { CommunicationModels } from '../models/index.js';
import { deliveryId, type CampaignDoc } from '../models/campaign.js';
import type { SubscriberDoc } from '../models/subscriber.js';

export interface CampaignSenderOptions {
  batchSize: number;
  clock?: () => Date;
}

/** The recipients of a campaign: active subscribers who want email. */
export const emailAudience = { status: 'active', emailSubscribed: true } as const;

export class CampaignSender {
  private readonly log: Logger;
  private readonly clock: () => Date;

  constructor(
    private readonly ctx: ServiceContext<CommunicationModels>,
    private readonly options: CampaignSenderOptions,
  ) {
    this.log = ctx.log.child({ component: 'campaign-sender' });
    this.clock = options.clock ?? (() => new Date());
  }

  /** One pass: start due scheduled campaigns, then hand every unfinished send over, batch by batch. */
  async pass(shouldStop: () => boolean = () => false): Promise<void> {
    const { Campaign } = this.ctx.models;
    const now = this.clock();
    const due = await Campaign.updateMany(
      { status: 'scheduled', scheduledDate: { $lte: now } },
      { $set: { status: 'sending' } },
    );
    if (due.modifiedCount > 0) this.log.info({ campaigns: due.modifiedCount }, 'scheduled campaigns started');
    const sending = await Campaign.find({ status: 'sending', queuedAll: false }, { _id: 1 }).lean<
      Pick<CampaignDoc, '_id'>[]
    >();
    for (const { _id } of sending) {
      while (!shouldStop() && (await this.nextBatch(_id))) {
        // keep going until the campaign has been handed over completely
      }
    }
  }

  /** Hands the next batch of one campaign to the email service; false when there is nothing more to do. */
  async nextBatch(campaignId: string): Promise<boolean> {
    const { Campaign, CampaignDelivery, Subscriber } = this.ctx.models;
    return this.ctx.withOutbox(async (session, outbox) => {
      const campaign = await Campaign.findOne({ _id: campaignId, status: 'sending', queuedAll: false })
        .session(session)
        .lean<CampaignDoc>();
      if (!campaign) return false;
      const filter = campaign.cursor ? { ...emailAudience, _id: { $gt: campaign.cursor } } : { ...emailAudience };
      const subscribers = await Subscriber.find(filter, { _id: 1, email: 1, name: 1 })
        .sort({ _id: 1 })
        .limit(this.options.batchSize)
        .session(session)
        .lean<Pick<SubscriberDoc, '_id' | 'email' | 'name'>[]>();
      const now = this.clock();
      if (subscribers.length === 0) {
        const done = await Campaign.updateOne(
          { _id: campaignId, cursor: campaign.cursor, queuedAll: false },
          { $set: { queuedAll: true } },
          { session },
        );
        if (done.modifiedCount === 1) await settleIfDone(this.ctx.models, campaignId, now, session);
        this.log.info({ campaignId, recipients: campaign.recipients }, 'campaign handed over to the email service');
        return false;
      }
      const recipients = subscribers.map((s) => ({
        subscriberId: s._id,
        email: s.email,
        name: s.name,
        token: randomBytes(24).toString('base64url'),
      }));
      await CampaignDelivery.insertMany(
        recipients.map((r) => ({
          _id: deliveryId(campaignId, r.subscriberId),
          campaignId,
          subscriberId: r.subscriberId,
          email: r.email,
          token: r.token,
          status: 'queued',
          queuedAt: now,
        })),
        { session },
      );
      const moved = await Campaign.updateOne(
        { _id: campaignId, cursor: campaign.cursor, queuedAll: false },
        { $set: { cursor: subscribers.at(-1)!._id }, $inc: { recipients: recipients.length, batches: 1 } },
        { session },
      );
      // Another replica moved the cursor first: abort this transaction (nothing of it is kept).
      if (moved.modifiedCount !== 1) throw new Error(`campaign ${campaignId}: batch taken by another sender`);
      const data: EventData<'campaign.send_requested'> = {
        campaignId,
        name: campaign.name,
        type: campaign.type,
        subject: campaign.subject,
        content: campaign.content,
        batch: campaign.batches,
        recipients,
        requestedAt: now.toISOString(),
      };
      outbox.add('campaign.send_requested', data);
      return true;
    });
  }
}

/** Marks a campaign sent once it is fully handed over and every delivery is settled (sent or failed). */
export async function settleIfDone(
  models: CommunicationModels,
  campaignId: string,
  now: Date,
  session: import('mongoose').ClientSession,
) {
  const campaign = await models.Campaign.findOne(
    { _id: campaignId, status: 'sending', queuedAll: true },
    { sent: 1, failed: 1, recipients: 1 },
  )
    .session(session)
    .lean<Pick<CampaignDoc, 'sent' | 'failed' | 'recipients'>>();
  if (!campaign || campaign.sent + campaign.failed < campaign.recipients) return;
  await models.Campaign.updateOne(
    { _id: campaignId, status: 'sending' },
    { $set: { status: 'sent', sentDate: now } },
    { session },
  );
}
