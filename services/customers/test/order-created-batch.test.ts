// order.created handled in batches: a batch of events gives exactly what the same events give one at a
// time, in the same order. Two customers get the same orders (only the email differs): one in a single
// batch (two orders of theirs, the newer first, and a repeat of the first), the other one event per
// transaction; their profiles and orders must match, and the newer order keeps deciding the saved details.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, type EventEnvelope } from '@shop/contracts';
import { orderCreatedData, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { orderCreatedConsumer } from '../src/events/order-created.js';

let mongo: StartedMongo;
let nats: StartedNats;
let service: Awaited<ReturnType<typeof buildApp>>;
const config = () =>
  loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent', VIP_MIN_ORDERS: '2' });

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  service = await buildApp(config());
  await service.start();
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

const day = 24 * 60 * 60_000;
const run = randomUUID().slice(0, 6);
const now = Date.now();

function created(email: string, o: { id: string; name: string; phone: string; total: number; daysAgo: number }) {
  const data = orderCreatedData({
    orderId: o.id,
    orderNumber: `CC-${o.id.slice(0, 8)}`,
    customerName: o.name,
    email,
    phone: o.phone,
    quantity: 40,
    estimatedTotal: o.total,
    submittedDate: new Date(now - o.daysAgo * day).toISOString(),
  });
  return createEvent('order.created', 'orders', data);
}

/** Runs the consumer's handler on `events` in one transaction, as the service kit does for one batch. */
async function handle(events: EventEnvelope<'order.created'>[]) {
  const consumer = orderCreatedConsumer(service.ctx.models, config().status);
  await service.ctx.withOutbox((session, outbox) =>
    consumer.handleBatch(
      events,
      { session, outbox, log: service.ctx.log, afterCommit: () => undefined },
      events.map(() => 1),
    ),
  );
}

/** The customer's profile and orders, without what differs between two customers (ids, email, times). */
async function stateOf(email: string) {
  const { Customer, CustomerOrder } = service.ctx.models;
  const customer = await Customer.findOne({ email }).lean();
  const orders = await CustomerOrder.find({ customerEmail: email }).sort({ submittedDate: 1 }).lean();
  const {
    _id,
    email: _email,
    createdAt: _created,
    updatedAt: _updated,
    lastOrderId,
    lastOrderNumber: _lastNumber,
    searchText,
    ...profile
  } = customer as never as Record<string, unknown>;
  return {
    profile,
    searchText: String(searchText).replace(email, '').split(' ').sort(),
    lastOrder: orders.findIndex((o) => o._id === lastOrderId),
    orders: orders.map(
      ({ _id, customerEmail: _owner, createdAt: _created, updatedAt: _updated, __v, ...rest }) => rest,
    ),
  };
}

describe('order.created in one batch', () => {
  it('two orders of one customer (the newer first) and a repeat give what one event at a time gives', async () => {
    const newer = { name: 'Robin New', phone: '555-0101', total: 300, daysAgo: 2 };
    const older = { name: 'Robin Old', phone: '555-0199', total: 200, daysAgo: 9 };
    const ids = [randomUUID(), randomUUID()];
    const batched = `robin-${run}@example.com`;
    const single = `robin-single-${run}@example.com`;
    const eventsFor = (email: string, orderIds: string[]) => [
      created(email, { id: orderIds[0], ...newer }),
      created(email, { id: orderIds[1], ...older }),
      // The same order again under a new event id (a replay): counted once.
      created(email, { id: orderIds[0], ...newer }),
    ];

    await handle(eventsFor(batched, ids));
    for (const event of eventsFor(single, [randomUUID(), randomUUID()])) await handle([event]);

    const [one, apart] = await Promise.all([stateOf(batched), stateOf(single)]);
    expect(one.profile).toMatchObject({
      customerName: 'Robin New',
      phone: '555-0101',
      orderCount: 2,
      vip: false,
      spentOrders: 0,
    });
    expect(one.orders).toHaveLength(2);
    expect(one.lastOrder).toBe(1);
    // Only the order numbers differ in the search text.
    expect({
      ...one,
      searchText: one.searchText.length,
      orders: one.orders.map(({ orderNumber: _n, ...o }) => o),
    }).toEqual({
      ...apart,
      searchText: apart.searchText.length,
      orders: apart.orders.map(({ orderNumber: _n, ...o }) => o),
    });
  });

  it('an older order arriving after the profile exists leaves the saved details, and counts', async () => {
    const email = `sam-${run}@example.com`;
    await handle([created(email, { id: randomUUID(), name: 'Sam First', phone: '555-0111', total: 100, daysAgo: 1 })]);
    await handle([
      created(email, { id: randomUUID(), name: 'Sam Older', phone: '555-0112', total: 50, daysAgo: 30 }),
      created(email, { id: randomUUID(), name: 'Sam Newest', phone: '', total: 70, daysAgo: 0 }),
    ]);
    const { profile } = await stateOf(email);
    // The newest order decides the name; it had no phone, so the last known one stays.
    expect(profile).toMatchObject({ customerName: 'Sam Newest', phone: '555-0111', orderCount: 3 });
  });

  it('writes a new profile as mongoose would save it: every field of the schema, typed, valid', async () => {
    const email = `kim-${run}@example.com`;
    const event = created(email, { id: randomUUID(), name: 'Kim Lean', phone: '555-0121', total: 80, daysAgo: 3 });
    const address = {
      line1: '1 Main St',
      line2: 'Suite 5',
      city: 'Austin',
      state: 'TX',
      postalCode: '78701',
      country: 'US' as const,
    };
    event.data.shippingAddress = { ...address };
    await handle([event]);
    const { Customer } = service.ctx.models;
    const raw = await Customer.collection.findOne({ email });
    const saved = new Customer({ ...raw, _id: undefined });
    const reference = await new Customer({
      email: `kim-reference-${run}@example.com`,
      firstOrderAt: new Date(),
      lastOrderAt: new Date(),
      lastOrderId: 'x',
      lastOrderNumber: 'CC-x',
    }).save();
    const referenceRaw = await Customer.collection.findOne({ _id: reference._id });
    expect(Object.keys(raw!).sort()).toEqual(Object.keys(referenceRaw!).sort());
    expect(saved.validateSync()).toBeUndefined();
    expect(raw).toMatchObject({ __v: 0, customerName: 'Kim Lean', orderCount: 1, erasedAt: null });
    expect(raw!._id).toBeInstanceOf(reference._id.constructor);
    expect(raw!.createdAt).toBeInstanceOf(Date);
    // The address as the subdocument schema stores it: its fields only, no _id.
    expect(raw!.lastShippingAddress).toEqual(address);
  });

  it("writes a new order's facts as mongoose's upsert would: timestamps, version key, the schema's defaults", async () => {
    const email = `lee-${run}@example.com`;
    const id = randomUUID();
    await handle([created(email, { id, name: 'Lee Upsert', phone: '', total: 90, daysAgo: 1 })]);
    const { CustomerOrder } = service.ctx.models;
    const raw = await CustomerOrder.collection.findOne({ _id: id as never });
    // The same facts upserted through mongoose, which adds createdAt, updatedAt, __v and the defaults.
    const referenceId = randomUUID();
    const { _id, createdAt, updatedAt, __v, ...facts } = raw!;
    await CustomerOrder.bulkWrite([
      { updateOne: { filter: { _id: referenceId }, update: { $set: facts }, upsert: true } },
    ]);
    const reference = await CustomerOrder.collection.findOne({ _id: referenceId as never });
    expect(Object.keys(raw!).sort()).toEqual(Object.keys(reference!).sort());
    expect(createdAt).toBeInstanceOf(Date);
    expect(updatedAt).toBeInstanceOf(Date);
    expect(__v).toBe(0);
    // A status-only fact first (quote_sent before order.created), then order.created: defaults only where unset.
    const early = randomUUID();
    await CustomerOrder.collection.insertOne({
      _id: early as never,
      orderNumber: 'CC-early',
      itemType: 'coin',
      status: 'quote_sent',
    });
    await handle([created(email, { id: early, name: 'Lee Upsert', phone: '', total: 95, daysAgo: 0 })]);
    expect(await CustomerOrder.collection.findOne({ _id: early as never })).not.toHaveProperty('createdAt');
  });
});
