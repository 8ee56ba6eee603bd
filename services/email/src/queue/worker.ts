// Sends queued emails, several at once over pooled SMTP connections (`EMAIL_SEND_CONCURRENCY`).
// Emails are claimed in batches (`EMAIL_CLAIM_BATCH_SIZE`): one conditional update moves every due email
// of the batch from queued to sending under this claim's id and a lease, so several replicas never send
// the same email; a claim whose worker died is taken over when its lease runs out. An email is sent only
// while enough of its lease is left for the longest send, so a live worker's email is never taken over.
// Outcomes are written in groups, each in one transaction with its email.sent / email.failed events
// (`outcomes.ts`); a failed send is retried with exponential backoff, and after the last attempt, or at
// once on an SMTP 5xx answer, the email is `failed`.
import { randomUUID } from 'node:crypto';
import type { Logger, ServiceContext } from '@shop/service-kit';
import type { EmailSettings } from '../config.js';
import type { EmailDoc, EmailModels } from '../models/index.js';
import { OutcomeRecorder, type Outcome } from './outcomes.js';
import { backoffDelayMs } from '@shop/contracts';
import { longestSendMs, type MailSender } from './transport.js';

export interface WorkerOptions {
  settings: EmailSettings;
  sender: MailSender;
  clock: () => Date;
  /** How long a claim is held before another worker may take the email over. */
  leaseMs?: number;
}

export class EmailWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private again = false;
  private stopped = true;
  /** Set by stop(): a pass in progress finishes the sends in flight, gives back what it claimed and ends. */
  private stopping = false;
  private readonly leaseMs: number;
  /** Lease an email must still have for a send to start: the longest send, or half a short test lease. */
  private readonly leaseNeededMs: number;
  private readonly log: Logger;
  /** Emails this worker claimed and has not recorded yet: never claimed a second time by itself. */
  private readonly inHand = new Set<string>();
  private readonly outcomes: OutcomeRecorder;

  constructor(
    private readonly ctx: ServiceContext<EmailModels>,
    private readonly options: WorkerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 2 * 60_000;
    this.leaseNeededMs = Math.min(longestSendMs, this.leaseMs / 2);
    this.log = ctx.log.child({ component: 'email-worker' });
    this.outcomes = new OutcomeRecorder(ctx, options.settings.sendConcurrency, (ids) => {
      for (const id of ids) this.inHand.delete(id);
    });
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
      .catch((err) => {
        this.log.error({ err }, 'email queue pass failed');
        return 0;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * Sends every due email, up to `sendConcurrency` at once; resolves, with the number of emails attempted,
   * when none is due and every outcome is recorded. Exposed for tests and /process (claims are atomic,
   * so a pass beside the worker's never sends an email twice).
   */
  async drain(): Promise<number> {
    const { sendConcurrency, claimBatchSize } = this.options.settings;
    const batch = Math.max(claimBatchSize, sendConcurrency);
    const ready: EmailDoc[] = [];
    const sending = new Set<Promise<void>>();
    let attempted = 0;
    let more = true;
    try {
      while (!this.stopping) {
        // Claim the next batch while the last of the current one is still going out.
        if (more && ready.length < sendConcurrency) {
          const wanted = batch - ready.length;
          const claimed = await this.claim(wanted);
          ready.push(...claimed);
          more = claimed.length === wanted;
        }
        while (ready.length > 0 && sending.size < sendConcurrency && !this.outcomes.full) {
          const email = ready.shift()!;
          if (email.lockedUntil!.getTime() - this.options.clock().getTime() < this.leaseNeededMs) {
            // Held too long before its turn (a very slow pass): give it back rather than risk a twin.
            await this.release([email]);
            continue;
          }
          const send: Promise<void> = this.send(email).finally(() => sending.delete(send));
          sending.add(send);
          attempted += 1;
        }
        if (sending.size === 0 && ready.length === 0) {
          if (!more) break;
          continue;
        }
        await Promise.race(this.outcomes.full ? [...sending, this.outcomes.written()] : sending);
      }
    } finally {
      // Stopping (or a database error): the sends in flight finish, the rest goes back to the queue.
      await Promise.allSettled(sending);
      if (ready.length > 0)
        await this.release(ready).catch((err) =>
          this.log.warn({ err }, 'could not give claimed emails back; their lease runs out'),
        );
      await this.outcomes.idle(this.stopping);
    }
    return attempted;
  }

  /**
   * Claims up to `limit` due emails in two round trips, whatever the limit (three when another worker
   * took some of them between the read and the claim).
   */
  private async claim(limit: number): Promise<EmailDoc[]> {
    const { Email } = this.ctx.models;
    const now = this.options.clock();
    // The status condition beside the $or lets the {status, nextAttemptAt} index narrow the read to
    // the queued and sending emails; a top-level $or alone read every email ever sent.
    const due = {
      status: { $in: ['queued' as const, 'sending' as const] },
      $or: [
        { status: 'queued' as const, nextAttemptAt: { $lte: now } },
        { status: 'sending' as const, lockedUntil: { $lte: now } },
      ],
    };
    const candidates = await Email.find({
      ...due,
      ...(this.inHand.size > 0 ? { _id: { $nin: [...this.inHand] } } : {}),
    })
      .sort({ nextAttemptAt: 1 })
      .limit(limit)
      .lean<EmailDoc[]>();
    if (candidates.length === 0) return [];
    const claimId = randomUUID();
    const ids = candidates.map((c) => c._id);
    const lockedUntil = new Date(now.getTime() + this.leaseMs);
    // Each email is moved only if it is still due: of two workers racing on one email, one gets it.
    const { modifiedCount } = await Email.updateMany(
      { _id: { $in: ids }, ...due },
      { $set: { status: 'sending', claimId, lockedUntil }, $inc: { attempts: 1 } },
    );
    // Every candidate claimed (the usual case): they are as read, plus the claim.
    const claimed =
      modifiedCount === candidates.length
        ? candidates.map((email) => ({
            ...email,
            status: 'sending' as const,
            claimId,
            lockedUntil,
            attempts: email.attempts + 1,
          }))
        : await Email.find({ _id: { $in: ids }, claimId, status: 'sending' })
            .sort({ nextAttemptAt: 1 })
            .lean<EmailDoc[]>();
    for (const email of claimed) this.inHand.add(String(email._id));
    return claimed;
  }

  /** Gives claimed, unsent emails back to the queue as they were (the attempt does not count). */
  private async release(emails: EmailDoc[]) {
    await this.ctx.models.Email.updateMany(
      {
        _id: { $in: emails.map((e) => e._id) },
        status: 'sending',
        claimId: { $in: [...new Set(emails.map((e) => e.claimId ?? ''))] },
      },
      { $set: { status: 'queued', lockedUntil: null, claimId: null }, $inc: { attempts: -1 } },
    );
    for (const email of emails) this.inHand.delete(String(email._id));
  }

  private async send(email: EmailDoc) {
    const { settings, sender, clock } = this.options;
    const id = String(email._id);
    let outcome: Outcome;
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
      outcome = { kind: 'sent', email, at: clock(), smtpMessageId: info.messageId };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const at = clock();
      // An SMTP 5xx answer (e.g. 550 no such mailbox) is permanent: retrying cannot help.
      const code = (err as { responseCode?: unknown }).responseCode;
      const permanent = typeof code === 'number' && code >= 500 && code < 600;
      outcome =
        permanent || email.attempts >= email.maxAttempts
          ? { kind: 'failed', email, at, error, permanent }
          : {
              kind: 'retry',
              email,
              at,
              error,
              retryAt: new Date(
                at.getTime() + backoffDelayMs(email.attempts, settings.retryBaseMs, settings.retryMaxMs),
              ),
            };
    }
    this.outcomes.add(outcome);
  }
}
