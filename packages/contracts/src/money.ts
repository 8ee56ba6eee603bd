// The shop's one money formatter (DESIGN.md: thousands separator and 2 decimals, en-US, USD). Amounts are
// dollars here; integer cents inside services are divided at the edge before formatting.
//
// Written out instead of Intl.NumberFormat: a page's first Intl object initialises ICU on the thread
// that asks, 70-330 ms in the Chromium the shop is measured with, and the storefront's home page formats
// prices in its first render (issue 20, Total Blocking Time). The output is Intl's en-US USD format
// (test/money.test.ts compares the two).

/** 2400 -> "$2,400.00"; -12.5 -> "-$12.50". */
export function formatMoney(dollars: number): string {
  const sign = dollars < 0 || Object.is(dollars, -0) ? '-' : '';
  if (Number.isNaN(dollars)) return '$NaN';
  if (!Number.isFinite(dollars)) return `${sign}$∞`;
  const [whole, cents] = toCents(Math.abs(dollars));
  return `${sign}$${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${cents}`;
}

/**
 * A non-negative amount rounded to cents as Intl rounds it: the shortest decimal that reads back as the
 * number (0.015, not the binary 0.01499...), half away from zero.
 */
function toCents(amount: number): [whole: string, cents: string] {
  const text = String(amount);
  // Exponent notation: below a millionth (rounds to nothing) or at least 1e21 (a whole number).
  if (text.includes('e')) return amount < 1 ? ['0', '00'] : [BigInt(amount).toString(), '00'];
  const [intPart, fraction = ''] = text.split('.');
  let inCents = BigInt(intPart + (fraction + '00').slice(0, 2));
  if ((fraction[2] ?? '0') >= '5') inCents += 1n;
  const digits = inCents.toString().padStart(3, '0');
  return [digits.slice(0, -2), digits.slice(-2)];
}

/** Integer cents as money: 240000 -> "$2,400.00". */
export const formatCents = (cents: number): string => formatMoney(cents / 100);
