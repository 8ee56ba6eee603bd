import { describe, expect, it } from 'vitest';
import {
  adminBulkStatusSchema,
  adminOrderEditSchema,
  adminOrderListQuerySchema,
  adminQuoteSchema,
  adminTrackingUpdateSchema,
  infoRequestSubject,
  ordersAdminPaths,
} from '../src/index.js';

describe('admin order contracts', () => {
  it('list query: defaults, page size cap, status tabs', () => {
    expect(adminOrderListQuerySchema.parse({})).toMatchObject({
      page: 1,
      pageSize: 25,
      status: 'all',
      sortBy: 'submittedDate',
      sortDir: 'desc',
    });
    expect(adminOrderListQuerySchema.parse({ page: '3', pageSize: '100', status: 'shipped' })).toMatchObject({
      page: 3,
      pageSize: 100,
      status: 'shipped',
    });
    expect(adminOrderListQuerySchema.safeParse({ pageSize: '101' }).success).toBe(false);
    expect(adminOrderListQuerySchema.safeParse({ status: 'lost' }).success).toBe(false);
    expect(adminOrderListQuerySchema.safeParse({ startDate: '2026-02-30x' }).success).toBe(false);
  });
  it('edit: quantity integer, total decimal, invalid becomes 0', () => {
    expect(adminOrderEditSchema.parse({ quantity: '12.7', total: '99.999' })).toEqual({ quantity: 12, total: 100 });
    expect(adminOrderEditSchema.parse({ quantity: 'abc', total: '-3' })).toEqual({ quantity: 0, total: 0 });
    expect(adminOrderEditSchema.safeParse({ status: 'paid' }).success).toBe(false);
  });
  it('bulk status refuses pending and cancelled', () => {
    expect(adminBulkStatusSchema.safeParse({ orderIds: ['a'], status: 'pending' }).success).toBe(false);
    expect(adminBulkStatusSchema.safeParse({ orderIds: ['a'], status: 'cancelled' }).success).toBe(false);
    expect(adminBulkStatusSchema.safeParse({ orderIds: ['a'], status: 'shipped' }).success).toBe(true);
  });
  it('quote amount > 0, tracking defaults to UPS and needs a number', () => {
    expect(adminQuoteSchema.safeParse({ quoteAmount: 0 }).success).toBe(false);
    expect(adminQuoteSchema.safeParse({ quoteAmount: 'x' }).success).toBe(false);
    expect(adminQuoteSchema.parse({ quoteAmount: '12.50' }).quoteAmount).toBe(12.5);
    expect(adminQuoteSchema.parse({ quoteAmount: 5, sendEmail: true }).sendEmail).toBe(true);
    expect(adminQuoteSchema.safeParse({ quoteAmount: 5, sendEmail: false }).success).toBe(false);
    expect(adminTrackingUpdateSchema.parse({ trackingNumber: ' 1Z9 ' })).toMatchObject({
      carrier: 'UPS',
      trackingNumber: '1Z9',
    });
    expect(adminTrackingUpdateSchema.safeParse({ trackingNumber: '  ' }).success).toBe(false);
  });
  it('paths and subject', () => {
    expect(ordersAdminPaths.generateQuote('abc')).toBe('/api/orders/abc/generate-quote');
    expect(ordersAdminPaths.sendEmail('a/b')).toBe('/api/orders/a%2Fb/send-email');
    expect(ordersAdminPaths.list).toBe('/api/orders');
    expect(infoRequestSubject('CC-ABCD2345')).toBe('Additional Information Needed - Order #CC-ABCD2345');
  });
});
