// Security management over HTTP (admin part B §2.3, §3, §7): the dashboard, request logs, bans and
// alerts of /api/security/*. The admin remote and the security service share these shapes.
import { z } from 'zod';
import { alertSeveritySchema, banDurations, riskLevelSchema } from './catalog.js';
import { canonicalBanTarget, requestSignalSchema } from './security-events.js';

const isoDate = z.iso.datetime({ offset: true });

/** Spec §9: logs are fetched with a limit of 100. */
export const securityLogsDefaultLimit = 100;

export const securityLogsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(500, 'limit must be at most 500')
    .default(securityLogsDefaultLimit),
  riskLevel: z
    .enum(['all', ...riskLevelSchema.options], { error: 'riskLevel must be all, low, medium or high' })
    .optional(),
  ip: z.string().trim().max(64, 'ip must be at most 64 characters').optional(),
});
export type SecurityLogsQuery = z.input<typeof securityLogsQuerySchema>;

/** Activity log (spec §3). */
export const activityLogSchema = z.object({
  id: z.string(),
  timestamp: isoDate,
  ip: z.string(),
  method: z.string(),
  path: z.string(),
  userAgent: z.string(),
  statusCode: z.number().int(),
  riskLevel: riskLevelSchema,
  responseTime: z.number(),
  signals: z.array(requestSignalSchema),
});
export type ActivityLog = z.infer<typeof activityLogSchema>;
export const securityLogsResponseSchema = z.object({ logs: z.array(activityLogSchema) });

/** Banned IP (spec §3). `expiresAt` null: permanent (the table shows "Never"). */
export const bannedIpSchema = z.object({
  id: z.string(),
  ip: z.string(),
  reason: z.string(),
  bannedDate: isoDate,
  expiresAt: isoDate.nullable(),
  bannedBy: z.string(),
});
export type BannedIp = z.infer<typeof bannedIpSchema>;
export const bannedIpsResponseSchema = z.object({ bannedIPs: z.array(bannedIpSchema) });

/** Spec §7: duration 1h, 6h, 1d, 7d, 30d, or empty for permanent. */
export const banIpDurations = banDurations.filter((d) => d !== 'permanent');

export const banIpBodySchema = z.object({
  ip: z
    .string({ error: 'ip is required' })
    .trim()
    .min(1, 'ip is required')
    .max(64, 'ip must be at most 64 characters')
    .transform((value, ctx) => {
      const target = canonicalBanTarget(value);
      if (!target) {
        ctx.addIssue({
          code: 'custom',
          message: `"${value}" is not an IPv4 or IPv6 address or a CIDR range (e.g. 203.0.113.7, 2001:db8::1, 198.51.100.0/24)`,
        });
        return z.NEVER;
      }
      return target;
    }),
  reason: z
    .string({ error: 'reason is required' })
    .trim()
    .min(1, 'reason is required')
    .max(500, 'reason must be at most 500 characters'),
  duration: z
    .union([z.enum(banDurations), z.literal(''), z.null()], {
      error: 'duration must be 1h, 6h, 1d, 7d, 30d, or empty for permanent',
    })
    .optional()
    .transform((d) => (d === '' || d === null || d === undefined ? 'permanent' : d)),
});
export type BanIpBody = z.input<typeof banIpBodySchema>;
export const banIpResponseSchema = z.object({ success: z.literal(true), bannedIP: bannedIpSchema });
export const successResponseSchema = z.object({ success: z.literal(true) });

/** Security alert (spec §3), plus how often the rule matched while it was open. */
export const securityAlertSchema = z.object({
  id: z.string(),
  description: z.string(),
  severity: alertSeveritySchema,
  ip: z.string(),
  type: z.string(),
  timestamp: isoDate,
  resolved: z.boolean(),
  resolvedBy: z.string().nullable(),
  resolvedAt: isoDate.nullable(),
  count: z.number().int(),
  lastSeenAt: isoDate,
});
export type SecurityAlert = z.infer<typeof securityAlertSchema>;
export const securityAlertsQuerySchema = z.object({
  resolved: z.enum(['true', 'false', 'all'], { error: 'resolved must be true, false or all' }).default('false'),
});
export const securityAlertsResponseSchema = z.object({ alerts: z.array(securityAlertSchema) });

/** Security stats (spec §3). */
export const securityStatsSchema = z.object({
  activeBans: z.number().int(),
  totalRequests24h: z.number().int(),
  suspiciousActivity24h: z.number().int(),
  unsolvedAlerts: z.number().int(),
  /** The last 24 hours, oldest first; `hour` is the start of the hour. */
  requestTrends: z.array(
    z.object({ hour: isoDate, total: z.number().int(), suspicious: z.number().int(), errors: z.number().int() }),
  ),
  topRiskyIPs: z.array(z.object({ ip: z.string(), count: z.number().int(), highRisk: z.number().int() })),
  recentAlerts: z.array(securityAlertSchema),
  /** Request log entries the gateways had to drop in the last 24 hours (NATS away). */
  droppedLogs24h: z.number().int(),
});
export type SecurityStats = z.infer<typeof securityStatsSchema>;
export const securityDashboardResponseSchema = z.object({ success: z.literal(true), stats: securityStatsSchema });

/** Spec §8 messages. */
export const securityMessages = {
  fetchFailed: 'Failed to fetch security data',
  errorTitle: 'Error Loading Security Data',
  banned: 'IP banned successfully!',
  banFailed: (reason: string) => `Failed to ban IP: ${reason}`,
  unbanned: 'IP unbanned successfully!',
  unbanFailed: (reason: string) => `Failed to unban IP: ${reason}`,
} as const;
