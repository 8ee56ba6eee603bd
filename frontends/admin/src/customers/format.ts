// Dates and status badge tones of the customer screens (design notes: dates in en-US, as people read them).
import type { CustomerStatus } from '@shop/contracts';

export const shortDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

export const statusTone = { vip: 'brass', active: 'ok', inactive: 'neutral' } as const satisfies Record<
  CustomerStatus,
  string
>;
