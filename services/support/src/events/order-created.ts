// order.created -> the projection of orders support keeps for the return window (known_orders).
import { consumeEvent, type ServiceContext } from '@shop/service-kit';
import type { SupportModels } from '../models/index.js';
import { applyOrderFacts } from './known-orders.js';

export const orderCreatedConsumer = (ctx: ServiceContext<SupportModels>) =>
  consumeEvent('order.created', async (event, { session }) => {
    const o = event.data;
    await applyOrderFacts(ctx.models.KnownOrder, session, {
      orderId: o.orderId,
      orderNumber: o.orderNumber,
      email: o.email,
      customerName: o.customerName,
      status: o.status,
      at: new Date(o.submittedDate),
    });
  });
