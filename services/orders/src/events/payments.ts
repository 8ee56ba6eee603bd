// Quote payment, the orders side of the NATS conversation with the payments service: payments asks for
// an order's quote (to charge the server's figure, never the browser's).
import { notFound, replyTo, type ServiceContext } from '@shop/service-kit';
import { orderPaymentQuoteRequestSchema, orderPaymentQuoteSubject, paymentMessages } from '@shop/contracts';
import { paymentQuoteOf } from '../domain/payment.js';
import type { OrderDoc, OrderModels } from '../models/order.js';

export function paymentReplies(ctx: ServiceContext<OrderModels>) {
  const { Order } = ctx.models;
  return [
    replyTo(orderPaymentQuoteSubject, orderPaymentQuoteRequestSchema, async ({ orderId }) => {
      const order = await Order.findById(orderId).lean<OrderDoc>();
      if (!order) throw notFound(paymentMessages.orderNotFound);
      return paymentQuoteOf(order);
    }),
  ];
}
