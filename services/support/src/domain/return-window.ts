// May this order be returned now? (storefront §9: a 30-day return window.) The window opens when the
// order leaves the shop (shipped, or completed when no shipment was recorded) and closes 30 days
// later. The support service learns orders from the orders service's events (its own projection).
import { returnRules } from '@shop/contracts';

export interface KnownOrder {
  orderNumber: string;
  email: string;
  status: string;
  shippedAt?: Date | null | undefined;
}

export type ReturnEligibility = { ok: true; closesAt: Date } | { ok: false; status: 400 | 404; message: string };

export const orderNotFoundMessage =
  'We could not find an order with that number and email address. Please check both and try again.';

const day = 24 * 60 * 60_000;

export function returnEligibility(order: KnownOrder | null, email: string, now: Date): ReturnEligibility {
  if (!order || order.email.toLowerCase() !== email.trim().toLowerCase())
    return { ok: false, status: 404, message: orderNotFoundMessage };
  if (order.status === 'cancelled')
    return {
      ok: false,
      status: 400,
      message: `Order ${order.orderNumber} was cancelled, so there is nothing to return.`,
    };
  if (!order.shippedAt) {
    return {
      ok: false,
      status: 400,
      message: `Order ${order.orderNumber} has not shipped yet. Returns open once it ships; for changes before then, please contact support.`,
    };
  }
  const closesAt = new Date(order.shippedAt.getTime() + returnRules.windowDays * day);
  if (now.getTime() > closesAt.getTime()) {
    const date = closesAt.toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
    return {
      ok: false,
      status: 400,
      message: `The ${returnRules.windowDays}-day return window for order ${order.orderNumber} closed on ${date}.`,
    };
  }
  return { ok: true, closesAt };
}
