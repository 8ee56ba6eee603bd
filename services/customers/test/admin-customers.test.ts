// Customer management end to end inside the customers service: real order events on JetStream (created,
// quote sent, status changed, some out of order) build the figures; GET /api/customers (summary, search,
// status filter, sort, paging, bad queries) and GET /api/customers/{id}; replaying every event, in any
// order and from an empty projection, gives the same figures. Embedded MongoDB and a real nats-server.
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEvent,
  customerDetailSchema,
  customerListSchema,
  type AdminCustomer,
  type CustomerList,
  type ErrorEnvelope,
  type EventData,
  type EventType,
} from '@shop/contracts';
import {
  eventually,
  orderCreatedData,
  startMongo,
  startNats,
  type StartedMongo,
  type StartedNats,
} from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { adminHeaders } from '@shop/service-kit/testing';

/** The gateway's signed identity of an admin (the customers service checks it on admin routes). */
const admin = adminHeaders('ops@shop.test');

let mongo: StartedMongo;
let nats: StartedNats;
let service: Awaited<ReturnType<typeof buildApp>>;
let url: string;

const day = 24 * 60 * 60_000;
const now = Date.now();
const ago = (days: number) => new Date(now - days * day).toISOString();
const run = randomUUID().slice(0, 6);
const emailA = `alex-${run}@example.com`;
const emailB = `blake-${run}@example.com`;
const emailC = `casey-${run}@example.com`;

type Published = { type: EventType; data: unknown; occurredAt?: string };
/** Every event this file published, to replay them. */
const published: Published[] = [];

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  service = await buildApp(
    loadConfig({
      PORT: '0',
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
      VIP_MIN_SPENT: '1000',
      VIP_MIN_ORDERS: '3',
      ACTIVE_WITHIN_MONTHS: '12',
    }),
    { relay: { sweepIntervalMs: 200 } },
  );
  url = await service.start();
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

async function publish(events: Published[], remember = true) {
  const nc = await connect({ servers: nats.url });
  try {
    const js = jetstream(nc);
    for (const e of events) {
      const event = createEvent(e.type, 'orders', e.data as never, e.occurredAt ? new Date(e.occurredAt) : undefined);
      await js.publish(e.type, JSON.stringify(event), { msgID: event.id });
      if (remember) published.push(e);
    }
  } finally {
    await nc.close();
  }
}

function created(
  email: string,
  name: string,
  o: {
    id: string;
    number: string;
    itemType?: 'coin' | 'patch' | 'shirt';
    quantity?: number;
    total: number;
    daysAgo: number;
    status?: EventData<'order.created'>['status'];
  },
): Published {
  const data = orderCreatedData({
    orderId: o.id,
    orderNumber: o.number,
    customerName: name,
    email,
    phone: '555-0142',
    itemType: o.itemType ?? 'coin',
    quantity: o.quantity ?? 50,
    estimatedTotal: o.total,
    status: o.status ?? 'pending_quote',
    submittedDate: ago(o.daysAgo),
  });
  return { type: 'order.created', data };
}

function statusChanged(
  email: string,
  o: { id: string; number: string; itemType?: 'coin' | 'patch' | 'shirt' },
  status: EventData<'order.status_changed'>['status'],
  total: number,
  daysAgo: number,
): Published {
  const data: EventData<'order.status_changed'> = {
    orderId: o.id,
    orderNumber: o.number,
    customerName: 'x',
    email,
    itemType: o.itemType ?? 'coin',
    previousStatus: null,
    status,
    changedBy: 'admin:test@shop.local',
    total,
    changedAt: ago(daysAgo),
  };
  return { type: 'order.status_changed', data };
}

function quoteSent(email: string, o: { id: string; number: string }, finalAmount: number, daysAgo: number): Published {
  const data: EventData<'order.quote_sent'> = {
    orderId: o.id,
    orderNumber: o.number,
    customerName: 'x',
    email,
    itemType: 'coin',
    quantity: 100,
    quoteAmount: finalAmount,
    taxRate: 0,
    taxAmount: 0,
    finalAmount,
    quoteExpiresAt: ago(-30),
    paymentPath: `/order/pay/${o.id}`,
  };
  return { type: 'order.quote_sent', data, occurredAt: ago(daysAgo) };
}

/** GET /api/customers as the admin; the body typed as the caller says the route answers (unknown unless told). */
async function list<Body = unknown>(query = ''): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${url}/api/customers${query}`, { headers: admin });
  return { status: res.status, body: (await res.json()) as Body };
}

const byEmail = async (email: string) =>
  (await list<CustomerList>(`?search=${encodeURIComponent(email)}`)).body.customers[0] as AdminCustomer | undefined;

const o1 = { id: randomUUID(), number: `CC-A1-${run}` };
const o2 = { id: randomUUID(), number: `PT-A2-${run}`, itemType: 'patch' as const };
const o3 = { id: randomUUID(), number: `CC-A3-${run}` };
const o4 = { id: randomUUID(), number: `CC-A4-${run}` };
const b1 = { id: randomUUID(), number: `SH-B1-${run}`, itemType: 'shirt' as const };
const c1 = { id: randomUUID(), number: `CC-C1-${run}` };

describe('figures from order events', () => {
  it('builds totals, averages, dates, preferred item and completed count from a known set of orders', async () => {
    await publish([
      created(emailA, 'Alex Rivera', { ...o1, quantity: 100, total: 500, daysAgo: 60 }),
      // Apply Quote: the total becomes the quote's final amount (with tax), without a status event.
      quoteSent(emailA, o1, 540, 59),
      created(emailA, 'Alex Rivera', { ...o2, quantity: 50, total: 300, daysAgo: 30 }),
      created(emailA, 'Alex Rivera', { ...o3, quantity: 20, total: 200, daysAgo: 10 }),
      created(emailB, 'Blake Chen', { ...b1, quantity: 12, total: 250, daysAgo: 400 }),
    ]);
    // Status changes go through a second consumer; one arrives before an older one (out of order).
    await publish([
      statusChanged(emailA, o1, 'completed', 540, 50),
      statusChanged(emailA, o1, 'paid', 540, 58),
      statusChanged(emailA, o2, 'paid', 300, 29),
      statusChanged(emailA, o3, 'paid', 200, 9),
      statusChanged(emailA, o3, 'cancelled', 200, 8),
    ]);
    const a = await eventually(
      () => byEmail(emailA),
      // Every event counted: the consumers may apply them in any order, so wait for the whole picture.
      (c) =>
        c?.totalSpent === 840 &&
        c.lifetimeStats.completedOrders === 1 &&
        c.totalOrders === 3 &&
        c.lastOrderDate === ago(10),
    );
    expect(a).toMatchObject({
      name: 'Alex Rivera',
      email: emailA,
      phone: '555-0142',
      status: 'active',
      totalOrders: 3,
      totalSpent: 840,
      averageOrderValue: 420,
      firstOrderDate: ago(60),
      lastOrderDate: ago(10),
      preferredItemType: 'coin',
      lifetimeStats: { completedOrders: 1, avgDaysBetweenOrders: 25 },
    });
    const b = await eventually(() => byEmail(emailB));
    expect(b).toMatchObject({
      name: 'Blake Chen',
      status: 'inactive',
      totalOrders: 1,
      totalSpent: 0,
      averageOrderValue: 0,
      preferredItemType: 'shirt',
    });
  });

  it('a status change shows in its customer within a second, and makes a VIP', async () => {
    await publish([created(emailA, 'Alex Rivera', { ...o4, total: 400, daysAgo: 2 })]);
    await eventually(
      () => byEmail(emailA),
      (c) => c?.totalOrders === 4,
    );
    const started = Date.now();
    await publish([statusChanged(emailA, o4, 'paid', 400, 1)]);
    const a = await eventually(
      () => byEmail(emailA),
      (c) => c?.status === 'vip',
      1000,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(a).toMatchObject({ totalSpent: 1240, averageOrderValue: 413.33, totalOrders: 4 });
  });

  it('a status event before its order.created is kept and counted once the order arrives', async () => {
    await publish([statusChanged(emailC, c1, 'paid', 150, 3)]);
    await eventually(() => service.ctx.models.CustomerOrder.findById(c1.id).lean());
    expect(await byEmail(emailC)).toBeUndefined();
    await publish([created(emailC, 'Casey Morgan', { ...c1, total: 150, daysAgo: 4 })]);
    const c = await eventually(
      () => byEmail(emailC),
      (x) => x?.totalSpent === 150,
    );
    expect(c).toMatchObject({ status: 'active', totalOrders: 1, averageOrderValue: 150 });
  });
});

describe('GET /api/customers', () => {
  it('answers the summary over every customer and filters by status', async () => {
    const all = await list();
    expect(all.status).toBe(200);
    const parsed = customerListSchema.parse(all.body);
    expect(parsed.summary).toEqual({
      totalCustomers: 3,
      vipCustomers: 1,
      averageLifetimeValue: Math.round(((1240 + 0 + 150) / 3) * 100) / 100,
      averageOrderValue: Math.round((1390 / 4) * 100) / 100,
    });
    expect(parsed.total).toBe(3);
    // Default sort: the most recent order first.
    expect(parsed.customers.map((c) => c.email)).toEqual([emailA, emailC, emailB]);
    expect((await list<CustomerList>('?status=vip')).body.customers.map((c) => c.email)).toEqual([emailA]);
    expect((await list<CustomerList>('?status=active')).body.customers.map((c) => c.email)).toEqual([emailC]);
    expect((await list<CustomerList>('?status=inactive')).body.customers.map((c) => c.email)).toEqual([emailB]);
    expect((await list<CustomerList>('?status=all')).body.total).toBe(3);
  });

  it('searches name, email, phone and order numbers; sorts and pages on the server', async () => {
    expect((await list<CustomerList>('?search=blake%20chen')).body.customers.map((c) => c.email)).toEqual([emailB]);
    expect(
      (await list<CustomerList>(`?search=${encodeURIComponent(o2.number.toLowerCase())}`)).body.customers.map(
        (c) => c.email,
      ),
    ).toEqual([emailA]);
    expect((await list('?search=(no.such*customer')).body).toMatchObject({ customers: [], total: 0, totalPages: 1 });
    const bySpent = await list<CustomerList>('?sortBy=totalSpent&sortDir=asc');
    expect(bySpent.body.customers.map((c) => c.totalSpent)).toEqual([0, 150, 1240]);
    const byName = await list<CustomerList>('?sortBy=name&sortDir=asc');
    expect(byName.body.customers.map((c) => c.name)).toEqual(['Alex Rivera', 'Blake Chen', 'Casey Morgan']);
    const page2 = await list<CustomerList>('?sortBy=name&sortDir=asc&pageSize=1&page=2');
    expect(page2.body).toMatchObject({ page: 2, pageSize: 1, total: 3, totalPages: 3 });
    expect(page2.body.customers.map((c) => c.name)).toEqual(['Blake Chen']);
  });

  it('refuses a bad query with a clear 400', async () => {
    for (const [q, message] of [
      ['?status=gold', 'status must be one of all, vip, active, inactive'],
      ['?pageSize=0', 'pageSize must be at least 1'],
      ['?pageSize=501', 'pageSize can be at most 500'],
      ['?sortBy=email', 'sortBy must be one of'],
      ['?page=abc', 'page'],
    ] as const) {
      const res = await list<ErrorEnvelope>(q);
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.error).toContain(message);
    }
  });
});

describe('GET /api/customers/{id}', () => {
  it('answers the figures and the order history, newest first', async () => {
    const a = (await byEmail(emailA))!;
    const res = await fetch(`${url}/api/customers/${a.id}`, { headers: admin });
    expect(res.status).toBe(200);
    const { customer } = customerDetailSchema.parse(await res.json());
    expect(customer).toMatchObject({ id: a.id, totalSpent: 1240, status: 'vip' });
    expect(customer.orders).toEqual([
      {
        id: o4.id,
        orderNumber: o4.number,
        itemType: 'coin',
        total: 400,
        quantity: 50,
        status: 'paid',
        submittedDate: ago(2),
      },
      {
        id: o3.id,
        orderNumber: o3.number,
        itemType: 'coin',
        total: 200,
        quantity: 20,
        status: 'cancelled',
        submittedDate: ago(10),
      },
      {
        id: o2.id,
        orderNumber: o2.number,
        itemType: 'patch',
        total: 300,
        quantity: 50,
        status: 'paid',
        submittedDate: ago(30),
      },
      {
        id: o1.id,
        orderNumber: o1.number,
        itemType: 'coin',
        total: 540,
        quantity: 100,
        status: 'completed',
        submittedDate: ago(60),
      },
    ]);
  });

  it('answers 404 "Customer not found" for an unknown id, and 404 for anything that is not an id', async () => {
    const res = await fetch(`${url}/api/customers/0123456789abcdef01234567`, { headers: admin });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('Customer not found');
    const malformed = await fetch(`${url}/api/customers/not-an-id`, { headers: admin });
    expect(malformed.status).toBe(404);
    expect(((await malformed.json()) as { code: string }).code).toBe('NOT_FOUND');
  });
});

describe('replay', () => {
  const figures = async () =>
    (await list<Pick<CustomerList, 'customers' | 'summary'>>('?sortBy=name&sortDir=asc')).body;
  const processed = () => service.ctx.connection.collection('processed_events').countDocuments();

  it('every event again, newest first, changes nothing', async () => {
    const before = await figures();
    const seen = await processed();
    await publish([...published].reverse(), false);
    await eventually(processed, (n) => n >= seen + published.length);
    expect(await figures()).toEqual(before);
  });

  it('every event again into an empty projection, shuffled, gives the same figures', async () => {
    const before = await figures();
    await Promise.all(
      ['customers', 'customer_orders'].map((name) => service.ctx.connection.collection(name).deleteMany({})),
    );
    const seen = await processed();
    // A fixed shuffle (status events before their orders, customers interleaved), the same on every run.
    const shuffled = published
      .map((e, i) => ({ e, key: (i * 7919) % published.length }))
      .sort((x, y) => x.key - y.key)
      .map((x) => x.e);
    await publish(shuffled, false);
    await eventually(processed, (n) => n >= seen + published.length);
    const after = await figures();
    // Ids are new documents; everything else is the same.
    const strip = (f: typeof before) => ({ ...f, customers: f.customers.map(({ id: _id, ...rest }) => rest) });
    expect(strip(after)).toEqual(strip(before));
  });
});
