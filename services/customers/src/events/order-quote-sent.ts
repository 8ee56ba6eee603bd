// order.quote_sent: Apply Quote moves the order to quote_sent and sets its total to the quote's final
// amount (orderTotalOf) without an order.status_changed, so this event carries both facts.
import { consumeEvent } from '@shop/service-kit';
import type { StatusSettings } from '../config.js';
import type { CustomersModels } from '../models/index.js';
import { recordOrderFacts, refreshCustomer } from './projection.js';

export function orderQuoteSentConsumer(models: CustomersModels, thresholds: StatusSettings) {
  return consumeEvent('order.quote_sent', async (event, { session, log }) => {
    const data = event.data;
    const at = new Date(event.occurredAt);
    const owner = await recordOrderFacts(models, session, {
      orderId: data.orderId,
      orderNumber: data.orderNumber,
      itemType: data.itemType,
      status: { value: 'quote_sent', at },
      total: { value: data.finalAmount, at },
    });
    if (owner) await refreshCustomer(models, session, owner, thresholds);
    log.info({ orderNumber: data.orderNumber }, 'customer order quote recorded');
  });
}
