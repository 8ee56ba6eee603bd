// The payment page's pure rules (storefront §2, §4, §5, §7, §9): what is offered for each status and
// expiry, the figures shown, the create-intent body in cents, and the test-mode card form's checks.
import { describe, expect, it } from 'vitest';
import { orderStatuses, testModeCards, type OrderPaymentView } from '@shop/contracts';
import {
  createIntentBody,
  formatCardNumber,
  formatExpiry,
  luhnValid,
  parseExpiry,
  payOffer,
  paymentNote,
  quantityLine,
  taxLabel,
  testCardMessages,
  testCardState,
} from '../src/pay/model.js';

const now = new Date(2026, 10, 22, 12, 0, 0);

function order(over: Partial<OrderPaymentView> = {}): OrderPaymentView {
  return {
    id: 'b6f7c2d4-1e0a-4f58-9c3b-2d7e8a9f0c11',
    orderNumber: 'CC-482913',
    customerName: 'Dana Whitfield',
    itemType: 'coin',
    quantity: 150,
    description: 'Unit coin with the crest',
    status: 'quote_sent',
    quoteAmount: 1875.5,
    discountAmount: 0,
    taxRate: 0.0725,
    taxAmount: 135.97,
    finalAmount: 2011.47,
    quoteExpiresAt: new Date(2026, 11, 22).toISOString(),
    ...over,
  };
}

describe('what the page offers', () => {
  it('shows success for paid, in progress and completed orders, whatever the quote says', () => {
    for (const status of ['paid', 'in_progress', 'completed'] as const) {
      expect(payOffer(order({ status, quoteExpiresAt: new Date(2020, 0, 1).toISOString() }), now)).toBe('paid');
    }
  });

  it('offers the card only while awaiting payment with a quote that has not expired', () => {
    expect(payOffer(order({ status: 'quote_sent' }), now)).toBe('payable');
    expect(payOffer(order({ status: 'awaiting_payment' }), now)).toBe('payable');
    expect(payOffer(order({ quoteExpiresAt: new Date(now.getTime() - 1).toISOString() }), now)).toBe('expired');
    // Expired means earlier than now: the very instant is still payable.
    expect(payOffer(order({ quoteExpiresAt: now.toISOString() }), now)).toBe('payable');
    expect(payOffer(order({ finalAmount: null, quoteAmount: null }), now)).toBe('no_quote');
  });

  it('refuses every other status (pending_quote, cancelled...)', () => {
    const others = orderStatuses.filter(
      (s) => !['quote_sent', 'awaiting_payment', 'paid', 'in_progress', 'completed'].includes(s),
    );
    expect(others).toContain('pending_quote');
    expect(others).toContain('cancelled');
    for (const status of others) expect(payOffer(order({ status }), now), status).toBe('not_payable');
  });
});

describe('figures', () => {
  it('shows the tax percent only when there is tax, without rounding 7.25% away', () => {
    expect(taxLabel(order())).toBe('Tax (7.25%)');
    expect(taxLabel(order({ taxRate: 0.06, taxAmount: 10 }))).toBe('Tax (6.0%)');
    expect(taxLabel(order({ taxRate: 0, taxAmount: 0 }))).toBe('Tax');
    expect(taxLabel(order({ taxRate: 0.06, taxAmount: 0 }))).toBe('Tax');
  });

  it('names quantity and item type', () => {
    expect(quantityLine(order({ quantity: 1500, itemType: 'patch' }))).toBe('1,500 x Custom Patches');
  });

  it('builds the spec create-intent body in integer cents', () => {
    expect(createIntentBody(order({ finalAmount: 2011.47 }))).toEqual({
      amount: 201147,
      currency: 'usd',
      customerInfo: { name: 'Dana Whitfield' },
      orderNumber: 'CC-482913',
      description: '150 x Custom Challenge Coins (order CC-482913)',
      metadata: { orderId: 'b6f7c2d4-1e0a-4f58-9c3b-2d7e8a9f0c11', orderNumber: 'CC-482913' },
    });
    // Binary fractions must not lose a cent.
    expect(createIntentBody(order({ finalAmount: 19.99 })).amount).toBe(1999);
  });

  it('notes the payment date', () => {
    expect(paymentNote(new Date(2026, 10, 22))).toBe('Payment completed on November 22, 2026');
  });
});

describe('test-mode card form', () => {
  it('groups the number in fours and keeps 16 digits at most', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 42')).toBe('4242 42');
    expect(formatCardNumber('4242')).toBe('4242');
    expect(formatCardNumber('4242-4242-4242-4242-99')).toBe('4242 4242 4242 4242');
  });

  it('checks the Luhn sum', () => {
    expect(luhnValid(testModeCards.succeeds)).toBe(true);
    expect(luhnValid(testModeCards.declined)).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });

  it('writes the expiry as MM / YY while typing, and reads it back', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('4')).toBe('04 / ');
    expect(formatExpiry('12')).toBe('12 / ');
    expect(formatExpiry('1234')).toBe('12 / 34');
    expect(formatExpiry('12 / 345')).toBe('12 / 34');
    // Backspace over the separator removes the month's last digit.
    expect(formatExpiry('12 /', '12 / ')).toBe('1');
    expect(parseExpiry('12 / 34')).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry('13 / 34')).toBeNull();
    expect(parseExpiry('12 / 3')).toBeNull();
  });

  it('is complete only with a valid 16-digit number, an expiry not in the past and a 3-4 digit CVC', () => {
    const good = { number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123' };
    expect(testCardState(good, {}, now)).toEqual({ complete: true, errors: {} });
    expect(testCardState({ ...good, cvc: '1234' }, {}, now).complete).toBe(true);
    // This month is still good; last month is not.
    expect(testCardState({ ...good, expiry: '11 / 26' }, {}, now).complete).toBe(true);
    expect(testCardState({ ...good, expiry: '10 / 26' }, {}, now)).toEqual({
      complete: false,
      errors: { expiry: testCardMessages.expiryPast },
    });
    expect(testCardState({ ...good, number: '4242 4242 4242 4241' }, {}, now)).toEqual({
      complete: false,
      errors: { number: testCardMessages.numberInvalid },
    });
    expect(testCardState({ ...good, number: '4242 4242 4242' }, {}, now)).toEqual({ complete: false, errors: {} });
    expect(testCardState({ ...good, cvc: '12' }, {}, now).complete).toBe(false);
    expect(testCardState({ ...good, expiry: '13 / 30' }, {}, now).errors.expiry).toBe(testCardMessages.expiryInvalid);
  });

  it('reports what is incomplete once the customer left the field', () => {
    const partial = { number: '4242 4242', expiry: '12 / 3', cvc: '12' };
    expect(testCardState(partial, {}, now).errors).toEqual({});
    expect(testCardState(partial, { number: true, expiry: true, cvc: true }, now).errors).toEqual({
      number: testCardMessages.numberIncomplete,
      expiry: testCardMessages.expiryIncomplete,
      cvc: testCardMessages.cvcIncomplete,
    });
  });
});
