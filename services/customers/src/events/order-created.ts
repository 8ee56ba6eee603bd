// order.created: the order's facts (item, quantity, total, status, date) for the customer's figures, and
// the profile's saved details for the returning-customer lookup. The service kit runs this in a
// transaction with the processed-event mark, so a repeat delivery is skipped. Events may arrive out of
// order (retries, replays): the newest order by submittedDate decides the saved details; the figures are
// derived from every order (events/projection.ts).
// The events that arrived together are handled together, each exactly as it would be alone and in
// stream order, but against the batch's orders and profiles held in memory: one read of the orders, one
// of the profiles, one write of each (instead of seven round trips per event).
import { consumeEventBatches } from '@shop/service-kit';
import type { StatusSettings } from '../config.js';
import { normalizeEmail } from '../domain/codes.js';
import { savedAddressOf } from '../domain/saved-address.js';
import type { CustomerOrderDoc, CustomersModels } from '../models/index.js';
import { orderFactsSet, searchFieldsOf, setFigures } from './projection.js';

type StoredOrder = CustomerOrderDoc & { _id: string };

export function orderCreatedConsumer(models: CustomersModels, thresholds: StatusSettings) {
  const { Customer, CustomerOrder } = models;
  return consumeEventBatches('order.created', async (events, { session, log }) => {
    const emails = new Set(events.map((event) => normalizeEmail(event.data.email)));
    const orderIds = [...new Set(events.map((event) => event.data.orderId))];
    // The batch's orders as stored, and every order of the batch's customers (their figures come from all).
    const orders = new Map<string, StoredOrder>();
    const load = async (filter: Record<string, unknown>) => {
      for (const o of await CustomerOrder.find(filter).session(session).lean<StoredOrder[]>()) orders.set(o._id, o);
    };
    await load({ $or: [{ _id: { $in: orderIds } }, { customerEmail: { $in: [...emails] } }] });
    // An order of the batch that already belongs to another profile: that profile's orders too.
    const owners = new Set<string>();
    for (const id of orderIds) {
      const owner = orders.get(id)?.customerEmail;
      if (owner && !emails.has(owner)) owners.add(owner);
    }
    if (owners.size > 0) await load({ customerEmail: { $in: [...owners] } });
    const customers = new Map(
      (await Customer.find({ email: { $in: [...emails, ...owners] } }).session(session)).map((c) => [c.email, c]),
    );
    const ordersOf = (email: string) =>
      [...orders.values()].filter((o) => o.customerEmail === email && o.submittedDate !== null);

    const orderWrites = new Map<string, Record<string, unknown>>();
    const changed = new Set<InstanceType<typeof Customer>>();
    for (const event of events) {
      const data = event.data;
      const email = normalizeEmail(data.email);
      const submitted = new Date(data.submittedDate);
      const address = savedAddressOf(data.shippingAddress);
      const phone = data.phone?.trim() ?? '';

      const stored = orders.get(data.orderId);
      const set = orderFactsSet(stored, {
        orderId: data.orderId,
        orderNumber: data.orderNumber,
        itemType: data.itemType,
        created: { customerEmail: email, quantity: data.quantity, submittedDate: submitted },
        status: { value: data.status, at: submitted },
        // A new order has no quote and no discount yet: orderTotalOf is its estimate.
        total: { value: data.estimatedTotal, at: submitted },
      });
      orders.set(data.orderId, {
        quantity: 0,
        total: 0,
        totalAt: null,
        ...stored,
        ...set,
        _id: data.orderId,
      } as StoredOrder);
      orderWrites.set(data.orderId, { ...orderWrites.get(data.orderId), ...set });
      const owner = stored?.customerEmail ?? email;
      // The order already belongs to a profile under another key: only that profile's figures change.
      if (owner !== email) {
        const profile = customers.get(owner);
        if (profile) {
          setFigures(profile, ordersOf(owner), thresholds);
          changed.add(profile);
        }
        continue;
      }

      let existing = customers.get(email);
      if (!existing) {
        const name = data.customerName.trim();
        existing = new Customer({
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
        });
        customers.set(email, existing);
        log.info({ orderNumber: data.orderNumber }, 'customer profile created');
      } else if (submitted >= existing.lastOrderAt) {
        if (data.customerName.trim()) existing.customerName = data.customerName.trim();
        existing.customerCategory = data.customerCategory;
        // An order without a phone or address (the customizer's reduced order) keeps what we knew.
        if (phone) existing.phone = phone;
        if (address) existing.set('lastShippingAddress', address);
      }
      setFigures(existing, ordersOf(email), thresholds);
      changed.add(existing);
      log.info({ orderNumber: data.orderNumber }, 'customer figures updated');
    }

    await CustomerOrder.bulkWrite(
      [...orderWrites].map(([id, set]) => ({
        updateOne: { filter: { _id: id }, update: { $set: set }, upsert: true },
      })),
      { session },
    );
    await Customer.bulkSave([...changed], { session });
  });
}
