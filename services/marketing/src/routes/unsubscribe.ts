// The unsubscribe link of every campaign email (public through the gateway). RFC 8058: the email's
// List-Unsubscribe header names this URL and List-Unsubscribe-Post says `List-Unsubscribe=One-Click`,
// so a mail client unsubscribes with one POST and no page. The visible link in the email opens the GET,
// a confirmation page whose button POSTs here too; a GET never unsubscribes (link scanners follow GETs).
import { z } from 'zod';
import { marketingMessages } from '@shop/contracts';
import type { ServiceApp, ServiceContext } from '@shop/service-kit';
import { unknownLinkPage, unsubscribeConfirmPage, unsubscribedPage } from '../domain/pages.js';
import type { CommunicationModels } from '../models/index.js';
import type { DeliveryDoc } from '../models/campaign.js';

const tokenParams = z.object({
  token: z
    .string()
    .min(16)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
});

export function registerUnsubscribeRoutes(app: ServiceApp, ctx: ServiceContext<CommunicationModels>) {
  const { CampaignDelivery, Subscriber } = ctx.models;
  const path = '/api/marketing/unsubscribe/:token';

  // RFC 8058 one-click POSTs are form-encoded (or multipart); the body carries nothing we need.
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 8 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
  }

  const html = (reply: import('fastify').FastifyReply, status: number, body: string) =>
    reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

  app.get(
    path,
    {
      schema: {
        tags: ['marketing public'],
        summary: 'Unsubscribe confirmation page (a GET never unsubscribes)',
        params: tokenParams,
      },
    },
    async (request, reply) => {
      const delivery = await CampaignDelivery.findOne({ token: request.params.token }, { email: 1 }).lean<
        Pick<DeliveryDoc, 'email'>
      >();
      if (!delivery) return html(reply, 404, unknownLinkPage(marketingMessages.unsubscribeLinkUnknown));
      return html(reply, 200, unsubscribeConfirmPage(delivery.email));
    },
  );

  app.post(
    path,
    {
      schema: {
        tags: ['marketing public'],
        summary: 'Unsubscribe (RFC 8058 one-click, or the confirmation page button)',
        params: tokenParams,
      },
    },
    async (request, reply) => {
      const delivery = await CampaignDelivery.findOne(
        { token: request.params.token },
        { subscriberId: 1, email: 1 },
      ).lean<Pick<DeliveryDoc, 'subscriberId' | 'email'>>();
      if (!delivery) return html(reply, 404, unknownLinkPage(marketingMessages.unsubscribeLinkUnknown));
      // A bounced address keeps its status; an active one becomes unsubscribed (twice is harmless).
      await Subscriber.updateOne(
        { _id: delivery.subscriberId, status: { $ne: 'bounced' } },
        { $set: { status: 'unsubscribed', emailSubscribed: false, unsubscribedAt: new Date() } },
      );
      await Subscriber.updateOne(
        { _id: delivery.subscriberId, status: 'bounced' },
        { $set: { emailSubscribed: false } },
      );
      request.log.info({ subscriberId: delivery.subscriberId }, 'subscriber unsubscribed');
      return html(reply, 200, unsubscribedPage(delivery.email));
    },
  );
}
