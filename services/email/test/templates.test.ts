// The confirmation email reads an address and a size as people do (issue 10): the ISO country code as
// the country's name (older events said "Canada"), a coin size with its label and unit.
import { describe, expect, it } from 'vitest';
import type { EventData } from '@shop/contracts';
import { adminNewOrderEmail, orderConfirmationEmail } from '../src/templates/index.js';

const order: EventData<'order.created'> = {
  orderId: 'o1',
  orderNumber: 'CC-ABC123',
  customerName: 'Jordan Lee',
  email: 'jordan@example.com',
  itemType: 'coin',
  designMethod: 'describe',
  quantity: 50,
  estimatedTotal: 1170,
  customerCategory: 'general',
  taxExempt: false,
  aiGenerated: false,
  subscribeEmail: false,
  subscribeSMS: false,
  shippingAddress: {
    line1: '1 Barrington St',
    line2: '',
    city: 'Halifax',
    state: 'NS',
    postalCode: 'B3H 1A1',
    country: 'CA',
  },
  status: 'pending_quote',
  submittedDate: new Date().toISOString(),
  size: '2',
  colors: ['Gold'],
  finish: 'antique_gold',
};

describe('order emails', () => {
  it('the new-order email names the country of the address (the code "CA" would read as California)', () => {
    for (const country of ['CA', 'Canada'] as const) {
      const { text, html } = adminNewOrderEmail(
        { ...order, shippingAddress: { ...order.shippingAddress!, country: country as 'CA' } },
        'http://127.0.0.1:8080',
      );
      for (const part of [text, html]) {
        expect(part).toContain('Halifax, NS B3H 1A1');
        expect(part).toContain('Canada');
        expect(part).not.toMatch(/\bCA\b/);
      }
    }
  });

  it('the confirmation gives the coin size its label and unit', () => {
    const { text, html } = orderConfirmationEmail(order, 'http://127.0.0.1:8080');
    expect(text).toContain('Large (2")');
    expect(html).toContain('Large (2&quot;)');
  });
});
