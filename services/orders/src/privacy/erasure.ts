// privacy.erasure_requested (issue 16): the customer's orders lose their personal data and keep what the
// figures need. Name, email, phone, shipping and billing addresses go (the email becomes the erasure's
// anonymous address, so the order still tracks no one and later events stay grouped under the erased
// customer); the email history keeps dates, subjects and statuses but not the address or the text.
// Totals, items, statuses, quote, payment and the status history stay. Order tracking and order history
// by the old email find nothing afterwards (they match emailKey).
//
// Idempotent: the orders are found by the old address (and by the ids the customers service sent);
// once anonymised, a replay finds them already carrying the anonymous address and writes nothing.
import { erasedName, erasedText } from '@shop/contracts';
import { consumeEvent } from '@shop/service-kit';
import type { OrderDoc, OrderModels } from '../models/order.js';

export function erasureRequestedConsumer(models: OrderModels) {
  return consumeEvent('privacy.erasure_requested', async (event, { session, log }) => {
    const { email, anonymisedEmail, orderIds, erasureId } = event.data;
    const orders = await models.Order.find({ $or: [{ emailKey: email }, { _id: { $in: orderIds } }] })
      .session(session)
      .lean<OrderDoc[]>();
    let erased = 0;
    for (const order of orders) {
      if (order.emailKey === anonymisedEmail) continue;
      await models.Order.updateOne(
        { _id: order._id },
        {
          $set: {
            customerName: erasedName,
            email: anonymisedEmail,
            emailKey: anonymisedEmail,
            emailHistory: (order.emailHistory ?? []).map((entry) => ({
              ...entry,
              to: anonymisedEmail,
              preview: erasedText,
            })),
          },
          $unset: { phone: 1, shippingAddress: 1, billingAddress: 1 },
        },
        { session },
      );
      erased += 1;
    }
    // The address a design was generated from is personal data too; the design itself stays with the order.
    const designIds = orders.map((o) => o.aiDesignId).filter((id): id is string => Boolean(id));
    if (designIds.length)
      await models.Design.updateMany({ _id: { $in: designIds } }, { $unset: { ip: 1 } }, { session });
    log.info({ erasureId, orders: orders.length, erased }, erased ? 'orders anonymised' : 'orders already anonymised');
  });
}
