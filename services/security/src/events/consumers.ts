// What the security service hears: every admin call the gateway let through (or refused as
// cross-site) becomes an audit record. The event id is the record id, so a redelivery writes nothing
// new (the service kit's processed_events check comes first anyway).
import { consumeEvent } from '@shop/service-kit';
import type { SecurityModels } from '../models/index.js';

export function securityConsumers(models: SecurityModels) {
  return [
    consumeEvent('gateway.admin_action', async (event, { session }) => {
      const d = event.data;
      await models.AuditRecord.updateOne(
        { _id: event.id },
        {
          $setOnInsert: {
            at: new Date(d.at),
            actorId: d.adminId,
            actorEmail: d.adminEmail,
            action: 'admin.call',
            method: d.method,
            path: d.path,
            route: d.route,
            targetId: d.targetId ?? null,
            ip: d.ip,
            userAgent: d.userAgent ?? null,
            outcome: d.outcome,
            statusCode: d.statusCode,
            requestId: d.requestId ?? null,
          },
        },
        { upsert: true, session },
      );
    }),
  ];
}
