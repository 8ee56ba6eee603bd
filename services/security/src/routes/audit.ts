// GET /api/security/audit: the newest audit records (sign-ins and every admin call through the
// gateway). Admin only: the gateway checks the session and signs the admin for this service.
import { z } from 'zod';
import { auditRecordSchema, errorEnvelopeSchema } from '@shop/contracts';
import type { ServiceApp } from '@shop/service-kit';
import type { SecurityModels } from '../models/index.js';
import { requireAdmin } from './admin/identity.js';

const querySchema = z.object({
  limit: z.coerce.number().int().min(1, 'limit must be at least 1').max(500, 'limit must be at most 500').default(100),
  before: z.iso.datetime({ offset: true, error: 'before must be an ISO date-time' }).optional(),
  actor: z.string().trim().toLowerCase().optional(),
});

export function auditRoutes(app: ServiceApp, models: SecurityModels) {
  app.get(
    '/api/security/audit',
    {
      schema: {
        tags: ['audit'],
        summary: 'Audit trail, newest first (admin)',
        querystring: querySchema,
        response: {
          200: z.object({ records: z.array(auditRecordSchema) }),
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { limit, before, actor } = request.query;
      const filter: Record<string, unknown> = {};
      if (before) filter.at = { $lt: new Date(before) };
      if (actor) filter.actorEmail = actor;
      const docs = await models.AuditRecord.find(filter).sort({ at: -1 }).limit(limit).lean();
      return {
        records: docs.map((d) => ({
          id: d._id,
          at: d.at.toISOString(),
          actorEmail: d.actorEmail,
          action: d.action,
          method: d.method,
          path: d.path,
          targetId: d.targetId,
          ip: d.ip,
          outcome: d.outcome,
          statusCode: d.statusCode,
        })),
      };
    },
  );
}
