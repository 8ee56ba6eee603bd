// What a tracker sees of an order (storefront §3 "Order as seen by tracking", §4 statuses): the order's
// public fields, its progress and its timeline. Built field by field from the stored order, so nothing
// else leaks: POST /api/orders/track sends this object as it is (routes/tracking.ts), without the response
// schema's pass over it.
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
