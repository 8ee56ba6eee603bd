// The shop's one money formatter (DESIGN.md: thousands separator and 2 decimals, en-US, USD). Amounts are
// dollars here; integer cents inside services are divided at the edge before formatting.
const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** 2400 -> "$2,400.00"; -12.5 -> "-$12.50". */
export const formatMoney = (dollars: number): string => usd.format(dollars);

/** Integer cents as money: 240000 -> "$2,400.00". */
export const formatCents = (cents: number): string => usd.format(cents / 100);
