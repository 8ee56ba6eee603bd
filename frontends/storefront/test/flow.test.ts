import { describe, expect, it } from 'vitest';
import { formatMegabytes } from '@shop/contracts';
import {
  buildOrderBody,
  canContinue,
  fallbackOrderNumber,
  finalDescription,
  initialOrderForm,
  isAcceptedUpload,
  orderEstimate,
  parseQuantity,
  parseShirtCount,
  progressOf,
  quantityLabel,
  sizeChoices,
  STEP,
} from '../src/flow/model.js';
import { prefillFrom, splitName } from '../src/flow/useOrderFlow.js';
import { coinForm } from './fixtures.js';

const file = (name: string, size = 1000) => new File([new Uint8Array(size)], name);

describe('progress bar', () => {
  it('folds steps 0-7 into Step n of 5 with its percent and label', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((s) => progressOf(s).phase)).toEqual([1, 1, 2, 3, 4, 4, 4, 5]);
    expect(progressOf(2)).toEqual({ phase: 2, percent: 40, label: 'Details' });
    expect(progressOf(7)).toEqual({ phase: 5, percent: 100, label: 'Done' });
  });
});

describe('Continue per step (§5)', () => {
  it('needs an item, then a design method', () => {
    expect(canContinue(STEP.item, initialOrderForm())).toBe(false);
    expect(canContinue(STEP.item, { ...initialOrderForm(), itemType: 'patch' })).toBe(true);
    expect(canContinue(STEP.method, { ...initialOrderForm(), itemType: 'patch' })).toBe(false);
    expect(canContinue(STEP.method, { ...initialOrderForm(), designMethod: 'team' })).toBe(true);
  });

  it('upload needs a file; other methods a description of 5+ characters after trimming', () => {
    expect(canContinue(STEP.content, coinForm({ designMethod: 'upload', description: 'long enough text' }))).toBe(
      false,
    );
    expect(
      canContinue(STEP.content, coinForm({ designMethod: 'upload', description: '', uploadedFiles: [file('a.png')] })),
    ).toBe(true);
    expect(canContinue(STEP.content, coinForm({ description: '  abcd  ' }))).toBe(false);
    expect(canContinue(STEP.content, coinForm({ description: ' abcde ' }))).toBe(true);
    expect(canContinue(STEP.content, coinForm({ designMethod: 'team', description: 'abc' }))).toBe(false);
  });

  it('specifications need a size (or a shirt in the breakdown), a finish and a color', () => {
    expect(canContinue(STEP.specs, coinForm())).toBe(true);
    expect(canContinue(STEP.specs, coinForm({ size: '' }))).toBe(false);
    expect(canContinue(STEP.specs, coinForm({ finish: '' }))).toBe(false);
    expect(canContinue(STEP.specs, coinForm({ colors: [] }))).toBe(false);
    const shirt = coinForm({ itemType: 'shirt', size: '', finish: 'performance' });
    expect(canContinue(STEP.specs, shirt)).toBe(false);
    expect(canContinue(STEP.specs, { ...shirt, sizeBreakdown: { ...shirt.sizeBreakdown, M: 1 } })).toBe(true);
  });

  it('shipping needs line1, city, state and postal code; contact needs first, last and email', () => {
    expect(canContinue(STEP.shipping, coinForm())).toBe(true);
    for (const key of ['line1', 'city', 'state', 'postalCode'] as const) {
      const f = coinForm();
      expect(canContinue(STEP.shipping, { ...f, shippingAddress: { ...f.shippingAddress, [key]: '  ' } })).toBe(false);
    }
    expect(canContinue(STEP.contact, coinForm())).toBe(true);
    expect(canContinue(STEP.contact, coinForm({ lastName: '' }))).toBe(false);
    expect(canContinue(STEP.contact, coinForm({ email: ' ' }))).toBe(false);
    expect(canContinue(STEP.contact, coinForm({ phone: '' }))).toBe(true);
  });
});

describe('quantity and pricing (§5, §9)', () => {
  it('non-numeric becomes 1; held within 1..10000', () => {
    expect(parseQuantity('abc')).toBe(1);
    expect(parseQuantity('')).toBe(1);
    expect(parseQuantity('0')).toBe(1);
    expect(parseQuantity('1')).toBe(1);
    expect(parseQuantity('10000')).toBe(10000);
    expect(parseQuantity('10001')).toBe(10000);
    expect(parseQuantity('-5')).toBe(1);
  });

  it('shirt counts never go below 0', () => {
    expect(parseShirtCount('-3')).toBe(0);
    expect(parseShirtCount('x')).toBe(0);
    expect(parseShirtCount('12')).toBe(12);
  });

  it('labels and estimated total at 49, 50, 99, 100', () => {
    expect([49, 50, 99, 100].map(quantityLabel)).toEqual([
      'Standard Pricing',
      'Bulk Pricing Available',
      'Bulk Pricing Available',
      'Volume Discount Applied',
    ]);
    expect(orderEstimate(coinForm({ quantity: 49 }))).toBe(Math.round(25.99 * 49));
    expect(orderEstimate(coinForm({ quantity: 50 }))).toBe(Math.round(25.99 * 50 * 0.9));
    expect(orderEstimate(coinForm({ quantity: 100 }))).toBe(Math.round(25.99 * 100 * 0.8));
  });

  it('shirts are priced on the sum of the size counts', () => {
    const f = coinForm({ itemType: 'shirt', quantity: 50 });
    expect(orderEstimate({ ...f, sizeBreakdown: { ...f.sizeBreakdown, S: 10, M: 20, XXL: 30 } })).toBe(
      Math.round(39.99 * 60 * 0.9),
    );
  });
});

describe('uploads (§5)', () => {
  it('accepts JPG, JPEG, PNG, PDF, SVG, .ai and .eps by name, in any case', () => {
    for (const name of ['a.jpg', 'b.JPEG', 'c.png', 'd.pdf', 'e.svg', 'logo.ai', 'art.EPS'])
      expect(isAcceptedUpload(name)).toBe(true);
    for (const name of ['a.gif', 'b.txt', 'noext', 'c.png.exe', 'd.webp']) expect(isAcceptedUpload(name)).toBe(false);
  });

  it('shows sizes in MB with 2 decimals', () => {
    expect(formatMegabytes(10 * 1024 * 1024)).toBe('10.00 MB');
    expect(formatMegabytes(1536 * 1024)).toBe('1.50 MB');
  });
});

describe('order body (§7)', () => {
  it('sends the spec fields for a coin: full name, size, rounded estimate, taxExempt from the category', () => {
    const body = buildOrderBody(
      coinForm({ quantity: 120, customerCategory: 'military', shape: 'Shield', edge: 'rope', features: ['Spinner'] }),
      [],
    );
    expect(body).toMatchObject({
      customerName: 'Dana Lopez',
      email: 'dana@example.com',
      itemType: 'coin',
      designMethod: 'describe',
      description: 'Battalion crest, gold on black',
      quantity: 120,
      size: '1.75',
      colors: ['Gold', 'Black'],
      finish: 'antique_gold',
      shape: 'Shield',
      edge: 'rope',
      features: ['Spinner'],
      estimatedTotal: Math.round(25.99 * 120 * 0.8),
      files: [],
      aiGenerated: false,
      customerCategory: 'military',
      taxExempt: true,
      subscribeSMS: false,
    });
    expect(body).not.toHaveProperty('sizeBreakdown');
    expect(body).not.toHaveProperty('phone');
  });

  it('shirts send the size breakdown and its sum, never a size', () => {
    const f = coinForm({ itemType: 'shirt', finish: 'tactical', quantity: 50 });
    const body = buildOrderBody({ ...f, sizeBreakdown: { ...f.sizeBreakdown, M: 4, XL: 6 } }, []);
    expect(body.quantity).toBe(10);
    expect(body.sizeBreakdown).toEqual({ M: 4, XL: 6 });
    expect(body).not.toHaveProperty('size');
    expect(body).not.toHaveProperty('shape');
  });

  it('SMS only with a phone; ai designs are flagged', () => {
    expect(buildOrderBody(coinForm({ subscribeSMS: true }), []).subscribeSMS).toBe(false);
    const withPhone = buildOrderBody(coinForm({ phone: ' 555-0100 ', subscribeSMS: true, designMethod: 'ai' }), []);
    expect(withPhone).toMatchObject({ phone: '555-0100', subscribeSMS: true, aiGenerated: true });
  });

  it('a description under 5 characters becomes a default naming the files or the item', () => {
    expect(finalDescription(coinForm({ description: 'abc' }))).toBe('Custom coin design as specified');
    expect(
      finalDescription(
        coinForm({ designMethod: 'upload', description: '', uploadedFiles: [file('crest.png'), file('motto.pdf')] }),
      ),
    ).toBe('Custom coin design from uploaded files: crest.png, motto.pdf');
  });

  it('the fallback order number is a product prefix plus the last 6 digits of the time', () => {
    expect(fallbackOrderNumber('coin', 1_700_000_123_456)).toBe('CC-123456');
    expect(fallbackOrderNumber('shirt', 1_700_000_654_321)).toBe('TS-654321');
  });
});

describe('options', () => {
  it('labels coin sizes Mini to XXL and shows shirt chest ranges', () => {
    expect(sizeChoices('coin').map((c) => c.label)).toEqual(['Mini', 'Small', 'Medium', 'Large', 'XL', 'XXL']);
    expect(sizeChoices('shirt')[0]).toEqual({ value: 'S', label: 'S', hint: 'Chest 34-36"' });
  });
});

describe('returning-customer prefill', () => {
  it('splits the name, reads shippingAddress or lastShippingAddress, keeps the category', () => {
    expect(splitName('  Mary  Ann Smith ')).toEqual({ firstName: 'Mary', lastName: 'Ann Smith' });
    const patch = prefillFrom(
      {
        customerName: 'Ray Turner',
        email: 'ray@example.com',
        phone: '555-0199',
        shippingAddress: {
          line1: '9 Dock Rd',
          city: 'Norfolk',
          state: 'VA',
          postalCode: '23511-12345678',
          country: 'US',
        },
        customerCategory: 'military',
      },
      initialOrderForm(),
    );
    expect(patch).toMatchObject({
      firstName: 'Ray',
      lastName: 'Turner',
      phone: '555-0199',
      customerCategory: 'military',
      shippingAddress: {
        line1: '9 Dock Rd',
        line2: '',
        city: 'Norfolk',
        state: 'VA',
        postalCode: '23511-1234',
        country: 'US',
      },
    });
  });
});
