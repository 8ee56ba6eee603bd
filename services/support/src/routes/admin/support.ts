// The support inbox (admin §3 Support messages, §7 calls): GET /api/support with paging, search, status
// and priority filters on the server plus the summary over every message; PATCH /api/support/{id}
// (status, adminNotes); POST /api/support/{id}/responses (a reply from the shop is emailed to the
// visitor through support.replied, in the same transaction); DELETE /api/support/{id}. The gateway lets
// only a signed-in admin reach these (its rule for /api/support/**; GET /api/support is not public).
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  errorEnvelopeSchema,
  supportDeletedSchema,
  supportListQuerySchema,
  supportListSchema,
  supportMessageAnswerSchema,
  supportPaths,
  supportResponseRequestSchema,
  supportUpdateSchema,
  type SupportSummary,
} from '@shop/contracts';
import { notFound, signedInAdmin, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import { overdueFilter } from '../../domain/summary.js';
import { literalPattern, messageView, objectIdPattern } from '../../domain/views.js';
import type { SupportModels } from '../../models/index.js';

export const messageNotFound = 'Support message not found';
const idParams = z.object({ id: z.string() });
const errors = { '4xx': errorEnvelopeSchema };

/** The admin's address as support records it (reply author, status changes); `admin` if the call named none. */
export const adminOf = (request: FastifyRequest) => signedInAdmin(request)?.email ?? 'admin';

export function adminSupportRoutes(app: ServiceApp, ctx: ServiceContext<SupportModels>) {
  const { SupportMessage } = ctx.models;

  const load = async (id: string) => {
    const doc = objectIdPattern.test(id) ? await SupportMessage.findById(id).lean() : null;
    if (!doc) throw notFound(messageNotFound);
    return doc;
  };

  async function summary(now: Date): Promise<SupportSummary> {
    const [total, open, inProgress, resolved, closed, high, urgent, overdue] = await Promise.all([
      SupportMessage.countDocuments({}),
      SupportMessage.countDocuments({ status: 'open' }),
      SupportMessage.countDocuments({ status: 'in_progress' }),
      SupportMessage.countDocuments({ status: 'resolved' }),
      SupportMessage.countDocuments({ status: 'closed' }),
      SupportMessage.countDocuments({ priority: 'high' }),
      SupportMessage.countDocuments({ priority: 'urgent' }),
      SupportMessage.countDocuments(overdueFilter(now)),
    ]);
    return { total, open, inProgress, resolved, closed, high, urgent, overdue };
  }

  app.get(
    supportPaths.messages,
    {
      schema: {
        tags: ['admin'],
        summary: 'The inbox: a page of messages (newest first) and the summary over all of them',
        querystring: supportListQuerySchema,
        response: { 200: supportListSchema, ...errors },
      },
    },
    async (request) => {
      const { page, pageSize, search, status, priority, overdue } = request.query;
      const now = new Date();
      const filter: Record<string, unknown> = {};
      if (status && status !== 'all') filter.status = status;
      if (priority && priority !== 'all') filter.priority = priority;
      if (overdue === 'true') filter.$and = [overdueFilter(now)];
      if (search) {
        const pattern = literalPattern(search);
        filter.$or = ['name', 'email', 'subject', 'message', 'orderNumber', 'reference'].map((field) => ({
          [field]: pattern,
        }));
      }
      const [docs, total, counts] = await Promise.all([
        SupportMessage.find(filter)
          .sort({ submittedDate: -1, _id: -1 })
          .skip((page - 1) * pageSize)
          .limit(pageSize)
          .lean(),
        SupportMessage.countDocuments(filter),
        summary(now),
      ]);
      return {
        success: true as const,
        messages: docs.map((d) => messageView(d, now)),
        summary: counts,
        page,
        pageSize,
        total,
        totalPages: Math.max(1, Math.ceil(total / pageSize)),
      };
    },
  );

  app.patch(
    '/api/support/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change the status (open, in_progress, resolved, closed) and/or the admin notes',
        params: idParams,
        body: supportUpdateSchema,
        response: { 200: supportMessageAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const before = await load(request.params.id);
      const now = new Date();
      const set: Record<string, unknown> = { lastUpdate: now };
      if (request.body.status !== undefined) set.status = request.body.status;
      if (request.body.adminNotes !== undefined) set.adminNotes = request.body.adminNotes;
      const doc = await SupportMessage.findByIdAndUpdate(before._id, { $set: set }, { returnDocument: 'after' }).lean();
      if (!doc) throw notFound(messageNotFound);
      request.log.info(
        { admin: adminOf(request), reference: doc.reference, from: before.status, to: doc.status },
        'support message updated',
      );
      return { success: true as const, supportMessage: messageView(doc, now) };
    },
  );

  app.post(
    '/api/support/:id/responses',
    {
      schema: {
        tags: ['admin'],
        summary: 'Add a reply to the conversation; a reply from the shop is emailed to the visitor',
        params: idParams,
        body: supportResponseRequestSchema,
        response: { 200: supportMessageAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const before = await load(request.params.id);
      const now = new Date();
      const { content, isFromAdmin } = request.body;
      const authorName = request.body.authorName || (isFromAdmin ? adminOf(request) : before.name);
      const response = { _id: randomUUID(), content, isFromAdmin, authorName, timestamp: now };
      const doc = await ctx.withOutbox(async (session, outbox) => {
        const updated = await SupportMessage.findByIdAndUpdate(
          before._id,
          {
            $push: { responses: response },
            $set: { lastUpdate: now, ...(isFromAdmin && !before.firstResponseAt ? { firstResponseAt: now } : {}) },
          },
          { returnDocument: 'after', session },
        ).lean();
        if (!updated) throw notFound(messageNotFound);
        if (isFromAdmin) {
          outbox.add('support.replied', {
            messageId: updated._id.toString(),
            responseId: response._id,
            reference: updated.reference,
            name: updated.name,
            email: updated.email,
            subject: updated.subject,
            content,
            authorName,
            repliedAt: now.toISOString(),
          });
        }
        return updated;
      });
      request.log.info({ admin: adminOf(request), reference: doc.reference, isFromAdmin }, 'support response added');
      return { success: true as const, supportMessage: messageView(doc, now) };
    },
  );

  app.delete(
    '/api/support/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete a message and its conversation',
        params: idParams,
        response: { 200: supportDeletedSchema, ...errors },
      },
    },
    async (request) => {
      const doc = await load(request.params.id);
      await SupportMessage.deleteOne({ _id: doc._id });
      request.log.info({ admin: adminOf(request), reference: doc.reference }, 'support message deleted');
      return { success: true as const, id: doc._id.toString() };
    },
  );
}
