// order.total_changed (a discount applied, replaced or removed): the order's open payment intents made
// for another amount are canceled at the provider, so a payment page opened before cannot charge the
// old total. The event only says "look again": the amount kept is the one orders answers now, so events
// handled late or out of order (a retry after a failure) never cancel the intent for the current total.
import { AppError, consumeEvent, type Logger, type ServiceContext } from '@shop/service-kit';
import type { OrderPaymentQuote } from '@shop/contracts';
import type { PaymentModels } from '../models/payments.js';
import type { Provider } from '../providers/index.js';
import { cancelStaleIntents, chargeableAmount, hasOpenIntents } from '../providers/stale-intents.js';
import { quoteOf } from '../routes/intents.js';

/** Cancels the order's open intents for any amount but the one it may be charged now. */
export async function cancelIntentsForOldTotals(
  ctx: ServiceContext<PaymentModels>,
  provider: Provider,
  orderId: string,
  log: Logger,
) {
  // Most orders have no open intent (none yet, or paid): nothing to ask orders about.
  if (!(await hasOpenIntents(ctx.models.PaymentIntent, orderId))) return [];
  let order: OrderPaymentQuote | null;
  try {
    order = await quoteOf(ctx, orderId);
  } catch (err) {
    // Gone: nothing may be charged for it. Orders silent: throw, the event is retried later.
    if (err instanceof AppError && err.statusCode === 404) order = null;
    else throw err;
  }
  return cancelStaleIntents(ctx.models.PaymentIntent, provider, log, orderId, { amount: chargeableAmount(order) });
}

export const orderTotalChangedConsumer = (ctx: ServiceContext<PaymentModels>, provider: Provider) =>
  consumeEvent('order.total_changed', async (event, { log }) => {
    await cancelIntentsForOldTotals(ctx, provider, event.data.orderId, log);
  });
