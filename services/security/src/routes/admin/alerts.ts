// GET /api/security/alerts?resolved=true|false|all and PATCH /api/security/alerts/{id}/resolve
// (spec §2.3 Alerts; resolvedBy is the admin of the session, never a value from the browser).
import { z } from 'zod';
import {
  errorEnvelopeSchema,
  securityAlertSchema,
  securityAlertsQuerySchema,
  securityAlertsResponseSchema,
  successResponseSchema,
  type SecurityAlert,
} from '@shop/contracts';
import { conflict, notFound, type ServiceApp } from '@shop/service-kit';
import type { AlertDoc } from '../../models/alert.js';
import type { MonitoringModels } from '../../models/monitoring.js';
import { requireAdmin } from './identity.js';

export function alertView(d: AlertDoc): SecurityAlert {
  return {
    id: d._id,
    description: d.description,
    severity: d.severity,
    ip: d.ip,
    type: d.type,
    timestamp: d.timestamp.toISOString(),
    resolved: d.resolved,
    resolvedBy: d.resolvedBy,
    resolvedAt: d.resolvedAt ? d.resolvedAt.toISOString() : null,
    count: d.count,
    lastSeenAt: d.lastSeenAt.toISOString(),
  };
}

export function alertsRoutes(app: ServiceApp, models: MonitoringModels, now: () => Date) {
  app.get(
    '/api/security/alerts',
    {
      schema: {
        tags: ['security'],
        summary: 'Security alerts, newest first (admin): unresolved (default), resolved or all',
        querystring: securityAlertsQuerySchema,
        response: { 200: securityAlertsResponseSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { resolved } = request.query;
      const filter = resolved === 'all' ? {} : { resolved: resolved === 'true' };
      const docs = await models.Alert.find(filter).sort({ timestamp: -1 }).limit(500).lean();
      return { alerts: docs.map(alertView) };
    },
  );

  app.patch(
    '/api/security/alerts/:id/resolve',
    {
      schema: {
        tags: ['security'],
        summary: "Resolve an alert (admin); the session's admin is recorded as resolvedBy",
        params: z.object({ id: z.string().min(1).max(64) }),
        response: {
          200: successResponseSchema.extend({ alert: securityAlertSchema }),
          401: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const doc = await models.Alert.findOneAndUpdate(
        { _id: request.params.id, resolved: false },
        { $set: { resolved: true, resolvedBy: admin.email, resolvedAt: now() } },
        { returnDocument: 'after', lean: true },
      );
      if (!doc) {
        const exists = await models.Alert.exists({ _id: request.params.id });
        if (!exists) throw notFound('This alert does not exist.');
        throw conflict('This alert is already resolved.');
      }
      request.log.info({ admin: admin.email, alert: doc._id, type: doc.type, ip: doc.ip }, 'security alert resolved');
      return { success: true as const, alert: alertView(doc) };
    },
  );
}
