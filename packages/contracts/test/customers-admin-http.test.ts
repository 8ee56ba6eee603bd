// The customer CSV built in the browser: the spec's columns, quoting, formula characters neutralised,
// and the file name with the date.
import { describe, expect, it } from 'vitest';
import { customerCsvColumns, customerCsvFileName, customersCsv, type AdminCustomer } from '../src/index.js';

const customer = (c: Partial<AdminCustomer>): AdminCustomer => ({
  id: '1',
  name: 'Jordan Lee',
  email: 'jordan@example.com',
  phone: '+1 555-0100',
  status: 'vip',
  totalOrders: 3,
  totalSpent: 1240.5,
  averageOrderValue: 413.5,
  firstOrderDate: '2026-01-05T10:00:00.000Z',
  lastOrderDate: '2026-11-01T09:00:00.000Z',
  preferredItemType: 'coin',
  lifetimeStats: { completedOrders: 1, avgDaysBetweenOrders: 150 },
  ...c,
});

describe('customersCsv', () => {
  it('writes the columns, then one line per customer', () => {
    expect(customersCsv([customer({})]).split('\r\n')).toEqual([
      customerCsvColumns.join(','),
      'Jordan Lee,jordan@example.com,+1 555-0100,VIP,3,1240.50,2026-01-05,2026-11-01',
      '',
    ]);
  });

  it('quotes commas and quotes, and neutralises formulas', () => {
    const line = customersCsv([customer({ name: 'Lee, "Jo"', phone: '=HYPERLINK("x")', lastOrderDate: null })]).split(
      '\r\n',
    )[1];
    expect(line).toBe('"Lee, ""Jo""",jordan@example.com,"\'=HYPERLINK(""x"")",VIP,3,1240.50,2026-01-05,');
  });

  it('names the file with the date', () => {
    expect(customerCsvFileName(new Date('2026-11-24T12:00:00Z'))).toBe('customers-2026-11-24.csv');
  });
});
