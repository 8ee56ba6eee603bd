// SMS & Notifications tab: templates tied to shop events (the spec lists only GET; creation, editing,
// activation and deletion are what an administrator expects), and the SMS sent so far (the local
// development outbox when Twilio is not configured). Activating a template deactivates the other
// templates of its trigger, so one event sends one SMS.
import { z } from 'zod';
import {
  marketingMessages,
  marketingPaths,
  smsOutboxResponseSchema,
  smsTemplateCreateSchema,
  smsTemplateListResponseSchema,
  smsTemplatePatchSchema,
  smsTemplateResponseSchema,
} from '@shop/contracts';
import { notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import type { CommunicationModels } from '../../models/index.js';
import { smsMessageView, smsTemplateView, type SmsMessageDoc, type SmsTemplateDoc } from '../../models/sms.js';
import { errors, idParams } from './common.js';

export function registerAdminSmsRoutes(app: ServiceApp, ctx: ServiceContext<CommunicationModels>) {
  const { SmsTemplate, SmsMessage } = ctx.models;
  const one = `${marketingPaths.sms}/:id`;

  /** One active template per trigger: the others of `trigger` are switched off. */
  async function onlyActive(id: string, trigger: string) {
    await SmsTemplate.updateMany(
      { trigger: trigger as SmsTemplateDoc['trigger'], isActive: true, _id: { $ne: id } },
      { $set: { isActive: false } },
    );
  }

  app.get(
    marketingPaths.sms,
    {
      schema: {
        tags: ['marketing sms'],
        summary: 'Every SMS template',
        response: { 200: smsTemplateListResponseSchema, ...errors },
      },
    },
    async () => {
      const docs = await SmsTemplate.find().sort({ createdAt: -1, _id: -1 }).lean<SmsTemplateDoc[]>();
      return { templates: docs.map(smsTemplateView) };
    },
  );

  app.get(
    marketingPaths.smsOutbox,
    {
      schema: {
        tags: ['marketing sms'],
        summary: 'The latest 100 SMS (with Twilio unset, this is the local development outbox)',
        querystring: z.object({ to: z.string().max(40).optional() }),
        response: { 200: smsOutboxResponseSchema, ...errors },
      },
    },
    async (request) => {
      const filter = request.query.to ? { to: request.query.to } : {};
      const docs = await SmsMessage.find(filter).sort({ createdAt: -1, _id: -1 }).limit(100).lean<SmsMessageDoc[]>();
      return { messages: docs.map(smsMessageView) };
    },
  );

  app.post(
    marketingPaths.sms,
    {
      schema: {
        tags: ['marketing sms'],
        summary:
          'Create an SMS template: name, message (placeholders {name} {orderNumber} {amount} {trackingNumber}), trigger',
        body: smsTemplateCreateSchema,
        response: { 201: smsTemplateResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const [doc] = await SmsTemplate.create([{ ...request.body, usageCount: 0 }]);
      if (doc.isActive) await onlyActive(doc._id, doc.trigger);
      return reply.status(201).send({ success: true as const, template: smsTemplateView(doc.toObject()) });
    },
  );

  app.patch(
    one,
    {
      schema: {
        tags: ['marketing sms'],
        summary: 'Edit, activate or deactivate an SMS template',
        params: idParams,
        body: smsTemplatePatchSchema,
        response: { 200: smsTemplateResponseSchema, ...errors },
      },
    },
    async (request) => {
      const doc = await SmsTemplate.findByIdAndUpdate(
        request.params.id,
        { $set: request.body },
        { returnDocument: 'after' },
      ).lean<SmsTemplateDoc>();
      if (!doc) throw notFound(marketingMessages.smsTemplateNotFound);
      if (doc.isActive) await onlyActive(doc._id, doc.trigger);
      return { success: true as const, template: smsTemplateView(doc) };
    },
  );

  app.delete(
    one,
    {
      schema: {
        tags: ['marketing sms'],
        summary: 'Delete an SMS template',
        params: idParams,
        response: { 200: z.object({ success: z.literal(true), id: z.string() }), ...errors },
      },
    },
    async (request) => {
      const gone = await SmsTemplate.findByIdAndDelete(request.params.id).lean();
      if (!gone) throw notFound(marketingMessages.smsTemplateNotFound);
      return { success: true as const, id: request.params.id };
    },
  );
}
