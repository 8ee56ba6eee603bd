// Customer management in the back office (admin part B §2.2, §3 Customer, §6 GET /api/customers, §8, §9):
// the list with its summary, one customer with the order history, and the CSV export done in the browser.
import { z } from 'zod';
import { customerStatusSchema, itemTypeSchema, orderStatusSchema, type CustomerStatus } from './catalog.js';

export const customerStatusLabels: Record<CustomerStatus, string> = {
  vip: 'VIP',
  active: 'Active',
  inactive: 'Inactive',
};

export const customerSortFields = ['lastOrderDate', 'firstOrderDate', 'totalSpent', 'totalOrders', 'name'] as const;
export type CustomerSortField = (typeof customerSortFields)[number];
export const customerPageSizeMax = 500;

export const adminCustomerPaths = {
  list: '/api/customers',
  detail: '/api/customers/:id',
} as const;

/** GET /api/customers query: search (name, email, phone, order number), status, sort and paging, all on the server. */
export const customerListQuerySchema = z.object({
  page: z.coerce.number().int('page must be a whole number').min(1, 'page starts at 1').default(1),
  pageSize: z.coerce
    .number()
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be at least 1')
    .max(customerPageSizeMax, `pageSize can be at most ${customerPageSizeMax}`)
    .default(25),
  search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
  status: z
    .union([z.literal('all'), customerStatusSchema], { error: 'status must be one of all, vip, active, inactive' })
    .optional(),
  sortBy: z
    .enum(customerSortFields, { error: `sortBy must be one of ${customerSortFields.join(', ')}` })
    .default('lastOrderDate'),
  sortDir: z.enum(['asc', 'desc'], { error: 'sortDir must be asc or desc' }).default('desc'),
});
export type CustomerListQuery = z.input<typeof customerListQuerySchema>;

export const customerOrderSchema = z.object({
  id: z.string(),
  orderNumber: z.string(),
  itemType: itemTypeSchema,
  /** Dollars, the order's total as the back office defines it (orderTotalOf). */
  total: z.number(),
  quantity: z.number().int(),
  status: orderStatusSchema,
  submittedDate: z.string(),
});
export type CustomerOrder = z.infer<typeof customerOrderSchema>;

export const adminCustomerSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  status: customerStatusSchema,
  totalOrders: z.number().int().describe('Every order placed, whatever its status'),
  totalSpent: z.number().describe('Sum of the totals of paid-or-later orders, not cancelled (dollars)'),
  averageOrderValue: z.number().describe('totalSpent divided by the number of orders that count as spent'),
  firstOrderDate: z.string().nullable(),
  lastOrderDate: z.string().nullable(),
  preferredItemType: itemTypeSchema.nullable(),
  lifetimeStats: z.object({
    completedOrders: z.number().int(),
    avgDaysBetweenOrders: z.number().describe('Mean days between consecutive orders; 0 with fewer than two orders'),
  }),
  /** Only on an erased customer: when the personal data was erased (the figures stay). */
  erasedAt: z.string().optional(),
});
export type AdminCustomer = z.infer<typeof adminCustomerSchema>;

export const customerSummarySchema = z.object({
  totalCustomers: z.number().int(),
  vipCustomers: z.number().int(),
  averageLifetimeValue: z.number().describe('Total spent by all customers divided by the number of customers'),
  averageOrderValue: z.number().describe('Total spent by all customers divided by the orders that count as spent'),
});
export type CustomerSummary = z.infer<typeof customerSummarySchema>;

export const customerListSchema = z.object({
  success: z.literal(true),
  customers: z.array(adminCustomerSchema),
  /** Over every customer, not the filtered page. */
  summary: customerSummarySchema,
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int().describe('Customers matching the search and filter'),
  totalPages: z.number().int(),
});
export type CustomerList = z.infer<typeof customerListSchema>;

export const customerDetailSchema = z.object({
  success: z.literal(true),
  customer: adminCustomerSchema.extend({ orders: z.array(customerOrderSchema) }),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** The spec's message when the list cannot be loaded (§8); the screen shows it as "Error Loading Customers". */
export const customerListFailedMessage = 'Failed to fetch customers';
export const customerNotFoundMessage = 'Customer not found';

/** CSV export (§6, §9): these columns, a file name containing the date. */
export const customerCsvColumns = [
  'Name',
  'Email',
  'Phone',
  'Status',
  'Total Orders',
  'Total Spent',
  'First Order',
  'Last Order',
] as const;
export const customerCsvFileName = (date: Date) => `customers-${date.toISOString().slice(0, 10)}.csv`;

/** One CSV cell: quoted when needed; a leading formula character is neutralised so a spreadsheet shows text, not a formula. */
function csvCell(value: string): string {
  const safe = /^[=@\t\r]/.test(value) || /^[+-](?![\d\s(])/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
const csvDate = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/** The customer list as CSV (the columns above, money with 2 decimals, dates YYYY-MM-DD), built in the browser. */
export function customersCsv(customers: readonly AdminCustomer[]): string {
  const rows = customers.map((c) =>
    [
      c.name,
      c.email,
      c.phone,
      customerStatusLabels[c.status],
      String(c.totalOrders),
      c.totalSpent.toFixed(2),
      csvDate(c.firstOrderDate),
      csvDate(c.lastOrderDate),
    ]
      .map(csvCell)
      .join(','),
  );
  return [customerCsvColumns.join(','), ...rows].join('\r\n') + '\r\n';
}
