// order.created: announced with the order in one transaction (outbox). It carries what the customers
// service needs for its profile projection and what the email service needs for the confirmation to
// the customer and the new-order notice to the team.
import { orderStatusLabels, type EventData } from '@shop/contracts';
import type { OrderDoc } from '../models/order.js';

export function orderCreatedData(order: OrderDoc): EventData<'order.created'> {
  return {
    orderId: order._id,
    orderNumber: order.orderNumber,
    customerName: order.customerName,
    email: order.email,
    ...(order.phone ? { phone: order.phone } : {}),
    itemType: order.itemType,
    designMethod: order.designMethod,
    quantity: order.quantity,
    estimatedTotal: order.estimatedTotal,
    customerCategory: order.customerCategory,
    taxExempt: order.taxExempt,
    aiGenerated: order.aiGenerated,
    subscribeEmail: order.subscribeEmail,
    subscribeSMS: order.subscribeSMS,
    ...(order.shippingAddress ? { shippingAddress: order.shippingAddress } : {}),
    ...(order.billingAddress ? { billingAddress: order.billingAddress } : {}),
    status: order.status,
    statusLabel: orderStatusLabels[order.status],
    submittedDate: order.createdAt.toISOString(),
    description: order.description,
    ...(order.size ? { size: order.size } : {}),
    ...(order.sizeBreakdown ? { sizeBreakdown: order.sizeBreakdown } : {}),
    colors: order.colors,
    finish: order.finish,
    ...(order.shape ? { shape: order.shape } : {}),
    ...(order.edge ? { edge: order.edge } : {}),
    features: order.features,
    files: order.files.map((f) => ({ originalName: f.originalName, url: f.url, mimetype: f.mimetype, size: f.size })),
    customizer: order.customizer,
  };
}
