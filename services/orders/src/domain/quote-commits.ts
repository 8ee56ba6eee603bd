// Quote requests are stored in shared transactions (group commit): the orders that arrive while one
// transaction is being written wait for it, then go in the next one together, each with its
// order.created in the outbox. At a few hundred quote requests a second this is one transaction (order
// insert, outbox insert, commit) per group instead of per request; a lone request still goes at once.
// When a group's transaction fails on a repeated Idempotency-Key or order number (refused by its unique
// index), each of its orders is written again alone, so each request gets its own answer.
import { AsyncResource } from 'node:async_hooks';
import { insertComplete, type Outbox, type ServiceContext } from '@shop/service-kit';
import { orderCreatedData } from '../events/order-created.js';
import { storedOrder, type OrderDoc, type OrderModels } from '../models/order.js';

export interface DuplicateKeyError {
  code?: number;
  keyPattern?: Record<string, unknown>;
  message?: string;
}

/** The duplicate-key error a unique index raised, directly or as the cause of another. */
export function duplicateKeyOf(err: unknown): DuplicateKeyError | null {
  const e = err as DuplicateKeyError & { cause?: DuplicateKeyError };
  if (e?.code === 11000) return e;
  if (e?.cause?.code === 11000) return e.cause;
  return null;
}

/** Orders written in one transaction at most. */
const maxGroup = 64;

interface Waiting {
  order: OrderDoc;
  /** Adds the order's event in the request's own context, so the event carries the request's trace. */
  announce: (outbox: Outbox) => void;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class QuoteCommits {
  private waiting: Waiting[] = [];
  private writing: Promise<void> | undefined;

  constructor(private readonly ctx: ServiceContext<OrderModels>) {}

  /** Stores a new order (no files or design to claim) and its order.created; rejects with its own write error. */
  store(order: OrderDoc): Promise<void> {
    return new Promise((resolve, reject) => {
      const announce = AsyncResource.bind((outbox: Outbox) => {
        outbox.add('order.created', orderCreatedData(order));
      });
      this.waiting.push({ order, announce, resolve, reject });
      this.kick();
    });
  }

  private kick() {
    if (this.writing || this.waiting.length === 0) return;
    this.writing = this.writeWaiting().finally(() => {
      this.writing = undefined;
      this.kick();
    });
  }

  private async writeWaiting() {
    const group = this.waiting.splice(0, maxGroup);
    try {
      await this.write(group);
      for (const one of group) one.resolve();
    } catch (err) {
      // A repeated key or order number is one order's: the others are written again alone, each answered with
      // its own outcome. Anything else (the database away) is every order's, answered at once.
      if (group.length === 1 || !duplicateKeyOf(err)) {
        for (const one of group) one.reject(err);
        return;
      }
      for (const one of group) await this.write([one]).then(one.resolve, one.reject);
    }
  }

  private write(group: Waiting[]) {
    return this.ctx.withOutbox(async (session, outbox) => {
      // Through the driver: the bodies passed the contracts schema, and storedOrder adds what the mongoose
      // schema would. A repeated key or order number fails the insert, and so the whole transaction.
      await insertComplete(
        this.ctx.models.Order,
        group.map((one) => storedOrder(one.order)),
        session,
      );
      for (const one of group) one.announce(outbox);
    });
  }
}
