// GET /api/security/dashboard (spec §2.3 Dashboard): counters, the hourly trend of the last 24 hours,
// the 5 riskiest addresses and the 5 newest alerts. Reads the hourly counters, never the logs, so it
// answers as fast with a million stored entries as with ten.
import { errorEnvelopeSchema, securityDashboardResponseSchema } from '@shop/contracts';
import type { ServiceApp } from '@shop/service-kit';
import { hourOf } from '../../domain/alert-rules.js';
import type { MonitoringModels } from '../../models/monitoring.js';
import { alertView } from './alerts.js';
import { requireAdmin } from './identity.js';

const HOUR = 3_600_000;

export async function securityStats(models: MonitoringModels, now: Date) {
  const currentHour = hourOf(now).getTime();
  const since = new Date(currentHour - 23 * HOUR);
  const [hourly, risky, activeBans, unsolvedAlerts, recent] = await Promise.all([
    models.HourlyStats.find({ _id: { $gte: since } }).lean(),
    models.AddressHour.aggregate<{ _id: string; count: number; suspicious: number; highRisk: number }>([
      { $match: { hour: { $gte: since }, suspicious: { $gt: 0 } } },
      {
        $group: {
          _id: '$ip',
          count: { $sum: '$count' },
          suspicious: { $sum: '$suspicious' },
          highRisk: { $sum: '$highRisk' },
        },
      },
      { $sort: { highRisk: -1, suspicious: -1, count: -1, _id: 1 } },
      { $limit: 5 },
    ]),
    models.Ban.countDocuments({ $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] }),
    models.Alert.countDocuments({ resolved: false }),
    models.Alert.find({}).sort({ timestamp: -1 }).limit(5).lean(),
  ]);
  const byHour = new Map(hourly.map((h) => [h._id.getTime(), h]));
  const requestTrends = Array.from({ length: 24 }, (_, i) => {
    const hour = currentHour - (23 - i) * HOUR;
    const h = byHour.get(hour);
    return {
      hour: new Date(hour).toISOString(),
      total: h?.total ?? 0,
      suspicious: h?.suspicious ?? 0,
      errors: h?.errors ?? 0,
    };
  });
  return {
    activeBans,
    totalRequests24h: requestTrends.reduce((sum, h) => sum + h.total, 0),
    suspiciousActivity24h: requestTrends.reduce((sum, h) => sum + h.suspicious, 0),
    unsolvedAlerts,
    requestTrends,
    topRiskyIPs: risky.map((r) => ({ ip: r._id, count: r.count, highRisk: r.highRisk })),
    recentAlerts: recent.map(alertView),
    droppedLogs24h: hourly.reduce((sum, h) => sum + (h.dropped ?? 0), 0),
  };
}

export function dashboardRoutes(app: ServiceApp, models: MonitoringModels, now: () => Date) {
  app.get(
    '/api/security/dashboard',
    {
      schema: {
        tags: ['security'],
        summary: 'Security dashboard (admin): counters, 24-hour trend, riskiest addresses, newest alerts',
        response: { 200: securityDashboardResponseSchema, 401: errorEnvelopeSchema },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { success: true as const, stats: await securityStats(models, now()) };
    },
  );
}
