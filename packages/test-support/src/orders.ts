// Order bodies the way the storefront builds them, shared by every service test that places an order
// (orders' own tests, and payments' tests that place orders through the real orders service).
import { randomUUID } from 'node:crypto';
import type { EventData, OrderRequest } from '@shop/contracts';

/** A customer's custom coin quote request (Texas address, so it is taxed); `overrides` change any field. */
export function coinOrder(overrides: Partial<OrderRequest> = {}): OrderRequest {
  return {
    customerName: 'Jane Doe',
    email: 'jane.doe@example.com',
    phone: '555-0100',
    itemType: 'coin',
    designMethod: 'describe',
    description: 'An eagle over crossed rifles with our unit motto',
    quantity: 50,
    size: '2',
    colors: ['Gold', 'Blue'],
    finish: 'antique_gold',
    shape: 'Round',
    edge: 'rope',
    features: ['Enamel Fill'],
    estimatedTotal: 1170,
    files: [],
    aiGenerated: false,
    subscribeEmail: true,
    subscribeSMS: false,
    shippingAddress: { line1: '1 Main St', line2: '', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    customerCategory: 'general',
    taxExempt: false,
    ...overrides,
  };
}

/**
 * The data of an `order.created` event as the orders service publishes it for a military customer's coin
 * quote request submitted now: a fresh order id and number each call; `overrides` change any field.
 */
export function orderCreatedData(overrides: Partial<EventData<'order.created'>> = {}): EventData<'order.created'> {
  const orderId = randomUUID();
  return {
    orderId,
    orderNumber: `CC-${orderId.slice(0, 8).toUpperCase()}`,
    customerName: 'Jordan Lee',
    email: `buyer-${orderId.slice(0, 8)}@example.com`,
    phone: '555-0100',
    itemType: 'coin',
    designMethod: 'describe',
    quantity: 50,
    estimatedTotal: 1170,
    customerCategory: 'military',
    taxExempt: false,
    aiGenerated: false,
    subscribeEmail: false,
    subscribeSMS: false,
    status: 'pending_quote',
    submittedDate: new Date().toISOString(),
    ...overrides,
  };
}
