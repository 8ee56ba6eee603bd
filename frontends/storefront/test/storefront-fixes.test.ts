// Issue 10 "Storefront": the quantity field edits like a number field, Canadian addresses, the tracking
// bar for statuses around the five steps, money with a thousands separator, sizes with their unit.
import { describe, expect, it } from 'vitest';
import { formatMoney } from '@shop/contracts';
import {
  buildOrderBody,
  canContinue,
  countWhileTyping,
  initialOrderForm,
  parseQuantity,
  parseShirtCount,
  quantityRange,
  shippingProblems,
  shirtCountRange,
  STEP,
  type OrderForm,
} from '../src/flow/model.js';
import { prefillFrom } from '../src/flow/useOrderFlow.js';
import { progressPercent, sizeText, statusDescription, statusLabel, trackingSteps } from '../src/track/model.js';
import { coinForm } from './fixtures.js';

describe('quantity field: typing, then the rules on leaving', () => {
  it('Backspace twice on "50" leaves an empty field (no value yet), then 75 means 75', () => {
    // What the field holds after each key: "5", "", "7", "75".
    expect(['5', '', '7', '75'].map((draft) => countWhileTyping(draft, quantityRange))).toEqual([5, null, 7, 75]);
  });

  it('text that is not yet an allowed quantity leaves the value alone until the field is left', () => {
    for (const draft of ['', ' ', '0', '00', '-3', '1.5', '1e3', '10001', 'abc'])
      expect(countWhileTyping(draft, quantityRange)).toBeNull();
    expect(countWhileTyping('10000', quantityRange)).toBe(10000);
    // Leaving the field: non-numeric becomes 1, then 1..10000 (spec §5).
    expect(['', '0', '10001', '75'].map(parseQuantity)).toEqual([1, 1, 10000, 75]);
  });

  it('shirt counts allow 0 while typing and become 0 when left empty', () => {
    expect(countWhileTyping('0', shirtCountRange)).toBe(0);
    expect(countWhileTyping('', shirtCountRange)).toBeNull();
    expect(parseShirtCount('')).toBe(0);
  });
});

describe('Canadian addresses', () => {
  const canada = (patch: Partial<OrderForm['shippingAddress']> = {}) =>
    coinForm({
      shippingAddress: {
        line1: '1 Barrington St',
        line2: '',
        city: 'Halifax',
        state: 'NS',
        postalCode: 'B3H 1A1',
        country: 'CA',
        ...patch,
      },
    });

  it('a province and an A1A 1A1 postal code continue; a US state or a ZIP in Canada do not', () => {
    expect(canContinue(STEP.shipping, canada())).toBe(true);
    expect(canContinue(STEP.shipping, canada({ state: 'AL' }))).toBe(false);
    expect(shippingProblems(canada({ state: 'AL' }).shippingAddress).state).toMatch(
      /Canadian provinces or territories/,
    );
    expect(canContinue(STEP.shipping, canada({ postalCode: '36104' }))).toBe(false);
    expect(shippingProblems(canada({ postalCode: '36104' }).shippingAddress).postalCode).toBe(
      'Postal code must be a Canadian postal code (A1A 1A1)',
    );
  });

  it('a US address needs a ZIP (12345 or 12345-6789) and one of the 50 states', () => {
    const us = (patch: Partial<OrderForm['shippingAddress']>) =>
      coinForm({ shippingAddress: { ...coinForm().shippingAddress, ...patch } });
    expect(canContinue(STEP.shipping, us({ postalCode: '78701-1234' }))).toBe(true);
    expect(canContinue(STEP.shipping, us({ postalCode: 'K1A 0B1' }))).toBe(false);
    expect(canContinue(STEP.shipping, us({ postalCode: '7870' }))).toBe(false);
    expect(canContinue(STEP.shipping, us({ state: 'ON' }))).toBe(false);
  });

  it('the order body carries the ISO code and the postal code written the standard way', () => {
    const body = buildOrderBody(canada({ postalCode: 'b3h1a1' }), []);
    expect(body.shippingAddress).toMatchObject({ state: 'NS', postalCode: 'B3H 1A1', country: 'CA' });
    expect(buildOrderBody(coinForm(), []).shippingAddress?.country).toBe('US');
  });

  it('a profile saved as "Canada" prefills CA', () => {
    const patch = prefillFrom(
      {
        customerName: 'Ann Roy',
        email: 'ann@example.com',
        phone: '',
        customerCategory: 'general',
        shippingAddress: { line1: '1 Rue', city: 'Québec', state: 'QC', postalCode: 'G1R 4P5', country: 'Canada' },
      },
      initialOrderForm(),
    );
    expect(patch.shippingAddress?.country).toBe('CA');
  });
});

describe('tracking bar and labels', () => {
  it('places the statuses around the five steps on the bar (a paid order is not at 0%)', () => {
    expect(['pending_quote', 'quote_sent', 'awaiting_payment'].map(progressPercent)).toEqual([20, 20, 20]);
    expect(progressPercent('paid')).toBe(30);
    expect(progressPercent('shipped')).toBe(90);
    expect(progressPercent('cancelled')).toBe(0);
    expect(trackingSteps('paid').map((s) => s.reached)).toEqual([true, false, false, false, false]);
    expect(trackingSteps('shipped').map((s) => s.reached)).toEqual([true, true, true, true, false]);
    expect(trackingSteps('production').map((s) => s.current)).toEqual([false, false, false, true, false]);
  });

  it('describes every status in plain words', () => {
    expect(statusLabel('quote_sent')).toBe('Quote Sent');
    expect(statusDescription('paid')).toBe('Your payment has been received. Work on your order begins now.');
    for (const status of ['pending_quote', 'quote_sent', 'awaiting_payment', 'paid', 'shipped', 'cancelled'])
      expect(statusDescription(status)).not.toMatch(/^Status:/);
  });

  it('money has a thousands separator; coin and patch sizes carry their label and unit', () => {
    expect(formatMoney(2400)).toBe('$2,400.00');
    expect(sizeText({ itemType: 'coin', size: '2' })).toBe('Large (2")');
    expect(sizeText({ itemType: 'patch', size: '3x3' })).toBe('3" x 3"');
    expect(sizeText({ itemType: 'shirt', sizeBreakdown: { M: 4, XL: 6 } })).toBe('M: 4, XL: 6');
  });
});
