// Quote requests, idempotency, order.created through a real JetStream consumer, tracking and history,
// over real HTTP against the service on the embedded MongoDB and a real nats-server.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  parseEvent,
  trackMissingFieldsMessage,
  trackOrderNotFoundMessage,
  trackResponseSchema,
  type AnyEventEnvelope,
  type CreateOrderResponse,
  type Failure,
  type HistoryResponse,
  type OrderRequest,
  type TrackResponse,
} from '@shop/contracts';
import { coinOrder, orderEventsReader, postJson, shirtOrder, startHarness, type Harness } from './helpers.js';
import { orderNumberPattern } from '../src/domain/order-number.js';

let h: Harness;
let nc: NatsConnection;

beforeAll(async () => {
  h = await startHarness();
  nc = await connect({ servers: h.nats.url });
});

afterAll(async () => {
  await nc?.close();
  await h?.stop();
});

/** A customer's order request; the answer typed as the created order unless the test expects a refusal (Failure). */
const order = <Body = CreateOrderResponse>(body: unknown, headers: Record<string, string> = {}) =>
  postJson<Body>(`${h.url}/api/orders`, body, headers);

async function expectRejected(body: unknown, field: string, message: RegExp) {
  const res = await order<Failure>(body);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
  expect(res.body.error).toMatch(/^Please check your order: /);
  const problem = (res.body.details as { field: string; message: string }[]).find((d) => d.field === field);
  expect(problem, `no problem reported for ${field}: ${JSON.stringify(res.body.details)}`).toBeDefined();
  expect(problem!.message).toMatch(message);
  return res;
}

describe('POST /api/orders', () => {
  it('stores a coin quote request as Quote Pending with a readable order number', async () => {
    const res = await order(coinOrder());
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.order).toMatchObject({
      status: 'pending_quote',
      statusLabel: 'Quote Pending',
      itemType: 'coin',
      quantity: 50,
      estimatedTotal: 1170,
    });
    expect(res.body.order.orderNumber).toMatch(orderNumberPattern);
    expect(res.body.order.orderNumber.startsWith('CC-')).toBe(true);
    const stored = await h.service.ctx.models.Order.findById(res.body.order.id).lean();
    expect(stored).toMatchObject({
      email: 'jane.doe@example.com',
      emailKey: 'jane.doe@example.com',
      status: 'pending_quote',
      taxExempt: false,
    });
    expect(stored!.statusHistory).toHaveLength(1);
    expect(stored!.statusHistory[0]).toMatchObject({ status: 'pending_quote' });
    expect(stored!.quote).toBeNull();
  });

  it('prefixes patch and shirt numbers PT- and TS-', async () => {
    const patch = await order(
      coinOrder({
        itemType: 'patch',
        size: '3x3',
        finish: 'embroidered',
        shape: undefined,
        edge: undefined,
        features: [],
      }),
    );
    expect(patch.status, JSON.stringify(patch.body)).toBe(201);
    expect(patch.body.order.orderNumber).toMatch(/^PT-/);
    const shirt = await order(shirtOrder());
    expect(shirt.status, JSON.stringify(shirt.body)).toBe(201);
    expect(shirt.body.order.orderNumber).toMatch(/^TS-/);
  });

  it('recomputes the estimate itself at the pricing edges 49, 50, 99, 100 (never the browser figure)', async () => {
    // 25.99 x q, 10% off from 50, 20% off from 100, whole dollars.
    const expected: Record<number, number> = { 49: 1274, 50: 1170, 99: 2316, 100: 2079 };
    for (const [quantity, total] of Object.entries(expected)) {
      const res = await order(coinOrder({ quantity: Number(quantity), estimatedTotal: 1 }));
      expect(res.status).toBe(201);
      expect(res.body.order.estimatedTotal, `quantity ${quantity}`).toBe(total);
      const stored = await h.service.ctx.models.Order.findById(res.body.order.id).lean();
      expect(stored!.browserEstimatedTotal).toBe(1);
    }
  });

  it('accepts quantity 1 and 10000, refuses 0, 10001, fractions and text', async () => {
    expect((await order(coinOrder({ quantity: 1 }))).body.order.estimatedTotal).toBe(26);
    expect((await order(coinOrder({ quantity: 10000 }))).body.order.estimatedTotal).toBe(207920);
    await expectRejected(coinOrder({ quantity: 0 }), 'quantity', /at least 1/);
    await expectRejected(coinOrder({ quantity: 10001 }), 'quantity', /at most 10000/);
    await expectRejected(coinOrder({ quantity: 2.5 }), 'quantity', /whole number/);
    await expectRejected({ ...coinOrder(), quantity: 'fifty' }, 'quantity', /number/);
  });

  it('needs a description of 5 to 1000 characters after trimming', async () => {
    await expectRejected(coinOrder({ description: '   abcd   ' }), 'description', /at least 5 characters/);
    expect((await order(coinOrder({ description: '  abcde  ' }))).status).toBe(201);
    expect((await order(coinOrder({ description: 'x'.repeat(1000) }))).status).toBe(201);
    await expectRejected(coinOrder({ description: 'x'.repeat(1001) }), 'description', /at most 1000 characters/);
  });

  it('needs at least one file for an upload order (storefront §5), whatever the description says', async () => {
    await expectRejected(
      coinOrder({ designMethod: 'upload', description: '', files: [] }),
      'files',
      /^Please upload at least one file$/,
    );
    await expectRejected(
      coinOrder({ designMethod: 'upload', description: 'A long enough description', files: [] }),
      'files',
      /upload at least one file/,
    );
    await expectRejected(
      { ...coinOrder({ designMethod: 'upload' }), files: undefined },
      'files',
      /upload at least one file/,
    );
  });

  it('checks sizes: one from the list for coins and patches, a per-size count summing to the quantity for shirts', async () => {
    await expectRejected(coinOrder({ size: undefined }), 'size', /choose a size/);
    await expectRejected(coinOrder({ size: '9' }), 'size', /not offered/);
    await expectRejected(shirtOrder({ sizeBreakdown: {}, quantity: 1 }), 'sizeBreakdown', /at least one shirt/);
    await expectRejected(shirtOrder({ sizeBreakdown: { M: 0 }, quantity: 1 }), 'sizeBreakdown', /at least one shirt/);
    await expectRejected(shirtOrder({ quantity: 13 }), 'quantity', /sum of the shirt size counts \(12\)/);
    await expectRejected({ ...shirtOrder(), sizeBreakdown: { XS: 1 }, quantity: 1 }, 'sizeBreakdown', /XS/);
    const ok = await order(shirtOrder({ sizeBreakdown: { S: 1, M: 0, XXXL: 2 }, quantity: 3 }));
    expect(ok.status).toBe(201);
    expect(ok.body.order.estimatedTotal).toBe(120); // 39.99 x 3
    const stored = await h.service.ctx.models.Order.findById(ok.body.order.id).lean();
    expect(stored!.sizeBreakdown).toEqual({ S: 1, XXXL: 2 });
  });

  it('needs at least one offered color and a finish', async () => {
    await expectRejected(coinOrder({ colors: [] }), 'colors', /at least one color/);
    await expectRejected(coinOrder({ colors: ['Plaid'] }), 'colors.0', /not offered/);
    await expectRejected(coinOrder({ finish: '' }), 'finish', /choose a finish/);
    await expectRejected(coinOrder({ finish: 'embroidered' }), 'finish', /not offered/);
    await expectRejected(coinOrder({ features: ['Laser Beams'] }), 'features.0', /not offered/);
  });

  it("checks the shipping address: required fields, postal code up to 10 in its country's format, US or Canada, a state or province", async () => {
    const address = coinOrder().shippingAddress!;
    expect((await order(coinOrder({ shippingAddress: { ...address, postalCode: '12345-6789' } }))).status).toBe(201);
    await expectRejected(
      coinOrder({ shippingAddress: { ...address, postalCode: '1234567890' } }),
      'shippingAddress.postalCode',
      /ZIP code must be 5 digits/,
    );
    await expectRejected(
      coinOrder({ shippingAddress: { ...address, postalCode: '12345678901' } }),
      'shippingAddress.postalCode',
      /at most 10/,
    );
    await expectRejected(
      coinOrder({ shippingAddress: { ...address, line1: '  ' } }),
      'shippingAddress.line1',
      /Address line 1 is required/,
    );
    await expectRejected(
      coinOrder({ shippingAddress: { ...address, city: '' } }),
      'shippingAddress.city',
      /City is required/,
    );
    await expectRejected(
      { ...coinOrder(), shippingAddress: { ...address, country: 'Mexico' } },
      'shippingAddress.country',
      /US or Canada/,
    );
    await expectRejected(
      coinOrder({ shippingAddress: { ...address, state: 'XX' } }),
      'shippingAddress.state',
      /50 US states/,
    );
    expect(
      (
        await order(
          coinOrder({
            shippingAddress: { ...address, city: 'Ottawa', state: 'ON', postalCode: 'K1A 0B1', country: 'CA' },
          }),
        )
      ).status,
    ).toBe(201);
    // Orders written before the ISO codes said "Canada": still accepted.
    expect(
      (
        await order(
          coinOrder({
            shippingAddress: { ...address, city: 'Ottawa', state: 'ON', postalCode: 'K1A 0B1', country: 'Canada' },
          }),
        )
      ).status,
    ).toBe(201);
    await expectRejected(
      coinOrder({
        shippingAddress: { ...address, city: 'Halifax', state: 'AL', postalCode: 'B3H 1A1', country: 'CA' },
      }),
      'shippingAddress.state',
      /Canadian provinces or territories/,
    );
    await expectRejected(
      coinOrder({ shippingAddress: { ...address, city: 'Halifax', state: 'NS', postalCode: '36104', country: 'CA' } }),
      'shippingAddress.postalCode',
      /A1A 1A1/,
    );
    await expectRejected(coinOrder({ shippingAddress: undefined }), 'shippingAddress', /Shipping address is required/);
  });

  it('needs a name and a well-formed email; SMS needs a phone', async () => {
    await expectRejected(coinOrder({ email: 'not-an-email' }), 'email', /valid email/);
    await expectRejected(coinOrder({ customerName: ' ' }), 'customerName', /Customer name is required/);
    await expectRejected(coinOrder({ phone: undefined, subscribeSMS: true }), 'subscribeSMS', /phone/);
  });

  it('sets taxExempt from the military category, whatever the browser says', async () => {
    const military = await order(coinOrder({ customerCategory: 'military', taxExempt: false }));
    expect(military.body.order.taxExempt).toBe(true);
    const general = await order(coinOrder({ customerCategory: 'general', taxExempt: true }));
    expect(general.body.order.taxExempt).toBe(false);
  });

  it('accepts the customizer reduced variant and prices it with the customizer rule', async () => {
    const body: OrderRequest = {
      customerName: 'Sam Rivera',
      email: 'sam@example.com',
      itemType: 'coin',
      designMethod: 'ai',
      description: 'Eagle with "FIRST IN" on a gold coin',
      quantity: 3,
      size: '2 inch',
      colors: ['Antique Gold'],
      finish: 'Brass',
      features: [],
      estimatedTotal: 116.96,
      files: [],
      aiGenerated: true,
      subscribeEmail: false,
      subscribeSMS: false,
      customerCategory: 'general',
      taxExempt: false,
      billingAddress: { line1: '9 Elm St', city: 'Tampa', state: 'FL', postalCode: '33601', country: 'US' },
    };
    const res = await order(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.order.estimatedTotal).toBe(116.96); // 25.99 x 3 x 1.5
    await expectRejected({ ...body, colors: ['Antique Gold', 'Black Nickel'] }, 'colors', /one color/);
    await expectRejected({ ...body, size: '2' }, 'size', /not offered/);
  });

  it('refuses files that are not uploads stored here', async () => {
    const res = await order<Failure>(
      coinOrder({
        designMethod: 'upload',
        files: [
          {
            originalName: 'logo.png',
            filename: 'x.png',
            size: 10,
            mimetype: 'image/png',
            url: `/api/upload/${'a'.repeat(32)}`,
          },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(res.body.error).toMatch(/"logo.png" was not found/);
  });

  it('answers a malformed JSON body with the envelope', async () => {
    const res = await fetch(`${h.url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"customerName":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });
});

describe('Idempotency-Key', () => {
  it('returns the same order for the same key and body (201 then 200), 409 for a different body', async () => {
    const key = `submit-${Date.now()}`;
    const first = await order(coinOrder({ email: 'idem@example.com' }), { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const again = await order(coinOrder({ email: 'idem@example.com' }), { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.body.order).toEqual(first.body.order);
    const different = await order<Failure>(coinOrder({ email: 'idem@example.com', quantity: 51 }), {
      'idempotency-key': key,
    });
    expect(different.status).toBe(409);
    expect(different.body).toMatchObject({ success: false, code: 'CONFLICT' });
    expect(different.body.error).toMatch(/already used for a different order/);
    expect(await h.service.ctx.models.Order.countDocuments({ emailKey: 'idem@example.com' })).toBe(1);
  });

  it('makes one order when two submits with the same key race', async () => {
    const key = `race-${Date.now()}`;
    const body = coinOrder({ email: 'race@example.com' });
    const [a, b] = await Promise.all([
      order(body, { 'idempotency-key': key }),
      order(body, { 'idempotency-key': key }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.order.id).toBe(b.body.order.id);
    expect(await h.service.ctx.models.Order.countDocuments({ emailKey: 'race@example.com' })).toBe(1);
  });

  it('answers a key that spells a field name like any other key', async () => {
    const key = `orderNumber-${Date.now()}`;
    const body = coinOrder({ email: 'field-name@example.com' });
    const first = await order(body, { 'idempotency-key': key });
    const again = await order(body, { 'idempotency-key': key });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.order.id).toBe(first.body.order.id);
  });

  it('still answers a key stored before keys were kept on the order', async () => {
    // An order as the route stored it then: the key on the order, its body's fingerprint in idempotency_keys.
    const key = `legacy-${Date.now()}`;
    const body = coinOrder({ email: 'legacy@example.com' });
    const first = await order(body, { 'idempotency-key': key });
    const { Order, IdempotencyKey } = h.service.ctx.models;
    const stored = await Order.collection.findOneAndUpdate(
      { idempotencyKey: key },
      { $unset: { idempotencyBodyHash: '' } },
      { returnDocument: 'before' },
    );
    await IdempotencyKey.collection.insertOne({
      _id: key,
      bodyHash: stored!.idempotencyBodyHash as string,
      orderId: first.body.order.id,
      createdAt: new Date(),
    } as never);
    const again = await order(body, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.body.order).toEqual(first.body.order);
    const different = await order<Failure>(coinOrder({ email: 'legacy@example.com', quantity: 51 }), {
      'idempotency-key': key,
    });
    expect(different.status).toBe(409);
  });

  it('refuses a key that is not printable text', async () => {
    const res = await order<Failure>(coinOrder(), { 'idempotency-key': 'x'.repeat(201) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Idempotency-Key/);
  });
});

describe('quote requests arriving together', () => {
  it('share transactions, each order stored and announced once', async () => {
    const stamp = Date.now();
    const transactions = vi.spyOn(h.service.ctx, 'withOutbox');
    try {
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) => order(coinOrder({ email: `together-${stamp}-${i}@example.com` }))),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
      const ids = answers.map((a) => a.body.order.id);
      expect(new Set(answers.map((a) => a.body.order.orderNumber)).size).toBe(16);
      // The requests that came while one transaction was written went in the next one together.
      expect(transactions.mock.calls.length).toBeLessThan(16);
      expect(await h.service.ctx.models.Order.countDocuments({ _id: { $in: ids } })).toBe(16);
      const announced = await h.service.ctx.bus.outbox
        .find({ type: 'order.created', 'event.data.orderId': { $in: ids } })
        .lean<{ event: { data: { orderId: string; email: string } } }[]>();
      expect(announced.map((e) => e.event.data.orderId).sort()).toEqual([...ids].sort());
      expect(announced.find((e) => e.event.data.orderId === ids[3])?.event.data.email).toBe(
        `together-${stamp}-3@example.com`,
      );
    } finally {
      transactions.mockRestore();
    }
  });

  it('answers a repeated Idempotency-Key among them on its own; the others are stored', async () => {
    const stamp = Date.now();
    const key = `together-key-${stamp}`;
    const keyed = coinOrder({ email: `together-key-${stamp}@example.com` });
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => order(coinOrder({ email: `together-${stamp}-${i}@example.com` }))),
      order(keyed, { 'idempotency-key': key }),
      order(keyed, { 'idempotency-key': key }),
    ]);
    expect(answers.slice(0, 6).map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const [a, b] = answers.slice(6);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.order.id).toBe(b.body.order.id);
    expect(await h.service.ctx.models.Order.countDocuments({ emailKey: `together-key-${stamp}@example.com` })).toBe(1);
    const ids = answers.map((x) => x.body.order.id);
    expect(await h.service.ctx.models.Order.countDocuments({ _id: { $in: ids } })).toBe(7);
    expect(
      await h.service.ctx.bus.outbox.countDocuments({ type: 'order.created', 'event.data.orderId': { $in: ids } }),
    ).toBe(7);
  });
});

describe('order.created', () => {
  it('is published once per order, with what the customer profile and the emails need', async () => {
    const consumerName = `test-created-${Date.now()}`;
    const readEvents = await orderEventsReader(nc, consumerName);
    const key = `event-${Date.now()}`;
    const body = coinOrder({ email: 'Events@Example.com', customerCategory: 'military' });
    const first = await order(body, { 'idempotency-key': key });
    await order(body, { 'idempotency-key': key });
    const orderNumber = first.body.order.orderNumber;

    // Read until the event arrived and a further fetch stays empty (a duplicate would show up by then).
    const mine = (all: AnyEventEnvelope[]) =>
      all
        .filter((e) => e.type === 'order.created')
        .map((e) => parseEvent('order.created', e))
        .filter((e) => e.data.orderNumber === orderNumber);
    const seen = mine(await readEvents((all) => mine(all).length > 0));
    expect(seen).toHaveLength(1);
    expect(seen[0].source).toBe('orders');
    expect(seen[0].data).toMatchObject({
      orderId: first.body.order.id,
      orderNumber,
      customerName: 'Jane Doe',
      email: 'Events@Example.com',
      phone: '555-0100',
      itemType: 'coin',
      designMethod: 'describe',
      quantity: 50,
      estimatedTotal: 1170,
      customerCategory: 'military',
      taxExempt: true,
      status: 'pending_quote',
      statusLabel: 'Quote Pending',
      description: body.description,
      size: '2',
      colors: ['Gold', 'Blue'],
      finish: 'antique_gold',
      shippingAddress: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    });
    await (await jetstreamManager(nc)).consumers.delete('ORDERS', consumerName);
  });
});

describe('tracking and history', () => {
  let tracked: { id: string; orderNumber: string };
  const email = 'Tracker.Person@Example.com';

  beforeAll(async () => {
    // Two older orders of the same person and one of someone else.
    await order(coinOrder({ email, description: 'First order of the tracker' }));
    await order(shirtOrder({ email: 'tracker.person@example.com', description: 'Second order of the tracker' }));
    await order(coinOrder({ email: 'someone.else@example.com' }));
    tracked = (await order(coinOrder({ email, description: 'The tracked order' }))).body.order;
  });

  it('answers the public view when number and email match, case-insensitively', async () => {
    const res = await postJson<TrackResponse>(`${h.url}/api/orders/track`, {
      orderNumber: tracked.orderNumber.toLowerCase(),
      email: 'TRACKER.person@example.COM',
    });
    expect(res.status).toBe(200);
    const view = trackResponseSchema.parse(res.body).order;
    expect(view).toMatchObject({
      id: tracked.id,
      orderNumber: tracked.orderNumber,
      customerName: 'Jane Doe',
      itemType: 'coin',
      quantity: 50,
      description: 'The tracked order',
      estimatedTotal: 1170,
      status: 'pending_quote',
      statusLabel: 'Quote Pending',
      progressPercent: 20,
      discountCode: null,
      discountAmount: 0,
      finalAmount: null,
      aiGenerated: false,
      tracking: null,
    });
    expect(view.timeline).toEqual([expect.objectContaining({ status: 'pending_quote', label: 'Quote Pending' })]);
    expect(Number.isNaN(Date.parse(view.submittedDate))).toBe(false);
    // Nothing internal leaks.
    for (const field of ['emailKey', 'idempotencyKey', 'phone', 'shippingAddress', 'browserEstimatedTotal', '_id']) {
      expect(res.body.order).not.toHaveProperty(field);
    }
  });

  it('gives one answer for a wrong email and a missing order', async () => {
    const wrongEmail = await postJson<Failure>(`${h.url}/api/orders/track`, {
      orderNumber: tracked.orderNumber,
      email: 'someone.else@example.com',
    });
    const missing = await postJson<Failure>(`${h.url}/api/orders/track`, { orderNumber: 'CC-ZZZZZZZZ', email });
    for (const res of [wrongEmail, missing]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: trackOrderNotFoundMessage, code: 'NOT_FOUND' });
    }
    const { requestId: _a, ...a } = wrongEmail.body;
    const { requestId: _b, ...b } = missing.body;
    expect(a).toEqual(b);
  });

  it('needs both fields', async () => {
    for (const body of [{ orderNumber: tracked.orderNumber }, { email }, { orderNumber: ' ', email: ' ' }, {}]) {
      const res = await postJson(`${h.url}/api/orders/track`, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: trackMissingFieldsMessage });
    }
  });

  it('lists the other orders of the email, newest first, only with a proven order number', async () => {
    const emailOnly = await postJson<Failure>(`${h.url}/api/orders/history`, { email });
    expect(emailOnly.status).toBe(400);
    expect(emailOnly.body.error).toMatch(/orderNumber is required/);

    const wrongProof = await postJson<Failure>(`${h.url}/api/orders/history`, {
      email: 'someone.else@example.com',
      orderNumber: tracked.orderNumber,
    });
    expect(wrongProof.status).toBe(404);
    expect(wrongProof.body.error).toBe(trackOrderNotFoundMessage);

    const res = await postJson<HistoryResponse>(`${h.url}/api/orders/history`, {
      email: email.toUpperCase(),
      orderNumber: tracked.orderNumber.toLowerCase(),
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const descriptions = res.body.orders.map((o) => o.description);
    expect(descriptions).toEqual(['Second order of the tracker', 'First order of the tracker']);
    expect(res.body.orders.some((o) => o.orderNumber === tracked.orderNumber)).toBe(false);
  });
});
