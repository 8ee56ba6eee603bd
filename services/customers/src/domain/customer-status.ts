// The customer's figures and status, derived from the facts kept per order (README "Which orders count"
// and "Customer status"). Pure: the projection stores per-order facts and calls these after every event,
// so replaying any set of events in any order gives the same figures.
import type { CustomerStatus, ItemType, OrderStatus } from '@shop/contracts';
import { itemTypes } from '@shop/contracts';

/** Paid or later and not cancelled: the order's total counts as spent. */
export const spentStatuses: ReadonlySet<OrderStatus> = new Set<OrderStatus>([
  'paid',
  'in_progress',
  'design_review',
  'production',
  'shipped',
  'completed',
]);
export const countsAsSpent = (status: OrderStatus) => spentStatuses.has(status);

export interface OrderFacts {
  itemType: ItemType;
  quantity: number;
  /** Dollars (the back office's orderTotalOf). */
  total: number;
  status: OrderStatus;
  submittedDate: Date;
}

export interface CustomerFigures {
  totalOrders: number;
  /** Orders that count as spent (their number divides totalSpent into averageOrderValue). */
  spentOrders: number;
  totalSpent: number;
  averageOrderValue: number;
  firstOrderDate: Date | null;
  lastOrderDate: Date | null;
  preferredItemType: ItemType | null;
  completedOrders: number;
  avgDaysBetweenOrders: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const day = 24 * 60 * 60_000;

export function deriveFigures(orders: readonly OrderFacts[]): CustomerFigures {
  const spent = orders.filter((o) => countsAsSpent(o.status));
  // Sum in cents so many orders do not drift.
  const spentCents = spent.reduce((sum, o) => sum + Math.round(o.total * 100), 0);
  const dates = orders.map((o) => o.submittedDate.getTime()).sort((a, b) => a - b);
  // Preferred item: the item ordered most often (every order but cancelled ones counts as a preference);
  // a tie goes to the item with the larger quantity, then the catalog order, so the answer is stable.
  const counts = new Map<ItemType, { orders: number; quantity: number }>();
  for (const o of orders) {
    if (o.status === 'cancelled') continue;
    const c = counts.get(o.itemType) ?? { orders: 0, quantity: 0 };
    c.orders += 1;
    c.quantity += o.quantity;
    counts.set(o.itemType, c);
  }
  let preferred: ItemType | null = null;
  for (const item of itemTypes) {
    const c = counts.get(item);
    if (!c) continue;
    const best = preferred ? counts.get(preferred)! : null;
    if (!best || c.orders > best.orders || (c.orders === best.orders && c.quantity > best.quantity)) preferred = item;
  }
  const first = dates[0];
  const last = dates[dates.length - 1];
  return {
    totalOrders: orders.length,
    spentOrders: spent.length,
    totalSpent: spentCents / 100,
    averageOrderValue: spent.length > 0 ? round2(spentCents / spent.length / 100) : 0,
    firstOrderDate: first === undefined ? null : new Date(first),
    lastOrderDate: last === undefined ? null : new Date(last),
    preferredItemType: preferred,
    completedOrders: orders.filter((o) => o.status === 'completed').length,
    // The mean gap between consecutive orders is the whole span over the number of gaps.
    avgDaysBetweenOrders: dates.length > 1 ? round2((last - first) / day / (dates.length - 1)) : 0,
  };
}

export interface StatusThresholds {
  vipMinSpent: number;
  vipMinOrders: number;
  activeWithinMonths: number;
}

/** VIP: spent at least vipMinSpent, or at least vipMinOrders orders counting as spent. Stored, so lists filter on an index. */
export const isVip = (f: Pick<CustomerFigures, 'totalSpent' | 'spentOrders'>, t: StatusThresholds) =>
  f.totalSpent >= t.vipMinSpent || f.spentOrders >= t.vipMinOrders;

/** Orders on or after this date make a customer active. Depends on the clock, so it is applied at read time. */
export function activeSince(now: Date, t: Pick<StatusThresholds, 'activeWithinMonths'>): Date {
  const since = new Date(now);
  since.setUTCMonth(since.getUTCMonth() - t.activeWithinMonths);
  return since;
}

/** vip, else active with an order in the last activeWithinMonths months, else inactive. */
export function customerStatusOf(
  c: { vip: boolean; lastOrderDate: Date | null },
  now: Date,
  t: StatusThresholds,
): CustomerStatus {
  if (c.vip) return 'vip';
  return c.lastOrderDate && c.lastOrderDate >= activeSince(now, t) ? 'active' : 'inactive';
}
