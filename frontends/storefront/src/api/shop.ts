// The storefront's server calls (spec §7). Each throws an Error carrying the spec's message, so the
// screens (through react-query) only show `error.message`.
import {
  idempotencyKeyHeader,
  productionRetryDelayMs,
  type CreatedOrder,
  type CustomerCategory,
  type CustomerLookupResponse,
  type GeneratedDesign,
  type GenerateDesignResponse,
  type HistoryResponse,
  type ItemType,
  type SavedAddress,
  type TrackedOrder,
  type TrackResponse,
  type UploadResponse,
  type VerifiedCustomer,
} from '@shop/contracts';
import type { OrderRequestBody, UploadedFileRecord } from '../flow/model.js';
import {
  customizerFailureMessage,
  fieldProblems,
  messages,
  orderFailureMessage,
  uploadFailedMessage,
  aiFailureMessage,
  type FieldProblem,
} from '../messages.js';
import { postJson, request, type HttpResult } from './http.js';

/** A success body as the contracts define it, or the failure envelope (success false, error, details). */
type Answer<T> = Partial<Omit<T, 'success'>> & { success?: boolean; error?: string; details?: unknown };

/** An error whose message is ready to show, with the server's field problems when it sent them. */
export class ShopError extends Error {
  constructor(
    message: string,
    readonly problems: FieldProblem[] = [],
    readonly status = 0,
  ) {
    super(message);
    this.name = 'ShopError';
  }
}

// ---------------------------------------------------------------------------------------------
// Uploads and orders
// ---------------------------------------------------------------------------------------------
export async function uploadFiles(files: File[]): Promise<UploadedFileRecord[]> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const result = await request<Answer<UploadResponse>>('/api/upload', { method: 'POST', body: form });
  if (!result.ok || !Array.isArray(result.data?.files)) {
    throw new ShopError(
      uploadFailedMessage(result.data?.error || (result.networkError ? result.error : null)),
      [],
      result.status,
    );
  }
  return result.data.files;
}

export type { CreatedOrder, GeneratedDesign, TrackedOrder };

type OrderAnswer = { success?: boolean; order?: Partial<CreatedOrder>; error?: string; details?: unknown };

/** Submissions of one quote request, the first included, before the failure is shown. */
export const ORDER_SUBMIT_ATTEMPTS = 4;

/** Answers that say "not now" rather than "no": the shop (or one of its parts) is restarting. */
function worthRetrying(result: HttpResult<unknown>): boolean {
  return result.networkError || result.status === 502 || result.status === 503 || result.status === 504;
}

/**
 * POST /api/orders, sent again after a network error or a 502/503/504 (1 s, 2 s, 4 s apart) with the
 * same Idempotency-Key: the orders service answers a repeated key with the order it already made, so a
 * customer submitting while a part of the shop restarts gets exactly one order, not two or none.
 */
export async function submitOrderRequest(
  body: OrderRequestBody,
  idempotencyKey: string,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<HttpResult<OrderAnswer>> {
  for (let attempt = 1; ; attempt++) {
    const result = await postJson<OrderAnswer>('/api/orders', body, { [idempotencyKeyHeader]: idempotencyKey });
    if (!worthRetrying(result) || attempt >= ORDER_SUBMIT_ATTEMPTS) return result;
    await wait(productionRetryDelayMs(attempt));
  }
}

export async function createOrder(body: OrderRequestBody, idempotencyKey: string): Promise<Partial<CreatedOrder>> {
  const result = await submitOrderRequest(body, idempotencyKey);
  if (!result.ok || result.data?.success === false) {
    throw new ShopError(orderFailureMessage(result), fieldProblems(result.data?.details), result.status);
  }
  return result.data?.order ?? {};
}

/** The reduced order the item customizer sends (§7 details): one colour, finish = material, no files. */
export type CustomizerOrderBody = OrderRequestBody;

export async function createCustomizerOrder(
  body: CustomizerOrderBody,
  idempotencyKey: string,
): Promise<Partial<CreatedOrder>> {
  const result = await submitOrderRequest(body, idempotencyKey);
  if (!result.ok || result.data?.success === false) {
    throw new ShopError(customizerFailureMessage(result), fieldProblems(result.data?.details), result.status);
  }
  return result.data?.order ?? {};
}

// ---------------------------------------------------------------------------------------------
// AI designs
// ---------------------------------------------------------------------------------------------
export async function generateDesign(
  prompt: string,
  itemType: ItemType,
): Promise<{ design: GeneratedDesign; warning: string | null }> {
  const result = await postJson<Answer<GenerateDesignResponse>>('/api/ai/generate-design', {
    prompt,
    itemType,
    style: 'military',
  });
  if (result.networkError) throw new ShopError(aiFailureMessage(result.error ?? 'Network error', null));
  if (!result.ok) {
    const message = result.data?.error || `HTTP error! status: ${result.status}`;
    throw new ShopError(aiFailureMessage(message, result.status), [], result.status);
  }
  const design = result.data?.design;
  if (result.data?.success === false || !design?.imageUrl) {
    throw new ShopError(
      aiFailureMessage(result.data?.error || 'No design was returned', result.status),
      [],
      result.status,
    );
  }
  return { design, warning: result.data?.warning || null };
}

// ---------------------------------------------------------------------------------------------
// Returning customers
// ---------------------------------------------------------------------------------------------
export async function lookupCustomer(email: string): Promise<void> {
  const result = await postJson<Answer<CustomerLookupResponse>>('/api/customers/lookup', { email });
  if (result.networkError || result.status >= 500) throw new ShopError(messages.lookupFailed);
  if (!result.ok && result.status !== 404)
    throw new ShopError(result.data?.error || messages.lookupFailed, [], result.status);
  if (!(result.data?.success && result.data.verificationSent))
    throw new ShopError(messages.lookupNoOrders, [], result.status);
}

export type { SavedAddress };

export interface SavedCustomer {
  customerName: string;
  email: string;
  phone: string;
  shippingAddress: Partial<SavedAddress> | null;
  customerCategory: CustomerCategory | null;
}

interface VerifyAnswer {
  success?: boolean;
  message?: string;
  error?: string;
  customer?: Partial<VerifiedCustomer>;
}

export async function verifyCustomer(email: string, verificationCode: string): Promise<SavedCustomer> {
  const result = await postJson<VerifyAnswer>('/api/customers/verify', { email, verificationCode });
  if (result.networkError || result.status >= 500) throw new ShopError(messages.verifyFailed);
  const answer = result.data;
  if (!result.ok || !answer?.success || !answer.customer) {
    throw new ShopError(answer?.error || answer?.message || messages.verifyBadCode, [], result.status);
  }
  const c = answer.customer;
  return {
    customerName: c.customerName ?? '',
    email: c.email ?? email,
    phone: c.phone ?? '',
    shippingAddress: c.shippingAddress ?? c.lastShippingAddress ?? null,
    customerCategory: c.customerCategory ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Tracking
// ---------------------------------------------------------------------------------------------
export async function trackOrder(orderNumber: string, email: string): Promise<TrackedOrder> {
  const result = await postJson<Answer<TrackResponse>>('/api/orders/track', { orderNumber, email });
  if (result.networkError) throw new ShopError(messages.trackNetwork);
  if (!result.ok || result.data?.success === false || !result.data?.order?.orderNumber) {
    throw new ShopError(result.data?.error || messages.trackNotFound, [], result.status);
  }
  return result.data.order;
}

/** Other orders of this email; the server answers only with the order number just proven (§7). */
export async function orderHistory(email: string, orderNumber: string): Promise<TrackedOrder[]> {
  const result = await postJson<Answer<HistoryResponse>>('/api/orders/history', { email, orderNumber });
  if (!result.ok || !result.data?.success || !Array.isArray(result.data.orders)) return [];
  // The tracked order itself is not "history".
  return result.data.orders.filter((o) => o.orderNumber !== orderNumber);
}
