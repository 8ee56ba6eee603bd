// order.status_changed -> the projection's status, and the date the order first shipped (the return
// window opens then). An event for an order support never saw created (older than the stream) still
// adds it: the change carries number, email and name.
import { consumeEvent, type ServiceContext } from '@shop/service-kit';
import type { SupportModels } from '../models/index.js';
import { applyOrderFacts } from './known-orders.js';

export const orderStatusChangedConsumer = (ctx: ServiceContext<SupportModels>) =>
  consumeEvent('order.status_changed', async (event, { session }) => {
    const o = event.data;
    await applyOrderFacts(ctx.models.KnownOrder, session, {
      orderId: o.orderId,
      orderNumber: o.orderNumber,
      email: o.email,
      customerName: o.customerName,
      status: o.status,
      at: new Date(o.changedAt),
    });
  });
