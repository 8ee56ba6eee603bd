// The pure rules: order numbers, descriptions, estimates, body fingerprints, file content checks and the
// offline design generator's reading of a prompt, and the quote payment figures.
import { describe, expect, it } from 'vitest';
import { XMLValidator } from 'fast-xml-parser';
import { orderRequestSchema } from '@shop/contracts';
import { newOrderNumber, orderNumberAlphabet, orderNumberPattern } from '../src/domain/order-number.js';
import { bodyFingerprint, canonicalJson, orderDescription, serverEstimate } from '../src/domain/order-rules.js';
import { checkUpload, looksLikeSvg } from '../src/domain/file-check.js';
import { drawOfflineDesign, emblemFromPrompt, paletteFromPrompt, textFromPrompt } from '../src/domain/design-svg.js';
import { paidNote, paymentDate, quoteFigures, taxPlaceOf } from '../src/domain/payment.js';
import { coinOrder } from './helpers.js';

describe('order numbers', () => {
  it('use the item prefix and 8 unambiguous characters', () => {
    expect(orderNumberAlphabet).toHaveLength(32);
    expect(orderNumberAlphabet).not.toMatch(/[01IO]/);
    for (let i = 0; i < 200; i++) expect(newOrderNumber('coin')).toMatch(orderNumberPattern);
    expect(newOrderNumber('patch')).toMatch(/^PT-/);
    expect(newOrderNumber('shirt')).toMatch(/^TS-/);
    expect(newOrderNumber('coin', (n) => Buffer.alloc(n, 0))).toBe('CC-22222222');
    expect(newOrderNumber('coin', (n) => Buffer.alloc(n, 255))).toBe('CC-ZZZZZZZZ');
  });
});

describe('order rules', () => {
  const parsed = (overrides = {}) => orderRequestSchema.parse(coinOrder(overrides));

  it('keeps the customer description, or names uploaded files, trimmed to 1000', () => {
    expect(orderDescription(parsed({ description: '  Gold eagle  ' }))).toBe('Gold eagle');
    const files = Array.from({ length: 2 }, (_, i) => ({
      originalName: `art-${i}.png`,
      filename: 'x.png',
      size: 1,
      mimetype: 'image/png',
      url: '/api/upload/abc',
    }));
    expect(orderDescription(parsed({ designMethod: 'upload', description: 'ok', files }))).toBe(
      'Custom Challenge Coins design from uploaded files: art-0.png, art-1.png',
    );
  });

  it('prices the guided flow with the volume tiers and the customizer with its own rule', () => {
    expect(serverEstimate(parsed({ quantity: 49 }))).toBe(1274);
    expect(serverEstimate(parsed({ quantity: 100 }))).toBe(2079);
    expect(serverEstimate({ itemType: 'patch', finish: 'Leather', size: '5 inch', quantity: 10 })).toBe(178.87); // 12.99 x 10 x 1.3 + 10
  });

  it('fingerprints bodies independently of key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    const a = parsed();
    const b = Object.fromEntries(Object.entries(parsed()).reverse()) as typeof a;
    expect(bodyFingerprint(a)).toBe(bodyFingerprint(b));
    expect(bodyFingerprint(parsed({ quantity: 51 }))).not.toBe(bodyFingerprint(a));
  });
});

describe('upload content checks', () => {
  it('recognises SVG text after a declaration, comments and a doctype, and nothing else', () => {
    expect(looksLikeSvg(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(true);
    expect(
      looksLikeSvg(
        Buffer.from(
          '\uFEFF<?xml version="1.0"?>\n<!-- c -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg>',
        ),
      ),
    ).toBe(true);
    expect(looksLikeSvg(Buffer.from('<html><svg></svg></html>'))).toBe(false);
    expect(looksLikeSvg(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x00, 0x20]))).toBe(false);
  });

  it('refuses an empty file and judges names case-insensitively', async () => {
    expect(await checkUpload('x.png', Buffer.alloc(0))).toEqual({ ok: false, message: '"x.png" is empty.' });
    expect(await checkUpload('SCAN.PDF', Buffer.from('%PDF-1.7\n%%EOF'))).toMatchObject({
      ok: true,
      mimetype: 'application/pdf',
    });
    expect(await checkUpload('noextension', Buffer.from('%PDF-1.7'))).toMatchObject({ ok: false });
  });
});

describe('offline design generator', () => {
  it('reads colours in prompt order, multi-word names first', () => {
    expect(paletteFromPrompt('OD green patch with black border and gold text')).toEqual([
      '#5a5f3a',
      '#151515',
      '#d4a93c',
    ]);
    expect(paletteFromPrompt('Navy blue and silver coin')).toEqual(['#1f2f4f', '#c0c0c0']);
    expect(paletteFromPrompt('a plain coin')).toEqual([]);
  });

  it('takes quoted text, else uppercase words, else the branch, else key words', () => {
    expect(textFromPrompt('coin saying "Semper Fi" and \'Always Faithful\'')).toEqual({
      main: 'SEMPER FI',
      second: 'ALWAYS FAITHFUL',
    });
    expect(textFromPrompt('patch for the 3RD BATTALION with a skull')).toEqual({ main: '3RD BATTALION', second: null });
    expect(textFromPrompt('a coin for my navy friends')).toEqual({ main: 'U.S. NAVY', second: null });
    expect(textFromPrompt('a coin for our fire department').main).toBe('FIRE RESCUE');
    expect(textFromPrompt('a green dragon breathing fire over mountains').main).toBe('DRAGON BREATHING');
    expect(textFromPrompt('a dragon over mountains').main).toBe('DRAGON MOUNTAINS');
  });

  it('picks an emblem from keywords', () => {
    expect(emblemFromPrompt('navy coin', 0)).toBe('anchor');
    expect(emblemFromPrompt('air force wings', 0)).toBe('wings');
    expect(emblemFromPrompt('eagle over flag', 0)).toBe('eagle');
    expect(emblemFromPrompt('fire department', 0)).toBe('cross');
  });

  it('draws well-formed, deterministic SVG for every item and emblem', () => {
    const prompts = [
      'navy anchor',
      'air force wings',
      'police badge',
      'army sergeant stripes',
      'fire rescue',
      'gold stars',
      'eagle',
    ];
    for (const itemType of ['coin', 'patch', 'shirt'] as const) {
      for (const prompt of prompts) {
        const { svg } = drawOfflineDesign(prompt, itemType);
        expect(XMLValidator.validate(svg), `${itemType}: ${prompt}`).toBe(true);
        expect(drawOfflineDesign(prompt, itemType).svg).toBe(svg);
      }
    }
    expect(drawOfflineDesign('red coin', 'coin').svg).not.toBe(drawOfflineDesign('blue coin', 'coin').svg);
  });
});

describe('quote payment figures', () => {
  it('taxes the discounted subtotal, rounded to the cent, and never goes below 0', () => {
    expect(quoteFigures(750.5, 0, 0.0625)).toEqual({ taxAmount: 46.91, finalAmount: 797.41 });
    expect(quoteFigures(1000, 100, 0.06)).toEqual({ taxAmount: 54, finalAmount: 954 });
    expect(quoteFigures(999.99, 0, 0)).toEqual({ taxAmount: 0, finalAmount: 999.99 });
    expect(quoteFigures(50, 80, 0.1)).toEqual({ taxAmount: 0, finalAmount: 0 });
  });

  it('takes tax from the shipping state, else the billing state, else none', () => {
    const ship = { line1: 'a', line2: '', city: 'b', state: 'VA', postalCode: '1', country: 'US' as const };
    expect(taxPlaceOf({ shippingAddress: ship, billingAddress: { ...ship, state: 'TX' } })).toEqual({
      state: 'VA',
      country: 'US',
    });
    expect(taxPlaceOf({ billingAddress: { ...ship, state: 'TX' } })).toEqual({ state: 'TX', country: 'US' });
    expect(taxPlaceOf({})).toEqual({});
  });

  it('notes the payment date in UTC, and an amount other than the quote', () => {
    expect(paymentDate(new Date('2026-11-22T23:30:00-05:00'))).toBe('Nov 23, 2026');
    expect(paidNote(new Date('2026-11-22T10:00:00Z'), 'pi_1', 1062.5, 1062.5)).toBe(
      'Payment received on Nov 22, 2026 (payment intent pi_1)',
    );
    expect(paidNote(new Date('2026-11-22T10:00:00Z'), 'pi_1', 1062.49, 1062.5)).toMatch(
      /Amount charged \$1,062\.49 differs from the quote total \$1,062\.50\.$/,
    );
  });
});
