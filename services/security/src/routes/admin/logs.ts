// GET /api/security/logs?limit=100&riskLevel=&ip=: the newest request log entries (spec §2.3 Logs).
import { canonicalIp, errorEnvelopeSchema, securityLogsQuerySchema, securityLogsResponseSchema } from '@shop/contracts';
import type { ServiceApp } from '@shop/service-kit';
import type { MonitoringModels } from '../../models/monitoring.js';
import { requireAdmin } from './identity.js';

export function logsRoutes(app: ServiceApp, models: MonitoringModels) {
  app.get(
    '/api/security/logs',
    {
      schema: {
        tags: ['security'],
        summary: 'Request log, newest first (admin); filter by risk level and address',
        querystring: securityLogsQuerySchema,
        response: { 200: securityLogsResponseSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { limit, riskLevel, ip } = request.query;
      const filter: Record<string, unknown> = {};
      if (riskLevel && riskLevel !== 'all') filter.riskLevel = riskLevel;
      // An exact address in any spelling matches its canonical form; anything else is a prefix search.
      if (ip) filter.ip = canonicalIp(ip) ?? { $regex: `^${ip.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` };
      const docs = await models.RequestLog.find(filter).sort({ timestamp: -1 }).limit(limit).lean();
      return {
        logs: docs.map((d) => ({
          id: d._id,
          timestamp: d.timestamp.toISOString(),
          ip: d.ip,
          method: d.method,
          path: d.path,
          userAgent: d.userAgent,
          statusCode: d.statusCode,
          riskLevel: d.riskLevel,
          responseTime: d.responseTime,
          signals: d.signals,
        })),
      };
    },
  );
}
