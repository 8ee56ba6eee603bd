// Pure rules of the back-office order views: the list's MongoDB filter and sort from the dashboard's
// query, the row/detail views, CSV cells, the summary cards and analytics periods. No I/O here, so the
// tests can pin them. An order's total has one definition (orderTotalOf in @shop/contracts: the quote's
// final amount with tax once quoted, else the estimate less its discount); the table, the cards, the CSV
// and analytics all take it from orderTotal / orderTotalExpression below.
import {
  orderPaymentPath,
  orderStatusLabels,
  orderStatuses,
  orderTotalOf,
  type AdminEmailHistoryEntry,
  type AdminOrderDetail,
  type AdminOrderRow,
  type AdminOrderSummary,
  type AdminOrderSortField,
  type AnalyticsPeriod,
  type ParsedAdminOrderListQuery,
} from '@shop/contracts';
import type { OrderDoc } from '../models/order.js';

/** Makes user text match literally inside a RegExp (search must not be a regex injection). */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

const dayMs = 24 * 60 * 60 * 1000;

/** A date-only end date includes that whole day (the dashboard's date pickers send YYYY-MM-DD). */
export function dateRange(startDate?: string, endDate?: string): { $gte?: Date; $lte?: Date } | null {
  const range: { $gte?: Date; $lte?: Date } = {};
  if (startDate)
    range.$gte = new Date(/^\d{4}-\d{2}-\d{2}$/.test(startDate) ? `${startDate}T00:00:00.000Z` : startDate);
  if (endDate) {
    range.$lte = /^\d{4}-\d{2}-\d{2}$/.test(endDate)
      ? new Date(new Date(`${endDate}T00:00:00.000Z`).getTime() + dayMs - 1)
      : new Date(endDate);
  }
  return Object.keys(range).length > 0 ? range : null;
}

/** Everything but the status tab: the tab counts are computed over this. */
export function baseFilter(
  query: Pick<ParsedAdminOrderListQuery, 'search' | 'itemType' | 'startDate' | 'endDate'>,
): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (query.itemType && query.itemType !== 'all') filter.itemType = query.itemType;
  const range = dateRange(query.startDate, query.endDate);
  if (range) filter.createdAt = range;
  const search = query.search?.trim();
  if (search) {
    const pattern = new RegExp(escapeRegex(search), 'i');
    filter.$or = [
      { orderNumber: pattern },
      { customerName: pattern },
      { emailKey: new RegExp(escapeRegex(search.toLowerCase())) },
    ];
  }
  return filter;
}

export function listFilter(query: ParsedAdminOrderListQuery): Record<string, unknown> {
  const filter = baseFilter(query);
  if (query.status !== 'all') filter.status = query.status;
  return filter;
}

const sortFields: Record<AdminOrderSortField, string> = {
  orderNumber: 'orderNumber',
  customerName: 'customerName',
  email: 'emailKey',
  itemType: 'itemType',
  quantity: 'quantity',
  status: 'status',
  total: 'estimatedTotal',
  submittedDate: 'createdAt',
  lastUpdate: 'updatedAt',
};

/** The chosen column, then the id so pages never overlap when values tie. */
export function listSort(sortBy: AdminOrderSortField, sortDir: 'asc' | 'desc'): Record<string, 1 | -1> {
  const dir = sortDir === 'asc' ? 1 : -1;
  return { [sortFields[sortBy]]: dir, _id: dir };
}

const iso = (d: Date | string | undefined | null) => (d ? new Date(d).toISOString() : null);

/** The order's total (orderTotalOf): the quote's final amount (with tax, less discount) once quoted, else the estimate less its discount. */
export function orderTotal(order: Pick<OrderDoc, 'estimatedTotal' | 'quote' | 'discount'>): number {
  return orderTotalOf({
    estimatedTotal: order.estimatedTotal,
    finalAmount: order.quote?.finalAmount ?? null,
    discountAmount: order.discount?.amount ?? 0,
  });
}

/** The same total inside a MongoDB aggregation (a `quote: null` or a missing quote falls back to the estimate less its discount). */
export const orderTotalExpression = {
  $ifNull: [
    '$quote.finalAmount',
    { $max: [0, { $subtract: ['$estimatedTotal', { $ifNull: ['$discount.amount', 0] }] }] },
  ],
} as const;

export function adminRow(order: OrderDoc): AdminOrderRow {
  return {
    id: order._id,
    orderNumber: order.orderNumber,
    customerName: order.customerName,
    email: order.email,
    phone: order.phone ?? null,
    itemType: order.itemType,
    quantity: order.quantity,
    status: order.status,
    statusLabel: orderStatusLabels[order.status] ?? orderStatusLabels.pending,
    estimatedTotal: order.estimatedTotal,
    finalAmount: order.quote?.finalAmount ?? null,
    total: orderTotal(order),
    discountCode: order.discount?.code ?? null,
    designMethod: order.designMethod,
    aiGenerated: order.aiGenerated,
    customerCategory: order.customerCategory,
    tracking: order.tracking?.trackingNumber
      ? {
          carrier: order.tracking.carrier,
          trackingNumber: order.tracking.trackingNumber,
          estimatedDelivery: iso(order.tracking.estimatedDelivery),
        }
      : null,
    submittedDate: new Date(order.createdAt).toISOString(),
    lastUpdate: new Date(order.updatedAt).toISOString(),
  };
}

export function emailHistoryView(order: OrderDoc): AdminEmailHistoryEntry[] {
  return (
    [...(order.emailHistory ?? [])]
      // Newest first by when it went out (or was asked for, while still queued).
      .sort((a, b) => new Date(b.sentAt ?? b.timestamp).getTime() - new Date(a.sentAt ?? a.timestamp).getTime())
      .map((e) => ({
        id: e.id,
        subject: e.subject,
        to: e.to,
        type: e.type,
        preview: e.preview,
        status: e.status,
        timestamp: new Date(e.timestamp).toISOString(),
        sentAt: iso(e.sentAt),
      }))
  );
}

const addressRecord = (a: OrderDoc['shippingAddress']) =>
  a ? Object.fromEntries(Object.entries(a).map(([k, v]) => [k, String(v ?? '')])) : null;

export function adminDetail(order: OrderDoc): AdminOrderDetail {
  return {
    ...adminRow(order),
    description: order.description,
    size: order.size ?? null,
    sizeBreakdown: order.sizeBreakdown ?? null,
    colors: order.colors ?? [],
    finish: order.finish,
    shape: order.shape ?? null,
    edge: order.edge ?? null,
    features: order.features ?? [],
    files: (order.files ?? []).map((f) => ({
      originalName: f.originalName,
      size: f.size,
      mimetype: f.mimetype,
      url: f.url,
    })),
    aiDesignId: order.aiDesignId ?? null,
    shippingAddress: addressRecord(order.shippingAddress),
    billingAddress: addressRecord(order.billingAddress),
    taxExempt: order.taxExempt,
    subscribeEmail: order.subscribeEmail,
    subscribeSMS: order.subscribeSMS,
    notes: order.notes ?? '',
    adminNotes: order.adminNotes ?? '',
    adminNotesUpdatedBy: order.adminNotesUpdatedBy ?? null,
    adminNotesUpdatedAt: iso(order.adminNotesUpdatedAt),
    quote: order.quote
      ? {
          amount: order.quote.amount,
          notes: order.quote.notes ?? null,
          taxRate: order.quote.taxRate,
          taxBasis: order.quote.taxBasis ?? null,
          taxAmount: order.quote.taxAmount,
          finalAmount: order.quote.finalAmount,
          sentAt: new Date(order.quote.sentAt).toISOString(),
          expiresAt: new Date(order.quote.expiresAt).toISOString(),
          paymentPath: orderPaymentPath(order._id),
        }
      : null,
    payment: order.payment
      ? {
          paymentIntentId: order.payment.paymentIntentId,
          paidAt: new Date(order.payment.paidAt).toISOString(),
          amount: order.payment.amount,
          provider: order.payment.provider,
        }
      : null,
    discountAmount: order.discount?.amount ?? 0,
    discountCategory: order.discount?.customerCategory ?? null,
    timeline: (order.statusHistory ?? []).map((h) => ({
      status: h.status,
      label: orderStatusLabels[h.status] ?? orderStatusLabels.pending,
      date: new Date(h.date).toISOString(),
      ...(h.note ? { note: h.note } : {}),
      changedBy: h.changedBy,
    })),
    emailHistory: emailHistoryView(order),
  };
}

/**
 * A CSV cell a spreadsheet will not run: text starting with = + - @ (or a tab/CR, which some programs
 * strip first) gets a leading apostrophe (OWASP "CSV injection").
 */
export function csvSafe(value: string | number): string | number {
  if (typeof value === 'number') return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csvRecord(order: OrderDoc): (string | number)[] {
  return [
    order.orderNumber,
    order.customerName,
    order.email,
    order.itemType,
    order.quantity,
    orderStatusLabels[order.status] ?? order.status,
    orderTotal(order).toFixed(2),
    new Date(order.createdAt).toISOString(),
  ].map(csvSafe);
}

/** The analytics period [from, to) and the one before it of the same length (null for all time). */
export function periodRange(
  period: AnalyticsPeriod,
  now: Date,
): { from: Date | null; to: Date; previousFrom: Date | null } {
  if (period === 'total') return { from: null, to: now, previousFrom: null };
  const from = new Date(now);
  if (period === '7d') from.setTime(now.getTime() - 7 * dayMs);
  else if (period === '30d') from.setTime(now.getTime() - 30 * dayMs);
  else if (period === '6m') from.setUTCMonth(from.getUTCMonth() - 6);
  else from.setUTCFullYear(from.getUTCFullYear() - 1);
  return { from, to: now, previousFrom: new Date(from.getTime() - (now.getTime() - from.getTime())) };
}

/** Percent change with 1 decimal; null when the previous figure is 0 (no meaningful base). */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

/** Figures of one period from its per (status, itemType) groups. */
export interface PeriodGroup {
  status: string;
  itemType: string;
  count: number;
  total: number;
  quantity: number;
}

export function periodFigures(groups: PeriodGroup[]) {
  let orders = 0;
  let revenue = 0;
  let activeCount = 0;
  let activeTotal = 0;
  let pendingRevenue = 0;
  let completed = 0;
  for (const g of groups) {
    orders += g.count;
    if (g.status === 'completed') {
      revenue += g.total;
      completed += g.count;
    }
    if (g.status !== 'cancelled') {
      activeCount += g.count;
      activeTotal += g.total;
    }
    if (g.status !== 'cancelled' && g.status !== 'completed') pendingRevenue += g.total;
  }
  return {
    orders,
    revenue: round2(revenue),
    averageOrderValue: activeCount > 0 ? round2(activeTotal / activeCount) : 0,
    pendingRevenue: round2(pendingRevenue),
    completionRate: orders > 0 ? Math.round((completed / orders) * 1000) / 10 : 0,
  };
}

/** Orders and their summed total (orderTotalExpression) for one status. */
export interface StatusGroup {
  _id: string;
  n: number;
  total: number;
}

/**
 * The dashboard's four summary cards over every order. 'Pending Review' is the label of the status
 * `pending` (spec §4), so the card counts exactly what the Pending Review tab counts; an unknown status
 * is shown as pending (§4), in the card as in the tab.
 */
export function summaryOf(groups: StatusGroup[]): AdminOrderSummary {
  let totalOrders = 0;
  let completedRevenue = 0;
  let activeTotal = 0;
  let activeCount = 0;
  let pendingReview = 0;
  for (const g of groups) {
    totalOrders += g.n;
    if (g._id === 'completed') completedRevenue += g.total;
    if (g._id !== 'cancelled') {
      activeTotal += g.total;
      activeCount += g.n;
    }
    if (g._id === 'pending' || !(orderStatuses as readonly string[]).includes(g._id)) pendingReview += g.n;
  }
  return {
    totalOrders,
    completedRevenue: round2(completedRevenue),
    averageOrderValue: activeCount > 0 ? round2(activeTotal / activeCount) : 0,
    pendingReview,
  };
}

export const knownStatuses = orderStatuses;
