// Revenue from marketing (README: "revenueFromMarketing"): a paid order counts when its customer's
// email received a campaign email (delivered) within the 30 days before the payment.
export const attributionWindowDays = 30;
const day = 24 * 60 * 60_000;

/** The earliest campaign delivery time that still attributes a payment made at `paidAt`. */
export function attributionWindowStart(paidAt: Date): Date {
  return new Date(paidAt.getTime() - attributionWindowDays * day);
}

/** Period-over-period change in percent with 1 decimal; null when the earlier period had nothing to compare with. */
export function periodChange(current: number, previous: number): number | null {
  if (previous <= 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/** The last `days` days ending at `now`, and the same length before it. */
export function periods(now: Date, days = attributionWindowDays) {
  const currentStart = new Date(now.getTime() - days * day);
  return { currentStart, previousStart: new Date(currentStart.getTime() - days * day) };
}
