// SMS templates on the real marketing service: the tab's calls, a template firing on its shop event into
// the local development outbox, and the same through the real twilio SDK pointed at a local fake of
// Twilio's HTTP API (the SDK's own request, form body and basic auth as Twilio receives them).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketingStats, SmsMessage, SmsTemplate } from '@shop/contracts';
import type { StartedMongo, StartedNats } from '@shop/test-support';
import {
  call,
  consumed,
  eventually,
  orderCreated,
  publishEvent,
  startInfra,
  startMarketing,
  type MarketingService,
} from './support/harness.js';

const sid = `AC${'0123456789abcdef'.repeat(2)}`;

interface FakeTwilio {
  url: string;
  requests: { path: string; auth: string | undefined; body: URLSearchParams }[];
  stop(): Promise<void>;
}

async function startFakeTwilio(): Promise<FakeTwilio> {
  const requests: FakeTwilio['requests'] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = new URLSearchParams(raw);
      requests.push({ path: req.url ?? '', auth: req.headers.authorization, body });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          sid: `SM${requests.length.toString().padStart(32, '0')}`,
          status: 'queued',
          to: body.get('To'),
          from: body.get('From'),
          body: body.get('Body'),
          account_sid: sid,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as import('node:net').AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(['dev outbox', 'twilio'] as const)('SMS through the %s', (mode) => {
  let infra: { mongo: StartedMongo; nats: StartedNats };
  let marketing: MarketingService;
  let twilio: FakeTwilio | undefined;

  beforeAll(async () => {
    infra = await startInfra();
    if (mode === 'twilio') twilio = await startFakeTwilio();
    marketing = await startMarketing(
      infra,
      twilio
        ? {
            TWILIO_ACCOUNT_SID: sid,
            TWILIO_AUTH_TOKEN: 'test-auth-token',
            TWILIO_FROM: '+15005550006',
            TWILIO_API_URL: twilio.url,
          }
        : {},
    );
  });

  afterAll(async () => {
    await marketing?.stop();
    await twilio?.stop();
    await Promise.all([infra?.nats.stop(), infra?.mongo.stop()]);
  });

  it('creates, edits, activates one template per trigger, deletes; refuses bad input', async () => {
    const bad = await call(marketing, 'POST', '/api/marketing/sms', { name: 'x', content: 'y', trigger: 'birthday' });
    expect(bad.status).toBe(400);
    const a = (
      await call(marketing, 'POST', '/api/marketing/sms', {
        name: 'Old shipped',
        content: 'Shipped {orderNumber}',
        trigger: 'order_shipped',
      })
    ).body as { template: SmsTemplate };
    const b = (
      await call(marketing, 'POST', '/api/marketing/sms', {
        name: 'New shipped',
        content: 'On its way: {trackingNumber}',
        trigger: 'order_shipped',
      })
    ).body as { template: SmsTemplate };
    let { templates } = (await call(marketing, 'GET', '/api/marketing/sms')).body as { templates: SmsTemplate[] };
    expect(templates.find((t) => t.id === a.template.id)!.isActive).toBe(false);
    expect(templates.find((t) => t.id === b.template.id)).toMatchObject({ isActive: true, usageCount: 0 });
    await call(marketing, 'PATCH', `/api/marketing/sms/${a.template.id}`, {
      isActive: true,
      content: 'Shipped: {orderNumber}',
    });
    ({ templates } = (await call(marketing, 'GET', '/api/marketing/sms')).body as { templates: SmsTemplate[] });
    expect(templates.find((t) => t.id === a.template.id)).toMatchObject({
      isActive: true,
      content: 'Shipped: {orderNumber}',
    });
    expect(templates.find((t) => t.id === b.template.id)!.isActive).toBe(false);
    expect((await call(marketing, 'DELETE', `/api/marketing/sms/${b.template.id}`)).status).toBe(200);
    expect((await call(marketing, 'PATCH', `/api/marketing/sms/${b.template.id}`, { isActive: true })).status).toBe(
      404,
    );
  });

  it('a quote request from an SMS subscriber sends the active template once; others get nothing', async () => {
    const created = (
      await call(marketing, 'POST', '/api/marketing/sms', {
        name: 'Quote received',
        content: 'Hi {name}, we got quote request {orderNumber}.',
        trigger: 'quote_request_received',
      })
    ).body as { template: SmsTemplate };
    const order = orderCreated({
      customerName: 'Riley Stone',
      email: `riley-${mode.replace(' ', '')}@example.com`,
      subscribeSMS: true,
      phone: '(555) 010-2030',
    });
    const event = await publishEvent(infra.nats.url, 'order.created', 'orders', order);
    // The same event again (a redelivery under another message id) must not send a second SMS.
    await publishEvent(infra.nats.url, 'order.created', 'orders', order).catch(() => undefined);
    await publishEvent(infra.nats.url, 'order.created', 'orders', orderCreated({ email: 'quiet@example.com' }));
    await consumed(marketing, 'ORDERS', 'order.created');
    expect(event.id).toBeTruthy();

    const { messages } = await eventually(
      async () => (await call(marketing, 'GET', '/api/marketing/sms/outbox')).body as { messages: SmsMessage[] },
      // Both of Riley's messages sent (the consumer may handle the two events at once, in either order).
      (r) => r.messages.filter((m) => m.trigger === 'quote_request_received' && m.status === 'sent').length >= 2,
    );
    const sent = messages.filter((m) => m.trigger === 'quote_request_received');
    expect(sent).toHaveLength(2); // two quote requests from Riley (two events), none for the customer who did not opt in
    expect(sent[0]).toMatchObject({
      to: '+15550102030',
      body: `Hi Riley, we got quote request ${order.orderNumber}.`,
      provider: mode === 'twilio' ? 'twilio' : 'dev_outbox',
    });
    await eventually(
      async () =>
        ((await call(marketing, 'GET', '/api/marketing/sms')).body as { templates: SmsTemplate[] }).templates.find(
          (t) => t.id === created.template.id,
        )!.usageCount,
      (n) => n === 2,
    );
    if (twilio) {
      expect(twilio.requests).toHaveLength(2);
      expect(twilio.requests[0].path).toBe(`/2010-04-01/Accounts/${sid}/Messages.json`);
      expect(twilio.requests[0].auth).toBe(`Basic ${Buffer.from(`${sid}:test-auth-token`).toString('base64')}`);
      expect(twilio.requests[0].body.get('To')).toBe('+15550102030');
      expect(twilio.requests[0].body.get('From')).toBe('+15005550006');
    }
    const { stats } = (await call(marketing, 'GET', '/api/marketing/stats')).body as { stats: MarketingStats };
    expect(stats).toMatchObject({ totalSMS: 2, smsDeliveryRate: 100 });
    expect(stats.recentSms[0].body).toContain('Hi Riley');
  });
});
