// Sends queued emails, several at once over pooled SMTP connections (`EMAIL_SEND_CONCURRENCY`).
// Emails are claimed in batches (`EMAIL_CLAIM_BATCH_SIZE`): one conditional update moves every due email
// of the batch from queued to sending under this claim's id and a lease, so several replicas never send
// the same email; a claim whose worker died is taken over when its lease runs out. The emails this
// process's consumers just queued are claimed by id (`queuedHere`); the queue is read for the rest (a
// retry, another replica's, one queued before a restart) at start, on each poll and when asked. An email is sent only
// while enough of its lease is left for the longest send, so a live worker's email is never taken over.
// Outcomes are written in groups, each in one transaction with its email.sent / email.failed events
// (`outcomes.ts`); a failed send is retried with exponential backoff, and after the last attempt, or at
// once on an SMTP 5xx answer, the email is `failed`.
import { randomUUID } from 'node:crypto';
import type { Types } from 'mongoose';
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

/** Emails handed over at most (ids only); beyond them the queue is read. */
const maxHandedOver = 100_000;

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
  /**
   * Emails this process's consumers queued (committed) and this worker has not claimed yet, by id, in the
   * order queued: claimed by id, so a claim never reads through a backlog of queued emails to find them.
   */
  private readonly handedOver = new Map<string, Types.ObjectId>();
  /** The queue is to be read for due emails (start, a poll, a wake-up without ids, a full hand-over). */
  private readAsked = true;
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

  /** Runs a pass now (or right after the current one) that also reads the queue for due emails. */
  wake() {
    this.readAsked = true;
    this.pass();
  }

  /**
   * The consumers queued these emails and their transaction committed: the worker claims them by id,
   * without reading the queue for them.
   */
  queuedHere(ids: readonly Types.ObjectId[]) {
    for (const id of ids) {
      // A bound for a very long backlog; what is left out is read from the queue.
      if (this.handedOver.size >= maxHandedOver) this.readAsked = true;
      else this.handedOver.set(id.toHexString(), id);
    }
    this.pass();
  }

  private pass() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sendDue(false)
      .catch((err) => {
        this.log.error({ err }, 'email queue pass failed');
        return 0;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.pass();
        }
      });
  }

  /**
   * Sends every due email, up to `sendConcurrency` at once; resolves, with the number of emails attempted,
   * when none is due and every outcome is recorded. Exposed for tests and /process (claims are atomic,
   * so a pass beside the worker's never sends an email twice).
   */
  drain(): Promise<number> {
    return this.sendDue(true);
  }

  /** A pass: the emails handed over, and the queue's due emails when `readQueue` (or when asked meanwhile). */
  private async sendDue(readQueue: boolean): Promise<number> {
    const { sendConcurrency, claimBatchSize } = this.options.settings;
    const batch = Math.max(claimBatchSize, sendConcurrency);
    const ready: EmailDoc[] = [];
    const sending = new Set<Promise<void>>();
    let attempted = 0;
    try {
      while (!this.stopping) {
        if (this.readAsked) {
          this.readAsked = false;
          readQueue = true;
        }
        // Claim the next batch while the last of the current one is still going out.
        if (ready.length < sendConcurrency && (readQueue || this.handedOver.size > 0)) {
          const wanted = batch - ready.length;
          if (readQueue) {
            const claimed = await this.claim(wanted);
            ready.push(...claimed);
            // Full batches: read on, unless emails were handed over meanwhile. Those go first, and the
            // next poll reads again, so a busy worker reads through a backlog once a poll, not per batch.
            readQueue = claimed.length === wanted && this.handedOver.size === 0;
          } else ready.push(...(await this.claimHandedOver(wanted)));
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
          if (!readQueue && !this.readAsked && this.handedOver.size === 0) break;
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

  /** Still queued and due, or `sending` under a lease that ran out. */
  private due(now: Date) {
    // The status condition beside the $or lets the {status, nextAttemptAt} index narrow a read to the
    // queued and sending emails; a top-level $or alone read every email ever sent.
    return {
      status: { $in: ['queued' as const, 'sending' as const] },
      $or: [
        { status: 'queued' as const, nextAttemptAt: { $lte: now } },
        { status: 'sending' as const, lockedUntil: { $lte: now } },
      ],
    };
  }

  /**
   * Moves the emails among `ids` that are still due to `sending` under a new claim. Each one only if it
   * is still due: of two workers racing on one email, one gets it.
   */
  private async moveToSending(ids: Types.ObjectId[], now: Date) {
    const claimId = randomUUID();
    const lockedUntil = new Date(now.getTime() + this.leaseMs);
    const { modifiedCount } = await this.ctx.models.Email.updateMany(
      { _id: { $in: ids }, ...this.due(now) },
      { $set: { status: 'sending', claimId, lockedUntil }, $inc: { attempts: 1 } },
    );
    return { claimId, lockedUntil, modifiedCount };
  }

  /** The emails of `ids` that a claim moved, as stored now. */
  private readClaimed(ids: Types.ObjectId[], claimId: string) {
    return this.ctx.models.Email.find({ _id: { $in: ids }, claimId, status: 'sending' })
      .sort({ nextAttemptAt: 1 })
      .lean<EmailDoc[]>();
  }

  private holding(claimed: EmailDoc[]) {
    for (const email of claimed) {
      const id = String(email._id);
      this.inHand.add(id);
      this.handedOver.delete(id);
    }
    return claimed;
  }

  /**
   * Claims up to `limit` due emails from the queue in two round trips, whatever the limit (three when
   * another worker took some of them between the read and the claim).
   */
  private async claim(limit: number): Promise<EmailDoc[]> {
    const now = this.options.clock();
    // An email still in this worker's hands is due again only when its lease ran out meanwhile (a
    // database outage longer than the lease): left out here rather than by a $nin in the read, which
    // the database tested against every queued email.
    const candidates = (
      await this.ctx.models.Email.find(this.due(now)).sort({ nextAttemptAt: 1 }).limit(limit).lean<EmailDoc[]>()
    ).filter((email) => !this.inHand.has(String(email._id)));
    if (candidates.length === 0) return [];
    const ids = candidates.map((c) => c._id);
    const { claimId, lockedUntil, modifiedCount } = await this.moveToSending(ids, now);
    // Every candidate claimed (the usual case): they are as read, plus the claim.
    return this.holding(
      modifiedCount === candidates.length
        ? candidates.map((email) => ({
            ...email,
            status: 'sending' as const,
            claimId,
            lockedUntil,
            attempts: email.attempts + 1,
          }))
        : await this.readClaimed(ids, claimId),
    );
  }

  /** Claims up to `limit` of the emails handed over, by id: one update, and one read of those it moved. */
  private async claimHandedOver(limit: number): Promise<EmailDoc[]> {
    const ids: Types.ObjectId[] = [];
    for (const [key, id] of this.handedOver) {
      if (ids.length === limit) break;
      this.handedOver.delete(key);
      if (!this.inHand.has(key)) ids.push(id);
    }
    if (ids.length === 0) return [];
    const { claimId, modifiedCount } = await this.moveToSending(ids, this.options.clock());
    // Those not moved were claimed by another worker's read of the queue meanwhile.
    return modifiedCount === 0 ? [] : this.holding(await this.readClaimed(ids, claimId));
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
