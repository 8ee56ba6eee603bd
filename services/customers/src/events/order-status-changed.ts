// order.status_changed: the order's new status and its total at the change (the back office's
// orderTotalOf; a payment carries the amount charged), then the customer's figures derived again.
// An older change arriving after a newer one is kept out by its time (events/projection.ts).
import { consumeEvent } from '@shop/service-kit';
import type { StatusSettings } from '../config.js';
import type { CustomersModels } from '../models/index.js';
import { recordOrderFacts, refreshCustomer } from './projection.js';

export function orderStatusChangedConsumer(models: CustomersModels, thresholds: StatusSettings) {
  return consumeEvent('order.status_changed', async (event, { session, log }) => {
    const data = event.data;
    const at = new Date(data.changedAt);
    const owner = await recordOrderFacts(models, session, {
      orderId: data.orderId,
      orderNumber: data.orderNumber,
      itemType: data.itemType,
      status: { value: data.status, at },
      ...(data.total !== undefined ? { total: { value: data.total, at } } : {}),
    });
    if (owner) await refreshCustomer(models, session, owner, thresholds);
    log.info({ orderNumber: data.orderNumber, status: data.status }, 'customer order status recorded');
  });
}
