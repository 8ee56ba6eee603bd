// The money formatter writes what Intl's en-US USD format writes (money.ts says why it does not use it).
import { describe, expect, it } from 'vitest';
import { formatCents, formatMoney } from '../src/money.js';

const intl = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

describe('formatMoney', () => {
  it('writes amounts as the shop shows them', () => {
    expect(formatMoney(2400)).toBe('$2,400.00');
    expect(formatMoney(-12.5)).toBe('-$12.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(1234567.891)).toBe('$1,234,567.89');
    expect(formatCents(240000)).toBe('$2,400.00');
  });

  it("agrees with Intl's en-US USD format, rounding and edges included", () => {
    const edges = [
      0,
      -0,
      0.005,
      0.015,
      0.125,
      1.005,
      1.155,
      0.285,
      2.675,
      999.995,
      999.994,
      1000,
      99999.999,
      1e15,
      123456789.5,
      -0.001,
      -0.005,
      -1234.565,
      1e-7,
      Number.MAX_SAFE_INTEGER,
      NaN,
      Infinity,
      -Infinity,
    ];
    let seed = 20;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const randoms = Array.from({ length: 5000 }, (_, i) => (random() - 0.3) * 10 ** (i % 9));
    const cents = Array.from({ length: 2000 }, (_, i) => (i * 7919 + 5) / 1000);
    for (const amount of [...edges, ...randoms, ...cents])
      expect(formatMoney(amount), String(amount)).toBe(intl.format(amount));
  });
});
