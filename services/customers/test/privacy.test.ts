// Privacy requests across the services (issue 16), all real: the embedded MongoDB, a real nats-server,
// and the REAL orders, customers, support, marketing and email services in this process. A customer
// orders (the order events build the customers projection, support's known orders, marketing's
// subscriber, the email queue) and writes to support; the admin exports everything (one JSON document
// with every service's part), then erases the customer while the support service is down: every service
// anonymises its documents (support once it is back: durable consumer on the PRIVACY stream), figures
// stay, tracking by the old email finds nothing, search no longer finds the customer; replaying the event
// changes nothing, and a second erasure answers that nothing changed.
import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp as buildOrders } from '@shop/orders-service/app';
import { buildApp as buildSupport } from '@shop/support-service/app';
import { loadConfig as loadSupportConfig } from '@shop/support-service/config';
import { buildApp as buildMarketing } from '@shop/marketing-service/app';
import { loadConfig as loadMarketingConfig } from '@shop/marketing-service/config';
import { buildApp as buildEmail } from '@shop/email-service/app';
import { loadConfig as loadEmailConfig } from '@shop/email-service/config';
import {
  customerDetailSchema,
  customerErasureResultSchema,
  customerExportSchema,
  customerListSchema,
  erasedEmailDomain,
  erasedName,
  erasedText,
  eventStreams,
  type AnyEventEnvelope,
} from '@shop/contracts';
import { loadServiceConfig } from '@shop/service-kit';
import { adminHeaders } from '@shop/service-kit/testing';
import { coinOrder, eventually, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const admin = adminHeaders('privacy-officer@shop.test');
const json = { 'content-type': 'application/json' };
const run = randomUUID().slice(0, 8);
const email = `Dana.Privacy-${run}@Example.com`;
const key = email.toLowerCase();
const other = `sam-${run}@example.com`;
const relay = { relay: { sweepIntervalMs: 200, maxBackoffMs: 500 } };

let mongo: StartedMongo;
let nats: StartedNats;
let nc: NatsConnection;
const env = () => ({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent', NODE_ENV: 'test' });
let customers: Awaited<ReturnType<typeof buildApp>>;
let orders: Awaited<ReturnType<typeof buildOrders>>;
let support: Awaited<ReturnType<typeof buildSupport>> | undefined;
let marketing: Awaited<ReturnType<typeof buildMarketing>>;
let emailService: Awaited<ReturnType<typeof buildEmail>>;
const url = {} as Record<'customers' | 'orders' | 'support', string>;

async function startSupport() {
  support = await buildSupport(loadSupportConfig(env()));
  url.support = await support.start();
}

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  customers = await buildApp(loadConfig(env()), relay);
  orders = await buildOrders(
    {
      ...loadServiceConfig(env(), { port: 0 }),
      ai: { apiKey: undefined, baseUrl: undefined, imageModel: 'gpt-image-1' },
      uploadRetentionHours: 24,
    },
    relay,
  );
  marketing = await buildMarketing(loadMarketingConfig(env()), relay);
  // The worker stays idle: the emails stay in the queue where the erasure must find them.
  emailService = await buildEmail(loadEmailConfig(env()), { ...relay, manualWorker: true });
  [url.customers, url.orders] = await Promise.all([
    customers.start(),
    orders.start(),
    marketing.start(),
    emailService.start(),
  ]);
  await startSupport();
  nc = await connect({ servers: nats.url });
}, 90_000);

afterAll(async () => {
  await nc?.close();
  await Promise.all([customers?.stop(), orders?.stop(), support?.stop(), marketing?.stop(), emailService?.stop()]);
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = admin) {
  const base =
    path.startsWith('/api/support') || path.startsWith('/api/returns')
      ? url.support
      : path.startsWith('/api/orders')
        ? url.orders
        : url.customers;
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? json : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function customerByEmail(address: string) {
  const list = customerListSchema.parse(
    (await call('GET', `/api/customers?search=${encodeURIComponent(address)}`)).body,
  );
  return list.customers.find((c) => c.email === address.toLowerCase());
}

const placed: { id: string; orderNumber: string }[] = [];
let customerId = '';

describe('privacy requests on one customer', () => {
  it('builds the customer in every service from a real order and a support message', async () => {
    for (const quantity of [50, 120]) {
      const res = await call(
        'POST',
        '/api/orders',
        coinOrder({ customerName: 'Dana Privacy', email, phone: '(512) 555-0142', quantity, subscribeEmail: true }),
        {},
      );
      expect(res.status).toBe(201);
      const order = res.body.order as { id?: string; _id?: string; orderNumber: string };
      placed.push({ id: String(order.id ?? order._id), orderNumber: order.orderNumber });
    }
    await call('POST', '/api/orders', coinOrder({ customerName: 'Sam Other', email: other }), {});
    const sent = await call(
      'POST',
      '/api/support',
      {
        name: 'Dana Privacy',
        email,
        orderNumber: placed[0].orderNumber,
        subject: 'Where is my coin?',
        message: 'Hi, this is Dana, call me at 512 555 0142.',
      },
      {},
    );
    expect(sent.status).toBe(201);

    const found = await eventually(
      () => customerByEmail(key),
      (c) => c?.totalOrders === 2,
    );
    customerId = found!.id;
    const { Subscriber } = marketing.ctx.models;
    await eventually(() => Subscriber.findOne({ email: key }).lean(), Boolean);
    await eventually(
      () => emailService.ctx.models.Email.countDocuments({ to: new RegExp(`^${key.replace(/[.+]/g, '\\$&')}$`, 'i') }),
      (n) => n >= 2,
    );
    await eventually(
      () => support!.ctx.models.KnownOrder.countDocuments({ orderNumber: { $in: placed.map((p) => p.orderNumber) } }),
      (n) => n === 2,
    );
  });

  it('exports everything the shop holds on the customer as one JSON download', async () => {
    const res = await call('GET', `/api/customers/${customerId}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`attachment; filename="customer-${customerId}-\\d{4}-\\d{2}-\\d{2}\\.json"`),
    );
    const doc = customerExportSchema.parse(res.body);
    expect(doc.exportedBy).toBe('admin:privacy-officer@shop.test');
    expect(Object.keys(doc.services).sort()).toEqual(['customers', 'email', 'marketing', 'orders', 'support']);
    const { customers: own, orders: ord, support: sup, marketing: mkt, email: mail } = doc.services;
    expect(own.collections.customers[0]).toMatchObject({ email: key, customerName: 'Dana Privacy', orderCount: 2 });
    expect(own.collections.customer_orders).toHaveLength(2);
    expect(ord.collections.orders.map((o) => o.orderNumber).sort()).toEqual(placed.map((p) => p.orderNumber).sort());
    expect(ord.collections.orders[0]).toMatchObject({ customerName: 'Dana Privacy', phone: '(512) 555-0142' });
    expect(sup.collections.support_messages).toHaveLength(1);
    expect(sup.collections.support_messages[0]).toMatchObject({ subject: 'Where is my coin?' });
    expect(sup.collections.known_orders).toHaveLength(2);
    expect(mkt.collections.subscribers[0]).toMatchObject({ email: key, name: 'Dana Privacy' });
    expect(mail.collections.emails.length).toBeGreaterThanOrEqual(2);
    // Nobody else's data, and no secret material.
    expect(JSON.stringify(doc)).not.toContain(other);
    expect(JSON.stringify(doc)).not.toMatch(/codeHash|"token"/);
  });

  it("refuses an erasure whose typed email is not the customer's, or without a reason, and erases nothing", async () => {
    const wrong = await call('POST', `/api/customers/${customerId}/erasure`, {
      confirmEmail: other,
      reason: 'Customer asked by email',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/does not match/);
    const noReason = await call('POST', `/api/customers/${customerId}/erasure`, { confirmEmail: email, reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error).toMatch(/reason/i);
    expect((await customerByEmail(key))?.name).toBe('Dana Privacy');
    const unknown = await call('POST', '/api/customers/0123456789abcdef01234567/erasure', {
      confirmEmail: email,
      reason: 'Customer asked by email',
    });
    expect(unknown.status).toBe(404);
  });

  it('erases the customer in every service, even one that is down at the time; figures stay', async () => {
    await support!.stop();
    support = undefined;
    const res = await call('POST', `/api/customers/${customerId}/erasure`, {
      confirmEmail: `  ${email.toUpperCase()} `,
      reason: 'Customer asked by email on 2026-11-20',
    });
    expect(res.status).toBe(200);
    const result = customerErasureResultSchema.parse(res.body);
    expect(result).toMatchObject({
      erased: true,
      alreadyErased: false,
      erasure: {
        customerId,
        requestedBy: 'admin:privacy-officer@shop.test',
        reason: 'Customer asked by email on 2026-11-20',
      },
    });
    const anonymous = `erased-${result.erasure.erasureId}@${erasedEmailDomain}`;

    // Customers: at once, in the same transaction as the event. Figures kept, no personal data, not found by name or email.
    const detail = customerDetailSchema.parse((await call('GET', `/api/customers/${customerId}`)).body).customer;
    expect(detail).toMatchObject({ name: erasedName, email: anonymous, phone: '', totalOrders: 2 });
    expect(detail.orders).toHaveLength(2);
    expect(detail.erasedAt).toBeTruthy();
    for (const q of ['dana', key, '555-0142']) {
      const list = customerListSchema.parse((await call('GET', `/api/customers?search=${encodeURIComponent(q)}`)).body);
      expect(list.customers.map((c) => c.id)).not.toContain(customerId);
    }
    const audit = await customers.ctx.models.PrivacyRequest.findOne({ customerId, kind: 'erasure' }).lean();
    expect(audit).toMatchObject({
      requestedBy: 'admin:privacy-officer@shop.test',
      reason: 'Customer asked by email on 2026-11-20',
    });
    expect(JSON.stringify(audit)).not.toContain(key);

    // Orders: no name, email, phone or address; totals stay; tracking by the old email reveals nothing.
    const { Order } = orders.ctx.models;
    const erasedOrders = await eventually(
      () => Order.find({ _id: { $in: placed.map((p) => p.id) } }).lean(),
      (os) => os.every((o) => o.email === anonymous),
    );
    for (const o of erasedOrders) {
      expect(o).toMatchObject({ customerName: erasedName, emailKey: anonymous });
      expect(o.phone).toBeUndefined();
      expect(o.shippingAddress).toBeUndefined();
      expect(o.estimatedTotal).toBeGreaterThan(0);
    }
    const track = await call('POST', '/api/orders/track', { orderNumber: placed[0].orderNumber, email }, {});
    expect(track.status).toBe(404);
    expect(JSON.stringify(track.body)).not.toMatch(/Dana|Austin/);
    expect(await Order.countDocuments({ emailKey: other })).toBe(1);

    // Marketing and email.
    const sub = await eventually(() => marketing.ctx.models.Subscriber.findOne({ email: anonymous }).lean(), Boolean);
    expect(sub).toMatchObject({ name: erasedName, phone: null, status: 'unsubscribed', emailSubscribed: false });
    const { Email } = emailService.ctx.models;
    await eventually(
      () => Email.countDocuments({ to: new RegExp(key.replace(/[.+]/g, '\\$&'), 'i') }),
      (n) => n === 0,
    );
    const mails = await Email.find({ to: anonymous }).lean();
    expect(mails.length).toBeGreaterThanOrEqual(2);
    for (const m of mails) expect(m).toMatchObject({ subject: erasedText, text: erasedText, status: 'failed' });
    expect(await Email.countDocuments({ text: /Dana/ })).toBe(0);

    // Support was down: once back, its durable consumer gets the event from the PRIVACY stream.
    await startSupport();
    const messages = await eventually(
      () => support!.ctx.models.SupportMessage.find({ email: anonymous }).lean(),
      (m) => m.length === 1,
    );
    expect(messages[0]).toMatchObject({ name: erasedName, subject: erasedText, message: erasedText });
    const known = await support!.ctx.models.KnownOrder.find({
      orderNumber: { $in: placed.map((p) => p.orderNumber) },
    }).lean();
    expect(known.map((k) => k.email)).toEqual([anonymous, anonymous]);
  });

  it('changes nothing when the event is replayed, and a second erasure answers that nothing changed', async () => {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info('PRIVACY');
    expect(info.config.max_age).toBe(eventStreams.PRIVACY.maxAgeMs * 1e6);
    const stored = await jsm.streams.getMessage('PRIVACY', { last_by_subj: 'privacy.erasure_requested' });
    const event = stored!.json<AnyEventEnvelope>();
    const before = {
      orders: await orders.ctx.models.Order.find({ _id: { $in: placed.map((p) => p.id) } }).lean(),
      customer: await customers.ctx.models.Customer.findById(customerId).lean(),
    };
    // The same erasure as a new message (a new event id: the consumers' processed marks do not skip it).
    const replay = { ...event, id: randomUUID() };
    await jetstream(nc).publish('privacy.erasure_requested', JSON.stringify(replay), { msgID: replay.id });
    await eventually(
      async () =>
        (await jsm.consumers.info('PRIVACY', 'orders--privacy-erasure_requested')).num_ack_pending +
        (await jsm.consumers.info('PRIVACY', 'orders--privacy-erasure_requested')).num_pending,
      (n) => n === 0,
    );
    await eventually(
      async () => (await jsm.consumers.info('PRIVACY', 'customers--privacy-erasure_requested')).num_pending,
      (n) => n === 0,
    );
    const after = {
      orders: await orders.ctx.models.Order.find({ _id: { $in: placed.map((p) => p.id) } }).lean(),
      customer: await customers.ctx.models.Customer.findById(customerId).lean(),
    };
    expect(after.orders.map((o) => o.updatedAt)).toEqual(before.orders.map((o) => o.updatedAt));
    expect(after.customer).toEqual(before.customer);

    const again = await call('POST', `/api/customers/${customerId}/erasure`, {
      confirmEmail: 'anything@example.com',
      reason: 'Asked twice',
    });
    expect(again.status).toBe(200);
    const result = customerErasureResultSchema.parse(again.body);
    expect(result).toMatchObject({
      erased: false,
      alreadyErased: true,
      erasure: { erasureId: event.data && (event.data as { erasureId: string }).erasureId },
    });
    expect(result.message).toMatch(/already erased.*Nothing changed/);
    expect(await customers.ctx.models.PrivacyRequest.countDocuments({ customerId, kind: 'erasure' })).toBe(1);

    // A new status change of an erased order still reaches the erased customer's figures.
    const paid = await call('PUT', `/api/orders/${placed[0].id}/status`, { status: 'paid' });
    expect(paid.status).toBe(200);
    await eventually(
      async () => (await customers.ctx.models.Customer.findById(customerId).lean())?.totalSpent ?? 0,
      (n) => n > 0,
    );
  });
});
