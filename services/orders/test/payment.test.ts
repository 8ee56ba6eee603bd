// Quote payment, the orders side, over real HTTP and a real nats-server with the embedded MongoDB: the
// quote payments asks for over NATS, the public payment view, the payment confirmation (verified with a
// stand-in for the payments service's reply) and payment.succeeded, each marking the order paid once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shop/service-kit';
import { orderPaymentQuoteSchema, orderPaymentQuoteSubject } from '@shop/contracts';
import { coinOrder, postJson, startHarness, type Harness } from './helpers.js';

let h: Harness;
const admin = { 'x-admin-email': 'boss@shop.test' };

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

/** A new order with a quote sent: shipped to TX (6.25% in the stand-in table). */
async function quotedOrder(quoteAmount = 1000, overrides: Parameters<typeof coinOrder>[0] = {}) {
  const created = await postJson(`${h.url}/api/orders`, coinOrder(overrides));
  expect(created.status).toBe(201);
  const id = created.body.order.id as string;
  const quote = await postJson(`${h.url}/api/orders/admin/orders/${id}/quote`, { quoteAmount }, admin);
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  return { id, orderNumber: created.body.order.orderNumber as string };
}

const askQuote = (orderId: string) => h.service.ctx.bus.request(orderPaymentQuoteSubject, { orderId }, { schema: orderPaymentQuoteSchema });

describe('the quote payments asks for (NATS)', () => {
  it('answers the quote with tax and expiry, no payment yet', async () => {
    const { id, orderNumber } = await quotedOrder(1000);
    const quote = await askQuote(id);
    expect(quote).toMatchObject({ orderId: id, orderNumber, customerName: 'Jane Doe', email: 'jane.doe@example.com', status: 'quote_sent', payment: null });
    expect(quote.quote).toMatchObject({ amount: 1000, discountAmount: 0, taxRate: 0.0625, taxAmount: 62.5, finalAmount: 1062.5 });
    const validDays = (Date.parse(quote.quote!.expiresAt) - Date.now()) / (24 * 60 * 60 * 1000);
    expect(validDays).toBeGreaterThan(29.9);
    expect(validDays).toBeLessThanOrEqual(30);
  });

  it('an order without a quote answers quote null; an unknown order is refused with 404', async () => {
    const created = await postJson(`${h.url}/api/orders`, coinOrder());
    expect((await askQuote(created.body.order.id)).quote).toBeNull();
    const refusal = await askQuote('0123456789abcdef01234567').catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ statusCode: 404, message: 'Order not found' });
  });
});
