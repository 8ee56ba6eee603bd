// The customer figures and status rule alone (no I/O): which orders count as spent, the averages, the
// preferred item, and vip / active / inactive with the thresholds.
import { describe, expect, it } from 'vitest';
import {
  activeSince,
  countsAsSpent,
  customerStatusOf,
  deriveFigures,
  isVip,
  type OrderFacts,
} from '../../src/domain/customer-status.js';

const day = 24 * 60 * 60_000;
const now = new Date('2026-11-20T12:00:00.000Z');
const ago = (days: number) => new Date(now.getTime() - days * day);
const order = (o: Partial<OrderFacts>): OrderFacts => ({
  itemType: 'coin',
  quantity: 10,
  total: 100,
  status: 'paid',
  submittedDate: ago(1),
  ...o,
});
const thresholds = { vipMinSpent: 1000, vipMinOrders: 3, activeWithinMonths: 12 };

describe('which orders count as spent', () => {
  it('paid or later, never cancelled or before payment', () => {
    for (const s of ['paid', 'in_progress', 'design_review', 'production', 'shipped', 'completed'] as const)
      expect(countsAsSpent(s)).toBe(true);
    for (const s of ['pending', 'pending_quote', 'quote_sent', 'awaiting_payment', 'cancelled'] as const)
      expect(countsAsSpent(s)).toBe(false);
  });
});

describe('deriveFigures', () => {
  it('sums spent orders in cents, averages over them, counts every order', () => {
    const f = deriveFigures([
      order({ total: 540.1, status: 'completed', submittedDate: ago(60), quantity: 100 }),
      order({ itemType: 'patch', total: 300.2, status: 'paid', submittedDate: ago(30), quantity: 50 }),
      order({ total: 200, status: 'cancelled', submittedDate: ago(10) }),
      order({ itemType: 'shirt', total: 99.99, status: 'pending_quote', submittedDate: ago(40) }),
    ]);
    expect(f).toEqual({
      totalOrders: 4,
      spentOrders: 2,
      totalSpent: 840.3,
      averageOrderValue: 420.15,
      firstOrderDate: ago(60),
      lastOrderDate: ago(10),
      // coin 1 order (the cancelled one does not count), patch 1, shirt 1: the larger quantity wins the tie.
      preferredItemType: 'coin',
      completedOrders: 1,
      avgDaysBetweenOrders: 16.67,
    });
  });

  it('a customer with no spent orders has zero figures, one order has no gap', () => {
    const f = deriveFigures([order({ status: 'pending', submittedDate: ago(5) })]);
    expect(f).toMatchObject({
      totalOrders: 1,
      spentOrders: 0,
      totalSpent: 0,
      averageOrderValue: 0,
      avgDaysBetweenOrders: 0,
      preferredItemType: 'coin',
    });
    expect(deriveFigures([])).toMatchObject({
      totalOrders: 0,
      firstOrderDate: null,
      lastOrderDate: null,
      preferredItemType: null,
    });
  });

  it('the item ordered most often is preferred', () => {
    expect(
      deriveFigures([
        order({ itemType: 'shirt' }),
        order({ itemType: 'shirt' }),
        order({ itemType: 'coin', quantity: 500 }),
      ]).preferredItemType,
    ).toBe('shirt');
  });

  it('gives the same figures whatever order the facts come in', () => {
    const facts = [
      order({ submittedDate: ago(3) }),
      order({ itemType: 'patch', submittedDate: ago(9), total: 12.34 }),
      order({ status: 'completed', submittedDate: ago(1) }),
    ];
    expect(deriveFigures([...facts].reverse())).toEqual(deriveFigures(facts));
  });
});

describe('the status rule', () => {
  it('vip from spending or from the number of spent orders', () => {
    expect(isVip({ totalSpent: 1000, spentOrders: 0 }, thresholds)).toBe(true);
    expect(isVip({ totalSpent: 999.99, spentOrders: 2 }, thresholds)).toBe(false);
    expect(isVip({ totalSpent: 10, spentOrders: 3 }, thresholds)).toBe(true);
  });

  it('vip first, then active with an order in the last 12 months, else inactive', () => {
    expect(customerStatusOf({ vip: true, lastOrderDate: ago(800) }, now, thresholds)).toBe('vip');
    expect(customerStatusOf({ vip: false, lastOrderDate: ago(364) }, now, thresholds)).toBe('active');
    expect(customerStatusOf({ vip: false, lastOrderDate: ago(366) }, now, thresholds)).toBe('inactive');
    expect(customerStatusOf({ vip: false, lastOrderDate: null }, now, thresholds)).toBe('inactive');
    expect(activeSince(now, { activeWithinMonths: 12 }).toISOString()).toBe('2025-11-20T12:00:00.000Z');
    expect(activeSince(now, { activeWithinMonths: 1 }).toISOString()).toBe('2026-10-20T12:00:00.000Z');
  });
});
