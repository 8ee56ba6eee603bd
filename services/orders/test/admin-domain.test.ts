// The back office's pure rules: literal search, CSV cells a spreadsheet will not run, date ranges,
// analytics periods and period-over-period changes, the order's one total and the summary cards.
import { describe, expect, it } from 'vitest';
import { adminCsvColumns, adminCsvFileName, adminCsvProduct } from '@shop/contracts';
import {
  adminRow,
  csvRecord,
  csvSafe,
  dateRange,
  escapeRegex,
  orderTotal,
  percentChange,
  periodFigures,
  periodRange,
  summaryOf,
} from '../src/domain/admin-orders.js';
import type { OrderDoc } from '../src/models/order.js';

const created = new Date('2026-11-20T10:00:00.000Z');
/** A quoted order: quote 1000 less a 100 discount, 6.25 % tax on 900 = 56.25, so the customer pays 956.25. */
const quoted = {
  _id: 'q1',
  orderNumber: 'CC-QQQQ0001',
  customerName: 'Quinn Taylor',
  email: 'quinn@example.com',
  itemType: 'coin',
  quantity: 100,
  status: 'quote_sent',
  estimatedTotal: 1000,
  designMethod: 'describe',
  aiGenerated: false,
  customerCategory: 'general',
  quote: { amount: 1000, taxRate: 0.0625, taxAmount: 56.25, finalAmount: 956.25, sentAt: created, expiresAt: created },
  discount: { code: 'SAVE100', amount: 100 },
  createdAt: created,
  updatedAt: created,
} as unknown as OrderDoc;

describe('admin order rules', () => {
  it('search text matches literally', () => {
    const pattern = new RegExp(escapeRegex('a.b*(c)+[d]$^|/-'), 'i');
    expect(pattern.test('xx A.B*(C)+[D]$^|/- yy')).toBe(true);
    expect(pattern.test('aXb')).toBe(false);
  });

  it('neutralises spreadsheet formulas and keeps numbers', () => {
    for (const bad of ['=SUM(A1)', '+1', '-2+3', '@cmd', '\tx', '\rx']) expect(csvSafe(bad)).toBe(`'${bad}`);
    expect(csvSafe('Jane = Doe')).toBe('Jane = Doe');
    expect(csvSafe(-5)).toBe(-5);
  });

  it('a date-only end date covers that whole UTC day', () => {
    expect(dateRange('2026-01-02', '2026-01-31')).toEqual({
      $gte: new Date('2026-01-02T00:00:00.000Z'),
      $lte: new Date('2026-01-31T23:59:59.999Z'),
    });
    expect(dateRange(undefined, undefined)).toBeNull();
  });

  it('periods and the previous period of the same length', () => {
    const now = new Date('2026-11-22T12:00:00.000Z');
    expect(periodRange('7d', now)).toEqual({
      from: new Date('2026-11-15T12:00:00.000Z'),
      to: now,
      previousFrom: new Date('2026-11-08T12:00:00.000Z'),
    });
    expect(periodRange('6m', now).from).toEqual(new Date('2026-05-22T12:00:00.000Z'));
    expect(periodRange('1y', now).from).toEqual(new Date('2025-11-22T12:00:00.000Z'));
    expect(periodRange('total', now)).toEqual({ from: null, to: now, previousFrom: null });
  });

  it('changes in percent with one decimal, none without a base', () => {
    expect(percentChange(150, 100)).toBe(50);
    expect(percentChange(1, 3)).toBe(-66.7);
    expect(percentChange(5, 0)).toBeNull();
  });

  it('period figures: revenue from completed, average over not cancelled, pending revenue', () => {
    expect(
      periodFigures([
        { status: 'completed', itemType: 'coin', count: 2, total: 300, quantity: 10 },
        { status: 'cancelled', itemType: 'coin', count: 1, total: 1000, quantity: 5 },
        { status: 'shipped', itemType: 'patch', count: 1, total: 100, quantity: 5 },
      ]),
    ).toEqual({ orders: 4, revenue: 300, averageOrderValue: 133.33, pendingRevenue: 100, completionRate: 50 });
  });

  it("one total per order: the quote's final amount (tax in) once quoted, else the estimate less its discount; the table row and the CSV agree", () => {
    expect(orderTotal(quoted)).toBe(956.25);
    // Not quoted yet: the estimate less its discount.
    expect(orderTotal({ ...quoted, quote: null })).toBe(900);
    expect(orderTotal({ ...quoted, quote: null, discount: null })).toBe(1000);
    expect(adminRow(quoted).total).toBe(956.25);
    const record = csvRecord(quoted);
    expect(record[adminCsvColumns.indexOf('Total')]).toBe('956.25');
    expect(record[adminCsvColumns.indexOf('Total')]).toBe(adminRow(quoted).total.toFixed(2));
  });

  it('the CSV file is named {product}-orders-{date} after the shop, whatever the filters', () => {
    expect(adminCsvProduct).toBe('tactical-gear-co');
    expect(adminCsvFileName(adminCsvProduct, new Date('2026-11-24T15:00:00.000Z'))).toBe(
      'tactical-gear-co-orders-2026-11-24.csv',
    );
  });

  it("the 'Pending Review' card counts the status labelled Pending Review (pending), as its tab does, not pending_quote", () => {
    const cards = summaryOf([
      { _id: 'pending', n: 2, total: 200 },
      { _id: 'pending_quote', n: 5, total: 500 },
      { _id: 'completed', n: 1, total: 956.25 },
      { _id: 'cancelled', n: 1, total: 50 },
      // Shown as pending (spec §4), in the tab and so in the card.
      { _id: 'legacy_status', n: 1, total: 10 },
    ]);
    expect(cards).toEqual({
      totalOrders: 10,
      completedRevenue: 956.25,
      averageOrderValue: round(1666.25 / 9),
      pendingReview: 3,
    });
  });
});

const round = (n: number) => Math.round(n * 100) / 100;
