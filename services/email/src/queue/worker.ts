// Sends queued emails. Each email is claimed with one atomic findOneAndUpdate (status queued -> sending,
// with a lease), so several replicas never send the same email twice; a claim whose worker died is
// taken over when its lease runs out. A failed send is retried with exponential backoff; after the last
// attempt the email is `failed`. Success and final failure are announced with email.sent / email.failed
// through the outbox, in the same transaction as the status change.
import type { EventData } from '@shop/contracts';
import type { Logger, ServiceContext } from '@shop/service-kit';
import type { EmailSettings } from '../config.js';
import type { EmailDoc, EmailModels } from '../models/index.js';
import { removedSecretBody, secretBodyTemplates } from '../templates/index.js';
import type { MailSender } from './transport.js';

/** Once an email is done with, the stored copy of a one-time secret (a verification code) goes. */
function secretRemoved(email: EmailDoc) {
  return secretBodyTemplates.has(email.template) ? { html: removedSecretBody, text: removedSecretBody } : {};
}

export interface WorkerOptions {
  settings: EmailSettings;
  sender: MailSender;
  clock: () => Date;
  /** How long a claim is held before another worker may take the email over. */
  leaseMs?: number;
}

/** Delay before retry number `attempt + 1`, after `attempt` failed attempts: base, 2x base, 4x base... capped. */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

export class EmailWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** Set by stop(): a pass in progress finishes its current email and ends. */
  private stopping = false;
  private readonly leaseMs: number;
  private readonly log: Logger;

  constructor(
    private readonly ctx: ServiceContext<EmailModels>,
    private readonly options: WorkerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 2 * 60_000;
    this.log = ctx.log.child({ component: 'email-worker' });
  }

  start() {
    this.stopped = false;
    this.stopping = false;
    this.timer = setInterval(() => this.wake(), this.options.settings.pollIntervalMs);
    this.timer.unref();
    this.wake();
  }

  async stop() {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    this.options.sender.close();
  }

  /** Runs a pass now (or right after the current one). */
  wake() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => undefined)
      .catch((err) => this.log.error({ err }, 'email queue pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Sends every due email, one at a time; resolves when none is due. Exposed for tests and /process. */
  async drain(): Promise<number> {
    let sent = 0;
    while (!this.stopping) {
      const email = await this.claim();
      if (!email) break;
      await this.deliver(email);
      sent += 1;
    }
    return sent;
  }

  private async claim(): Promise<EmailDoc | null> {
    const now = this.options.clock();
    return this.ctx.models.Email.findOneAndUpdate(
      {
        $or: [
          { status: 'queued', nextAttemptAt: { $lte: now } },
          { status: 'sending', lockedUntil: { $lte: now } },
        ],
      },
      { $set: { status: 'sending', lockedUntil: new Date(now.getTime() + this.leaseMs) }, $inc: { attempts: 1 } },
      { sort: { nextAttemptAt: 1 }, returnDocument: 'after', lean: true },
    ) as Promise<EmailDoc | null>;
  }

  private async deliver(email: EmailDoc) {
    const { settings, sender, clock } = this.options;
    const id = String(email._id);
    const log = this.log.child({ emailId: id, template: email.template, attempt: email.attempts });
    try {
      const info = await sender.send({
        from: settings.from,
        to: email.to,
        subject: email.subject,
        html: email.html,
        text: email.text,
        // Stable per email: a receiving system can recognise a resend after a lost acknowledgement.
        messageId: `<${id}@shop-email>`,
        headers: {
          'X-Shop-Email-Id': id,
          ...(email.orderNumber ? { 'X-Shop-Order-Number': email.orderNumber } : {}),
          ...((email.headers as Record<string, string> | null) ?? {}),
        },
      });
      const sentAt = clock();
      await this.ctx.withOutbox(async (session, outbox) => {
        await this.ctx.models.Email.updateOne(
          { _id: email._id, status: 'sending' },
          { $set: { status: 'sent', sentAt, lockedUntil: null, lastError: null, smtpMessageId: info.messageId, ...secretRemoved(email) } },
        ).session(session);
        outbox.add('email.sent', { ...this.eventBase(email), sentAt: sentAt.toISOString() });
      });
      log.info({ to: email.to }, 'email sent');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const now = clock();
      // An SMTP 5xx answer (e.g. 550 no such mailbox) is permanent: retrying cannot help.
      const code = (err as { responseCode?: unknown }).responseCode;
      const permanent = typeof code === 'number' && code >= 500 && code < 600;
      if (permanent || email.attempts >= email.maxAttempts) {
        await this.ctx.withOutbox(async (session, outbox) => {
          await this.ctx.models.Email.updateOne(
            { _id: email._id, status: 'sending' },
            { $set: { status: 'failed', failedAt: now, lockedUntil: null, lastError: message, ...secretRemoved(email) } },
          ).session(session);
          const failed: EventData<'email.failed'> = {
            ...this.eventBase(email),
            error: message,
            attempts: email.attempts,
            ...(permanent ? { permanent: true } : {}),
            failedAt: now.toISOString(),
          };
          outbox.add('email.failed', failed);
        });
        log.error({ err: message, to: email.to }, 'email failed after its last attempt');
        return;
      }
      const delay = retryDelayMs(email.attempts, settings.retryBaseMs, settings.retryMaxMs);
      await this.ctx.models.Email.updateOne(
        { _id: email._id, status: 'sending' },
        { $set: { status: 'queued', nextAttemptAt: new Date(now.getTime() + delay), lockedUntil: null, lastError: message } },
      );
      log.warn({ err: message, retryInMs: delay }, 'email not sent; will retry');
    }
  }

  private eventBase(email: EmailDoc) {
    return {
      emailId: String(email._id),
      to: email.to,
      subject: email.subject,
      template: email.template,
      ...(email.sourceEventId ? { causationId: email.sourceEventId } : {}),
      ...(email.orderId ? { orderId: email.orderId } : {}),
      ...(email.emailRecordId ? { emailRecordId: email.emailRecordId } : {}),
      ...(email.orderNumber ? { orderNumber: email.orderNumber } : {}),
      ...(email.campaignId ? { campaignId: email.campaignId } : {}),
      ...(email.subscriberId ? { subscriberId: email.subscriberId } : {}),
      // For the order's email history; a verification code never goes into an event beyond its own.
      ...(secretBodyTemplates.has(email.template) ? {} : { preview: email.text.slice(0, 280) }),
    };
  }
}
