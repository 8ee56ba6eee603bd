// Integration tests of the service kit against a real nats-server and the embedded MongoDB.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createEvent, errorEnvelopeSchema, rpcSubject, type Readiness } from '@shop/contracts';
import {
  buildCustomersLike,
  buildOrdersLike,
  eventually,
  orderCreatedData,
  type CustomersLikeService,
  type OrdersLikeService,
  LogLines,
} from './helpers.js';

let mongo: StartedMongo;
let nats: StartedNats;
let orders: OrdersLikeService;
let customers: CustomersLikeService;
let ordersLogs: LogLines;
let ordersUrl: string;

let storeDir: string;

beforeAll(async () => {
  storeDir = await mkdtemp(path.join(os.tmpdir(), 'service-kit-nats-'));
  [mongo, nats] = await Promise.all([startMongo(), startNats({ storeDir })]);
  ({ service: orders, logs: ordersLogs } = await buildOrdersLike(mongo.uri, nats.url));
  ({ service: customers } = await buildCustomersLike(mongo.uri, nats.url));
  ordersUrl = await orders.start();
  await customers.start();
});

afterAll(async () => {
  await orders?.stop();
  await customers?.stop();
  await nats?.stop();
  await mongo?.stop();
  if (storeDir) await rm(storeDir, { recursive: true, force: true });
});

/** The part of the OpenAPI document these tests read. */
interface OpenApiDocument {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody: {
          content: Record<string, { schema: { required: string[]; properties: Record<string, { maximum?: number }> } }>;
        };
      }
    >
  >;
}

const timesActed = async (orderNumber: string) =>
  (await customers.ctx.models.Projection.findById(orderNumber).lean())?.timesActed;

describe('HTTP basics', () => {
  it('answers /healthz and /readyz with both checks up', async () => {
    expect(await fetch(`${ordersUrl}/healthz`).then((r) => r.json())).toEqual({ status: 'ok' });
    const ready = await fetch(`${ordersUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { mongo: 'up', nats: 'up' } });
  });

  it('serves its info route and an OpenAPI document built from the zod schemas', async () => {
    const info = await fetch(`${ordersUrl}/api/orders/_service`).then((r) => r.json());
    expect(info).toMatchObject({ service: 'orders', version: '1.2.3' });
    const doc = (await fetch(`${ordersUrl}/openapi.json`).then((r) => r.json())) as OpenApiDocument;
    expect(doc.openapi).toMatch(/^3\./);
    const body = doc.paths['/widgets'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['orderNumber', 'quantity']));
    expect(body.properties.quantity.maximum).toBe(10000);
    expect(doc.paths['/readyz']).toBeDefined();
  });

  it('answers an unknown route with the 404 envelope and the caller request id', async () => {
    const res = await fetch(`${ordersUrl}/nope?x=1`, { headers: { 'x-request-id': 'gw-abc-123' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('gw-abc-123');
    const body = errorEnvelopeSchema.parse(await res.json());
    expect(body).toEqual({ error: 'No route for GET /nope', code: 'NOT_FOUND', requestId: 'gw-abc-123' });
  });

  it('replaces a request id that does not look like one', async () => {
    const res = await fetch(`${ordersUrl}/nope`, { headers: { 'x-request-id': 'bad id <script>' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('turns validation failures into a 400 that names the field', async () => {
    const res = await fetch(`${ordersUrl}/widgets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ quantity: 10001 }),
    });
    expect(res.status).toBe(400);
    const body = errorEnvelopeSchema.parse(await res.json());
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.error).toContain('orderNumber is required');
    expect(body.error).toMatch(/quantity: Too big/);
    expect(body.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'orderNumber' }),
        expect.objectContaining({ field: 'quantity' }),
      ]),
    );
    expect(body.requestId).toBeTruthy();
  });

  it('answers malformed JSON with a 400 envelope, not a 500', async () => {
    const res = await fetch(`${ordersUrl}/widgets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"orderNumber":',
    });
    expect(res.status).toBe(400);
    expect((await res.json()) as object).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('answers bodies fastify cannot read with a 4xx envelope, even on a route whose own error schema differs', async () => {
    const utf16 = Buffer.from('\ufeff{"email":"a@b.co"}', 'utf16le');
    const cases: { name: string; type?: string; body?: string | Buffer; status: number; message: RegExp }[] = [
      { name: 'invalid JSON', type: 'application/json', body: '{"email":', status: 400, message: /not valid JSON/ },
      { name: 'empty body', type: 'application/json', body: '', status: 400, message: /empty/ },
      { name: 'UTF-16', type: 'application/json; charset=utf-16', body: utf16, status: 415, message: /UTF-8/ },
      { name: 'UTF-16 without charset', type: 'application/json', body: utf16, status: 400, message: /not valid JSON/ },
      {
        name: '__proto__ key',
        type: 'application/json',
        body: '{"email":"a@b.co","__proto__":{"admin":true}}',
        status: 400,
        message: /__proto__/,
      },
      {
        name: 'constructor key',
        type: 'application/json',
        body: '{"email":"a@b.co","constructor":{"prototype":{"admin":true}}}',
        status: 400,
        message: /constructor/,
      },
      {
        name: 'wrong content type',
        type: 'application/xml',
        body: '<email/>',
        status: 415,
        message: /application\/json/,
      },
    ];
    for (const c of cases) {
      for (const path of ['/shaped', '/widgets']) {
        const res = await fetch(`${ordersUrl}${path}`, {
          method: 'POST',
          headers: c.type ? { 'content-type': c.type } : {},
          body: c.body,
        });
        const body = errorEnvelopeSchema.parse(await res.json());
        expect({ case: c.name, path, status: res.status }).toEqual({ case: c.name, path, status: c.status });
        expect(body.error, c.name).toMatch(c.message);
        expect(body.requestId).toBeTruthy();
      }
    }
  });

  it('answers a multipart body the parser cannot read with a 400, whichever service reads the parts', async () => {
    const res = await fetch(`${ordersUrl}/parts`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nbroken',
    });
    expect(res.status).toBe(400);
    expect(errorEnvelopeSchema.parse(await res.json())).toMatchObject({
      code: 'BAD_REQUEST',
      error: expect.stringMatching(/multipart\/form-data/) as unknown,
    });
    // The same message from a JSON call is no client mistake: still a 500.
    const json = await fetch(`${ordersUrl}/parts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(500);
  });

  it('passes an AppError through with its status and code', async () => {
    const res = await fetch(`${ordersUrl}/teapot`);
    expect(res.status).toBe(409);
    expect((await res.json()) as object).toMatchObject({
      error: 'This order is already paid.',
      code: 'ORDER_ALREADY_PAID',
    });
  });

  it('hides the detail of an unexpected error from the client but logs it', async () => {
    const res = await fetch(`${ordersUrl}/boom`, { headers: { 'x-request-id': 'boom-1' } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text)).toMatchObject({ code: 'INTERNAL_ERROR', requestId: 'boom-1' });
    const logged = ordersLogs.find((l) => l.request_id === 'boom-1' && l.level === 'error');
    expect(JSON.stringify(logged)).toContain('hunter2');
    expect(logged[0]).toMatchObject({ service: 'orders' });
  });
});

describe('events', () => {
  it('publishes an outbox event after the commit and the consumer acts on it', async () => {
    const res = await fetch(`${ordersUrl}/widgets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderNumber: 'CC-1001', quantity: 75 }),
    });
    expect(res.status).toBe(201);
    const { eventId } = (await res.json()) as { eventId: string };
    expect(await eventually(() => timesActed('CC-1001'))).toBe(1);
    const outboxDoc = await orders.ctx.bus.outbox.findById(eventId).lean();
    expect(outboxDoc).toMatchObject({ status: 'sent', type: 'order.created' });
    expect(await orders.ctx.models.Widget.countDocuments({ orderNumber: 'CC-1001' })).toBe(1);
  });

  it('drops the body of an event that carries a secret from the outbox once published, and keeps others', async () => {
    const expiresAt = new Date(Date.now() + 10 * 60_000).toISOString();
    const [secret, flagged, plain] = await orders.ctx.withOutbox(async (_session, outbox) => [
      // In the contracts' eventsWithSecrets: always treated as secret.
      outbox.add('customer.verification_requested', {
        email: 'sam@example.com',
        customerName: 'Sam',
        code: '482913',
        expiresAt,
      }),
      // Any other type can be marked at the call site.
      outbox.add('order.created', orderCreatedData('CC-7007'), { secret: true }),
      outbox.add('order.created', orderCreatedData('CC-7008')),
    ]);
    const sent = await eventually(async () => {
      const docs = await orders.ctx.bus.outbox
        .find({ _id: { $in: [secret.id, flagged.id, plain.id] }, status: 'sent' })
        .lean();
      return docs.length === 3 ? docs : undefined;
    });
    const byId = new Map(sent.map((d) => [d._id, d]));
    for (const e of [secret, flagged]) {
      const doc = byId.get(e.id)!;
      expect(doc).toMatchObject({ _id: e.id, type: e.type, status: 'sent', secret: true });
      expect(doc.event).toBeUndefined();
      expect(JSON.stringify(doc)).not.toContain('482913');
    }
    expect(byId.get(plain.id)!.event).toMatchObject({ id: plain.id, data: { orderNumber: 'CC-7008' } });
    // Delivery is unchanged: the secret event is in its stream and the flagged one was consumed.
    const jsm = await jetstreamManager(orders.ctx.bus.connection!);
    const stored = await jsm.streams.getMessage('CUSTOMERS', { last_by_subj: 'customer.verification_requested' });
    expect(stored!.json<{ id: string; data: { code: string } }>()).toMatchObject({
      id: secret.id,
      data: { code: '482913' },
    });
    expect(await eventually(() => timesActed('CC-7007'))).toBe(1);
  });

  it('acts once when the same event is delivered twice', async () => {
    const event = createEvent('order.created', 'orders', orderCreatedData('CC-2002'));
    const nc = await connect({ servers: nats.url });
    try {
      const js = jetstream(nc);
      // Two different message ids so JetStream's own dedupe does not hide the second copy: the
      // consumer's processed_events record must.
      await js.publish('order.created', JSON.stringify(event), { msgID: `${event.id}-a` });
      await js.publish('order.created', JSON.stringify(event), { msgID: `${event.id}-b` });
    } finally {
      await nc.close();
    }
    expect(await eventually(() => timesActed('CC-2002'))).toBe(1);
    // Wait until both copies were handled (acked), then check nothing acted twice.
    await eventually(async () => {
      const jsm = await jetstreamManager(customers.ctx.bus.connection!);
      const info = await jsm.consumers.info('ORDERS', 'customers--order-created');
      return info.num_pending === 0 && info.num_ack_pending === 0;
    });
    expect(await timesActed('CC-2002')).toBe(1);
    expect(await customers.ctx.bus.processed.countDocuments({ _id: event.id })).toBe(1);
  });

  it('drops (terminates) a message that does not match its contract', async () => {
    const nc = await connect({ servers: nats.url });
    try {
      await jetstream(nc).publish('order.created', JSON.stringify({ id: 'not-a-uuid', type: 'order.created' }));
    } finally {
      await nc.close();
    }
    await eventually(async () => {
      const jsm = await jetstreamManager(customers.ctx.bus.connection!);
      const info = await jsm.consumers.info('ORDERS', 'customers--order-created');
      return info.num_pending === 0 && info.num_ack_pending === 0;
    });
  });
});

describe('request/reply', () => {
  it('answers a request', async () => {
    const res = await fetch(`${ordersUrl}/ask?text=hello`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ echoed: 'HELLO' });
  });

  it('carries a refusal back with its status and code', async () => {
    const res = await fetch(`${ordersUrl}/ask?text=refuse`);
    expect(res.status).toBe(404);
    expect((await res.json()) as object).toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
      error: 'No customer with that email.',
    });
  });

  it('refuses invalid request data on the replying side', async () => {
    await expect(orders.ctx.bus.request(rpcSubject('customers', 'echo'), { text: '' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
    });
  });

  it('maps no answer in time to UPSTREAM_TIMEOUT (504)', async () => {
    const res = await fetch(`${ordersUrl}/ask?text=slow&timeout=300`);
    expect(res.status).toBe(504);
    expect((await res.json()) as object).toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      error: expect.stringContaining('within 300 ms') as unknown,
    });
  });

  it('maps nobody listening to UPSTREAM_UNAVAILABLE (503)', async () => {
    await expect(orders.ctx.bus.request(rpcSubject('payments', 'nobody'), {}, { timeout: 1000 })).rejects.toMatchObject(
      {
        statusCode: 503,
        code: 'UPSTREAM_UNAVAILABLE',
      },
    );
  });
});

describe('when NATS goes down', () => {
  it('reports not ready, keeps accepting writes, and delivers their events once NATS is back', async () => {
    // The store dir is ours, so stop() keeps it: the restarted server has the same streams and consumers.
    const { port } = nats;
    await nats.stop();

    await eventually(async () => {
      const res = await fetch(`${ordersUrl}/readyz`);
      return res.status === 503 ? ((await res.json()) as Readiness) : undefined;
    }).then((body) => expect(body).toEqual({ status: 'not_ready', checks: { mongo: 'up', nats: 'down' } }));

    const res = await fetch(`${ordersUrl}/widgets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderNumber: 'CC-3003', quantity: 5 }),
    });
    expect(res.status).toBe(201);
    const { eventId } = (await res.json()) as { eventId: string };
    // Give the relay time to try and fail: the event must stay pending, not be lost.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await orders.ctx.bus.outbox.findById(eventId).lean()).toMatchObject({ status: 'pending' });

    nats = await startNats({ port, storeDir });
    expect(await eventually(() => timesActed('CC-3003'), 30_000)).toBe(1);
    expect(await orders.ctx.bus.outbox.findById(eventId).lean()).toMatchObject({ status: 'sent' });
    await eventually(async () => (await fetch(`${ordersUrl}/readyz`)).status === 200);
  });
});
