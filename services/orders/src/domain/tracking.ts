// What a tracker sees of an order (storefront §3 "Order as seen by tracking", §4 statuses): the order's
// public fields, its progress and its timeline. Built field by field from the stored order, so nothing
// else leaks: POST /api/orders/track sends this object's JSON as it is (routes/tracking.ts), without the
// response schema's pass over it, and keeps it for repeated lookups (RecentTrackedAnswers, below).
import {
  orderStatusDescriptions,
  orderStatusLabels,
  trackingProgressPercent,
  type OrderStatus,
  type TrackedOrder,
} from '@shop/contracts';
import type { OrderDoc } from '../models/order.js';

/** Every status has its words for a tracker in contracts (the storefront shows the same). */
export function statusDescription(status: OrderStatus): string | null {
  return orderStatusDescriptions[status] ?? null;
}

/** A payment provider's object id: Stripe's `pi_3N...`, `ch_...`, `pm_...`, test mode's `pi_test_...`. */
const providerId = /\b(?:pi|pm|ch|py|re|cus|seti|src|card|tok|txn|cs|evt|in|acct|po)_[A-Za-z0-9_]{3,}\b/g;

/**
 * A timeline note as the customer may read it: the team's notes keep the provider's ids (the back
 * office looks payments up by them), a public answer never carries them.
 */
export function customerNote(note: string): string {
  return note
    .replace(/\s*\((?:payment intent|charge|payment method|refund)\b[^)]*\)/gi, '')
    .replace(providerId, '')
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([.,;:])/g, '$1')
    .trim();
}

/**
 * The stored fields a tracker's answer is built from (plus `emailKey`, which proves the lookup): the
 * lookups read only these, not the order's files, addresses, notes, payment or email history.
 */
export const trackedFields = [
  'orderNumber',
  'emailKey',
  'customerName',
  'email',
  'itemType',
  'quantity',
  'description',
  'estimatedTotal',
  'discount',
  'quote',
  'status',
  'createdAt',
  'updatedAt',
  'aiGenerated',
  'designMethod',
  'size',
  'sizeBreakdown',
  'colors',
  'finish',
  'shape',
  'edge',
  'features',
  'statusHistory',
  'tracking',
] as const satisfies ReadonlyArray<keyof OrderDoc>;

/** An order as the lookups read it (`trackedFields`). */
export type TrackedOrderDoc = Pick<OrderDoc, '_id' | (typeof trackedFields)[number]>;

export function trackedView(order: TrackedOrderDoc): TrackedOrder {
  const discountAmount = order.discount?.amount ?? 0;
  return {
    id: order._id,
    orderNumber: order.orderNumber,
    customerName: order.customerName,
    email: order.email,
    itemType: order.itemType,
    quantity: order.quantity,
    description: order.description,
    estimatedTotal: order.estimatedTotal,
    discountCode: order.discount?.code ?? null,
    discountAmount,
    finalAmount: order.quote?.finalAmount ?? null,
    status: order.status,
    statusLabel: orderStatusLabels[order.status],
    statusDescription: statusDescription(order.status),
    progressPercent: trackingProgressPercent(order.status),
    submittedDate: order.createdAt.toISOString(),
    lastUpdate: order.updatedAt.toISOString(),
    aiGenerated: order.aiGenerated,
    designMethod: order.designMethod,
    size: order.size ?? null,
    sizeBreakdown: order.sizeBreakdown ?? null,
    colors: order.colors,
    finish: order.finish,
    shape: order.shape ?? null,
    edge: order.edge ?? null,
    features: order.features,
    timeline: order.statusHistory.map((entry) => ({
      status: entry.status,
      label: orderStatusLabels[entry.status],
      date: new Date(entry.date).toISOString(),
      ...(entry.note && customerNote(entry.note) ? { note: customerNote(entry.note) } : {}),
    })),
    tracking: order.tracking?.trackingNumber
      ? {
          carrier: order.tracking.carrier,
          trackingNumber: order.tracking.trackingNumber,
          estimatedDelivery: order.tracking.estimatedDelivery
            ? new Date(order.tracking.estimatedDelivery).toISOString()
            : null,
        }
      : null,
  };
}

/**
 * How old a tracker's answer may be, on any replica: every answer shows the order as stored at most this
 * long before the request arrived. The bound needs no invalidation (the writes live in other routes, the
 * events and other replicas), so it is short: nobody changes an order and reloads /track within it.
 */
export const trackedAnswerMaxAgeMs = 250;

/** A tracked order's answer as sent (`{ success, order }` as JSON text) and the key that proves a lookup. */
export interface TrackedAnswer {
  emailKey: string;
  json: string;
}

/**
 * The answers of the last `maxAgeMs` by order number (issue 20): lookups of the same order within that
 * time share one MongoDB read, including those that arrive while it is under way. A read counts from
 * when it started, so a write that committed before a request is seen unless the read began less than
 * `maxAgeMs` before it. Misses (no such order) are kept the same way; failed reads are not kept.
 */
export class RecentTrackedAnswers {
  private readonly answers = new Map<string, { readAt: number; answer: Promise<TrackedAnswer | null> }>();

  constructor(
    private readonly maxAgeMs = trackedAnswerMaxAgeMs,
    /** Answers held at most: a lookup beyond it forgets the oldest (a flood of made-up numbers). */
    private readonly maxAnswers = 2_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  answerFor(orderNumber: string, read: () => Promise<TrackedAnswer | null>): Promise<TrackedAnswer | null> {
    const now = this.now();
    const held = this.answers.get(orderNumber);
    if (held && now - held.readAt < this.maxAgeMs) return held.answer;
    // Map order is insertion order: re-inserting keeps the oldest read first.
    if (held) this.answers.delete(orderNumber);
    else if (this.answers.size >= this.maxAnswers) this.forgetOldest(now);
    const answer = read();
    this.answers.set(orderNumber, { readAt: now, answer });
    answer.catch(() => {
      if (this.answers.get(orderNumber)?.answer === answer) this.answers.delete(orderNumber);
    });
    return answer;
  }

  /** Drops every expired answer, and the oldest held one if none had expired. */
  private forgetOldest(now: number): void {
    for (const [orderNumber, held] of this.answers) {
      if (now - held.readAt < this.maxAgeMs) break;
      this.answers.delete(orderNumber);
    }
    if (this.answers.size >= this.maxAnswers) this.answers.delete(this.answers.keys().next().value!);
  }
}
