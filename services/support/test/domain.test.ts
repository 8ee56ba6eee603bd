// Pure rules: references, the respond-by deadline (4 business hours, 24 hours on weekends, inside the
// published weekday hours), the return window and the overdue rule.
import { describe, expect, it } from 'vitest';
import { makeReference, referencePattern } from '../src/domain/reference.js';
import { parseBusinessWindow, respondBy } from '../src/domain/respond-by.js';
import { orderNotFoundMessage, returnEligibility } from '../src/domain/return-window.js';
import { isOverdue } from '../src/domain/summary.js';

const at = (iso: string) => new Date(iso);

describe('references', () => {
  it('MSG-/RET- plus the last 6 digits of the time and a random part', () => {
    const now = at('2026-11-24T10:00:00.123Z');
    const ref = makeReference('MSG', now);
    expect(ref).toMatch(referencePattern);
    expect(ref.slice(4, 10)).toBe(String(now.getTime()).slice(-6));
    expect(makeReference('RET', now)).toMatch(/^RET-/);
    expect(new Set(Array.from({ length: 50 }, () => makeReference('MSG', now))).size).toBeGreaterThan(45);
  });
});

describe('respond-by deadline', () => {
  it('without readable hours: 4 hours on weekdays, 24 hours on weekends', () => {
    expect(respondBy(at('2026-11-24T10:00:00Z'), '')).toEqual(at('2026-11-24T14:00:00Z')); // Tuesday
    expect(respondBy(at('2026-11-28T10:00:00Z'), 'by appointment')).toEqual(at('2026-11-29T10:00:00Z')); // Saturday
  });

  it('reads the weekday hours and their zone', () => {
    expect(parseBusinessWindow('Mon-Fri 8am-6pm CT')).toEqual({ open: 480, close: 1080, offsetHours: -6 });
    expect(parseBusinessWindow('08:00 - 17:30')).toEqual({ open: 480, close: 1050, offsetHours: 0 });
    expect(parseBusinessWindow('9-5pm EST')).toEqual({ open: 540, close: 1020, offsetHours: -5 });
    expect(parseBusinessWindow('closed')).toBeUndefined();
  });

  it('counts the 4 hours inside business hours, rolling into the next business day', () => {
    // Tuesday 10:00 UTC = 04:00 CT, before opening: due 12:00 CT = 18:00 UTC.
    expect(respondBy(at('2026-11-24T10:00:00Z'), 'Mon-Fri 8am-6pm CT')).toEqual(at('2026-11-24T18:00:00Z'));
    // Tuesday 16:00 CT (22:00 UTC): 2 hours left today, 2 more from 08:00 CT Wednesday = 10:00 CT = 16:00 UTC.
    expect(respondBy(at('2026-11-24T22:00:00Z'), 'Mon-Fri 8am-6pm CT')).toEqual(at('2026-11-25T16:00:00Z'));
    // Friday 17:00 UTC with hours 9-5 UTC: 0 left, Monday 09:00 + 4 h.
    expect(respondBy(at('2026-11-27T17:00:00Z'), '9am-5pm')).toEqual(at('2026-11-30T13:00:00Z'));
  });
});

describe('return window', () => {
  const order = {
    orderNumber: 'CC-ABCDEFGH',
    email: 'pat@example.com',
    status: 'shipped',
    shippedAt: at('2026-11-01T12:00:00Z'),
  };
  it('accepts the matching email within 30 days of shipping', () => {
    expect(returnEligibility(order, ' PAT@example.com ', at('2026-11-20T00:00:00Z'))).toEqual({
      ok: true,
      closesAt: at('2026-12-01T12:00:00Z'),
    });
  });
  it('refuses an unknown order and a wrong email alike', () => {
    expect(returnEligibility(null, 'pat@example.com', at('2026-11-20T00:00:00Z'))).toEqual({
      ok: false,
      status: 404,
      message: orderNotFoundMessage,
    });
    expect(returnEligibility(order, 'other@example.com', at('2026-11-20T00:00:00Z'))).toEqual({
      ok: false,
      status: 404,
      message: orderNotFoundMessage,
    });
  });
  it('refuses an order not shipped, cancelled, or past its window', () => {
    expect(
      returnEligibility({ ...order, status: 'production', shippedAt: null }, order.email, at('2026-11-20T00:00:00Z')),
    ).toMatchObject({ ok: false, status: 400, message: expect.stringContaining('has not shipped yet') as unknown });
    expect(returnEligibility({ ...order, status: 'cancelled' }, order.email, at('2026-11-20T00:00:00Z'))).toMatchObject(
      { ok: false, message: expect.stringContaining('was cancelled') as unknown },
    );
    expect(returnEligibility(order, order.email, at('2026-12-01T12:00:01Z'))).toEqual({
      ok: false,
      status: 400,
      message: 'The 30-day return window for order CC-ABCDEFGH closed on December 1, 2026.',
    });
  });
});

describe('overdue', () => {
  const base = { status: 'open', respondBy: at('2026-11-24T14:00:00Z'), firstResponseAt: null };
  it('is unanswered, still open or in progress, and past its deadline', () => {
    expect(isOverdue(base, at('2026-11-24T14:00:01Z'))).toBe(true);
    expect(isOverdue(base, at('2026-11-24T13:59:59Z'))).toBe(false);
    expect(isOverdue({ ...base, status: 'in_progress' }, at('2026-11-25T00:00:00Z'))).toBe(true);
    expect(isOverdue({ ...base, status: 'resolved' }, at('2026-11-25T00:00:00Z'))).toBe(false);
    expect(isOverdue({ ...base, firstResponseAt: at('2026-11-24T15:00:00Z') }, at('2026-11-25T00:00:00Z'))).toBe(false);
  });
});
