// The back office's returns (issue 12): GET /api/returns (paging, search, status filter), PATCH
// /api/returns/{id} to move a return along requested -> approved (label sent) -> received -> refunded or
// replaced, or rejected (each move emailed to the customer through support.return_status_changed, in
// the same transaction), and GET /api/returns/{id}/photos/{photoId} to look at a photo. Admin only: the
// gateway's rule for /api/returns/** (POST /api/returns itself is public).
import { z } from 'zod';
import {
  errorEnvelopeSchema,
  returnAnswerSchema,
  returnListQuerySchema,
  returnListSchema,
  returnStatusLabels,
  returnStatusMoves,
  returnUpdateSchema,
  supportPaths,
} from '@shop/contracts';
import { badRequest, notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import { literalPattern, objectIdPattern, returnView } from '../../domain/views.js';
import type { SupportModels } from '../../models/index.js';
import { adminOf } from './support.js';

export const returnNotFound = 'Return request not found';
const errors = { '4xx': errorEnvelopeSchema };

export function adminReturnRoutes(app: ServiceApp, ctx: ServiceContext<SupportModels>) {
  const { ReturnRequest, ReturnPhoto } = ctx.models;

  app.get(
    supportPaths.returns,
    {
      schema: {
        tags: ['admin'],
        summary: 'Return requests, newest first',
        querystring: returnListQuerySchema,
        response: { 200: returnListSchema, ...errors },
      },
    },
    async (request) => {
      const { page, pageSize, search, status } = request.query;
      const filter: Record<string, unknown> = {};
      if (status && status !== 'all') filter.status = status;
      if (search) {
        const pattern = literalPattern(search);
        filter.$or = ['reference', 'orderNumber', 'email', 'customerName', 'description'].map((field) => ({
          [field]: pattern,
        }));
      }
      const [docs, total] = await Promise.all([
        ReturnRequest.find(filter)
          .sort({ requestedAt: -1, _id: -1 })
          .skip((page - 1) * pageSize)
          .limit(pageSize)
          .lean(),
        ReturnRequest.countDocuments(filter),
      ]);
      return {
        success: true as const,
        returns: docs.map((d) => returnView(d)),
        page,
        pageSize,
        total,
        totalPages: Math.max(1, Math.ceil(total / pageSize)),
      };
    },
  );

  app.patch(
    '/api/returns/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Move a return to its next status (emails the customer)',
        params: z.object({ id: z.string() }),
        body: returnUpdateSchema,
        response: { 200: returnAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const admin = adminOf(request);
      const { status, note } = request.body;
      const now = new Date();
      const doc = await ctx.withOutbox(async (session, outbox) => {
        const current = objectIdPattern.test(request.params.id)
          ? await ReturnRequest.findById(request.params.id).session(session).lean()
          : null;
        if (!current) throw notFound(returnNotFound);
        if (!returnStatusMoves[current.status].includes(status)) {
          const allowed = returnStatusMoves[current.status];
          throw badRequest(
            `A return that is ${returnStatusLabels[current.status]} cannot become ${returnStatusLabels[status]}` +
              (allowed.length
                ? ` (next: ${allowed.map((s) => returnStatusLabels[s]).join(', ')}).`
                : ' (it is closed).'),
          );
        }
        // Conditional on the status read, so two admins moving the same return cannot both win.
        const updated = await ReturnRequest.findOneAndUpdate(
          { _id: current._id, status: current.status },
          {
            $set: { status, lastUpdate: now },
            $push: { history: { status, at: now, by: admin, ...(note ? { note } : {}) } },
          },
          { returnDocument: 'after', session },
        ).lean();
        if (!updated) throw badRequest('This return was changed by someone else just now. Reload and try again.');
        outbox.add('support.return_status_changed', {
          returnId: updated._id.toString(),
          reference: updated.reference,
          orderNumber: updated.orderNumber,
          email: updated.email,
          customerName: updated.customerName ?? '',
          previousStatus: current.status,
          status,
          ...(note ? { note } : {}),
          changedBy: admin,
          changedAt: now.toISOString(),
        });
        return updated;
      });
      request.log.info({ admin, reference: doc.reference, status }, 'return status changed');
      return { success: true as const, return: returnView(doc) };
    },
  );

  app.get(
    '/api/returns/:id/photos/:photoId',
    {
      schema: {
        tags: ['admin'],
        summary: 'One photo of a return, served as the image type its content proved',
        params: z.object({ id: z.string(), photoId: z.string() }),
      },
    },
    async (request, reply) => {
      // Not lean: mongoose hands the bytes back as a Buffer.
      const photo = await ReturnPhoto.findOne({ _id: request.params.photoId, returnId: request.params.id });
      if (!photo) throw notFound('Photo not found');
      return reply
        .header('content-type', photo.mimetype)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `inline; filename="${photo.filename.replace(/[^\w.\- ]/g, '_')}"`)
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('cache-control', 'private, max-age=300')
        .send(Buffer.from(photo.data));
    },
  );
}
