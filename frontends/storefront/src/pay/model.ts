// Pure rules of the quote payment page (storefront §2 "Quote payment", §4 payment page, §5 payment
// rules, §9 cents): what the page offers for an order, the figures it shows, the create-intent body,
// and the test-mode card form's checks. No I/O here, so the unit tests can pin them.
import {
  alreadyPaidStatuses,
  awaitingPaymentStatuses,
  catalog,
  paymentCurrency,
  toCents,
  type CreateIntentBody,
  type OrderPaymentView,
} from '@shop/contracts';

/**
 * What the page offers for an order it loaded:
 * - `paid`: paid, in progress or completed: the success screen (§4);
 * - `not_payable`: any other status that is not awaiting payment (pending_quote, cancelled...);
 * - `no_quote`: awaiting payment but no quote figures to pay;
 * - `expired`: the quote's expiry is earlier than now (§4): the red "Quote Expired" box, no card field;
 * - `payable`: the card field and "Pay $X".
 */
export type PayOffer = 'paid' | 'not_payable' | 'no_quote' | 'expired' | 'payable';

export function payOffer(
  order: Pick<OrderPaymentView, 'status' | 'finalAmount' | 'quoteExpiresAt'>,
  now: Date = new Date(),
): PayOffer {
  if ((alreadyPaidStatuses as readonly string[]).includes(order.status)) return 'paid';
  if (!(awaitingPaymentStatuses as readonly string[]).includes(order.status)) return 'not_payable';
  if (order.finalAmount === null || !(order.finalAmount > 0)) return 'no_quote';
  if (order.quoteExpiresAt && new Date(order.quoteExpiresAt).getTime() < now.getTime()) return 'expired';
  return 'payable';
}

/** "50 x Custom Challenge Coins". */
export function quantityLine(order: Pick<OrderPaymentView, 'quantity' | 'itemType'>): string {
  const title = catalog[order.itemType]?.title ?? order.itemType;
  return `${order.quantity.toLocaleString('en-US')} x ${title}`;
}

// At least one decimal (DESIGN.md), two when the rate has them: 7.25% must not read as 7.3%.
const percent = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 2,
});

/** The tax label: the percent only when the tax amount is above zero (§2). */
export function taxLabel(order: Pick<OrderPaymentView, 'taxRate' | 'taxAmount'>): string {
  return order.taxAmount > 0 ? `Tax (${percent.format(order.taxRate)})` : 'Tax';
}

const expiryDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

export function formatExpiryDate(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : expiryDate.format(d);
}

/** The spec's create-intent body (§7). The server charges the quote, whatever `amount` says. */
export function createIntentBody(order: OrderPaymentView): CreateIntentBody {
  const title = catalog[order.itemType]?.title ?? order.itemType;
  return {
    amount: toCents(order.finalAmount ?? 0),
    currency: paymentCurrency,
    customerInfo: { name: order.customerName },
    orderNumber: order.orderNumber,
    description: `${order.quantity} x ${title} (order ${order.orderNumber})`,
    metadata: { orderId: order.id, orderNumber: order.orderNumber },
  };
}

/** The note sent with the status update after a successful payment (§4). */
export function paymentNote(date: Date = new Date()): string {
  return `Payment completed on ${date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })}`;
}

// ---------------------------------------------------------------------------------------------
// Test-mode card form (stands in for Stripe's card field when the shop runs without Stripe keys)
// ---------------------------------------------------------------------------------------------
export const cardNumberLength = 16;

export function digitsOnly(raw: string, max: number): string {
  return raw.replace(/\D/g, '').slice(0, max);
}

/** "4242424242424242" -> "4242 4242 4242 4242" (also while typing). */
export function formatCardNumber(raw: string): string {
  return digitsOnly(raw, cardNumberLength).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** "1", "12", "123" -> "1", "12 / ", "12 / 3": MM / YY as the customer types. */
export function formatExpiry(raw: string, previous = ''): string {
  let digits = digitsOnly(raw, 4);
  // Deleting the " / " separator deletes the month's last digit with it.
  if (previous.endsWith(' / ') && raw.length < previous.length && digits.length === 2) digits = digits.slice(0, 1);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  if (digits.length < 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** Month and four-digit year of "MM / YY", or null while incomplete or not a month. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const digits = digitsOnly(value, 4);
  if (digits.length !== 4) return null;
  const month = Number(digits.slice(0, 2));
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(digits.slice(2)) };
}

/** A card is good through the last day of its expiry month. */
export function expiryInFuture(expiry: { month: number; year: number }, now: Date = new Date()): boolean {
  return expiry.year > now.getFullYear() || (expiry.year === now.getFullYear() && expiry.month >= now.getMonth() + 1);
}

export interface TestCardInput {
  number: string;
  expiry: string;
  cvc: string;
}

export interface TestCardState {
  complete: boolean;
  /** Per-field problems, shown once a field is filled in (like Stripe's card field). */
  errors: Partial<Record<keyof TestCardInput, string>>;
}

export const testCardMessages = {
  numberInvalid: 'Your card number is invalid.',
  numberIncomplete: 'Your card number is incomplete.',
  expiryInvalid: "Your card's expiration date is invalid.",
  expiryPast: "Your card's expiration year is in the past.",
  expiryIncomplete: "Your card's expiration date is incomplete.",
  cvcIncomplete: "Your card's security code is incomplete.",
} as const;

/**
 * Complete = a 16-digit Luhn-valid number, a valid expiry not in the past, a 3 or 4 digit CVC.
 * `touched` fields (left by the customer) also report what is incomplete.
 */
export function testCardState(
  card: TestCardInput,
  touched: Partial<Record<keyof TestCardInput, boolean>> = {},
  now: Date = new Date(),
): TestCardState {
  const errors: TestCardState['errors'] = {};
  const number = digitsOnly(card.number, cardNumberLength);
  const numberOk = number.length === cardNumberLength && luhnValid(number);
  if (number.length === cardNumberLength && !numberOk) errors.number = testCardMessages.numberInvalid;
  else if (!numberOk && touched.number && number.length > 0) errors.number = testCardMessages.numberIncomplete;

  const expiryDigits = digitsOnly(card.expiry, 4);
  const expiry = parseExpiry(card.expiry);
  let expiryOk = false;
  if (expiryDigits.length >= 2 && (Number(expiryDigits.slice(0, 2)) < 1 || Number(expiryDigits.slice(0, 2)) > 12))
    errors.expiry = testCardMessages.expiryInvalid;
  else if (expiry && !expiryInFuture(expiry, now)) errors.expiry = testCardMessages.expiryPast;
  else if (expiry) expiryOk = true;
  else if (touched.expiry && expiryDigits.length > 0) errors.expiry = testCardMessages.expiryIncomplete;

  const cvc = digitsOnly(card.cvc, 4);
  const cvcOk = cvc.length >= 3;
  if (!cvcOk && touched.cvc && cvc.length > 0) errors.cvc = testCardMessages.cvcIncomplete;

  return { complete: numberOk && expiryOk && cvcOk, errors };
}
