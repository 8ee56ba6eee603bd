// order.created: the order's facts (item, quantity, total, status, date) for the customer's figures, and
// the profile's saved details for the returning-customer lookup. The service kit runs this in a
// transaction with the processed-event mark, so a repeat delivery is skipped. Events may arrive out of
// order (retries, replays): the newest order by submittedDate decides the saved details; the figures are
// derived from every order (events/projection.ts).
import { consumeEvent } from '@shop/service-kit';
import type { StatusSettings } from '../config.js';
import { normalizeEmail } from '../domain/codes.js';
import type { CustomersModels } from '../models/index.js';
import { recordOrderFacts, refreshCustomer, searchFieldsOf } from './projection.js';

export function orderCreatedConsumer(models: CustomersModels, thresholds: StatusSettings) {
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

    const owner = await recordOrderFacts(models, session, {
      orderId: data.orderId,
      orderNumber: data.orderNumber,
      itemType: data.itemType,
      created: { customerEmail: email, quantity: data.quantity, submittedDate: submitted },
      status: { value: data.status, at: submitted },
      // A new order has no quote and no discount yet: orderTotalOf is its estimate.
      total: { value: data.estimatedTotal, at: submitted },
    });
    // The order already belongs to a profile under another key: only that profile's figures change.
    if (owner && owner !== email) {
      await refreshCustomer(models, session, owner, thresholds);
      return;
    }

    const existing = await models.Customer.findOne({ email }).session(session);
    if (!existing) {
      const name = data.customerName.trim();
      await models.Customer.create(
        [
          {
            email,
            customerName: name,
            phone,
            lastShippingAddress: address,
            customerCategory: data.customerCategory,
            orderCount: 1,
            firstOrderAt: submitted,
            lastOrderAt: submitted,
            lastOrderId: data.orderId,
            lastOrderNumber: data.orderNumber,
            ...searchFieldsOf({ customerName: name, email, phone }, [data.orderNumber]),
          },
        ],
        { session },
      );
      log.info({ orderNumber: data.orderNumber }, 'customer profile created');
    } else if (submitted >= existing.lastOrderAt) {
      if (data.customerName.trim()) existing.customerName = data.customerName.trim();
      existing.customerCategory = data.customerCategory;
      // An order without a phone or address (the customizer's reduced order) keeps what we knew.
      if (phone) existing.phone = phone;
      if (address) existing.set('lastShippingAddress', address);
      await existing.save({ session });
    }
    await refreshCustomer(models, session, email, thresholds);
    log.info({ orderNumber: data.orderNumber }, 'customer figures updated');
  });
}
