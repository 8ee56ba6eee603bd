// Numbers and dates as people read them (DESIGN.md, spec §9): dates in en-US, file sizes in MB with 2
// decimals, percentages with 1 decimal. Money is the shop's one formatter, formatMoney from
// @shop/contracts (thousands separator and 2 decimals), imported from there directly.
const dateShort = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const dateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

export const formatDate = (iso: string | null | undefined) => (iso ? dateShort.format(new Date(iso)) : '—');
export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatPercent = (value: number) => `${value.toFixed(1)}%`;
/** A tax rate fraction in full: 0.0625 -> "6.25%" (one decimal would misstate it). */
export const formatTaxRate = (fraction: number) => `${Number((fraction * 100).toFixed(3))}%`;
/** A signed change, e.g. "+12.5%" or "-3.0%". */
export const formatChange = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;
/** "ai_generated" -> "ai generated" (spec: design method with underscores shown as spaces). */
export const spaced = (value: string) => value.replaceAll('_', ' ');
