// order.status_changed: announced with every status change (admin, bulk, or a payment) in the change's
// transaction. `emailRecordId` is set only when the change asks the email service for a status update.
import { orderStatuses, type EventData, type OrderStatus } from '@shop/contracts';
import type { OrderDoc } from '../models/order.js';

export interface StatusChange {
  status: OrderStatus;
  changedBy: string;
  note?: string | undefined;
  /** The order's total at the change (revenue projections use it). */
  total: number;
  at: Date;
  emailRecordId?: string | undefined;
}

export function statusChangedData(order: OrderDoc, change: StatusChange): EventData<'order.status_changed'> {
  const tracking = order.tracking?.trackingNumber ? order.tracking : null;
  return {
    orderId: order._id,
    orderNumber: order.orderNumber,
    customerName: order.customerName,
    email: order.email,
    itemType: order.itemType,
    previousStatus: (orderStatuses as readonly string[]).includes(order.status) ? order.status : null,
    status: change.status,
    changedBy: change.changedBy,
    ...(change.note ? { notes: change.note } : {}),
    ...(tracking
      ? {
          tracking: {
            carrier: tracking.carrier,
            trackingNumber: tracking.trackingNumber,
            ...(tracking.estimatedDelivery
              ? { estimatedDelivery: new Date(tracking.estimatedDelivery).toISOString() }
              : {}),
          },
        }
      : {}),
    total: change.total,
    changedAt: change.at.toISOString(),
    ...(change.emailRecordId ? { emailRecordId: change.emailRecordId } : {}),
  };
}
