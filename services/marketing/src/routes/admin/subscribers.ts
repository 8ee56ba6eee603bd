// Subscribers tab (back office part B §2.4, §5 Add subscriber, §7 calls): list, add, toggle the email
// and SMS flags independently, remove. Behind the gateway's admin rule for /api/marketing/**.
import { z } from 'zod';
import {
  marketingMessages,
  marketingPaths,
  subscriberCreateSchema,
  subscriberListResponseSchema,
  subscriberPatchSchema,
  subscriberResponseSchema,
} from '@shop/contracts';
import { badRequest, conflict, notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import type { CommunicationModels } from '../../models/index.js';
import { subscriberView, type SubscriberDoc } from '../../models/subscriber.js';
import { errors, idParams, isDuplicateKey } from './common.js';

export function registerAdminSubscriberRoutes(app: ServiceApp, ctx: ServiceContext<CommunicationModels>) {
  const { Subscriber } = ctx.models;
  const one = `${marketingPaths.subscribers}/:id`;

  app.get(
    marketingPaths.subscribers,
    {
      schema: {
        tags: ['marketing subscribers'],
        summary: 'Every subscriber, newest first',
        response: { 200: subscriberListResponseSchema, ...errors },
      },
    },
    async () => {
      const docs = await Subscriber.find().sort({ createdAt: -1, _id: -1 }).lean<SubscriberDoc[]>();
      return { subscribers: docs.map(subscriberView) };
    },
  );

  app.post(
    marketingPaths.subscribers,
    {
      schema: {
        tags: ['marketing subscribers'],
        summary: 'Add Subscriber: name and email required; category general, email on and SMS off unless given',
        body: subscriberCreateSchema,
        response: { 201: subscriberResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.smsSubscribed && !body.phone) throw badRequest('Add a phone number before turning SMS on');
      if (await Subscriber.exists({ email: body.email })) throw conflict(marketingMessages.duplicateSubscriber);
      try {
        const [doc] = await Subscriber.create([
          { ...body, phone: body.phone ? body.phone : null, smsSubscribed: body.smsSubscribed, source: 'admin' },
        ]);
        return reply.status(201).send({ success: true as const, subscriber: subscriberView(doc.toObject()) });
      } catch (err) {
        // Two adds of one address at once: the unique index decides.
        if (isDuplicateKey(err)) throw conflict(marketingMessages.duplicateSubscriber);
        throw err;
      }
    },
  );

  app.patch(
    one,
    {
      schema: {
        tags: ['marketing subscribers'],
        summary: 'Toggle emailSubscribed / smsSubscribed (independently), or edit name, phone, category',
        params: idParams,
        body: subscriberPatchSchema,
        response: { 200: subscriberResponseSchema, ...errors },
      },
    },
    async (request) => {
      const patch = request.body;
      const current = await Subscriber.findById(request.params.id).lean<SubscriberDoc>();
      if (!current) throw notFound(marketingMessages.subscriberNotFound);
      const phone = patch.phone !== undefined ? patch.phone || null : current.phone;
      if (patch.smsSubscribed === true && !phone) {
        throw badRequest('Add a phone number before turning SMS on');
      }
      const set: Partial<SubscriberDoc> = { ...patch, phone };
      if (patch.phone === '' && patch.smsSubscribed === undefined) set.smsSubscribed = false;
      // An administrator turning email back on for someone who unsubscribed re-activates them; a
      // bounced address stays bounced (it cannot receive mail).
      if (patch.emailSubscribed === true && current.status === 'unsubscribed') set.status = 'active';
      const doc = await Subscriber.findByIdAndUpdate(
        request.params.id,
        { $set: set },
        { returnDocument: 'after', lean: true },
      ).lean<SubscriberDoc>();
      if (!doc) throw notFound(marketingMessages.subscriberNotFound);
      return { success: true as const, subscriber: subscriberView(doc) };
    },
  );

  app.delete(
    one,
    {
      schema: {
        tags: ['marketing subscribers'],
        summary: 'Remove a subscriber (the back office asks for confirmation first)',
        params: idParams,
        response: { 200: z.object({ success: z.literal(true), id: z.string() }), ...errors },
      },
    },
    async (request) => {
      const gone = await Subscriber.findByIdAndDelete(request.params.id).lean();
      if (!gone) throw notFound(marketingMessages.subscriberNotFound);
      return { success: true as const, id: request.params.id };
    },
  );
}
