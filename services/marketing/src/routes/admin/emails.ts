// Email Campaigns tab (back office part B §2.4, §4 campaign states, §5, §7): list, create (a draft, or
// scheduled with a scheduledDate), edit a draft, Send Now a draft. Sending only moves the campaign to
// `sending`; the campaign sender job hands it to the email service batch by batch (jobs/campaign-sender.ts).
import { adminActor, badRequest, conflict, notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import {
  campaignCreateSchema,
  campaignDraftSchema,
  campaignListResponseSchema,
  campaignResponseSchema,
  campaignSendResponseSchema,
  marketingMessages,
  marketingPaths,
} from '@shop/contracts';
import { campaignView, type CampaignDoc } from '../../models/campaign.js';
import type { CommunicationModels } from '../../models/index.js';
import { errors, idParams } from './common.js';

export function registerAdminEmailRoutes(
  app: ServiceApp,
  ctx: ServiceContext<CommunicationModels>,
  onSendRequested: () => void,
) {
  const { Campaign } = ctx.models;
  const one = `${marketingPaths.emails}/:id`;

  app.get(
    marketingPaths.emails,
    {
      schema: {
        tags: ['marketing emails'],
        summary: 'Every email campaign, newest first, with open and click rates',
        response: { 200: campaignListResponseSchema, ...errors },
      },
    },
    async () => {
      const docs = await Campaign.find().sort({ createdAt: -1, _id: -1 }).lean<CampaignDoc[]>();
      return { campaigns: docs.map(campaignView) };
    },
  );

  app.post(
    marketingPaths.emails,
    {
      schema: {
        tags: ['marketing emails'],
        summary:
          'Create Campaign: a draft (recipients, sent, opens, clicks 0; tags empty), or scheduled when scheduledDate is given',
        body: campaignCreateSchema,
        response: { 201: campaignResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { scheduledDate, ...draft } = request.body;
      const when = scheduledDate ? new Date(scheduledDate) : null;
      if (when && when.getTime() <= Date.now()) throw badRequest('The scheduled date must be in the future');
      const [doc] = await Campaign.create([
        {
          ...draft,
          status: when ? 'scheduled' : 'draft',
          scheduledDate: when,
          tags: [],
          createdBy: adminActor(request),
        },
      ]);
      return reply.status(201).send({ success: true as const, campaign: campaignView(doc.toObject()) });
    },
  );

  app.put(
    one,
    {
      schema: {
        tags: ['marketing emails'],
        summary: 'Edit Campaign (drafts only): name, subject, content, type',
        params: idParams,
        body: campaignDraftSchema,
        response: { 200: campaignResponseSchema, ...errors },
      },
    },
    async (request) => {
      const doc = await Campaign.findOneAndUpdate(
        { _id: request.params.id, status: 'draft' },
        { $set: request.body },
        { returnDocument: 'after' },
      ).lean<CampaignDoc>();
      if (!doc) {
        if (await Campaign.exists({ _id: request.params.id })) throw conflict(marketingMessages.onlyDraftsEditable);
        throw notFound(marketingMessages.campaignNotFound);
      }
      return { success: true as const, campaign: campaignView(doc) };
    },
  );

  app.post(
    `${one}/send`,
    {
      schema: {
        tags: ['marketing emails'],
        summary: 'Send Now (drafts only): one email per active, email-subscribed subscriber, through the email queue',
        params: idParams,
        response: { 202: campaignSendResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const doc = await Campaign.findOneAndUpdate(
        { _id: request.params.id, status: 'draft' },
        { $set: { status: 'sending', cursor: null, queuedAll: false, batches: 0 } },
        { returnDocument: 'after' },
      ).lean<CampaignDoc>();
      if (!doc) {
        if (await Campaign.exists({ _id: request.params.id })) throw conflict(marketingMessages.onlyDraftsSendable);
        throw notFound(marketingMessages.campaignNotFound);
      }
      request.log.info({ campaignId: doc._id }, 'campaign send requested');
      onSendRequested();
      return reply.status(202).send({ success: true as const, campaign: campaignView(doc) });
    },
  );
}
