// Pure money rules of a discount code on an order (admin part A §2 Apply Discount, §9 "discounts with
// 2 decimals"; issue 13): the discount applies to the quote once there is one, else to the estimate;
// it never exceeds that amount (so no total goes negative); tax is taken on the discounted amount; a
// paid order keeps what it was paid with. No I/O here, so the tests can pin them.
import {
  alreadyPaidStatuses,
  discountCents,
  formatMoney,
  toCents,
  type CustomerCategory,
  type DiscountType,
} from '@shop/contracts';
import type { OrderDoc } from '../models/order.js';
import { quoteFigures } from './payment.js';

/** What the order keeps of the code it holds (the code's terms at the time it was applied). */
export interface OrderDiscount {
  code: string;
  /** Dollars, 2 decimals. */
  amount: number;
  type?: DiscountType;
  value?: number;
  customerCategory?: CustomerCategory;
  appliedAt?: Date;
  appliedBy?: string;
}

/** Paid (or further along with a payment): its discount can no longer change. */
export function isPaidOrder(order: Pick<OrderDoc, 'status' | 'payment'>): boolean {
  return Boolean(order.payment) || (alreadyPaidStatuses as readonly string[]).includes(order.status);
}

/** The amount a discount applies to: the quote's amount once quoted, else the estimate. */
export function discountBase(order: Pick<OrderDoc, 'quote' | 'estimatedTotal'>): number {
  return order.quote ? order.quote.amount : order.estimatedTotal;
}

/** A held discount recomputed on a new amount (Apply Quote after the code): a percentage follows the amount, a fixed sum is capped by it. */
export function discountOn(
  discount: Pick<OrderDiscount, 'amount' | 'type' | 'value'> | null | undefined,
  amount: number,
): number {
  if (!discount) return 0;
  if (!discount.type || discount.value === undefined) return Math.min(discount.amount, amount);
  return discountCents(discount.type, discount.value, toCents(amount)) / 100;
}

/**
 * The order's money after a discount of `discountAmount` dollars: the quote's tax and total recomputed
 * on the discounted amount (null when there is no quote yet).
 */
export function quoteWithDiscount(quote: OrderDoc['quote'], discountAmount: number): OrderDoc['quote'] {
  if (!quote) return quote ?? null;
  const { taxAmount, finalAmount } = quoteFigures(quote.amount, discountAmount, quote.taxRate);
  return { ...quote, taxAmount, finalAmount };
}

/** What the customer pays (quoted) or is estimated to pay after the discount, for the email and the notes. */
export function totalAfter(order: Pick<OrderDoc, 'quote' | 'estimatedTotal'>, discountAmount: number): number {
  const quote = quoteWithDiscount(order.quote, discountAmount);
  return quote ? quote.finalAmount : Math.max(0, Math.round((order.estimatedTotal - discountAmount) * 100) / 100);
}

export const discountEmailSubject = (orderNumber: string) => `A discount was applied to your order #${orderNumber}`;

export function discountEmailMessage(
  order: Pick<OrderDoc, 'quote' | 'estimatedTotal'>,
  code: string,
  discountAmount: number,
): string {
  const total = totalAfter(order, discountAmount);
  const what = order.quote ? 'Your new total, tax included, is' : 'Your new estimated total is';
  const pay = order.quote ? ' The payment link in your quote email charges the new total.' : '';
  return `Good news: the discount code ${code} takes ${formatMoney(discountAmount)} off your order. ${what} ${formatMoney(total)}.${pay}`;
}
