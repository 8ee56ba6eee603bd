// The "respond by" deadline of a support message (storefront §9: a reply within 4 hours in business
// hours, within 24 hours on weekends), placed with the support hours an administrator publishes in the
// contact config. The hours are free text ("Mon-Fri 8am-6pm CT"); when a time range can be read from
// the weekday hours, the 4 hours count inside that window (a message at 5pm is due 3 hours into the
// next business day); otherwise, and on weekends, the clock hours of the promise apply.
import { supportResponseHours } from '@shop/contracts';

const hour = 60 * 60_000;

/** US zone abbreviations an admin may write, as UTC offsets in hours (standard time; DST is ignored). */
const zoneOffsets: Record<string, number> = {
  ET: -5,
  EST: -5,
  EDT: -4,
  CT: -6,
  CST: -6,
  CDT: -5,
  MT: -7,
  MST: -7,
  MDT: -6,
  PT: -8,
  PST: -8,
  PDT: -7,
  UTC: 0,
  GMT: 0,
};

export interface BusinessWindow {
  /** Opening and closing, minutes after local midnight. */
  open: number;
  close: number;
  /** Offset of the local time from UTC, in hours. */
  offsetHours: number;
}

function minutesOf(h: string, m: string | undefined, meridiem: string | undefined): number {
  let hours = Number(h);
  const mer = meridiem?.toLowerCase();
  if (mer === 'pm' && hours < 12) hours += 12;
  if (mer === 'am' && hours === 12) hours = 0;
  return hours * 60 + Number(m ?? 0);
}

/** Reads "8am-6pm CT", "08:00 - 18:00", "9:30 AM to 5 PM EST"; undefined when no range is there. */
export function parseBusinessWindow(text: string): BusinessWindow | undefined {
  const match = /(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\s*(?:-|–|to)\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm)?/i.exec(text);
  if (!match) return undefined;
  const [, h1, m1, mer1, h2, m2, mer2] = match;
  const open = minutesOf(
    h1,
    m1,
    mer1 ?? (mer2?.toLowerCase() === 'pm' && Number(h1) < Number(h2) ? 'pm' : mer2 ? 'am' : undefined),
  );
  const close = minutesOf(h2, m2, mer2);
  if (!(open >= 0 && close <= 24 * 60 && open < close)) return undefined;
  const zone = /\b(E[SD]?T|C[SD]?T|M[SD]?T|P[SD]?T|UTC|GMT)\b/.exec(text)?.[1];
  return { open, close, offsetHours: zone ? zoneOffsets[zone] : 0 };
}

const isWeekend = (localDay: number) => localDay === 0 || localDay === 6;

/** The deadline of the response promise for a message sent at `submitted`. */
export function respondBy(submitted: Date, weekdayHours: string | undefined): Date {
  const window = weekdayHours ? parseBusinessWindow(weekdayHours) : undefined;
  const offset = (window?.offsetHours ?? 0) * hour;
  const local = new Date(submitted.getTime() + offset);
  if (isWeekend(local.getUTCDay())) return new Date(submitted.getTime() + supportResponseHours.weekend * hour);
  if (!window) return new Date(submitted.getTime() + supportResponseHours.businessHours * hour);

  // Walk business minutes forward from the submission, skipping nights and weekends.
  let remaining = supportResponseHours.businessHours * 60;
  const day = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()));
  let minute = local.getUTCHours() * 60 + local.getUTCMinutes() + local.getUTCSeconds() / 60;
  for (let guard = 0; guard < 14; guard++) {
    if (!isWeekend(day.getUTCDay())) {
      const start = Math.max(minute, window.open);
      const available = Math.max(0, window.close - start);
      if (available >= remaining) return new Date(day.getTime() + (start + remaining) * 60_000 - offset);
      remaining -= available;
    }
    day.setUTCDate(day.getUTCDate() + 1);
    minute = 0;
  }
  return new Date(submitted.getTime() + supportResponseHours.weekend * hour);
}
