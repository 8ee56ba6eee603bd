// order.quote_sent (Apply Quote, also a new quote for an order already quoted): intents made for the
// previous quote's total are canceled, as after a discount (order-total-changed.ts).
import { consumeEvent, type ServiceContext } from '@shop/service-kit';
import type { PaymentModels } from '../models/payments.js';
import type { Provider } from '../providers/index.js';
import { cancelIntentsForOldTotals } from './order-total-changed.js';

export const orderQuoteSentConsumer = (ctx: ServiceContext<PaymentModels>, provider: Provider) =>
  consumeEvent('order.quote_sent', async (event, { log }) => {
    await cancelIntentsForOldTotals(ctx, provider, event.data.orderId, log);
  });
