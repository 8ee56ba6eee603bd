// Pure rules of discount codes: the end date a form's date means, and whether a code can be redeemed
// for an order (active, started, not expired, minimum order, customer category). maxUses is not judged
// here: only the database's conditional update can tell it truthfully when many apply at once.
import {
  customerCategory as customerCategoryLabels,
  discountMessages,
  discountOfferedTo,
  formatMoney,
  type CustomerCategory,
} from '@shop/contracts';
import type { DiscountDoc } from '../models/discount.js';

const dayMs = 24 * 60 * 60 * 1000;

/** A date without a time (the form's date picker) is valid through the end of that day (UTC). */
export function endDateOf(input: string | undefined): Date | null {
  if (!input) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(input)) return new Date(Date.parse(`${input}T00:00:00.000Z`) + dayMs - 1);
  return new Date(input);
}

export interface Refusal {
  status: number;
  code: string;
  message: string;
}

export interface RedeemFacts {
  customerCategory: CustomerCategory;
  orderAmountCents: number;
  now: Date;
}

/** Why this code cannot be redeemed for this order, or null when it can (uses aside). */
export function redeemRefusal(
  d: Pick<DiscountDoc, 'isActive' | 'startDate' | 'endDate' | 'minOrder' | 'category'>,
  facts: RedeemFacts,
): Refusal | null {
  const refuse = (code: string, message: string, status = 400) => ({ status, code, message });
  if (!d.isActive) return refuse('DISCOUNT_INACTIVE', discountMessages.inactive);
  if (new Date(d.startDate).getTime() > facts.now.getTime())
    return refuse('DISCOUNT_NOT_STARTED', discountMessages.notStarted);
  if (d.endDate && new Date(d.endDate).getTime() < facts.now.getTime())
    return refuse('DISCOUNT_EXPIRED', discountMessages.expired);
  if (!discountOfferedTo(facts.customerCategory, d.category)) {
    return refuse(
      'DISCOUNT_CATEGORY',
      discountMessages.category(customerCategoryLabels.labels[facts.customerCategory] ?? facts.customerCategory),
    );
  }
  if (d.minOrder !== null && d.minOrder !== undefined && facts.orderAmountCents < Math.round(d.minOrder * 100)) {
    return refuse('DISCOUNT_MIN_ORDER', discountMessages.minOrder(formatMoney(d.minOrder)));
  }
  return null;
}

/** The refusal when the conditional update finds no use left. */
export const usedUpRefusal: Refusal = { status: 409, code: 'DISCOUNT_USED_UP', message: discountMessages.usedUp };
