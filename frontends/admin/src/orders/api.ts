// The back office's calls for orders, analytics and the admin settings. Paths and shapes come from
// @shop/contracts (orders-admin-http, email-http); every answer is parsed with the contract's schema so
// a mismatch shows as a clear error instead of a half-drawn screen.
import {
  adminAnalyticsResponseSchema,
  adminBulkResultSchema,
  adminDeleteResponseSchema,
  adminEmailQueuedResponseSchema,
  adminOrderListResponseSchema,
  adminOrderResponseSchema,
  adminSettingsSchema,
  ordersAdminPaths,
  refundDueResponseSchema,
  refundsDuePaths,
  refundsDueResponseSchema,
  type AdminAnalytics,
  type AdminBulkResult,
  type AdminEmailQueuedResponse,
  type AdminOrderDetail,
  type AdminOrderEdit,
  type AdminOrderListQuery,
  type AdminOrderListResponse,
  type AdminSendEmail,
  type AdminSettings,
  type AdminTrackingUpdate,
  type AnalyticsPeriod,
  type OrderStatus,
  type RefundDue,
} from '@shop/contracts';
import { AdminApiError, adminFetch } from '../api.js';

export const ordersKeys = {
  all: ['orders-admin'] as const,
  list: (query: AdminOrderListQuery) => ['orders-admin', 'list', query] as const,
  detail: (id: string) => ['orders-admin', 'detail', id] as const,
  analytics: (period: AnalyticsPeriod) => ['orders-admin', 'analytics', period] as const,
  settings: ['admin-settings'] as const,
  refundsDue: ['orders-admin', 'refunds-due'] as const,
};

/** The list query as URL parameters; `all` and empty values are left out (the server's defaults). */
export function listSearchParams(query: AdminOrderListQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '' || value === 'all') continue;
    // Filters are strings and numbers (the page numbers' input type is unknown: z.coerce).
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : JSON.stringify(value);
    params.set(key, text);
  }
  return params;
}

export async function fetchOrders(query: AdminOrderListQuery, signal?: AbortSignal): Promise<AdminOrderListResponse> {
  const qs = listSearchParams(query).toString();
  return adminOrderListResponseSchema.parse(
    await adminFetch(`${ordersAdminPaths.list}${qs ? `?${qs}` : ''}`, { signal }),
  );
}

export async function fetchOrder(id: string, signal?: AbortSignal): Promise<AdminOrderDetail> {
  return adminOrderResponseSchema.parse(await adminFetch(ordersAdminPaths.details(id), { signal })).order;
}

const orderOf = async (promise: Promise<unknown>) => adminOrderResponseSchema.parse(await promise).order;

export const setOrderStatus = (id: string, status: OrderStatus) =>
  orderOf(adminFetch(ordersAdminPaths.status(id), { method: 'PUT', json: { status } }));
export const editOrder = (id: string, edit: AdminOrderEdit) =>
  orderOf(adminFetch(ordersAdminPaths.details(id), { method: 'PUT', json: edit }));
/** Admin notes are one of the order fields the details call edits (admin part A §7). */
export const saveAdminNotes = (id: string, adminNotes: string) => editOrder(id, { adminNotes });
export const saveTracking = (id: string, tracking: AdminTrackingUpdate) =>
  orderOf(adminFetch(ordersAdminPaths.tracking(id), { method: 'PUT', json: tracking }));

export async function deleteOrder(id: string): Promise<void> {
  adminDeleteResponseSchema.parse(await adminFetch(ordersAdminPaths.order(id), { method: 'DELETE' }));
}

/** Apply Quote answers with the updated order (status quote_sent, the quote, the queued email in its history). */
export const applyQuote = (id: string, quoteAmount: number, quoteNotes: string) =>
  orderOf(
    adminFetch(ordersAdminPaths.generateQuote(id), {
      method: 'POST',
      json: { quoteAmount, quoteNotes: quoteNotes.trim() || undefined, sendEmail: true },
    }),
  );

export async function requestInfo(id: string, message: string): Promise<AdminEmailQueuedResponse> {
  return adminEmailQueuedResponseSchema.parse(
    await adminFetch(ordersAdminPaths.infoRequest(id), { method: 'POST', json: { message } }),
  );
}

export async function sendOrderEmail(id: string, email: AdminSendEmail): Promise<AdminEmailQueuedResponse> {
  return adminEmailQueuedResponseSchema.parse(
    await adminFetch(ordersAdminPaths.sendEmail(id), { method: 'POST', json: email }),
  );
}

export async function bulkSetStatus(orderIds: string[], status: OrderStatus): Promise<AdminBulkResult> {
  return adminBulkResultSchema.parse(
    await adminFetch(ordersAdminPaths.bulkStatus, { method: 'POST', json: { orderIds, status } }),
  );
}

export async function bulkDelete(orderIds: string[]): Promise<AdminBulkResult> {
  return adminBulkResultSchema.parse(
    await adminFetch(ordersAdminPaths.bulkDelete, { method: 'POST', json: { orderIds } }),
  );
}

export async function fetchAnalytics(period: AnalyticsPeriod, signal?: AbortSignal): Promise<AdminAnalytics> {
  return adminAnalyticsResponseSchema.parse(
    await adminFetch(`${ordersAdminPaths.analytics}?period=${period}`, { signal }),
  ).analytics;
}

export async function fetchAdminSettings(signal?: AbortSignal): Promise<AdminSettings> {
  const body = await adminFetch<{ settings?: unknown }>('/api/admin/settings', { signal });
  return adminSettingsSchema.parse(body?.settings);
}

export async function saveAdminSettings(settings: AdminSettings): Promise<void> {
  await adminFetch('/api/admin/settings', { method: 'PUT', json: settings });
}

/**
 * Downloads the server's CSV of the current filters (not the page: every matching order). The file
 * name comes from the server's Content-Disposition, so it is the spec's `{product}-orders-{date}.csv`.
 */
export async function downloadOrdersCsv(query: AdminOrderListQuery, fallbackName: string): Promise<string> {
  const { page: _page, pageSize: _size, ...filters } = query;
  const qs = listSearchParams(filters).toString();
  let response: Response;
  try {
    response = await fetch(`${ordersAdminPaths.exportCsv}${qs ? `?${qs}` : ''}`, {
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new AdminApiError('The shop could not be reached. Check your connection and try again.', 0, 'NETWORK');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new AdminApiError(body?.error ?? `The export failed (HTTP ${response.status}).`, response.status);
  }
  const name = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** The reason text of a failed call, for the spec's "...: {error}" messages. */
export const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Payments the provider took that did not pay their order, still to be refunded (newest first). */
export async function fetchOpenRefundsDue(signal?: AbortSignal): Promise<RefundDue[]> {
  return refundsDueResponseSchema.parse(await adminFetch(refundsDuePaths.list, { signal })).refundsDue;
}

export async function markRefunded(paymentIntentId: string): Promise<RefundDue> {
  return refundDueResponseSchema.parse(
    await adminFetch(refundsDuePaths.markRefunded(paymentIntentId), { method: 'PATCH' }),
  ).refundDue;
}
