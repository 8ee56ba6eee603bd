// order.created -> the projection of orders support keeps for the return window (known_orders). The
// events that arrived together are applied together: one read and one write for the whole batch.
import { consumeEventBatches, type ServiceContext } from '@shop/service-kit';
import type { SupportModels } from '../models/index.js';
import { applyOrderFactsBatch } from './known-orders.js';

export const orderCreatedConsumer = (ctx: ServiceContext<SupportModels>) =>
  consumeEventBatches('order.created', async (events, { session }) => {
    await applyOrderFactsBatch(
      ctx.models.KnownOrder,
      session,
      events.map(({ data: o }) => ({
        orderId: o.orderId,
        orderNumber: o.orderNumber,
        email: o.email,
        customerName: o.customerName,
        status: o.status,
        at: new Date(o.submittedDate),
      })),
    );
  });
