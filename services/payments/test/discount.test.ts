// A discount applied after the customer opened the payment page (issue 13), with the real orders,
// payments and marketing services: the intent made for the old total is never charged (canceled when the
// total changes; 409 if the page confirms it), the next Pay gets an intent for the new total, and the
// payment view shows the discount.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  paymentPaths,
  toCents,
  type AdminOrderResponse,
  type ErrorEnvelope,
  type TestModeConfirmResponse,
} from '@shop/contracts';
import { buildApp as buildMarketing } from '../../marketing/src/app.js';
import { loadConfig as marketingConfig } from '../../marketing/src/config.js';
import { intentCanceledNote } from '../src/providers/test-mode.js';
import { amountChangedMessage } from '../src/routes/test-mode.js';
import { admin, createIntent, parseIntent, quotedOrder, send, useHarness } from './support/harness.js';

const h = useHarness();
let marketing: Awaited<ReturnType<typeof buildMarketing>>;

beforeAll(async () => {
  marketing = await buildMarketing(
    marketingConfig({ PORT: '0', MONGO_URL: h.mongo.uri, NATS_URL: h.nats.url, LOG_LEVEL: 'silent' }),
  );
  await marketing.start();
});

afterAll(async () => {
  // Bounded: marketing's jobs and consumers are not under test here.
  await Promise.race([marketing?.stop(), new Promise((r) => setTimeout(r, 15_000))]);
});

const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' };
const confirm = (id: string, clientSecret: string) =>
  send<Partial<TestModeConfirmResponse> & Partial<ErrorEnvelope>>(
    'POST',
    `${h.paymentsUrl}${paymentPaths.testModeConfirm}`,
    { paymentIntentId: id, clientSecret, card, billingDetails: { name: 'Jane Doe', email: 'jane.doe@example.com' } },
  );

describe('a discount after the payment page was opened', () => {
  it('refuses the old intent, charges the new total with a new one, and the page shows the discount', async () => {
    const order = await quotedOrder(h, 400);
    const before = parseIntent((await createIntent(h, order)).body);
    expect(before.amount).toBe(42500); // 400 + 6.25% TX

    const created = await marketing.app.inject({
      method: 'POST',
      url: '/api/marketing/discounts',
      headers: admin,
      payload: { code: 'PAYLATER40', category: 'general', description: 'x', type: 'fixed', value: 40 },
    });
    expect(created.statusCode).toBe(201);
    const applied = await send<AdminOrderResponse>(
      'POST',
      `${h.ordersUrl}/api/orders/${order.id}/discount`,
      { discountCode: 'PAYLATER40', customerCategory: 'general' },
      admin,
    );
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    // (400 - 40) x 1.0625 = 382.50
    expect(applied.body.order).toMatchObject({ discountAmount: 40, finalAmount: 382.5 });

    const stale = await confirm(before.id, before.client_secret);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(amountChangedMessage);
    expect(await h.payments.ctx.models.PaymentIntent.findById(before.id).lean()).toMatchObject({ status: 'canceled' });

    const view = await send<AdminOrderResponse>('GET', `${h.ordersUrl}/api/orders/${order.id}`);
    expect(view.body.order).toMatchObject({
      quoteAmount: 400,
      discountAmount: 40,
      taxAmount: 22.5,
      finalAmount: 382.5,
    });

    const after = parseIntent((await createIntent(h, order)).body);
    expect(after.id).not.toBe(before.id);
    expect(after.amount).toBe(toCents(382.5));
    const paid = await confirm(after.id, after.client_secret);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.paymentIntent).toMatchObject({ status: 'succeeded', amount: 38250 });
  });

  it('cancels the old intent as soon as the total changes, and it stays unpayable when the total changes back', async () => {
    const order = await quotedOrder(h, 200);
    const before = parseIntent((await createIntent(h, order)).body);
    expect(before.amount).toBe(21250);
    const created = await marketing.app.inject({
      method: 'POST',
      url: '/api/marketing/discounts',
      headers: admin,
      payload: { code: 'BACKAGAIN', category: 'general', description: 'x', type: 'percentage', value: 10 },
    });
    expect(created.statusCode).toBe(201);
    expect(
      (await send('POST', `${h.ordersUrl}/api/orders/${order.id}/discount`, { discountCode: 'BACKAGAIN' }, admin))
        .status,
    ).toBe(200);

    // order.total_changed reaches payments: canceled without anyone touching the page.
    const { PaymentIntent } = h.payments.ctx.models;
    const deadline = Date.now() + 20_000;
    while ((await PaymentIntent.findById(before.id).lean())?.status !== 'canceled' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await PaymentIntent.findById(before.id).lean()).toMatchObject({
      status: 'canceled',
      lastError: intentCanceledNote,
    });

    // Removing the discount brings back the old total: the canceled intent is still never charged.
    expect((await send('DELETE', `${h.ordersUrl}/api/orders/${order.id}/discount`, undefined, admin)).status).toBe(200);
    const stale = await confirm(before.id, before.client_secret);
    expect(stale).toMatchObject({ status: 409, body: { error: amountChangedMessage, code: 'AMOUNT_CHANGED' } });
    expect((await PaymentIntent.findById(before.id).lean())?.attempts).toEqual([]);

    const again = parseIntent((await createIntent(h, order)).body);
    expect(again.id).not.toBe(before.id);
    expect(again.amount).toBe(21250);
    expect((await confirm(again.id, again.client_secret)).status).toBe(200);
  });
});
