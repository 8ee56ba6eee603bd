// The operations console's shapes (admin part A §2 Production readiness and Email diagnostics page, §3
// Production report, Email queue, Test email payload; §7 calls; §8 errors; §9 30 s time-out, 5 s cap).
import { z } from 'zod';

export * from './operations-retry.js';

// ---------------------------------------------------------------------------------------------
// Email diagnostics (the email service; admin only through the gateway's /api/email/** and /api/debug/**)
// ---------------------------------------------------------------------------------------------

export const emailDiagnosticsPaths = {
  env: '/api/debug/env',
  stats: '/api/email/queue/stats',
  test: '/api/email/test',
  failed: '/api/email/queue/failed',
  retry: (id: string) => `/api/email/queue/retry/${encodeURIComponent(id)}`,
  process: '/api/email/queue/process',
} as const;

/** GET /api/debug/env: how outgoing email is set up. Never a password or a key. */
export const debugEnvSchema = z
  .object({
    success: z.literal(true),
    debug: z.object({
      nodeEnv: z.string(),
      email: z.object({
        /** smtp: a real server; dev-mailbox: the local development mailbox keeps every email. */
        transport: z.enum(['smtp', 'dev-mailbox']),
        host: z.string(),
        port: z.number().int(),
        sender: z.string(),
        /** TLS from the start (smtps://). */
        secure: z.boolean(),
        /** The SMTP URL carries a user name (the password is never shown). */
        authConfigured: z.boolean(),
      }),
    }),
  })
  .meta({ id: 'DebugEnv' });
export type DebugEnv = z.infer<typeof debugEnvSchema>;

export const emailQueueStatsSchema = z
  .object({
    pending: z.number().int().nonnegative(),
    processing: z.number().int().nonnegative(),
    sentLast24h: z.number().int().nonnegative(),
    failedLast24h: z.number().int().nonnegative(),
    /** Failed emails of any age, still waiting for a retry or a look. */
    failedTotal: z.number().int().nonnegative(),
    /** Seconds the oldest pending email has waited; null when none is pending. */
    oldestPendingAgeSeconds: z.number().nonnegative().nullable(),
    /** Emails sent in the last hour. */
    sentLastHour: z.number().int().nonnegative(),
  })
  .meta({ id: 'EmailQueueStats' });
export type EmailQueueStats = z.infer<typeof emailQueueStatsSchema>;
export const emailQueueStatsReplySchema = z.object({
  success: z.literal(true),
  stats: emailQueueStatsSchema,
  timestamp: z.string(),
});

export const testEmailDefaults = {
  subject: 'Test email from the shop',
  message: 'This is a test email sent from the email diagnostics page. If you can read it, outgoing email works.',
} as const;

export const testEmailBodySchema = z
  .object({
    to: z.string({ error: 'To is required' }).trim().max(254).pipe(z.email('To must be a valid email address')),
    subject: z
      .string({ error: 'Subject is required' })
      .trim()
      .min(1, 'Subject is required')
      .max(200, 'Subject must be at most 200 characters'),
    message: z
      .string({ error: 'Message is required' })
      .trim()
      .min(1, 'Message is required')
      .max(5000, 'Message must be at most 5000 characters'),
  })
  .meta({ id: 'TestEmail' });
export type TestEmailBody = z.infer<typeof testEmailBodySchema>;

export const queuedEmailStatusSchema = z.enum(['queued', 'sending', 'sent', 'failed']);

export const testEmailReplySchema = z.object({
  success: z.boolean(),
  message: z.string(),
  emailId: z.string(),
  status: queuedEmailStatusSchema,
  error: z.string().nullable(),
});
export type TestEmailReply = z.infer<typeof testEmailReplySchema>;

export const failedEmailSchema = z
  .object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    template: z.string(),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    failedAt: z.string().nullable(),
  })
  .meta({ id: 'FailedEmail' });
export type FailedEmail = z.infer<typeof failedEmailSchema>;
export const failedEmailsReplySchema = z.object({
  success: z.literal(true),
  failedEmails: z.array(failedEmailSchema),
  total: z.number().int(),
});

export const retryEmailReplySchema = z.object({
  success: z.literal(true),
  id: z.string(),
  status: queuedEmailStatusSchema,
  message: z.string(),
});
export const processQueueReplySchema = z.object({
  success: z.literal(true),
  processed: z.number().int(),
  stats: emailQueueStatsSchema,
  message: z.string(),
});

/** Fallback texts of the diagnostics page (§8) when an answer carries no message of its own. */
export const emailDiagnosticsMessages = {
  configuration: 'Failed to check configuration',
  queue: 'Failed to check email queue',
  test: 'Failed to send test email',
  failed: 'Failed to check failed emails',
  process: 'Failed to process email queue',
  retry: 'Failed to retry emails',
  noneToRetry: 'No failed emails to retry',
} as const;

// ---------------------------------------------------------------------------------------------
// Production readiness (the gateway: GET /api/health/production-check, admin only)
// ---------------------------------------------------------------------------------------------

export const productionCheckPath = '/api/health/production-check';
/** The whole check answers within this (spec §9: the page's time-out is 30 s). */
export const productionCheckTimeoutMs = 30_000;

export const checkStatusSchema = z.enum(['pass', 'warning', 'fail']);
export type CheckStatus = z.infer<typeof checkStatusSchema>;
export const overallReadinessSchema = z.enum(['ready', 'issues', 'critical']);
export type OverallReadiness = z.infer<typeof overallReadinessSchema>;

export const checkResultSchema = z.object({
  category: z.string(),
  test: z.string(),
  status: checkStatusSchema,
  message: z.string(),
  details: z.unknown().optional(),
  /** A fail that makes the shop unsafe to run (payments in test mode in production...). */
  critical: z.boolean().optional(),
  recommendation: z.string().optional(),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

export const productionReportSchema = z
  .object({
    overall: overallReadinessSchema,
    summary: z.object({
      total: z.number().int(),
      passed: z.number().int(),
      warnings: z.number().int(),
      failed: z.number().int(),
    }),
    results: z.array(checkResultSchema),
    recommendations: z.array(z.string()),
    timestamp: z.string(),
    environment: z.string(),
    durationMs: z.number(),
  })
  .meta({ id: 'ProductionReport' });
export type ProductionReport = z.infer<typeof productionReportSchema>;

export const productionCheckReplySchema = z.object({
  success: z.literal(true),
  report: productionReportSchema,
  timestamp: z.string(),
});
export type ProductionCheckReply = z.infer<typeof productionCheckReplySchema>;

/** overall: critical when any critical fail, issues when any fail or warning, else ready. */
export function summarizeChecks(
  results: readonly CheckResult[],
): Pick<ProductionReport, 'overall' | 'summary' | 'recommendations'> {
  const passed = results.filter((r) => r.status === 'pass').length;
  const warnings = results.filter((r) => r.status === 'warning').length;
  const failed = results.filter((r) => r.status === 'fail').length;
  const overall: OverallReadiness = results.some((r) => r.status === 'fail' && r.critical)
    ? 'critical'
    : failed || warnings
      ? 'issues'
      : 'ready';
  const recommendations = [
    ...new Set(results.filter((r) => r.status !== 'pass' && r.recommendation).map((r) => r.recommendation!)),
  ];
  return { overall, summary: { total: results.length, passed, warnings, failed }, recommendations };
}

// productionRetryDelayMs: operations-retry.ts (no zod; the storefront's first screen needs it).

// ---------------------------------------------------------------------------------------------
// Readiness facts: what each service tells the production check about itself (service kit route)
// ---------------------------------------------------------------------------------------------

export const readinessFactsPath = '/readyz/facts';

export const readinessFactsSchema = z.object({
  service: z.string(),
  nodeEnv: z.string(),
  mongo: z.object({ up: z.boolean(), replicaSet: z.string().nullable() }),
  nats: z.object({ up: z.boolean() }),
  outbox: z.object({
    pending: z.number().int(),
    oldestPendingAgeSeconds: z.number().nullable(),
    failingAttempts: z.number().int(),
  }),
  telemetry: z.object({ otlpEndpointSet: z.boolean() }),
  /** What only this service knows (payments' Stripe mode, security's development password...). */
  own: z.record(z.string(), z.unknown()),
});
export type ReadinessFacts = z.infer<typeof readinessFactsSchema>;
