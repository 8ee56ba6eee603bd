// Back-office HTTP shapes of the orders service (admin part A §2 dashboard, order details, order
// modals, analytics, §5 rules, §7 calls, §9 constants). The spec's call table is the API: the admin
// calls share the resource `/api/orders` with the storefront's, and the method tells them apart
// (`PUT /api/orders/{id}/status` is the admin's, `PATCH` the payment page's). Operations the spec does
// not list (paging and filters as query parameters, bulk, export, analytics) live under the same
// resource. The gateway lets the admin calls through only with a live admin session and signs the admin
// into its gateway token; the orders service records the admin's email in status history and notes.
import { z } from 'zod';
import {
  analyticsPeriodSchema,
  bulkStatusChoices,
  carrierSchema,
  customerCategorySchema,
  defaultCarrier,
  designMethodSchema,
  emailHistoryTypeSchema,
  itemTypeSchema,
  orderStatusSchema,
  orderStatuses,
  type OrderStatus,
} from './catalog.js';
import { timelineEntrySchema } from './orders-http.js';
import { shopName } from './rules.js';

/** The orders resource: the storefront's calls and the back office's share it. */
export const ordersResource = '/api/orders';
const one = (id: string) => `${ordersResource}/${encodeURIComponent(id)}`;
/** Every back-office orders call, at its spec path (admin part A §7) or under the same resource. */
export const ordersAdminPaths = {
  /** GET: the orders table (query: page, pageSize, status, search, itemType, startDate, endDate, sortBy, sortDir). */
  list: ordersResource,
  /** GET: CSV of every order matching the table's filters. */
  exportCsv: `${ordersResource}/export.csv`,
  /** POST { orderIds, status } */
  bulkStatus: `${ordersResource}/bulk/status`,
  /** POST { orderIds } */
  bulkDelete: `${ordersResource}/bulk/delete`,
  /** GET ?period= */
  analytics: `${ordersResource}/analytics`,
  /** DELETE: one order. (GET here is the storefront's public payment view.) */
  order: one,
  /** GET: the details view; PUT: edit (partial order fields, admin notes). */
  details: (id: string) => `${one(id)}/details`,
  /** PUT { status } (PATCH here is the payment page's confirmation). */
  status: (id: string) => `${one(id)}/status`,
  /** PUT { trackingNumber, carrier, estimatedDelivery } */
  tracking: (id: string) => `${one(id)}/tracking`,
  /** POST { quoteAmount, quoteNotes, sendEmail } */
  generateQuote: (id: string) => `${one(id)}/generate-quote`,
  /** POST { message }: Request More Information. */
  infoRequest: (id: string) => `${one(id)}/info-request`,
  /** POST { subject, message, type } */
  sendEmail: (id: string) => `${one(id)}/send-email`,
} as const;

/**
 * Statuses the customer is emailed about when an admin sets them (a status update email). quote_sent is
 * left out: the quote email itself tells them; pending_quote and pending are internal review states.
 */
export const customerNotifiedStatuses = [
  'awaiting_payment',
  'paid',
  'in_progress',
  'design_review',
  'production',
  'shipped',
  'completed',
  'cancelled',
] as const satisfies readonly OrderStatus[];
export const isCustomerNotifiedStatus = (status: string) =>
  (customerNotifiedStatuses as readonly string[]).includes(status);

/** The payment page of an order (storefront); the quote email links to it. */
export const orderPaymentPath = (orderId: string) => `/order/pay/${orderId}`;
/** Days a quote stays valid after it is sent. */
export const quoteValidDays = 30;
export const infoRequestSubject = (orderNumber: string) => `Additional Information Needed - Order #${orderNumber}`;
export const defaultInfoRequestMessage =
  'Thank you for your order request. To prepare an accurate quote, could you please send us more details about your requirements (design, sizes, colours, deadline)?';
export const defaultOrderEmailSubject = (orderNumber: string) => `Update on your order #${orderNumber}`;
export const adminOrdersPageSizeMax = 100;
export const adminOrdersPageSizeDefault = 25;
/** The analytics "recent activity" list (§9). */
export const recentActivityCount = 5;

// The spec's messages (§8), shown by the dashboard when a call fails.
export const adminOrderMessages = {
  fetchFailed: (reason: string) => `Orders fetch failed: ${reason}`,
  statusFailed: 'Failed to update order status. Please try again.',
  deleteFailed: 'Failed to delete order. Please try again.',
  bulkDeleteFailed: 'Failed to delete some orders. Please try again.',
  quoteFailed: (error: string) => `Failed to send quote: ${error}`,
  quoteGenerateFailed: 'Failed to generate quote. Please try again.',
  quoteError: 'Error applying quote. Please try again.',
  infoEmailFailed: (error: string) => `Failed to send email: ${error}`,
  infoFailed: 'Failed to send information request. Please try again.',
  infoError: 'Error sending information request. Please try again.',
  trackingFailed: 'Failed to update tracking information',
  notesFailed: 'Failed to update notes',
  emailFailed: 'Failed to send email',
  orderNotFound: 'Order not found.',
} as const;

// ---------------------------------------------------------------------------------------------
// List (GET /api/orders) and CSV export (GET /api/orders/export.csv, same query)
// ---------------------------------------------------------------------------------------------
/** The table's sortable columns (§2 dashboard). `total` sorts by the order's total (`orderTotal` below). */
export const adminOrderSortFields = [
  'orderNumber',
  'customerName',
  'email',
  'itemType',
  'quantity',
  'status',
  'total',
  'submittedDate',
  'lastUpdate',
] as const;
export const adminOrderSortFieldSchema = z.enum(adminOrderSortFields);
export type AdminOrderSortField = z.infer<typeof adminOrderSortFieldSchema>;

const optionalDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T.*)?$/, 'Use a date like 2026-01-31')
  .refine((s) => !Number.isNaN(Date.parse(s)), 'Not a real date')
  .optional()
  .describe('YYYY-MM-DD (start: from 00:00 UTC; end: through 23:59:59.999 UTC of that day) or an ISO date-time');

/** Query of the list and the export. `status` is a tab: `all` or one of the eleven statuses. */
export const adminOrderListQuerySchema = z.object({
  page: z.coerce.number().int('page must be a whole number').min(1, 'page starts at 1').default(1),
  pageSize: z.coerce
    .number()
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be at least 1')
    .max(adminOrdersPageSizeMax, `pageSize can be at most ${adminOrdersPageSizeMax}`)
    .default(adminOrdersPageSizeDefault),
  status: z.union([z.literal('all'), orderStatusSchema]).default('all'),
  search: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe('Order number, customer name or email; case-insensitive, partial'),
  itemType: z.union([z.literal('all'), itemTypeSchema]).default('all'),
  startDate: optionalDate,
  endDate: optionalDate,
  sortBy: adminOrderSortFieldSchema.default('submittedDate'),
  sortDir: z.enum(['asc', 'desc']).default('desc'),
});
export type AdminOrderListQuery = z.input<typeof adminOrderListQuerySchema>;
export type ParsedAdminOrderListQuery = z.output<typeof adminOrderListQuerySchema>;

export const adminOrderFileSchema = z.object({
  originalName: z.string(),
  size: z.number().describe('Bytes (show in MB with 2 decimals)'),
  mimetype: z.string(),
  url: z.string().describe('/api/upload/<id> (View File)'),
});

export const adminTrackingSchema = z.object({
  carrier: carrierSchema,
  trackingNumber: z.string(),
  estimatedDelivery: z.string().nullable().describe('ISO date-time'),
});

/** One table row. */
export const adminOrderRowSchema = z
  .object({
    id: z.string(),
    orderNumber: z.string(),
    customerName: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    itemType: itemTypeSchema,
    quantity: z.number().int(),
    status: orderStatusSchema,
    statusLabel: z.string(),
    estimatedTotal: z.number(),
    finalAmount: z.number().nullable().describe('Quote total (with tax, less discount) once a quote was sent'),
    total: z
      .number()
      .describe(
        "The order's total (the one definition, orderTotalOf): the quote's final amount with tax once quoted, else the estimate less its discount",
      ),
    discountCode: z.string().nullable(),
    designMethod: designMethodSchema,
    aiGenerated: z.boolean(),
    customerCategory: customerCategorySchema,
    tracking: adminTrackingSchema.nullable(),
    submittedDate: z.string(),
    lastUpdate: z.string(),
  })
  .meta({ id: 'AdminOrderRow' });
export type AdminOrderRow = z.infer<typeof adminOrderRowSchema>;

/** Counts per status tab, computed in one aggregation with the other filters (search, item type, dates). */
export const adminStatusCountsSchema = z
  .object({ all: z.number().int() })
  .extend(Object.fromEntries(orderStatuses.map((s) => [s, z.number().int()])) as Record<OrderStatus, z.ZodNumber>);
export type AdminStatusCounts = z.infer<typeof adminStatusCountsSchema>;

/** The dashboard's four summary cards (over every order, not the filtered page). */
export const adminOrderSummarySchema = z.object({
  totalOrders: z.number().int(),
  completedRevenue: z.number().describe('Sum of totals of completed orders'),
  averageOrderValue: z.number().describe('Average total over orders that are not cancelled (2 decimals)'),
  pendingReview: z
    .number()
    .int()
    .describe("Orders in pending, the status labelled 'Pending Review' (the same count as its tab)"),
});
export type AdminOrderSummary = z.infer<typeof adminOrderSummarySchema>;

export const adminOrderListResponseSchema = z.object({
  success: z.literal(true),
  orders: z.array(adminOrderRowSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int().describe('Orders matching every filter, including the status tab'),
  totalPages: z.number().int(),
  counts: adminStatusCountsSchema,
  summary: adminOrderSummarySchema,
});
export type AdminOrderListResponse = z.infer<typeof adminOrderListResponseSchema>;

/** CSV export columns (§9) and file name `{product}-orders-{date}.csv`. */
export const adminCsvColumns = [
  'Order Number',
  'Customer',
  'Email',
  'Item Type',
  'Quantity',
  'Status',
  'Total',
  'Date',
] as const;
export const adminCsvFileName = (product: string, date: Date) =>
  `${product}-orders-${date.toISOString().slice(0, 10)}.csv`;
/** `{product}` of the file name: the product the spec describes, the shop, as a file-name slug ("tactical-gear-co"). */
export const adminCsvProduct = shopName
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, '-')
  .replace(/^-|-$/g, '');

/**
 * The one definition of an order's total, shown by the table, summed by the cards and analytics and
 * written to the CSV: what the customer pays, i.e. the quote's final amount (quote less discount plus
 * sales tax) once a quote was sent, else the estimate less its discount (never below 0).
 */
export const orderTotalOf = (order: {
  estimatedTotal: number;
  finalAmount?: number | null;
  discountAmount?: number | null;
}) => order.finalAmount ?? Math.max(0, Math.round((order.estimatedTotal - (order.discountAmount ?? 0)) * 100) / 100);

// ---------------------------------------------------------------------------------------------
// Details (GET /api/orders/:id/details)
// ---------------------------------------------------------------------------------------------
export const adminEmailHistoryEntrySchema = z.object({
  id: z.string(),
  subject: z.string(),
  to: z.string(),
  type: emailHistoryTypeSchema,
  preview: z.string().describe('The start of the message text (the view clamps it to 2 lines)'),
  status: z.enum(['queued', 'sent', 'failed']),
  timestamp: z.string().describe('When it was asked for (ISO)'),
  sentAt: z.string().nullable(),
});
export type AdminEmailHistoryEntry = z.infer<typeof adminEmailHistoryEntrySchema>;

export const adminNoteSchema = z.object({ text: z.string(), author: z.string(), date: z.string() });

export const adminOrderDetailSchema = adminOrderRowSchema
  .extend({
    description: z.string(),
    size: z.string().nullable(),
    sizeBreakdown: z.record(z.string(), z.number()).nullable(),
    colors: z.array(z.string()),
    finish: z.string(),
    shape: z.string().nullable(),
    edge: z.string().nullable(),
    features: z.array(z.string()),
    files: z.array(adminOrderFileSchema),
    aiDesignId: z.string().nullable(),
    shippingAddress: z.record(z.string(), z.string()).nullable(),
    billingAddress: z.record(z.string(), z.string()).nullable(),
    taxExempt: z.boolean(),
    subscribeEmail: z.boolean(),
    subscribeSMS: z.boolean(),
    notes: z.string().describe('Customer-facing notes edited in the details view'),
    adminNotes: z.string().describe('Internal notes (Admin Notes modal)'),
    adminNotesUpdatedBy: z.string().nullable(),
    adminNotesUpdatedAt: z.string().nullable(),
    quote: z
      .object({
        amount: z.number(),
        notes: z.string().nullable(),
        taxRate: z.number(),
        /** Why this tax rate, e.g. "VA state sales tax" (from the payments domain's table). */
        taxBasis: z.string().nullable().optional(),
        taxAmount: z.number(),
        finalAmount: z.number(),
        sentAt: z.string(),
        expiresAt: z.string(),
        paymentPath: z.string(),
      })
      .nullable(),
    /** The verified payment of the quote, once the order is paid. */
    payment: z
      .object({
        paymentIntentId: z.string().describe('Payment reference at the provider'),
        paidAt: z.string(),
        /** Dollars, as charged. */
        amount: z.number(),
        provider: z.enum(['stripe', 'test_mode']),
      })
      .nullable()
      .optional(),
    discountAmount: z.number(),
    /**
     * The customer category chosen in Apply Discount with the code it holds (null without one); the
     * order's own category (customerCategory) never changes with a discount.
     */
    discountCategory: customerCategorySchema.nullable(),
    timeline: z.array(timelineEntrySchema.extend({ changedBy: z.string() })),
    emailHistory: z.array(adminEmailHistoryEntrySchema).describe('Newest first'),
  })
  .meta({ id: 'AdminOrderDetail' });
export type AdminOrderDetail = z.infer<typeof adminOrderDetailSchema>;

export const adminOrderResponseSchema = z.object({ success: z.literal(true), order: adminOrderDetailSchema });
export type AdminOrderResponse = z.infer<typeof adminOrderResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Edit (PUT /api/orders/:id/details): quantity integer, total decimal, invalid -> 0 (§5); admin notes
// ---------------------------------------------------------------------------------------------
/** Reads what the edit form typed: a whole number >= 0, anything else 0 (spec: invalid becomes 0). */
export function editQuantity(value: unknown): number {
  const n = typeof value === 'number' ? value : Number.parseInt(typeof value === 'string' ? value.trim() : '', 10);
  return Number.isFinite(n) && n >= 0 ? Math.trunc(n) : 0;
}
/** A decimal >= 0 rounded to cents, anything else 0. */
export function editTotal(value: unknown): number {
  const n = typeof value === 'number' ? value : Number.parseFloat(typeof value === 'string' ? value.trim() : '');
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) / 100 : 0;
}

export const adminOrderEditSchema = z
  .object({
    customerName: z.string().trim().min(1, 'Customer name cannot be empty').max(200).optional(),
    email: z.email('Please enter a valid email address').trim().max(254).optional(),
    phone: z.string().trim().max(40).optional(),
    quantity: z.unknown().transform(editQuantity).optional(),
    total: z.unknown().transform(editTotal).optional().describe('The estimated total'),
    description: z.string().trim().max(5000).optional(),
    notes: z.string().max(5000).optional(),
    adminNotes: z
      .string()
      .max(10000)
      .optional()
      .describe('Internal notes (the Admin Notes modal); recorded with the admin and the time'),
    customerCategory: customerCategorySchema.optional(),
  })
  .strict();
export type AdminOrderEdit = z.input<typeof adminOrderEditSchema>;

// ---------------------------------------------------------------------------------------------
// Status (PUT /api/orders/:id/status), bulk status and bulk delete (POST /api/orders/bulk/...)
// ---------------------------------------------------------------------------------------------
export const adminStatusChangeSchema = z.object({
  status: orderStatusSchema,
  note: z.string().trim().max(1000).optional(),
});
export type AdminStatusChange = z.infer<typeof adminStatusChangeSchema>;

const orderIds = z
  .array(z.string().min(1).max(64))
  .min(1, 'Select at least one order')
  .max(1000, 'At most 1000 orders at once');
export const adminBulkStatusSchema = z.object({
  orderIds,
  status: z.enum(bulkStatusChoices as [OrderStatus, ...OrderStatus[]], {
    error: 'Bulk status change offers every status except Pending Review and Cancelled',
  }),
});
export type AdminBulkStatus = z.infer<typeof adminBulkStatusSchema>;
export const adminBulkDeleteSchema = z.object({ orderIds });
export type AdminBulkDelete = z.infer<typeof adminBulkDeleteSchema>;

export const adminBulkResultSchema = z.object({
  success: z.literal(true),
  /** Orders changed (or deleted). */
  updated: z.number().int(),
  /** Ids that were not found (already deleted, mistyped). */
  notFound: z.array(z.string()),
});
export type AdminBulkResult = z.infer<typeof adminBulkResultSchema>;

export const adminDeleteResponseSchema = z.object({ success: z.literal(true), deleted: z.string() });

// ---------------------------------------------------------------------------------------------
// Modals: tracking, quote, info request, send email
// ---------------------------------------------------------------------------------------------
export const adminTrackingUpdateSchema = z.object({
  carrier: carrierSchema.default(defaultCarrier),
  trackingNumber: z.string().trim().min(1, 'Tracking number is required').max(100),
  estimatedDelivery: z
    .string()
    .trim()
    .optional()
    .transform((s) => (s ? s : undefined))
    .refine((s) => s === undefined || !Number.isNaN(Date.parse(s)), 'Estimated delivery must be a date'),
});
export type AdminTrackingUpdate = z.input<typeof adminTrackingUpdateSchema>;

export const adminQuoteSchema = z.object({
  quoteAmount: z.coerce
    .number({ error: 'Quote amount must be a number' })
    .refine(Number.isFinite, 'Quote amount must be a number')
    .gt(0, 'Quote amount must be greater than 0')
    .max(10_000_000, 'Quote amount is too large'),
  quoteNotes: z.string().trim().max(5000).optional(),
  sendEmail: z
    .literal(true, { error: 'The quote is always emailed: the customer pays through its link' })
    .optional()
    .describe('Always true (spec): the quote email carries the payment link'),
});
export type AdminQuote = z.input<typeof adminQuoteSchema>;

export const adminInfoRequestSchema = z.object({
  message: z.string().trim().min(1, 'Please enter a message').max(10000),
});
export type AdminInfoRequest = z.infer<typeof adminInfoRequestSchema>;

export const adminSendEmailSchema = z.object({
  subject: z.string().trim().min(1, 'Please enter a subject').max(300),
  message: z.string().trim().min(1, 'Please enter a message').max(20000),
  type: emailHistoryTypeSchema.default('admin_message'),
});
export type AdminSendEmail = z.input<typeof adminSendEmailSchema>;

export const adminEmailQueuedResponseSchema = z.object({
  success: z.literal(true),
  order: adminOrderDetailSchema,
  emailRecord: adminEmailHistoryEntrySchema,
});
export type AdminEmailQueuedResponse = z.infer<typeof adminEmailQueuedResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Analytics (GET /api/orders/analytics?period=7d|30d|6m|1y|total)
// ---------------------------------------------------------------------------------------------
export const adminAnalyticsQuerySchema = z.object({ period: analyticsPeriodSchema.default('30d') });

/** Change against the previous period of the same length, in percent (1 decimal); null when there is nothing to compare. */
const change = z.number().nullable();

export const adminAnalyticsSchema = z
  .object({
    period: analyticsPeriodSchema,
    from: z.string().nullable().describe('Start of the period (ISO); null for all time'),
    to: z.string(),
    revenue: z.number().describe('Sum of totals of completed orders submitted in the period'),
    revenueChange: change,
    averageOrderValue: z.number().describe("Average total of the period's orders that are not cancelled"),
    averageOrderValueChange: change,
    totalOrders: z.number().int(),
    ordersChange: change,
    monthlyOrders: z.number().describe('Orders per 30 days over the period'),
    pendingRevenue: z.number().describe('Sum of totals of orders neither cancelled nor completed'),
    completionRate: z.number().describe("Completed share of the period's orders, percent"),
    statusDistribution: z.array(
      z.object({ status: orderStatusSchema, label: z.string(), count: z.number().int(), percent: z.number() }),
    ),
    itemTypePerformance: z.array(
      z.object({
        itemType: itemTypeSchema,
        orders: z.number().int(),
        quantity: z.number().int(),
        revenue: z.number(),
        averageValue: z.number(),
      }),
    ),
    recentActivity: z.array(adminOrderRowSchema).describe('The 5 most recently updated orders'),
  })
  .meta({ id: 'AdminAnalytics' });
export type AdminAnalytics = z.infer<typeof adminAnalyticsSchema>;
export const adminAnalyticsResponseSchema = z.object({ success: z.literal(true), analytics: adminAnalyticsSchema });
export type AdminAnalyticsResponse = z.infer<typeof adminAnalyticsResponseSchema>;
