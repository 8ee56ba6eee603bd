// Pure rules of quote payment (storefront §2 payment page, §4, §9): the quote's tax figures, what
// payments is told about a quote, the public payment view, and the note recorded when an order is paid.
// No I/O here, so the tests can pin them.
import { formatMoney, type OrderPaymentQuote, type OrderPaymentView } from '@shop/contracts';
import type { OrderDoc } from '../models/order.js';
import { round2 } from './admin-orders.js';

/** Tax on the discounted subtotal, and the total to pay: subtotal - discount + tax (never below 0). */
export function quoteFigures(amount: number, discount: number, taxRate: number) {
  const taxable = Math.max(0, round2(amount - discount));
  const taxAmount = round2(taxable * taxRate);
  return { taxAmount, finalAmount: round2(taxable + taxAmount) };
}

/** Where the quote's tax is taken from: the shipping state, else the billing state; none without address. */
export function taxPlaceOf(order: Pick<OrderDoc, 'shippingAddress' | 'billingAddress'>): {
  state?: string;
  country?: string;
} {
  const address = order.shippingAddress ?? order.billingAddress;
  return address ? { state: address.state, country: address.country } : {};
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** The quote as payments needs it to compute and check the amount charged. */
export function paymentQuoteOf(order: OrderDoc): OrderPaymentQuote {
  return {
    orderId: order._id,
    orderNumber: order.orderNumber,
    customerName: order.customerName,
    email: order.email,
    status: order.status,
    quote: order.quote
      ? {
          amount: order.quote.amount,
          discountAmount: order.discount?.amount ?? 0,
          taxRate: order.quote.taxRate,
          taxAmount: order.quote.taxAmount,
          finalAmount: order.quote.finalAmount,
          expiresAt: iso(order.quote.expiresAt),
        }
      : null,
    payment: order.payment
      ? { paymentIntentId: order.payment.paymentIntentId, paidAt: iso(order.payment.paidAt) }
      : null,
  };
}

/** The public view: only what the payment page shows (no email, address, files or history). */
export function paymentViewOf(order: OrderDoc): OrderPaymentView {
  return {
    id: order._id,
    orderNumber: order.orderNumber,
    customerName: order.customerName,
    itemType: order.itemType,
    quantity: order.quantity,
    description: order.description,
    status: order.status,
    ...(order.quote?.notes ? { quoteNotes: order.quote.notes } : {}),
    quoteAmount: order.quote?.amount ?? null,
    discountAmount: order.discount?.amount ?? 0,
    taxRate: order.quote?.taxRate ?? 0,
    taxAmount: order.quote?.taxAmount ?? 0,
    finalAmount: order.quote?.finalAmount ?? null,
    quoteExpiresAt: order.quote ? iso(order.quote.expiresAt) : null,
    ...(order.payment ? { paidAt: iso(order.payment.paidAt) } : {}),
  };
}

/** "Nov 22, 2026" in UTC, the date the customer and the team read in notes. */
export function paymentDate(date: Date): string {
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

/** The status-history note of a payment; says so when the amount taken is not the quote's total. */
export function paidNote(paidAt: Date, paymentIntentId: string, amount: number, expected: number | null): string {
  const note = `Payment received on ${paymentDate(paidAt)} (payment intent ${paymentIntentId})`;
  if (expected === null || Math.round(amount * 100) === Math.round(expected * 100)) return note;
  return `${note}. Amount charged ${formatMoney(amount)} differs from the quote total ${formatMoney(expected)}.`;
}

/** The receipt's subject, also the email-history entry's until email.sent confirms it. */
export const receiptSubject = (orderNumber: string) => `Payment received for order #${orderNumber}`;
