// The back office's pure rules: literal search, CSV cells a spreadsheet will not run, date ranges,
// analytics periods and period-over-period changes.
import { describe, expect, it } from 'vitest';
import { csvSafe, dateRange, escapeRegex, percentChange, periodFigures, periodRange } from '../src/domain/admin-orders.js';

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
    expect(dateRange('2026-01-02', '2026-01-31')).toEqual({ $gte: new Date('2026-01-02T00:00:00.000Z'), $lte: new Date('2026-01-31T23:59:59.999Z') });
    expect(dateRange(undefined, undefined)).toBeNull();
  });

  it('periods and the previous period of the same length', () => {
    const now = new Date('2026-11-22T12:00:00.000Z');
    expect(periodRange('7d', now)).toEqual({ from: new Date('2026-11-15T12:00:00.000Z'), to: now, previousFrom: new Date('2026-11-08T12:00:00.000Z') });
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
});
