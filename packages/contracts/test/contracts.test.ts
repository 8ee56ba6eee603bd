import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  productionRetryDelayMs,
  catalog,
  createEvent,
  errorEnvelopeSchema,
  estimatedTotal,
  eventDataSchemas,
  eventStreams,
  eventSubject,
  eventTypeFilter,
  filterWithinType,
  orderStatusLabels,
  orderStatuses,
  parseEvent,
  readinessSchema,
  streamForEventType,
  trackingProgressPercent,
  usStates,
} from '../src/index.js';

const orderCreated = {
  orderId: '665f1c2e8a1b2c3d4e5f6789',
  orderNumber: 'CC-2025-000123',
  customerName: 'Jane Doe',
  email: 'jane@example.com',
  itemType: 'coin',
  designMethod: 'describe',
  quantity: 50,
  estimatedTotal: 1170,
  customerCategory: 'military',
  taxExempt: true,
  aiGenerated: false,
  subscribeEmail: false,
  subscribeSMS: false,
  shippingAddress: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
  status: 'pending_quote',
  submittedDate: '2025-01-02T03:04:05.000Z',
} as const;

describe('catalog', () => {
  it('has the three items with the spec base prices', () => {
    expect(catalog.coin).toMatchObject({ title: 'Custom Challenge Coins', basePrice: 25.99 });
    expect(catalog.shirt).toMatchObject({ title: 'Custom Tactical Shirts', basePrice: 39.99 });
    expect(catalog.patch).toMatchObject({ title: 'Custom Patches', basePrice: 12.99 });
  });

  it('knows the eleven order statuses, each with a label', () => {
    expect(orderStatuses).toHaveLength(11);
    for (const s of orderStatuses) expect(orderStatusLabels[s]).toBeTruthy();
    expect(orderStatusLabels.pending).toBe('Pending Review');
    expect(orderStatusLabels.pending_quote).toBe('Quote Pending');
  });

  it('lists the 50 states', () => {
    expect(usStates).toHaveLength(50);
    expect(new Set(usStates.map((s) => s.code)).size).toBe(50);
  });

  it('computes tracking progress over five steps, cancelled at 0%', () => {
    expect(trackingProgressPercent('pending')).toBe(20);
    expect(trackingProgressPercent('completed')).toBe(100);
    expect(trackingProgressPercent('cancelled')).toBe(0);
  });

  it('applies the volume discounts at 50 and 100 pieces', () => {
    expect(estimatedTotal('coin', 49)).toBe(Math.round(25.99 * 49));
    expect(estimatedTotal('coin', 50)).toBe(Math.round(25.99 * 50 * 0.9));
    expect(estimatedTotal('coin', 99)).toBe(Math.round(25.99 * 99 * 0.9));
    expect(estimatedTotal('coin', 100)).toBe(Math.round(25.99 * 100 * 0.8));
  });
});

describe('events', () => {
  it('builds and parses an order.created event', () => {
    const event = createEvent('order.created', 'orders', {
      ...orderCreated,
      shippingAddress: { ...orderCreated.shippingAddress, line2: '' },
    });
    expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(parseEvent('order.created', JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it('rejects event data that does not match its type, naming the field', () => {
    const bad = {
      id: crypto.randomUUID(),
      type: 'order.created',
      occurredAt: new Date().toISOString(),
      source: 'orders',
      data: { ...orderCreated, email: 'nope' },
    };
    expect(() => parseEvent('order.created', bad)).toThrow(/email/);
  });

  it('maps every event type to exactly one stream', () => {
    for (const type of Object.keys(eventDataSchemas))
      expect(Object.keys(eventStreams)).toContain(streamForEventType(type));
    expect(streamForEventType('order.status_changed')).toBe('ORDERS');
    expect(() => streamForEventType('unknown.thing')).toThrow(/No stream/);
  });

  it("publishes email.sent under its audience's subject, every other event on its type", () => {
    const sent = { emailId: 'e', to: 'a@example.com', subject: 's', sentAt: new Date().toISOString() };
    expect(eventSubject('email.sent', { ...sent, template: 'order_confirmation', orderId: 'o' })).toBe(
      'email.sent.order',
    );
    // The team's notice about an order is not the order's customer email.
    expect(eventSubject('email.sent', { ...sent, template: 'admin_new_order', orderId: 'o' })).toBe('email.sent.team');
    expect(eventSubject('email.sent', { ...sent, template: 'campaign', campaignId: 'c', subscriberId: 's' })).toBe(
      'email.sent.campaign',
    );
    expect(eventSubject('email.sent', { ...sent, template: 'verification_code' })).toBe('email.sent.other');
    expect(eventSubject('order.created', orderCreated as never)).toBe('order.created');
    expect(eventTypeFilter('email.sent')).toBe('email.sent.>');
    expect(eventTypeFilter('email.failed')).toBe('email.failed');
    for (const type of Object.keys(eventDataSchemas) as (keyof typeof eventDataSchemas)[]) {
      const stream = eventStreams[streamForEventType(type)];
      // Every subject an event can go out on is one its stream holds.
      expect(stream.subjects.some((s) => eventTypeFilter(type).startsWith(s.slice(0, -1)))).toBe(true);
    }
    expect(filterWithinType('email.sent', 'email.sent.order')).toBe(true);
    expect(filterWithinType('email.sent', 'email.sent')).toBe(true);
    expect(filterWithinType('email.sent', 'email.failed')).toBe(false);
    expect(filterWithinType('email.sent', 'email.sentx')).toBe(false);
    expect(filterWithinType('email.sent', 'email.sent.')).toBe(false);
  });
});

describe('http shapes', () => {
  it('accepts the error envelope and refuses a lowercase code', () => {
    expect(
      errorEnvelopeSchema.safeParse({ error: 'Order not found', code: 'NOT_FOUND', requestId: 'r1' }).success,
    ).toBe(true);
    expect(errorEnvelopeSchema.safeParse({ error: 'x', code: 'not_found' }).success).toBe(false);
  });

  it('describes readiness', () => {
    expect(readinessSchema.parse({ status: 'not_ready', checks: { mongo: 'up', nats: 'down' } }).checks.nats).toBe(
      'down',
    );
  });
});

describe('back-off', () => {
  it('doubles from the base before each attempt, capped, and never overflows however long it fails', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, 250, 3_000))).toEqual([250, 500, 1_000, 2_000, 3_000]);
    expect(backoffDelayMs(0, 250, 3_000)).toBe(250);
    expect(backoffDelayMs(100_000, 250, 30_000)).toBe(30_000);
    // The production page's retries (admin §8): 1 s, 2 s, 4 s, then 5 s.
    expect([1, 2, 3, 4].map(productionRetryDelayMs)).toEqual([1_000, 2_000, 4_000, 5_000]);
  });
});
