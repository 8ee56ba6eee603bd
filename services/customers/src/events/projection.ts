// The write side shared by the order-event consumers: record what one event says about one order
// (newer facts win, by the time they were true at), then derive the customer's figures again from all
// their orders. Nothing is incremented, so a repeat, a late or a replayed event gives the same figures.
import type { ClientSession } from 'mongoose';
import { orderStatuses, type ItemType, type OrderStatus } from '@shop/contracts';
import type { StatusSettings } from '../config.js';
import { deriveFigures, isVip, type OrderFacts } from '../domain/customer-status.js';
import type { CustomerOrderDoc, CustomersModels } from '../models/index.js';

export interface OrderFactUpdate {
  orderId: string;
  orderNumber: string;
  itemType: ItemType;
  /** Only order.created knows these. */
  created?: { customerEmail: string; quantity: number; submittedDate: Date };
  status?: { value: OrderStatus; at: Date };
  total?: { value: number; at: Date };
}

/** A fact at `at` replaces one at `currentAt` when it is newer; a tie goes to the later status / larger total, so arrival order never matters. */
function wins(at: Date, currentAt: Date | null | undefined, tieBreak: () => boolean): boolean {
  if (!currentAt) return true;
  if (at.getTime() !== currentAt.getTime()) return at > currentAt;
  return tieBreak();
}

/** What one event changes of the stored order (`existing`, undefined when not stored yet). */
export function orderFactsSet(
  existing: Pick<CustomerOrderDoc, 'customerEmail' | 'status' | 'statusAt' | 'total' | 'totalAt'> | null | undefined,
  update: OrderFactUpdate,
): Record<string, unknown> {
  const set: Record<string, unknown> = { orderNumber: update.orderNumber, itemType: update.itemType };
  if (update.created) {
    // The customer it belongs to is fixed at its first order.created.
    if (!existing?.customerEmail) set.customerEmail = update.created.customerEmail;
    set.quantity = update.created.quantity;
    set.submittedDate = update.created.submittedDate;
  }
  const { status, total } = update;
  if (
    status &&
    wins(
      status.at,
      existing?.statusAt,
      () => orderStatuses.indexOf(status.value) > orderStatuses.indexOf(existing!.status),
    )
  ) {
    set.status = status.value;
    set.statusAt = status.at;
  }
  if (total && wins(total.at, existing?.totalAt, () => total.value > (existing!.total ?? 0))) {
    set.total = total.value;
    set.totalAt = total.at;
  }
  if (!existing && !set.status) {
    // A status is required; an event that carries none (quote_sent first) still knows the order exists.
    set.status = 'pending';
    set.statusAt = null;
  }
  return set;
}

/** Stores the facts of one event about one order; answers the customer's email when the order is known to belong to one. */
export async function recordOrderFacts(
  models: CustomersModels,
  session: ClientSession,
  update: OrderFactUpdate,
): Promise<string | null> {
  const { CustomerOrder } = models;
  const existing = await CustomerOrder.findById(update.orderId)
    .session(session)
    .lean<CustomerOrderDoc & { _id: string }>();
  const set = orderFactsSet(existing, update);
  await CustomerOrder.updateOne({ _id: update.orderId }, { $set: set }, { session, upsert: true });
  return existing?.customerEmail ?? update.created?.customerEmail ?? null;
}

/** Derives the customer's figures again from every order of theirs (orders not yet created are left out). */
export async function refreshCustomer(
  models: CustomersModels,
  session: ClientSession,
  email: string,
  thresholds: StatusSettings,
): Promise<void> {
  const { Customer, CustomerOrder } = models;
  const customer = await Customer.findOne({ email }).session(session);
  if (!customer) return; // order.created has not arrived yet: it refreshes the customer when it does.
  const orders = await CustomerOrder.find({ customerEmail: email, submittedDate: { $ne: null } })
    .session(session)
    .lean<(CustomerOrderDoc & { _id: string })[]>();
  customer.set(figuresOf(customer, orders, thresholds));
  await customer.save({ session });
}

/** The customer's figures, search fields and last order, from their created orders. */
export function figuresOf(
  customer: { customerName: string; email: string; phone: string },
  orders: readonly (CustomerOrderDoc & { _id: string })[],
  thresholds: StatusSettings,
) {
  const facts: OrderFacts[] = orders.map((o) => ({
    itemType: o.itemType,
    quantity: o.quantity,
    total: o.total,
    status: o.status,
    submittedDate: o.submittedDate as Date,
  }));
  const f = deriveFigures(facts);
  const newest = orders.reduce<(typeof orders)[number] | null>(
    (best, o) => (!best || (o.submittedDate as Date) > (best.submittedDate as Date) ? o : best),
    null,
  );
  return {
    orderCount: f.totalOrders,
    spentOrders: f.spentOrders,
    totalSpent: f.totalSpent,
    averageOrderValue: f.averageOrderValue,
    preferredItemType: f.preferredItemType,
    completedOrders: f.completedOrders,
    avgDaysBetweenOrders: f.avgDaysBetweenOrders,
    vip: isVip(f, thresholds),
    ...(f.firstOrderDate ? { firstOrderAt: f.firstOrderDate } : {}),
    ...(f.lastOrderDate ? { lastOrderAt: f.lastOrderDate } : {}),
    ...(newest ? { lastOrderId: newest._id, lastOrderNumber: newest.orderNumber } : {}),
    ...searchFieldsOf(
      { customerName: customer.customerName, email: customer.email, phone: customer.phone },
      orders.map((o) => o.orderNumber),
    ),
  };
}

/** nameKey (sorting) and searchText (the search box: name, email, phone, order numbers), lower-cased. */
export function searchFieldsOf(
  c: { customerName: string; email: string; phone: string },
  orderNumbers: readonly string[],
) {
  return {
    nameKey: c.customerName.trim().toLowerCase(),
    searchText: [c.customerName, c.email, c.phone, ...orderNumbers].join(' ').toLowerCase(),
  };
}

/**
 * Brings every stored vip flag in line with the configured thresholds (run at start): a changed
 * VIP_MIN_SPENT or VIP_MIN_ORDERS applies to every customer at once, not only at their next order.
 */
export async function applyVipThresholds(
  models: CustomersModels,
  t: StatusSettings,
): Promise<{ promoted: number; demoted: number }> {
  const qualifies = [{ totalSpent: { $gte: t.vipMinSpent } }, { spentOrders: { $gte: t.vipMinOrders } }];
  const [up, down] = await Promise.all([
    models.Customer.updateMany({ vip: false, $or: qualifies }, { $set: { vip: true } }),
    models.Customer.updateMany(
      { vip: true, totalSpent: { $lt: t.vipMinSpent }, spentOrders: { $lt: t.vipMinOrders } },
      { $set: { vip: false } },
    ),
  ]);
  return { promoted: up.modifiedCount, demoted: down.modifiedCount };
}
