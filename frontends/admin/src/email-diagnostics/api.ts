// The diagnostics page's calls (admin part A §7): GET /api/debug/env, GET /api/email/queue/stats,
// POST /api/email/test, GET /api/email/queue/failed, POST /api/email/queue/retry/{id} (once per failed
// email), POST /api/email/queue/process. Each becomes a DiagnosticResult: success or failure, when, the
// error text (the server's, else the spec's fallback) and the answer as JSON.
import {
  debugEnvSchema,
  emailDiagnosticsMessages,
  emailDiagnosticsPaths,
  emailQueueStatsReplySchema,
  failedEmailsReplySchema,
  processQueueReplySchema,
  retryEmailReplySchema,
  testEmailReplySchema,
  type TestEmailBody,
} from '@shop/contracts';
import { AdminApiError, adminFetch } from '../api.js';

export interface DiagnosticResult {
  success: boolean;
  /** One line saying what happened. */
  summary: string;
  timestamp: string;
  error: string | null;
  data: unknown;
}

type Fallback = keyof typeof emailDiagnosticsMessages;

/** The server's own message when it sent one (the error envelope), else the spec's fallback. */
function errorText(err: unknown, fallback: Fallback): string {
  if (err instanceof AdminApiError && err.code && err.code !== 'NETWORK') return err.message;
  return emailDiagnosticsMessages[fallback];
}

async function attempt(
  fallback: Fallback,
  work: () => Promise<{ success: boolean; summary: string; error?: string | null; data: unknown }>,
): Promise<DiagnosticResult> {
  try {
    const r = await work();
    return {
      success: r.success,
      summary: r.summary,
      error: r.success ? null : (r.error ?? emailDiagnosticsMessages[fallback]),
      data: r.data,
      timestamp: new Date().toISOString(),
    };
  } catch (err) {
    return {
      success: false,
      summary: emailDiagnosticsMessages[fallback],
      error: errorText(err, fallback),
      data: err instanceof AdminApiError ? { status: err.status, code: err.code, details: err.details } : null,
      timestamp: new Date().toISOString(),
    };
  }
}

export const checkConfiguration = () =>
  attempt('configuration', async () => {
    const env = debugEnvSchema.parse(await adminFetch(emailDiagnosticsPaths.env)).debug;
    const e = env.email;
    return {
      success: true,
      summary: `${e.transport === 'dev-mailbox' ? 'Local development mailbox' : 'SMTP'} at ${e.host}:${e.port}, sender ${e.sender}${e.secure ? ', TLS' : ''}`,
      data: env,
    };
  });

export const checkQueue = () =>
  attempt('queue', async () => {
    const { stats } = emailQueueStatsReplySchema.parse(await adminFetch(emailDiagnosticsPaths.stats));
    return {
      success: true,
      summary: `${stats.pending} pending, ${stats.processing} sending, ${stats.sentLast24h} sent and ${stats.failedLast24h} failed in the last 24 hours`,
      data: stats,
    };
  });

export const sendTestEmail = (body: TestEmailBody) =>
  attempt('test', async () => {
    const reply = testEmailReplySchema.parse(
      await adminFetch(emailDiagnosticsPaths.test, { method: 'POST', json: body }),
    );
    return { success: reply.success, summary: reply.message, error: reply.error, data: reply };
  });

export const checkFailed = () =>
  attempt('failed', async () => {
    const reply = failedEmailsReplySchema.parse(await adminFetch(emailDiagnosticsPaths.failed));
    return {
      success: true,
      summary: reply.total ? `${reply.total} failed email(s)` : 'No failed emails',
      data: reply.failedEmails,
    };
  });

export const retryFailed = () =>
  attempt('retry', async () => {
    const { failedEmails } = failedEmailsReplySchema.parse(await adminFetch(emailDiagnosticsPaths.failed));
    if (!failedEmails.length) return { success: true, summary: emailDiagnosticsMessages.noneToRetry, data: [] };
    const outcomes = [];
    for (const email of failedEmails) {
      try {
        outcomes.push(
          retryEmailReplySchema.parse(await adminFetch(emailDiagnosticsPaths.retry(email.id), { method: 'POST' })),
        );
      } catch (err) {
        outcomes.push({ id: email.id, error: errorText(err, 'retry') });
      }
    }
    const failed = outcomes.filter((o) => 'error' in o).length;
    return {
      success: failed === 0,
      summary: `Queued ${outcomes.length - failed} of ${outcomes.length} failed email(s) again`,
      error: failed ? `${failed} email(s) could not be queued again` : null,
      data: outcomes,
    };
  });

export const processQueue = () =>
  attempt('process', async () => {
    const reply = processQueueReplySchema.parse(await adminFetch(emailDiagnosticsPaths.process, { method: 'POST' }));
    return { success: true, summary: reply.message, data: reply };
  });
