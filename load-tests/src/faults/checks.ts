// What the fault suite checks after each fault, for every call answered 2xx: the order, payment or
// message exists exactly once, its events were delivered (the customer projection counts it, the email
// went out), exactly one confirmation per quote request and one receipt per payment, and nothing is left
// unpublished in any service's outbox. It reads the services' databases and the development mailbox
// directly: the judge must not depend on the parts it judges.
import { MongoClient } from 'mongodb';
import type { Outcome } from './shop-client.js';

export interface Problem {
  kind: 'lost' | 'duplicate' | 'undelivered';
  what: string;
}

export interface CheckResult {
  problems: Problem[];
  lost: number;
  duplicates: number;
  undelivered: number;
  /** Calls not answered 2xx that still left their order or message behind (the customer may retry). */
  acceptedDespiteFailure: number;
}

interface MailboxMessage {
  to: string[];
  subject: string;
}

const ok = (outcome: Outcome) => outcome.status >= 200 && outcome.status < 300;
/** The statuses the customers service counts as spent (services/customers/src/domain/customer-status.ts). */
const PAID_OR_LATER = ['paid', 'in_progress', 'design_review', 'production', 'shipped', 'completed'];

/** The fields of the orders and customers services' documents the checks read. */
interface StoredOrder {
  _id: string;
  emailKey: string;
  status: string;
  payment?: unknown;
  statusHistory: { note?: string }[];
}
interface StoredCustomer {
  email: string;
  orderCount: number;
  spentOrders: number;
}

export class Judge {
  private readonly mongo: MongoClient;

  constructor(
    mongoUrl: string,
    private readonly mailboxUrl: string,
  ) {
    this.mongo = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 10_000 });
  }

  async close(): Promise<void> {
    await this.mongo.close();
  }

  private db(service: string) {
    return this.mongo.db(`shop_${service}`);
  }

  private async mail(): Promise<Map<string, MailboxMessage[]>> {
    const response = await fetch(`${this.mailboxUrl}/messages`);
    const { messages } = (await response.json()) as { messages: MailboxMessage[] };
    const byRecipient = new Map<string, MailboxMessage[]>();
    for (const message of messages) {
      for (const to of message.to) byRecipient.set(to, [...(byRecipient.get(to) ?? []), message]);
    }
    return byRecipient;
  }

  /** Events still waiting in an outbox, per service (all should have been published by now). */
  async pendingOutbox(): Promise<Record<string, number>> {
    const pending: Record<string, number> = {};
    for (const service of ['orders', 'payments', 'customers', 'support', 'marketing', 'security', 'email']) {
      const count = await this.db(service).collection('outbox').countDocuments({ status: 'pending' });
      if (count) pending[service] = count;
    }
    return pending;
  }

  /** Checks every call of `outcomes`; `earlier` are the calls of previous faults (their orders may have moved on). */
  async check(outcomes: Outcome[]): Promise<CheckResult> {
    const problems: Problem[] = [];
    let acceptedDespiteFailure = 0;
    const mail = await this.mail();
    const mailTo = (email: string, subjectStart: string) =>
      (mail.get(email.toLowerCase()) ?? []).filter((m) => m.subject.startsWith(subjectStart)).length;
    const orders = this.db('orders').collection<StoredOrder>('orders');
    const customers = this.db('customers').collection<StoredCustomer>('customers');

    const exactlyOnce = (count: number, what: string, missing: Problem['kind'] = 'lost') => {
      if (count === 0) problems.push({ kind: missing, what: `${what}: none` });
      if (count > 1) problems.push({ kind: 'duplicate', what: `${what}: ${count}` });
    };

    for (const outcome of outcomes) {
      const email = outcome.email.toLowerCase();
      switch (outcome.operation) {
        case 'quote': {
          const count = await orders.countDocuments({ emailKey: email });
          if (!ok(outcome)) {
            if (count > 1)
              problems.push({ kind: 'duplicate', what: `unanswered quote request ${email}: ${count} orders` });
            if (count === 1) acceptedDespiteFailure++;
            break;
          }
          exactlyOnce(count, `order of quote request ${outcome.orderNumber} (${email})`);
          exactlyOnce(
            mailTo(email, 'Quote request received'),
            `confirmation email of ${outcome.orderNumber}`,
            'undelivered',
          );
          const customer = await customers.findOne({ email });
          if (!customer)
            problems.push({
              kind: 'undelivered',
              what: `customer ${email} of ${outcome.orderNumber}: no profile (order.created not delivered)`,
            });
          break;
        }
        case 'support': {
          const count = await this.db('support').collection('support_messages').countDocuments({ email });
          if (!ok(outcome)) {
            if (count > 1) problems.push({ kind: 'duplicate', what: `unanswered support message ${email}: ${count}` });
            if (count === 1) acceptedDespiteFailure++;
            break;
          }
          exactlyOnce(count, `support message ${outcome.reference} (${email})`);
          exactlyOnce(
            mailTo(email, 'We received your message'),
            `confirmation of support message ${outcome.reference}`,
            'undelivered',
          );
          break;
        }
        case 'status': {
          if (!ok(outcome)) break;
          const order = await orders.findOne({ _id: outcome.orderId });
          if (!order) {
            problems.push({ kind: 'lost', what: `order ${outcome.orderNumber} of a status change: gone` });
            break;
          }
          const entries = order.statusHistory.filter((entry) => entry.note === outcome.note).length;
          exactlyOnce(entries, `status change "${outcome.note}" of ${outcome.orderNumber}`);
          if (order.status !== outcome.statusSet)
            problems.push({
              kind: 'lost',
              what: `order ${outcome.orderNumber} is ${order.status}, not ${outcome.statusSet}`,
            });
          break;
        }
        case 'payment': {
          const succeeded = await this.db('payments')
            .collection('payment_intents')
            .countDocuments({ orderId: outcome.orderId, status: 'succeeded' });
          if (!ok(outcome)) {
            if (succeeded > 1)
              problems.push({
                kind: 'duplicate',
                what: `unanswered payment of ${outcome.orderNumber}: ${succeeded} payments`,
              });
            break;
          }
          exactlyOnce(succeeded, `payment of ${outcome.orderNumber}`);
          const order = await orders.findOne({ _id: outcome.orderId });
          if (!order?.payment || !PAID_OR_LATER.includes(order.status)) {
            problems.push({
              kind: 'undelivered',
              what: `order ${outcome.orderNumber} not marked paid (status ${order?.status}): payment.succeeded not delivered`,
            });
          }
          exactlyOnce(mailTo(email, 'Payment received for order'), `receipt of ${outcome.orderNumber}`, 'undelivered');
          break;
        }
        case 'track':
          break;
      }
    }

    // Customer figures (the customers service's projection) against the orders themselves.
    const emails = [...new Set(outcomes.filter((o) => o.operation !== 'support').map((o) => o.email.toLowerCase()))];
    for (const email of emails) {
      const own = await orders
        .find({ emailKey: email })
        .project<Pick<StoredOrder, 'status' | 'payment'>>({ status: 1, payment: 1 })
        .toArray();
      if (!own.length) continue;
      const customer = await customers.findOne({ email });
      // The customers service counts an order as spent by its status (paid or later, not cancelled).
      const paid = own.filter((order) => PAID_OR_LATER.includes(order.status)).length;
      if (!customer || customer.orderCount !== own.length || customer.spentOrders !== paid) {
        problems.push({
          kind: 'undelivered',
          what: `customer figures of ${email}: ${customer ? `${customer.orderCount} orders, ${customer.spentOrders} paid` : 'no profile'}; orders say ${own.length} orders, ${paid} paid`,
        });
      }
    }

    for (const [service, count] of Object.entries(await this.pendingOutbox())) {
      problems.push({ kind: 'undelivered', what: `${service}: ${count} events still in the outbox` });
    }

    return {
      problems,
      lost: problems.filter((p) => p.kind === 'lost').length,
      duplicates: problems.filter((p) => p.kind === 'duplicate').length,
      undelivered: problems.filter((p) => p.kind === 'undelivered').length,
      acceptedDespiteFailure,
    };
  }

  /** Checks until everything is delivered or `settleMs` passed (events and emails are asynchronous). */
  async settle(outcomes: Outcome[], settleMs: number): Promise<CheckResult> {
    const deadline = Date.now() + settleMs;
    for (;;) {
      const result = await this.check(outcomes).catch((error: Error) => ({
        problems: [{ kind: 'undelivered' as const, what: `check failed: ${error.message}` }],
        lost: 0,
        duplicates: 0,
        undelivered: 1,
        acceptedDespiteFailure: 0,
      }));
      // Lost and duplicated work does not heal by waiting; undelivered events may still arrive.
      if (!result.undelivered || Date.now() > deadline) return result;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
