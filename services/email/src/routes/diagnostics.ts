// The email diagnostics calls (admin part A §2 Email diagnostics page, §7): the outgoing-mail settings
// without secrets (GET /api/debug/env), queue figures, a test email sent through the real queue and
// SMTP, the failed emails and their retry, and a queue pass now. Admin only: the gateway lets only a
// signed-in admin reach /api/email/** and /api/debug/**.
import { Types } from 'mongoose';
import {
  debugEnvSchema,
  emailDiagnosticsPaths,
  errorEnvelopeSchema,
  failedEmailsReplySchema,
  processQueueReplySchema,
  retryEmailReplySchema,
  testEmailBodySchema,
  testEmailReplySchema,
  emailQueueStatsReplySchema,
  type DebugEnv,
  type EmailQueueStats,
} from '@shop/contracts';
import { AppError, signedInAdmin, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import { z } from 'zod';
import type { EmailConfig } from '../config.js';
import type { EmailModels } from '../models/index.js';
import { smtpTransport } from '../queue/transport.js';
import type { EmailWorker } from '../queue/worker.js';
import { escapeHtml, layout } from '../templates/index.js';
import { paragraphs } from '../templates/order-updates.js';

/** How long POST /api/email/test waits for the worker's first attempt before answering "queued". */
const TEST_WAIT_MS = 15_000;

/** What GET /api/debug/env shows of SMTP_URL: host, port, TLS, whether a user is set; never the password. */
export function emailEnvironment(config: EmailConfig): DebugEnv['debug'] {
  const url = new URL(config.email.smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    nodeEnv: config.nodeEnv,
    email: {
      transport: config.email.devMailboxUrl ? 'dev-mailbox' : 'smtp',
      host: url.hostname,
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      sender: config.email.from,
      secure,
      authConfigured: url.username !== '',
    },
  };
}

/** Does the SMTP server answer and accept our greeting (and login)? Bounded; never sends mail. */
export async function probeSmtp(smtpUrl: string, timeoutMs = 5_000): Promise<{ ok: boolean; error: string | null }> {
  const transport = smtpTransport(smtpUrl, { connectMs: timeoutMs, socketMs: timeoutMs });
  try {
    await transport.verify();
    return { ok: true, error: null };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    transport.close();
  }
}

export async function queueStats(Email: EmailModels['Email'], now = new Date()): Promise<EmailQueueStats> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const [pending, processing, sentLast24h, failedLast24h, failedTotal, sentLastHour, oldest] = await Promise.all([
    Email.countDocuments({ status: 'queued' }),
    Email.countDocuments({ status: 'sending' }),
    Email.countDocuments({ status: 'sent', sentAt: { $gte: dayAgo } }),
    Email.countDocuments({ status: 'failed', failedAt: { $gte: dayAgo } }),
    Email.countDocuments({ status: 'failed' }),
    Email.countDocuments({ status: 'sent', sentAt: { $gte: hourAgo } }),
    Email.findOne({ status: 'queued' }, { createdAt: 1 }).sort({ createdAt: 1 }).lean(),
  ]);
  const oldestAt = (oldest as { createdAt?: Date } | null)?.createdAt;
  return {
    pending,
    processing,
    sentLast24h,
    failedLast24h,
    failedTotal,
    sentLastHour,
    oldestPendingAgeSeconds: oldestAt
      ? Math.max(0, Math.round((now.getTime() - new Date(oldestAt).getTime()) / 1000))
      : null,
  };
}

const idParams = z.object({ id: z.string().trim().min(1).max(64) });

export function diagnosticsRoutes(
  app: ServiceApp,
  ctx: ServiceContext<EmailModels>,
  config: EmailConfig,
  worker: () => EmailWorker,
) {
  const { Email } = ctx.models;

  app.get(
    emailDiagnosticsPaths.env,
    {
      schema: {
        tags: ['debug'],
        summary: 'Outgoing email settings (transport, host, port, sender, TLS); never a password',
        response: { 200: debugEnvSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { success: true as const, debug: emailEnvironment(config) };
    },
  );

  app.get(
    emailDiagnosticsPaths.stats,
    {
      schema: {
        tags: ['admin'],
        summary: 'Queue figures: pending, sending, sent and failed in 24 h, oldest pending age, sent in the last hour',
        response: { 200: emailQueueStatsReplySchema },
      },
    },
    async () => ({ success: true as const, stats: await queueStats(Email), timestamp: new Date().toISOString() }),
  );

  app.post(
    emailDiagnosticsPaths.test,
    {
      schema: {
        tags: ['admin'],
        summary: 'Send a test email through the queue and SMTP; answers with its outcome (or queued after 15 s)',
        body: testEmailBodySchema,
        response: { 200: testEmailReplySchema, 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { to, subject, message } = request.body;
      const [email] = await Email.create([
        {
          to,
          subject,
          html: layout(
            subject,
            `<p style="margin:0 0 12px;color:#5b5d50">${escapeHtml('Test email from the email diagnostics page.')}</p>${paragraphs(message)}`,
          ),
          text: `${message}\n\n(Test email from the email diagnostics page.)`,
          template: 'test',
          status: 'queued',
          attempts: 0,
          // One attempt: the page wants to know now whether SMTP works, not after the retry schedule.
          maxAttempts: 1,
          nextAttemptAt: new Date(),
          dedupeKey: `test:${new Types.ObjectId().toHexString()}`,
        },
      ]);
      request.log.info({ admin: signedInAdmin(request)?.email, to }, 'test email queued');
      worker().wake();
      const deadline = Date.now() + TEST_WAIT_MS;
      let doc = await Email.findById(email._id).lean();
      while (doc && (doc.status === 'queued' || doc.status === 'sending') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        doc = await Email.findById(email._id).lean();
      }
      const status = doc?.status ?? 'queued';
      const id = String(email._id);
      if (status === 'sent')
        return { success: true, message: `Test email sent to ${to}`, emailId: id, status, error: null };
      if (status === 'failed')
        return {
          success: false,
          message: `Test email to ${to} could not be sent`,
          emailId: id,
          status,
          error: doc?.lastError ?? null,
        };
      return {
        success: false,
        message: `Test email to ${to} is still waiting in the queue`,
        emailId: id,
        status,
        error: doc?.lastError ?? null,
      };
    },
  );

  app.get(
    emailDiagnosticsPaths.failed,
    {
      schema: {
        tags: ['admin'],
        summary: 'Emails that failed after their last attempt, newest first (at most 100)',
        response: { 200: failedEmailsReplySchema },
      },
    },
    async () => {
      const [docs, total] = await Promise.all([
        Email.find({ status: 'failed' }, { to: 1, subject: 1, template: 1, attempts: 1, lastError: 1, failedAt: 1 })
          .sort({ failedAt: -1 })
          .limit(100)
          .lean(),
        Email.countDocuments({ status: 'failed' }),
      ]);
      return {
        success: true as const,
        total,
        failedEmails: docs.map((d) => ({
          id: String(d._id),
          to: d.to,
          subject: d.subject,
          template: d.template,
          attempts: d.attempts ?? 0,
          lastError: d.lastError ?? null,
          failedAt: d.failedAt ? new Date(d.failedAt).toISOString() : null,
        })),
      };
    },
  );

  app.post(
    '/api/email/queue/retry/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Put one failed email back in the queue for a fresh set of attempts',
        params: idParams,
        response: { 200: retryEmailReplySchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!Types.ObjectId.isValid(id)) throw new AppError(404, 'EMAIL_NOT_FOUND', 'No email with this id.');
      const updated = await Email.findOneAndUpdate(
        { _id: id, status: 'failed' },
        { $set: { status: 'queued', attempts: 0, nextAttemptAt: new Date(), lockedUntil: null, failedAt: null } },
        { returnDocument: 'after', lean: true },
      );
      if (!updated) {
        const exists = await Email.findById(id, { status: 1 }).lean();
        if (!exists) throw new AppError(404, 'EMAIL_NOT_FOUND', 'No email with this id.');
        throw new AppError(
          409,
          'EMAIL_NOT_FAILED',
          `This email is ${exists.status}, not failed: there is nothing to retry.`,
        );
      }
      request.log.info({ admin: signedInAdmin(request)?.email, emailId: id }, 'failed email queued again');
      worker().wake();
      return { success: true as const, id, status: 'queued' as const, message: `Email to ${updated.to} queued again` };
    },
  );

  app.post(
    emailDiagnosticsPaths.process,
    {
      schema: {
        tags: ['admin'],
        summary: 'Send every due email now (one queue pass); answers with the number handled',
        response: { 200: processQueueReplySchema },
      },
    },
    async () => {
      // Claims are atomic, so this pass and the worker's own never send one email twice.
      const processed = await worker().drain();
      return {
        success: true as const,
        processed,
        stats: await queueStats(Email),
        message: processed ? `Processed ${processed} email(s)` : 'No emails were due',
      };
    },
  );
}
