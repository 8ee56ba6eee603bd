// Events become emails exactly once, sent over real SMTP to the dev mailbox: the order confirmation and
// the admin's new-order notification from order.created (delivered twice on JetStream), the
// verification code from customer.verification_requested, the admin settings, and the mailbox API.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailboxListSchema, type ErrorEnvelope, type EventData, type EventType } from '@shop/contracts';
import type { DevMailbox } from '@shop/dev-mailbox';
import { orderCreatedData, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { adminHeaders } from '@shop/service-kit/testing';
import {
  consumed as consumedBy,
  eventually,
  publishEvent,
  startEmailStack,
  stopEmailStack,
  type EmailService,
  type EmailStack,
} from './support/harness.js';

/** The gateway's signed identity of an admin (the email service checks it on its admin routes). */
const asAdmin = adminHeaders('ops@shop.test');

let stack: EmailStack;
let mongo: StartedMongo;
let nats: StartedNats;
let mailbox: DevMailbox;
let service: EmailService;
let url: string;
const admin = 'quotes-desk@shop.test';

beforeAll(async () => {
  stack = await startEmailStack(admin);
  ({ mongo, nats, mailbox, service, url } = stack);
});

afterAll(() => stopEmailStack(stack));

beforeEach(async () => {
  await service.ctx.models.AdminSettings.deleteMany({});
});

const publish = <T extends EventType>(type: T, source: 'orders' | 'customers', data: EventData<T>, copies = 1) =>
  publishEvent(nats.url, type, source, data, copies);
/** Every copy of the event acknowledged by the email service's consumer. */
const consumed = (stream: string, durable: string) => consumedBy(service, stream, durable);

function order(overrides: Partial<EventData<'order.created'>> = {}): EventData<'order.created'> {
  return orderCreatedData({
    taxExempt: true,
    shippingAddress: { line1: '1 Main St', line2: '', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    statusLabel: 'Quote Pending',
    description: 'Unit crest with eagle, gold on black',
    size: '2',
    colors: ['Gold', 'Black'],
    finish: 'antique_gold',
    ...overrides,
  });
}

describe('order.created', () => {
  it('sends one confirmation and one admin notification even when the event is delivered twice', async () => {
    const data = order();
    const event = await publish('order.created', 'orders', data, 2);
    const confirmation = await mailbox.waitFor((m) => m.to.includes(data.email));
    const notification = await mailbox.waitFor((m) => m.to.includes(admin) && m.subject.includes(data.orderNumber));
    await consumed('ORDERS', 'email--order-created');
    // Let the worker finish anything it might still send.
    await eventually(
      () => service.ctx.models.Email.countDocuments({ sourceEventId: event.id, status: { $ne: 'sent' } }),
      (n) => n === 0,
    );

    expect(await mailbox.messages({ to: data.email })).toHaveLength(1);
    expect((await mailbox.messages({ to: admin })).filter((m) => m.subject.includes(data.orderNumber))).toHaveLength(1);
    expect(await service.ctx.models.Email.countDocuments({ sourceEventId: event.id })).toBe(2);

    expect(confirmation.subject).toBe(`Quote request received: order ${data.orderNumber}`);
    expect(confirmation.from).toBe('orders@shop.local');
    for (const part of [confirmation.text, confirmation.html]) {
      expect(part).toContain(data.orderNumber);
      expect(part).toContain('Custom Challenge Coins');
      expect(part).toContain('$1,170.00');
      expect(part).toContain('Quote Pending');
      expect(part).toContain('within 24 hours');
      expect(part).toContain('https://shop.example.com/track');
    }
    expect(confirmation.text).toMatch(/Quantity: 50/);

    expect(notification.subject).toBe(`New quote request ${data.orderNumber}: 50 x Custom Challenge Coins ($1,170.00)`);
    for (const part of [notification.text, notification.html]) {
      expect(part).toContain(data.email);
      expect(part).toContain('Jordan Lee');
      expect(part).toContain('Military Personnel');
      expect(part).toContain('Unit crest with eagle, gold on black');
      expect(part).toContain('Austin, TX 78701');
    }

    // Each sent email is announced with email.sent through the outbox, naming the event that caused it.
    const announced = await eventually(
      () => service.ctx.bus.outbox.find({ type: 'email.sent', 'event.data.causationId': event.id }).lean(),
      (docs) => docs.length === 2,
    );
    expect(announced.map((d) => (d.event as { data: { template: string } }).data.template).sort()).toEqual([
      'admin_new_order',
      'order_confirmation',
    ]);
    expect((announced[0].event as { data: Record<string, unknown> }).data).toMatchObject({
      orderId: data.orderId,
      orderNumber: data.orderNumber,
      preview: expect.stringContaining(data.orderNumber) as unknown,
    });
  });

  it('escapes what the customer typed', async () => {
    const data = order({
      customerName: '<script>alert(1)</script> Lee',
      description: '<img src=x onerror=alert(1)> & "quotes"',
    });
    await publish('order.created', 'orders', data);
    const notification = await mailbox.waitFor((m) => m.to.includes(admin) && m.subject.includes(data.orderNumber));
    expect(notification.html).not.toContain('<script>');
    expect(notification.html).not.toContain('<img src=x');
    expect(notification.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Lee');
    expect(notification.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
    expect(notification.text).toContain('<img src=x onerror=alert(1)> & "quotes"');
  });

  it('follows the admin settings: another address, or no notification at all', async () => {
    await service.ctx.models.AdminSettings.create({
      _id: 'admin',
      notificationEmail: 'owner@shop.test',
      emailNotificationsEnabled: true,
    });
    const first = order();
    await publish('order.created', 'orders', first);
    await mailbox.waitFor((m) => m.to.includes('owner@shop.test') && m.subject.includes(first.orderNumber));

    await service.ctx.models.AdminSettings.updateOne({ _id: 'admin' }, { $set: { emailNotificationsEnabled: false } });
    const second = order();
    const event = await publish('order.created', 'orders', second);
    await mailbox.waitFor((m) => m.to.includes(second.email));
    await consumed('ORDERS', 'email--order-created');
    const queued = await service.ctx.models.Email.find({ sourceEventId: event.id }).lean();
    expect(queued.map((e) => e.template)).toEqual(['order_confirmation']);
    expect(
      (await mailbox.messages()).filter((m) => m.subject.includes(second.orderNumber) && !m.to.includes(second.email)),
    ).toEqual([]);
  });
});

describe('admin settings', () => {
  it('reads the default from the environment, saves a change and refuses a bad address', async () => {
    const initial = await (await fetch(`${url}/api/admin/settings`, { headers: asAdmin })).json();
    expect(initial).toEqual({ success: true, settings: { notificationEmail: admin, emailNotificationsEnabled: true } });
    const put = await fetch(`${url}/api/admin/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...asAdmin },
      body: JSON.stringify({ notificationEmail: 'desk@shop.test', emailNotificationsEnabled: false }),
    });
    expect(put.status).toBe(200);
    expect(
      ((await (await fetch(`${url}/api/admin/settings`, { headers: asAdmin })).json()) as { settings: unknown })
        .settings,
    ).toEqual({ notificationEmail: 'desk@shop.test', emailNotificationsEnabled: false });
    const bad = await fetch(`${url}/api/admin/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...asAdmin },
      body: JSON.stringify({ notificationEmail: 'not-an-email', emailNotificationsEnabled: true }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/Notification email must be a valid email address/);
  });
});

describe('customer.verification_requested', () => {
  it('emails the code to the customer, once', async () => {
    const email = `returning-${randomUUID().slice(0, 8)}@example.com`;
    const expiresAt = new Date(Date.now() + 10 * 60_000).toISOString();
    const event = await publish(
      'customer.verification_requested',
      'customers',
      { email, customerName: 'Sam Ortiz', code: '042917', expiresAt },
      2,
    );
    const message = await mailbox.waitFor((m) => m.to.includes(email));
    expect(message.subject).toBe('Your Tactical Gear Co. verification code');
    expect(message.text).toContain('Your verification code is 042917');
    expect(message.text).toContain('valid for 10 minutes');
    expect(message.html).toContain('042917');
    expect(message.text).toContain('Welcome back, Sam!');
    await consumed('CUSTOMERS', 'email--customer-verification_requested');
    await eventually(
      () => service.ctx.models.Email.countDocuments({ sourceEventId: event.id, status: 'sent' }),
      (n) => n === 1,
    );
    expect(await mailbox.messages({ to: email })).toHaveLength(1);
  });

  it('sends nothing for a code that expired before the event arrived (e.g. after an outage)', async () => {
    const email = `late-${randomUUID().slice(0, 8)}@example.com`;
    const expiresAt = new Date(Date.now() - 60_000).toISOString();
    const event = await publish('customer.verification_requested', 'customers', {
      email,
      customerName: 'Sam Ortiz',
      code: '731904',
      expiresAt,
    });
    // The processed mark is written in the handler's transaction: once it is there, the decision is made.
    await eventually(
      () => service.ctx.bus.processed.countDocuments({ _id: event.id }),
      (n) => n === 1,
    );
    expect(await service.ctx.models.Email.countDocuments({ sourceEventId: event.id })).toBe(0);
    expect(await service.ctx.models.Email.countDocuments({ to: email })).toBe(0);
    expect(await mailbox.messages({ to: email })).toEqual([]);
  });
});

describe('GET /api/debug/mailbox', () => {
  it('lists the local mailbox newest first, filtered by recipient, and clears it', async () => {
    const email = `mailbox-${randomUUID().slice(0, 8)}@example.com`;
    for (const code of ['111111', '222222']) {
      await publish('customer.verification_requested', 'customers', {
        email,
        customerName: 'Sam',
        code,
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      });
      await mailbox.waitFor((m) => m.to.includes(email) && m.text.includes(code));
    }
    const res = await fetch(`${url}/api/debug/mailbox?to=${encodeURIComponent(email.toUpperCase())}`, {
      headers: asAdmin,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const list = mailboxListSchema.parse(await res.json());
    expect(list.messages.map((m) => /is (\d{6})/.exec(m.text)?.[1])).toEqual(['222222', '111111']);
    const latest = mailboxListSchema.parse(
      await (
        await fetch(`${url}/api/debug/mailbox?to=${encodeURIComponent(email)}&limit=1`, { headers: asAdmin })
      ).json(),
    );
    expect(latest.messages).toHaveLength(1);
    expect((await fetch(`${url}/api/debug/mailbox?limit=0`, { headers: asAdmin })).status).toBe(400);

    expect((await fetch(`${url}/api/debug/mailbox`, { method: 'DELETE', headers: asAdmin })).status).toBe(200);
    expect(await mailbox.messages()).toEqual([]);
  });

  it('is not there without a local mailbox, nor in production', async () => {
    const other = await buildApp(
      loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent' }),
      { manualWorker: true },
    );
    const res = await other.app.inject({ method: 'GET', url: '/api/debug/mailbox', headers: asAdmin });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'MAILBOX_NOT_AVAILABLE',
      error: expect.stringMatching(/only available when the shop runs on this machine/) as unknown,
    });
    await other.app.close();
    const production = await buildApp(
      loadConfig({
        PORT: '0',
        MONGO_URL: mongo.uri,
        NATS_URL: nats.url,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        DEV_MAILBOX_URL: mailbox.httpUrl,
      }),
      { manualWorker: true },
    );
    // In production the route does not exist at all, even with a mailbox configured.
    for (const method of ['GET', 'DELETE'] as const) {
      const refused = await production.app.inject({ method, url: '/api/debug/mailbox', headers: asAdmin });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect(refused.json<ErrorEnvelope>().code).not.toBe('MAILBOX_NOT_AVAILABLE');
    }
    const openapi = await production.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(Object.keys(openapi.json<{ paths: Record<string, unknown> }>().paths)).not.toContain('/api/debug/mailbox');
    await production.app.close();
  });
});

describe('email configuration', () => {
  it('refuses a bad SMTP_URL, admin address or a mailbox off this machine', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL must look like smtp:\/\/host:port/);
    expect(() => loadConfig({ ADMIN_NOTIFICATION_EMAIL: 'nobody' })).toThrow(/ADMIN_NOTIFICATION_EMAIL/);
    expect(() => loadConfig({ DEV_MAILBOX_URL: 'http://mail.example.com:2526' })).toThrow(
      /DEV_MAILBOX_URL must be a loopback/,
    );
    expect(loadConfig({}).email).toMatchObject({
      smtpUrl: 'smtp://127.0.0.1:2525',
      from: 'Tactical Gear Co. <orders@shop.local>',
      devMailboxUrl: undefined,
    });
  });
});
