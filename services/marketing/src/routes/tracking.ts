// Open and click tracking of campaign emails (public through the gateway). The open image and each
// link carry the email's random delivery token; each is counted once per subscriber (the delivery's
// openedAt / clickedAt move from null once, and only that update increments the campaign). A click
// also counts as an open when the image was blocked. Clicks redirect only to the links written in the
// campaign itself (by position), so the route is no open redirect.
import { z } from 'zod';
import { campaignLinks } from '@shop/contracts';
import type { ServiceApp, ServiceContext } from '@shop/service-kit';
import type { CampaignDoc, DeliveryDoc } from '../models/campaign.js';
import type { CommunicationModels } from '../models/index.js';

/** A transparent 1x1 GIF. */
const pixel = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const token = z
  .string()
  .min(16)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

export function registerTrackingRoutes(app: ServiceApp, ctx: ServiceContext<CommunicationModels>) {
  const { Campaign, CampaignDelivery, Subscriber } = ctx.models;

  async function countOpen(delivery: Pick<DeliveryDoc, '_id' | 'campaignId' | 'subscriberId'>, now: Date) {
    const first = await CampaignDelivery.updateOne({ _id: delivery._id, openedAt: null }, { $set: { openedAt: now } });
    if (first.modifiedCount !== 1) return;
    await Campaign.updateOne({ _id: delivery.campaignId }, { $inc: { opens: 1 } });
    await Subscriber.updateOne({ _id: delivery.subscriberId }, { $inc: { emailOpens: 1 } });
  }

  app.get(
    '/api/marketing/track/open/:token',
    {
      schema: {
        tags: ['marketing public'],
        summary: 'Open-tracking image of a campaign email',
        params: z.object({ token }),
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      const delivery = await CampaignDelivery.findOne(
        { token: request.params.token },
        { campaignId: 1, subscriberId: 1 },
      ).lean<DeliveryDoc>();
      if (delivery) await countOpen(delivery, new Date());
      // The image answers the same either way: a token guesser learns nothing.
      return reply.header('cache-control', 'no-store, max-age=0').type('image/gif').send(pixel);
    },
  );

  app.get(
    '/api/marketing/track/click/:token/:link',
    {
      schema: {
        tags: ['marketing public'],
        summary: 'Click redirect of a campaign email link (counted once per subscriber)',
        params: z.object({ token, link: z.coerce.number().int().min(0).max(1000) }),
      },
    },
    async (request, reply) => {
      const delivery = await CampaignDelivery.findOne(
        { token: request.params.token },
        { campaignId: 1, subscriberId: 1 },
      ).lean<DeliveryDoc>();
      const campaign = delivery
        ? await Campaign.findById(delivery.campaignId, { content: 1 }).lean<Pick<CampaignDoc, 'content'>>()
        : null;
      const target = campaign ? campaignLinks(campaign.content)[request.params.link] : undefined;
      if (!delivery || !target)
        return reply.status(404).send({ error: 'This link is not valid.', code: 'NOT_FOUND', requestId: request.id });
      const now = new Date();
      await countOpen(delivery, now);
      const first = await CampaignDelivery.updateOne(
        { _id: delivery._id, clickedAt: null },
        { $set: { clickedAt: now } },
      );
      if (first.modifiedCount === 1) await Campaign.updateOne({ _id: delivery.campaignId }, { $inc: { clicks: 1 } });
      return reply.header('cache-control', 'no-store').redirect(target, 302);
    },
  );
}
