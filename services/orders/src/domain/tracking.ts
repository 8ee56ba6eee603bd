// What a tracker sees of an order (storefront §3 "Order as seen by tracking", §4 statuses): the order's
// public fields, its progress and its timeline. Built from the stored order; nothing else leaks (the
// response schema strips any other field too).
import {
  orderStatusDescriptions,
  orderStatusLabels,
  trackingProgressPercent,
  type OrderStatus,
  type TrackedOrder,
} from '@shop/contracts';
import type { OrderDoc } from '../models/order.js';

/** pending_quote is not among the spec's tracker descriptions; the spec's promise fills the gap. */
const extraDescriptions: Partial<Record<OrderStatus, string>> = {
  pending_quote: 'Your quote request has been received. We will email your quote within 24 hours.',
  quote_sent: 'Your quote has been sent by email.',
  awaiting_payment: 'Your quote is waiting for payment.',
  paid: 'Your payment has been received.',
  shipped: 'Your order has been shipped.',
  cancelled: 'This order has been cancelled.',
};

export function statusDescription(status: OrderStatus): string | null {
  return orderStatusDescriptions[status] ?? extraDescriptions[status] ?? null;
}

export function trackedView(order: OrderDoc): TrackedOrder {
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
      ...(entry.note ? { note: entry.note } : {}),
    })),
    tracking: order.tracking?.trackingNumber
      ? {
          carrier: order.tracking.carrier,
          trackingNumber: order.tracking.trackingNumber,
          estimatedDelivery: order.tracking.estimatedDelivery ? new Date(order.tracking.estimatedDelivery).toISOString() : null,
        }
      : null,
  };
}
