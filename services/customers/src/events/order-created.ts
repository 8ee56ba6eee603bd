// Keeps the customer profile projection: one profile per email, updated by every order.created. The
// service kit runs this in a transaction with the processed-event mark, so a repeat delivery is skipped.
// Events may arrive out of order (retries, replays): the newest order by submittedDate decides the saved
// details, while the count and the first-order date take every order into account.
import { consumeEvent } from '@shop/service-kit';
import { normalizeEmail } from '../domain/codes.js';
import type { CustomersModels } from '../models/index.js';

export function orderCreatedConsumer(models: CustomersModels) {
  return consumeEvent('order.created', async (event, { session, log }) => {
    const data = event.data;
    const email = normalizeEmail(data.email);
    const submitted = new Date(data.submittedDate);
    const address = data.shippingAddress
      ? {
          line1: data.shippingAddress.line1,
          line2: data.shippingAddress.line2 ?? '',
          city: data.shippingAddress.city,
          state: data.shippingAddress.state,
          postalCode: data.shippingAddress.postalCode,
          country: data.shippingAddress.country,
        }
      : null;
    const phone = data.phone?.trim() ?? '';

    const existing = await models.Customer.findOne({ email }).session(session);
    if (!existing) {
      await models.Customer.create(
        [
          {
            email,
            customerName: data.customerName.trim(),
            phone,
            lastShippingAddress: address,
            customerCategory: data.customerCategory,
            orderCount: 1,
            firstOrderAt: submitted,
            lastOrderAt: submitted,
            lastOrderId: data.orderId,
            lastOrderNumber: data.orderNumber,
          },
        ],
        { session },
      );
      log.info({ orderNumber: data.orderNumber }, 'customer profile created');
      return;
    }

    existing.orderCount += 1;
    if (submitted < existing.firstOrderAt) existing.firstOrderAt = submitted;
    if (submitted >= existing.lastOrderAt) {
      existing.lastOrderAt = submitted;
      existing.lastOrderId = data.orderId;
      existing.lastOrderNumber = data.orderNumber;
      if (data.customerName.trim()) existing.customerName = data.customerName.trim();
      existing.customerCategory = data.customerCategory;
      // An order without a phone or address (the customizer's reduced order) keeps what we knew.
      if (phone) existing.phone = phone;
      if (address) existing.set('lastShippingAddress', address);
    }
    await existing.save({ session });
    log.info({ orderNumber: data.orderNumber, orderCount: existing.orderCount }, 'customer profile updated');
  });
}
