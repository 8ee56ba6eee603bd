// The references visitors quote (storefront §9): MSG- and RET- plus the last 6 digits of the time.
// Six digits of milliseconds repeat every 16.7 minutes, so the server adds 4 random characters (an
// alphabet without look-alikes) and the collections keep the reference unique: the visitor still reads
// the spec's prefix and time digits, and two messages never share one.
import { randomInt } from 'node:crypto';

const alphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

export type ReferencePrefix = 'MSG' | 'RET';

export function makeReference(prefix: ReferencePrefix, now: Date = new Date()): string {
  const digits = String(now.getTime()).slice(-6).padStart(6, '0');
  let tail = '';
  for (let i = 0; i < 4; i++) tail += alphabet[randomInt(alphabet.length)];
  return `${prefix}-${digits}-${tail}`;
}

export const referencePattern = /^(MSG|RET)-\d{6}-[2-9A-HJ-NP-Z]{4}$/;
