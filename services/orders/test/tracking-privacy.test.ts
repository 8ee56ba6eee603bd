// Customer-facing answers carry no payment provider ids: the tracking timeline of a paid order says the
// payment was received, while the back office keeps the intent id in the status history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackResponseSchema, type CreateOrderResponse } from '@shop/contracts';
import { customerNote } from '../src/domain/tracking.js';
import { coinOrder, postJson, startHarness, type Harness } from './helpers.js';
import { adminHeaders } from '@shop/service-kit/testing';

let h: Harness;
const admin = adminHeaders('boss@shop.test');

beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

describe('provider ids stay out of customer answers', () => {
  it('the tracking timeline and the order history of a paid order do not show the payment intent id', async () => {
    const intent = 'pi_test_Zq81LmXc0PqRsT9uVw2YxA3b';
    const created = await postJson<CreateOrderResponse>(`${h.url}/api/orders`, coinOrder());
    expect(created.status).toBe(201);
    const { id, orderNumber } = created.body.order;
    expect((await postJson(`${h.url}/api/orders/${id}/generate-quote`, { quoteAmount: 1000 }, admin)).status).toBe(200);
    h.payments.verified.set(intent, {
      verified: true,
      paymentIntentId: intent,
      orderId: id,
      amount: 106250,
      status: 'succeeded',
      provider: 'test_mode',
      paidAt: '2026-11-22T10:15:00.000Z',
    });
    const paid = await fetch(`${h.url}/api/orders/${id}/status`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'paid', paymentIntentId: intent }),
    });
    expect(paid.status).toBe(200);

    // The team still sees the intent in the stored history.
    const stored = (await h.service.ctx.models.Order.findById(id).lean())!;
    expect(stored.statusHistory.at(-1)!.note).toContain(intent);

    const track = await fetch(`${h.url}/api/orders/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderNumber, email: 'jane.doe@example.com' }),
    });
    const text = await track.text();
    expect(track.status, text).toBe(200);
    expect(text).not.toContain(intent);
    expect(text).not.toMatch(/\bpi_/);
    const order = trackResponseSchema.parse(JSON.parse(text)).order;
    expect(order.timeline.find((e) => e.status === 'paid')?.note).toBe('Payment received on Nov 22, 2026');

    const other = await postJson<CreateOrderResponse>(`${h.url}/api/orders`, coinOrder());
    expect(other.status).toBe(201);
    const history = await fetch(`${h.url}/api/orders/history`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderNumber: other.body.order.orderNumber, email: 'jane.doe@example.com' }),
    });
    const historyText = await history.text();
    expect(history.status, historyText).toBe(200);
    expect(historyText).toContain(orderNumber);
    expect(historyText).not.toContain(intent);

    const view = await fetch(`${h.url}/api/orders/${id}`);
    expect(await view.text()).not.toContain(intent);
  });

  it('customerNote removes Stripe and test-mode ids and keeps the rest of the sentence', () => {
    expect(
      customerNote(
        'Payment received on Nov 21, 2026 (payment intent pi_3NabcDEF123). Amount charged $1000.00 differs from the quote total $1062.50.',
      ),
    ).toBe('Payment received on Nov 21, 2026. Amount charged $1000.00 differs from the quote total $1062.50.');
    expect(customerNote('Refund ch_3Nxyz789 issued')).toBe('Refund issued');
    expect(customerNote('Quote sent: $2,400.00')).toBe('Quote sent: $2,400.00');
  });
});
