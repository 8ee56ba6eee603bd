// POST /api/support (storefront §7, public): a visitor's message. Checked with the contracts schema,
// stored with a server-made MSG- reference and its respond-by deadline, and announced as
// support.message_created in the same transaction (the email service sends the visitor's confirmation
// and, while notifications are on, the team's notice).
import {
  errorEnvelopeSchema,
  supportMessageCreatedSchema,
  supportMessageRequestSchema,
  supportPaths,
} from '@shop/contracts';
import type { ServiceApp, ServiceContext } from '@shop/service-kit';
import type { ContactDefaults } from '../config.js';
import { currentContactConfig } from '../contact.js';
import { respondBy } from '../domain/respond-by.js';
import type { SupportModels } from '../models/index.js';
import { insertWithReference } from './references.js';

export function supportRoutes(app: ServiceApp, ctx: ServiceContext<SupportModels>, defaults: ContactDefaults) {
  const { SupportMessage } = ctx.models;
  app.post(
    supportPaths.messages,
    {
      schema: {
        tags: ['public'],
        summary: 'Send a support message; answers the MSG- reference and the respond-by time',
        body: supportMessageRequestSchema,
        response: { 201: supportMessageCreatedSchema, '4xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const now = new Date();
      const contact = await currentContactConfig(ctx.models.ContactConfig, defaults);
      const due = respondBy(now, contact.supportHours.weekday);
      const saved = await insertWithReference('MSG', now, (reference) =>
        ctx.withOutbox(async (session, outbox) => {
          const [doc] = await SupportMessage.create(
            [
              {
                reference,
                ...body,
                orderNumber: body.orderNumber ?? null,
                status: 'open',
                submittedDate: now,
                lastUpdate: now,
                respondBy: due,
              },
            ],
            { session },
          );
          outbox.add('support.message_created', {
            messageId: doc._id.toString(),
            reference,
            name: body.name,
            email: body.email,
            ...(body.orderNumber ? { orderNumber: body.orderNumber } : {}),
            subject: body.subject,
            message: body.message,
            priority: body.priority,
            submittedDate: now.toISOString(),
            respondBy: due.toISOString(),
          });
          return doc;
        }),
      );
      request.log.info({ reference: saved.reference, priority: saved.priority }, 'support message received');
      return reply
        .status(201)
        .send({ success: true as const, reference: saved.reference, respondBy: due.toISOString() });
    },
  );
}
