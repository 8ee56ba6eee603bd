// Privacy requests (issue 16): the anonymous address must pass every event's email check (orders keep
// publishing events about an erased customer's orders), the email pattern matches one address in any
// case and nothing else, and the erasure dialog's schema wants the customer's own email and a reason.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  customerErasureFormSchema,
  customerErasureRequestedData,
  erasedEmailFor,
  isErasedEmail,
  orderStatusChangedData,
  sameEmailPattern,
  streamForEventType,
} from '../src/index.js';

describe('privacy contracts', () => {
  it('gives an anonymous address that events accept and that is recognised as erased', () => {
    const erasureId = randomUUID();
    const anonymous = erasedEmailFor(erasureId);
    expect(isErasedEmail(anonymous)).toBe(true);
    expect(isErasedEmail('dana@example.com')).toBe(false);
    const status = orderStatusChangedData.safeParse({
      orderId: 'o1',
      orderNumber: 'CC-1',
      customerName: 'Erased customer',
      email: anonymous,
      itemType: 'coin',
      previousStatus: 'pending',
      status: 'paid',
      changedBy: 'admin',
      changedAt: new Date().toISOString(),
    });
    expect(status.success).toBe(true);
    const erasure = customerErasureRequestedData.parse({
      erasureId,
      customerId: 'c1',
      email: 'dana@example.com',
      anonymisedEmail: anonymous,
      orderIds: [],
      orderNumbers: [],
      requestedBy: 'admin:a@shop.test',
      requestedAt: new Date().toISOString(),
    });
    expect(erasure.phones).toEqual([]);
    expect(streamForEventType('privacy.erasure_requested')).toBe('PRIVACY');
  });

  it('matches one address in any case, with its dots and plus taken literally', () => {
    const re = sameEmailPattern(' Dana.P+shop@Example.com ');
    expect(re.test('dana.p+shop@example.com')).toBe(true);
    expect(re.test('DANA.P+SHOP@EXAMPLE.COM')).toBe(true);
    expect(re.test('danaXp+shop@example.com')).toBe(false);
    expect(re.test('x.dana.p+shop@example.com')).toBe(false);
    expect(re.test('dana.p+shop@example.com.evil')).toBe(false);
  });

  it("wants the customer's own email typed again, and a reason", () => {
    const form = customerErasureFormSchema('dana@example.com');
    expect(form.safeParse({ confirmEmail: ' DANA@example.com ', reason: 'Asked by email' }).success).toBe(true);
    const wrong = form.safeParse({ confirmEmail: 'sam@example.com', reason: 'Asked by email' });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]).toMatchObject({
      path: ['confirmEmail'],
      message: "The email does not match this customer's email",
    });
    const noReason = form.safeParse({ confirmEmail: 'dana@example.com', reason: '  ' });
    expect(noReason.error?.issues.map((i) => i.path[0])).toEqual(['reason']);
  });
});
