// Records what happened to each send, several at once: a group of outcomes (sent, retry later, failed)
// is written in ONE MongoDB transaction together with its email.sent / email.failed events (outbox).
// While a group is being written the next outcomes gather, so at a few hundred emails per second the
// queue pays one commit per group instead of one per email (group commit). The gathering is bounded
// (`limit`): the worker starts no new send while it is full, which keeps small the number of emails the
// SMTP server accepted but the queue has not recorded yet (the ones a crash would send again).
import { backoffDelayMs, type EventData } from '@shop/contracts';
import type { Logger, ServiceContext } from '@shop/service-kit';
import type { EmailDoc, EmailModels } from '../models/index.js';
import { removedSecretBody, secretBodyTemplates } from '../templates/index.js';

export type Outcome =
  | { kind: 'sent'; email: EmailDoc; at: Date; smtpMessageId: string }
  | { kind: 'retry'; email: EmailDoc; at: Date; error: string; retryAt: Date }
  | { kind: 'failed'; email: EmailDoc; at: Date; error: string; permanent: boolean };

/** Once an email is done with, the stored copy of a one-time secret (a verification code) goes. */
function secretRemoved(email: EmailDoc) {
  return secretBodyTemplates.has(email.template) ? { html: removedSecretBody, text: removedSecretBody } : {};
}

/** What email.sent and email.failed say about an email. */
export function emailEventBase(email: EmailDoc) {
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

function statusUpdate(outcome: Outcome) {
  const { email } = outcome;
  switch (outcome.kind) {
    case 'sent':
      return {
        $set: {
          status: 'sent',
          sentAt: outcome.at,
          lockedUntil: null,
          claimId: null,
          lastError: null,
          smtpMessageId: outcome.smtpMessageId,
          ...secretRemoved(email),
        },
      };
    case 'failed':
      return {
        $set: {
          status: 'failed',
          failedAt: outcome.at,
          lockedUntil: null,
          claimId: null,
          lastError: outcome.error,
          ...secretRemoved(email),
        },
      };
    case 'retry':
      return {
        $set: {
          status: 'queued',
          nextAttemptAt: outcome.retryAt,
          lockedUntil: null,
          claimId: null,
          lastError: outcome.error,
        },
      };
  }
}

export class OutcomeRecorder {
  private pending: Outcome[] = [];
  private writing: Promise<void> | undefined;
  private stopping = false;
  private readonly log: Logger;

  constructor(
    private readonly ctx: ServiceContext<EmailModels>,
    /** Outcomes gathered at most before the worker waits for them to be written. */
    private readonly limit: number,
    /** Called with the ids of the emails whose outcome is written (or given up on at shutdown). */
    private readonly settled: (ids: string[]) => void,
  ) {
    this.log = ctx.log.child({ component: 'email-outcomes' });
  }

  /** Too many outcomes wait to be written: start no new send until `written()` resolves. */
  get full(): boolean {
    return this.pending.length >= this.limit;
  }

  add(outcome: Outcome) {
    this.pending.push(outcome);
    this.kick();
  }

  private kick() {
    if (this.writing || this.pending.length === 0) return;
    this.writing = this.writeAll().finally(() => {
      this.writing = undefined;
      // An outcome added while the last group was finishing is written now.
      this.kick();
    });
  }

  /** Resolves once the group being written now is written (at once when none is). */
  written(): Promise<void> {
    return this.writing ?? Promise.resolve();
  }

  /** Resolves once every outcome added so far is written. At shutdown, a write failing 3 times in a row is given up. */
  async idle(stopping = false) {
    this.stopping ||= stopping;
    while (this.writing) await this.writing;
    this.stopping = false;
  }

  private async writeAll() {
    let failures = 0;
    while (this.pending.length > 0) {
      const group = this.pending.splice(0, this.pending.length);
      try {
        await this.write(group);
        failures = 0;
      } catch (err) {
        failures += 1;
        if (this.stopping && failures >= 3) {
          // Left `sending`: once its lease is over it is claimed again (a sent one goes again under the
          // same Message-ID, which receivers recognise).
          this.log.error({ err, emails: group.length }, 'outcomes not recorded at shutdown; their claims run out');
        } else {
          this.pending.unshift(...group);
          const delay = backoffDelayMs(failures, 100, 5_000);
          this.log.warn({ err, emails: group.length, retryInMs: delay }, 'could not record email outcomes; will retry');
          await new Promise((r) => setTimeout(r, delay));
          continue;
        }
      }
      this.settled(group.map((o) => String(o.email._id)));
    }
  }

  private async write(group: Outcome[]) {
    await this.ctx.withOutbox(async (session, outbox) => {
      // The driver's bulkWrite: the updates are typed already, and mongoose's casting of each was a
      // good part of the worker's CPU; it added only updatedAt, set here.
      const updatedAt = new Date();
      await this.ctx.models.Email.collection.bulkWrite(
        // Conditional on this claim: an email put back, or taken over by another worker after a lease ran out
        // (a database outage longer than the lease), is left to whoever holds it now.
        group.map((outcome) => {
          const update = statusUpdate(outcome);
          return {
            updateOne: {
              filter: { _id: outcome.email._id, status: 'sending' as const, claimId: outcome.email.claimId },
              update: { ...update, $set: { ...update.$set, updatedAt } },
            },
          };
        }),
        { session, ordered: false },
      );
      for (const outcome of group) {
        if (outcome.kind === 'sent') {
          outbox.add('email.sent', { ...emailEventBase(outcome.email), sentAt: outcome.at.toISOString() });
        } else if (outcome.kind === 'failed') {
          const failed: EventData<'email.failed'> = {
            ...emailEventBase(outcome.email),
            error: outcome.error,
            attempts: outcome.email.attempts,
            ...(outcome.permanent ? { permanent: true } : {}),
            failedAt: outcome.at.toISOString(),
          };
          outbox.add('email.failed', failed);
        }
      }
    });
    for (const outcome of group) {
      const at = {
        emailId: String(outcome.email._id),
        template: outcome.email.template,
        attempt: outcome.email.attempts,
        to: outcome.email.to,
      };
      if (outcome.kind === 'sent') this.log.info(at, 'email sent');
      else if (outcome.kind === 'failed')
        this.log.error(
          { ...at, err: outcome.error },
          outcome.permanent ? 'email refused by the receiving server' : 'email failed after its last attempt',
        );
      else this.log.warn({ ...at, err: outcome.error, retryAt: outcome.retryAt }, 'email not sent; will retry');
    }
  }
}
