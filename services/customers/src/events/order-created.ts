// order.created: the order's facts (item, quantity, total, status, date) for the customer's figures, and
// the profile's saved details for the returning-customer lookup. The service kit runs this in a
// transaction with the processed-event mark, so a repeat delivery is skipped. Events may arrive out of
// order (retries, replays): the newest order by submittedDate decides the saved details; the figures are
// derived from every order (events/projection.ts).
// The events that arrived together are handled together, each exactly as it would be alone and in
// stream order, but against the batch's orders and profiles held in memory: one read of the orders, one
// of the profiles, one write of each (instead of seven round trips per event).
import { Types } from 'mongoose';
import { consumeEventBatches } from '@shop/service-kit';
import type { StatusSettings } from '../config.js';
import { normalizeEmail } from '../domain/codes.js';
import { savedAddressOf } from '../domain/saved-address.js';
import type { CustomerDoc, CustomerOrderDoc, CustomersModels } from '../models/index.js';
import { figuresOf, orderFactsSet, searchFieldsOf } from './projection.js';

type StoredOrder = CustomerOrderDoc & { _id: string };
type StoredCustomer = CustomerDoc & { _id: Types.ObjectId };

export function orderCreatedConsumer(models: CustomersModels, thresholds: StatusSettings) {
  const { Customer, CustomerOrder } = models;
  // What mongoose would give a new profile (every default of the schema, and the version key), read from
  // the schema once; a new profile is written as a plain document.
  let defaults: Omit<StoredCustomer, '_id'> | undefined;
  const newCustomerDefaults = (): StoredCustomer => {
    defaults ??= (({ _id, ...rest }) => ({ ...rest, __v: 0 }))(new Customer().toObject());
    return { ...structuredClone(defaults), _id: new Types.ObjectId() };
  };
  // Likewise what mongoose's upsert would set on a new order document besides the event's facts.
  let orderDefaults: Record<string, unknown> | undefined;
  const newOrderFields = (set: Record<string, unknown>, createdAt: Date): Record<string, unknown> => {
    orderDefaults ??= (({ _id, ...rest }) => ({ ...rest, __v: 0 }))(new CustomerOrder().toObject());
    const fields: Record<string, unknown> = { createdAt };
    for (const [field, value] of Object.entries(orderDefaults)) if (!(field in set)) fields[field] = value;
    return fields;
  };
  return consumeEventBatches('order.created', async (events, { session, log }) => {
    const emails = new Set(events.map((event) => normalizeEmail(event.data.email)));
    const orderIds = [...new Set(events.map((event) => event.data.orderId))];
    // The batch's orders as stored, and every order of the batch's customers (their figures come from all).
    const orders = new Map<string, StoredOrder>();
    // Reads and writes through the driver: ids and addresses need no casting, and every update is typed.
    const load = async (filter: Record<string, unknown>) => {
      for (const o of await CustomerOrder.collection.find<StoredOrder>(filter, { session }).toArray())
        orders.set(o._id, o);
    };
    // Two reads, each on its index: the local embedded MongoDB answers a top-level $or by reading the whole
    // collection (no index union), a cost growing with every order the shop has.
    await load({ _id: { $in: orderIds } });
    await load({ customerEmail: { $in: [...emails] } });
    // An order of the batch that already belongs to another profile: that profile's orders too.
    const owners = new Set<string>();
    for (const id of orderIds) {
      const owner = orders.get(id)?.customerEmail;
      if (owner && !emails.has(owner)) owners.add(owner);
    }
    if (owners.size > 0) await load({ customerEmail: { $in: [...owners] } });
    // The profiles as plain documents, and what the batch changes of each: written through the driver
    // (hydrating, tracking and saving mongoose documents was most of this consumer's CPU).
    const customers = new Map(
      (
        await Customer.collection
          .find<StoredCustomer>({ email: { $in: [...emails, ...owners] } }, { session })
          .toArray()
      ).map((c) => [c.email, c]),
    );
    const changes = new Map<string, Record<string, unknown>>();
    const change = (profile: StoredCustomer, set: Record<string, unknown>) => {
      Object.assign(profile, set);
      changes.set(profile.email, { ...changes.get(profile.email), ...set });
    };
    const added = new Set<string>();
    const ordersOf = (email: string) =>
      [...orders.values()].filter((o) => o.customerEmail === email && o.submittedDate !== null);

    const orderWrites = new Map<string, Record<string, unknown>>();
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
        if (profile) change(profile, figuresOf(profile, ordersOf(owner), thresholds));
        continue;
      }

      let existing = customers.get(email);
      if (!existing) {
        const name = data.customerName.trim();
        existing = {
          ...newCustomerDefaults(),
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
        };
        customers.set(email, existing);
        added.add(email);
        log.info({ orderNumber: data.orderNumber }, 'customer profile created');
      } else if (submitted >= existing.lastOrderAt) {
        change(existing, {
          ...(data.customerName.trim() ? { customerName: data.customerName.trim() } : {}),
          customerCategory: data.customerCategory,
          // An order without a phone or address (the customizer's reduced order) keeps what we knew.
          ...(phone ? { phone } : {}),
          ...(address ? { lastShippingAddress: address } : {}),
        });
      }
      change(existing, figuresOf(existing, ordersOf(email), thresholds));
      log.info({ orderNumber: data.orderNumber }, 'customer figures updated');
    }

    const updatedAt = new Date(); // as mongoose's timestamps: the wall clock
    await CustomerOrder.collection.bulkWrite(
      [...orderWrites].map(([id, set]) => ({
        updateOne: {
          filter: { _id: id as never },
          update: { $set: { ...set, updatedAt }, $setOnInsert: newOrderFields(set, updatedAt) },
          upsert: true,
        },
      })),
      { session },
    );
    const profileWrites = [...changes].map(([email, set]) => {
      const profile = customers.get(email)!;
      // A profile the batch added is inserted once, as the batch left it.
      return added.has(email)
        ? { insertOne: { document: { ...profile, createdAt: updatedAt, updatedAt } } }
        : { updateOne: { filter: { _id: profile._id }, update: { $set: { ...set, updatedAt } } } };
    });
    if (profileWrites.length > 0) await Customer.collection.bulkWrite(profileWrites, { session });
  });
}
