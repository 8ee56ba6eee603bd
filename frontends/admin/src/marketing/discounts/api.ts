// The back office's discount-code calls (part B §7; part A §7 for applying one to an order). Answers are
// parsed with the contracts' schemas.
import {
  adminOrderResponseSchema,
  discountListResponseSchema,
  discountMessages,
  discountResponseSchema,
  marketingDiscountPaths,
  orderDiscountPath,
  type AdminOrderDetail,
  type DiscountCode,
  type DiscountCreate,
  type OrderDiscountApply,
} from '@shop/contracts';
import { SESSION_ENDED_EVENT, adminFetch } from '../../api.js';

export const discountKeys = { all: ['marketing-discounts'] as const };

export async function fetchDiscounts(signal?: AbortSignal): Promise<DiscountCode[]> {
  return discountListResponseSchema.parse(await adminFetch(marketingDiscountPaths.list, { signal })).discounts;
}

export async function createDiscount(body: DiscountCreate): Promise<DiscountCode> {
  return discountResponseSchema.parse(await adminFetch(marketingDiscountPaths.list, { method: 'POST', json: body }))
    .discount;
}

export async function setDiscountActive(id: string, isActive: boolean): Promise<DiscountCode> {
  return discountResponseSchema.parse(
    await adminFetch(marketingDiscountPaths.one(id), { method: 'PATCH', json: { isActive } }),
  ).discount;
}

export async function deleteDiscount(id: string): Promise<void> {
  await adminFetch(marketingDiscountPaths.one(id), { method: 'DELETE' });
}

export async function removeOrderDiscount(orderId: string): Promise<AdminOrderDetail> {
  return adminOrderResponseSchema.parse(await adminFetch(orderDiscountPath(orderId), { method: 'DELETE' })).order;
}

export type { OrderDiscountApply };

/**
 * POST /api/orders/{id}/discount with the spec's own error words (part A §8): the message is taken from
 * error, message or details of the answer; an answer that is not JSON gives 'Invalid response format';
 * a network failure 'Network error'. The caller prefixes 'Failed to apply discount: '.
 */
export async function applyOrderDiscount(
  orderId: string,
  body: OrderDiscountApply,
): Promise<{ ok: true; order: AdminOrderDetail } | { ok: false; message: string }> {
  let response: Response;
  try {
    response = await fetch(orderDiscountPath(orderId), {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: discountMessages.networkError };
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    return { ok: false, message: discountMessages.invalidResponse };
  }
  if (response.status === 401) window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
  if (!response.ok) {
    const a = (answer ?? {}) as { error?: unknown; message?: unknown; details?: unknown };
    const text = [a.error, a.message, a.details].find((v) => typeof v === 'string' && v !== '') as string | undefined;
    return { ok: false, message: text ?? `HTTP ${response.status}` };
  }
  const parsed = adminOrderResponseSchema.safeParse(answer);
  return parsed.success
    ? { ok: true, order: parsed.data.order }
    : { ok: false, message: discountMessages.invalidResponse };
}
