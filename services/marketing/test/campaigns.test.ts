// Subscribers, campaigns, tracking and unsubscribe on the real marketing service and the real email
// service (embedded MongoDB, real nats-server, SMTP on loopback): opt-in from a quote request, the
// Subscribers tab's calls, a campaign delivered once per subscriber with the RFC 8058 headers, opens
// and clicks counted once, one-click and confirmation-page unsubscribe, a bounce, a scheduled send,
// and the stats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Campaign, MarketingStats, Subscriber } from '@shop/contracts';
import type { StartedMongo, StartedNats } from '@shop/test-support';
import {
  call,
  consumed,
  eventually,
  mimePart,
  orderCreated,
  publishEvent,
  shopUrl,
  startCapturingSmtp,
  startEmail,
  startInfra,
  startMarketing,
  type EmailService,
  type MarketingService,
} from './support/harness.js';

let infra: { mongo: StartedMongo; nats: StartedNats };
let marketing: MarketingService;
let email: EmailService;
let smtp: Awaited<ReturnType<typeof startCapturingSmtp>>;

beforeAll(async () => {
  infra = await startInfra();
  smtp = await startCapturingSmtp();
  [marketing, email] = await Promise.all([
    startMarketing(infra),
    startEmail(infra, { SMTP_URL: smtp.url, EMAIL_MAX_ATTEMPTS: '2', EMAIL_RETRY_BASE_MS: '100' }),
  ]);
});

afterAll(async () => {
  await Promise.all([marketing?.stop(), email?.stop()]);
  await smtp?.stop();
  await Promise.all([infra?.nats.stop(), infra?.mongo.stop()]);
});

async function addSubscriber(body: Record<string, unknown>) {
  const res = await call(marketing, 'POST', '/api/marketing/subscribers', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { subscriber: Subscriber }).subscriber;
}

async function campaign(id: string): Promise<Campaign> {
  const res = await call(marketing, 'GET', '/api/marketing/emails');
  return (res.body as { campaigns: Campaign[] }).campaigns.find((c) => c.id === id)!;
}

async function createCampaign(body: Record<string, unknown> = {}) {
  const res = await call(marketing, 'POST', '/api/marketing/emails', {
    name: 'Spring coins',
    type: 'promotion',
    subject: 'New coin finishes',
    content: 'Antique bronze is back.\n\nSee them at https://shop.example.com/coins. <script>alert(1)</script>',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { campaign: Campaign }).campaign;
}

/** Subscribers created for one test only get that test's campaign: others are unsubscribed first. */
async function onlyThese(ids: string[]) {
  await marketing.ctx.models.Subscriber.updateMany(
    { _id: { $nin: ids }, status: 'active' },
    { $set: { status: 'unsubscribed', emailSubscribed: false } },
  );
}

describe('subscribers', () => {
  it('adds with the spec defaults, refuses a duplicate and bad input with clear 4xx, toggles flags independently, removes', async () => {
    const added = await addSubscriber({ name: 'Ann Lee', email: 'Ann.Lee@Example.com' });
    expect(added).toMatchObject({
      email: 'ann.lee@example.com',
      category: 'general',
      emailSubscribed: true,
      smsSubscribed: false,
      status: 'active',
      emailOpens: 0,
      totalOrders: 0,
    });

    const dup = await call(marketing, 'POST', '/api/marketing/subscribers', {
      name: 'Ann again',
      email: 'ann.lee@example.com',
    });
    expect(dup.status).toBe(409);
    expect((dup.body as { error: string }).error).toBe('A subscriber with this email already exists');
    const bad = await call(marketing, 'POST', '/api/marketing/subscribers', { name: 'X', email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toMatch(/Email must be a valid email address/);
    const noName = await call(marketing, 'POST', '/api/marketing/subscribers', { email: 'n@example.com' });
    expect(noName.status).toBe(400);

    const smsWithoutPhone = await call(marketing, 'PATCH', `/api/marketing/subscribers/${added.id}`, {
      smsSubscribed: true,
    });
    expect(smsWithoutPhone.status).toBe(400);
    const phone = await call(marketing, 'PATCH', `/api/marketing/subscribers/${added.id}`, {
      phone: '(555) 123-4567',
      smsSubscribed: true,
    });
    expect((phone.body as { subscriber: Subscriber }).subscriber).toMatchObject({
      smsSubscribed: true,
      emailSubscribed: true,
      phone: '(555) 123-4567',
    });
    const emailOff = await call(marketing, 'PATCH', `/api/marketing/subscribers/${added.id}`, {
      emailSubscribed: false,
    });
    expect((emailOff.body as { subscriber: Subscriber }).subscriber).toMatchObject({
      smsSubscribed: true,
      emailSubscribed: false,
    });

    expect((await call(marketing, 'DELETE', `/api/marketing/subscribers/${added.id}`)).status).toBe(200);
    expect((await call(marketing, 'DELETE', `/api/marketing/subscribers/${added.id}`)).status).toBe(404);
    const list = (await call(marketing, 'GET', '/api/marketing/subscribers')).body as { subscribers: Subscriber[] };
    expect(list.subscribers.some((s) => s.id === added.id)).toBe(false);
  });

  it('a quote request that opts in makes a subscriber; later quote requests count in totalOrders', async () => {
    const first = orderCreated({
      email: 'Opt.In@Example.com',
      customerName: 'Opt In',
      subscribeEmail: true,
      subscribeSMS: true,
      phone: '555-987-6543',
      customerCategory: 'first_responder',
    });
    await publishEvent(infra.nats.url, 'order.created', 'orders', first);
    await publishEvent(
      infra.nats.url,
      'order.created',
      'orders',
      orderCreated({ email: 'opt.in@example.com', subscribeEmail: false }),
    );
    await publishEvent(infra.nats.url, 'order.created', 'orders', orderCreated({ email: 'no.thanks@example.com' }));
    await consumed(marketing, 'ORDERS', 'order.created');
    const { subscribers } = (await call(marketing, 'GET', '/api/marketing/subscribers')).body as {
      subscribers: Subscriber[];
    };
    expect(subscribers.find((s) => s.email === 'opt.in@example.com')).toMatchObject({
      name: 'Opt In',
      emailSubscribed: true,
      smsSubscribed: true,
      phone: '555-987-6543',
      category: 'first_responder',
      source: 'quote_request',
      totalOrders: 2,
    });
    expect(subscribers.some((s) => s.email === 'no.thanks@example.com')).toBe(false);
  });
});

describe('campaigns', () => {
  it('creates drafts, edits only drafts, and refuses bad input', async () => {
    const draft = await createCampaign();
    expect(draft).toMatchObject({
      status: 'draft',
      recipients: 0,
      sent: 0,
      opens: 0,
      clicks: 0,
      tags: [],
      sentDate: null,
    });
    const missing = await call(marketing, 'POST', '/api/marketing/emails', {
      name: 'x',
      type: 'promotion',
      subject: '',
      content: 'y',
    });
    expect(missing.status).toBe(400);
    expect(
      (await call(marketing, 'POST', '/api/marketing/emails', { name: 'x', type: 'flyer', subject: 's', content: 'y' }))
        .status,
    ).toBe(400);
    const edited = await call(marketing, 'PUT', `/api/marketing/emails/${draft.id}`, {
      name: 'Spring coins v2',
      type: 'newsletter',
      subject: 'Subject 2',
      content: 'Body 2',
    });
    expect((edited.body as { campaign: Campaign }).campaign).toMatchObject({
      name: 'Spring coins v2',
      type: 'newsletter',
      subject: 'Subject 2',
      status: 'draft',
    });
    expect(
      (
        await call(marketing, 'PUT', '/api/marketing/emails/nope', {
          name: 'a',
          type: 'newsletter',
          subject: 'b',
          content: 'c',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(marketing, 'POST', '/api/marketing/emails', {
          name: 'x',
          type: 'promotion',
          subject: 's',
          content: 'y',
          scheduledDate: new Date(Date.now() - 60_000).toISOString(),
        })
      ).status,
    ).toBe(400);
  });

  it('sends once per active email subscriber, in the layout with RFC 8058 headers; opens and clicks count once; unsubscribe and bounce', async () => {
    const a = await addSubscriber({ name: 'Alpha One', email: 'alpha@example.com' });
    const b = await addSubscriber({ name: 'Bravo Two', email: 'bravo@example.com' });
    const dead = await addSubscriber({ name: 'Dead Box', email: 'bounce-dead@example.com' });
    const noEmail = await addSubscriber({
      name: 'Sms Only',
      email: 'smsonly@example.com',
      emailSubscribed: false,
      phone: '5551234567',
      smsSubscribed: true,
    });
    await onlyThese([a.id, b.id, dead.id]);
    const draft = await createCampaign();
    const sent = await call(marketing, 'POST', `/api/marketing/emails/${draft.id}/send`);
    expect(sent.status).toBe(202);
    expect((sent.body as { campaign: Campaign }).campaign.status).toBe('sending');
    expect((await call(marketing, 'POST', `/api/marketing/emails/${draft.id}/send`)).status).toBe(409);
    expect(
      (
        await call(marketing, 'PUT', `/api/marketing/emails/${draft.id}`, {
          name: 'a',
          type: 'newsletter',
          subject: 'b',
          content: 'c',
        })
      ).status,
    ).toBe(409);

    const done = await eventually(
      () => campaign(draft.id),
      (c) => c.status === 'sent',
      30_000,
    );
    expect(done).toMatchObject({ recipients: 3, sent: 2, failed: 1 });
    expect(done.sentDate).not.toBeNull();
    const toAlpha = smtp.mails.filter((m) => m.to === 'alpha@example.com');
    expect(toAlpha).toHaveLength(1);
    expect(smtp.mails.filter((m) => m.to === 'bravo@example.com')).toHaveLength(1);
    expect(smtp.mails.some((m) => m.to === noEmail.email)).toBe(false);
    // Headers unfolded; the parts decoded (the email service writes them in base64).
    const raw = toAlpha[0].raw.replace(/\r\n\s+/g, ' ');
    const unsubscribeUrl = /List-Unsubscribe: <([^>]+)>/i.exec(raw)?.[1];
    expect(unsubscribeUrl).toMatch(new RegExp(`^${shopUrl}/api/marketing/unsubscribe/[A-Za-z0-9_-]{16,}$`));
    expect(raw).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/i);
    // The content is escaped into the HTML part, never injected (the text part shows it as typed).
    const htmlPart = mimePart(toAlpha[0].raw, 'text/html');
    expect(htmlPart).not.toContain('<script>');
    expect(htmlPart).toContain('&lt;script&gt;');
    expect(htmlPart).toContain('Tactical Gear Co.');
    expect(mimePart(toAlpha[0].raw, 'text/plain')).toContain('Antique bronze is back.');
    const token = unsubscribeUrl!.split('/').at(-1)!;

    // The bounce: the SMTP server refused bounce-dead@ with 550, the email service reported it permanent.
    const bounced = await eventually(
      async () => (await marketing.ctx.models.Subscriber.findById(dead.id).lean())!,
      (s) => s.status === 'bounced',
    );
    expect(bounced.bouncedAt).not.toBeNull();

    // Opens and clicks, each once per subscriber.
    for (let i = 0; i < 2; i++) {
      const open = await marketing.app.inject({ method: 'GET', url: `/api/marketing/track/open/${token}` });
      expect(open.statusCode).toBe(200);
      expect(open.headers['content-type']).toBe('image/gif');
      const click = await marketing.app.inject({ method: 'GET', url: `/api/marketing/track/click/${token}/0` });
      expect(click.statusCode).toBe(302);
      expect(click.headers.location).toBe('https://shop.example.com/coins');
    }
    expect(
      (await marketing.app.inject({ method: 'GET', url: `/api/marketing/track/click/${token}/7` })).statusCode,
    ).toBe(404);
    const bravoToken = (await marketing.ctx.models.CampaignDelivery.findOne({
      campaignId: draft.id,
      subscriberId: b.id,
    }).lean())!.token;
    await marketing.app.inject({ method: 'GET', url: `/api/marketing/track/open/${bravoToken}` });
    const counted = await campaign(draft.id);
    expect(counted).toMatchObject({ opens: 2, clicks: 1, openRate: 100, clickRate: 50 });
    expect((await marketing.ctx.models.Subscriber.findById(a.id).lean())!.emailOpens).toBe(1);

    // The visible link's page does not unsubscribe; its button (a POST) and the one-click POST do.
    const page = await marketing.app.inject({ method: 'GET', url: `/api/marketing/unsubscribe/${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post">');
    expect((await marketing.ctx.models.Subscriber.findById(a.id).lean())!.status).toBe('active');
    const oneClick = await marketing.app.inject({
      method: 'POST',
      url: `/api/marketing/unsubscribe/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(await marketing.ctx.models.Subscriber.findById(a.id).lean()).toMatchObject({
      status: 'unsubscribed',
      emailSubscribed: false,
    });
    const byButton = await marketing.app.inject({
      method: 'POST',
      url: `/api/marketing/unsubscribe/${bravoToken}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(byButton.body).toContain('You are unsubscribed');
    expect((await marketing.ctx.models.Subscriber.findById(b.id).lean())!.status).toBe('unsubscribed');
    expect(
      (await marketing.app.inject({ method: 'GET', url: '/api/marketing/unsubscribe/AAAAAAAAAAAAAAAAAAAAAAAA' }))
        .statusCode,
    ).toBe(404);

    // The next campaign reaches nobody of them: unsubscribed and bounced are left out.
    const next = await createCampaign({ name: 'Second' });
    await call(marketing, 'POST', `/api/marketing/emails/${next.id}/send`);
    expect(
      await eventually(
        () => campaign(next.id),
        (c) => c.status === 'sent',
      ),
    ).toMatchObject({ recipients: 0, sent: 0 });

    // Revenue from marketing: alpha pays within 30 days of the campaign email.
    await publishEvent(infra.nats.url, 'order.paid', 'orders', {
      orderId: 'paid-1',
      orderNumber: 'CC-900001',
      customerName: 'Alpha One',
      email: 'alpha@example.com',
      itemType: 'coin',
      quantity: 100,
      amount: 512.5,
      paymentIntentId: 'pi_test_1',
      provider: 'test_mode',
      paidAt: new Date().toISOString(),
    });
    await publishEvent(infra.nats.url, 'order.paid', 'orders', {
      orderId: 'paid-2',
      orderNumber: 'CC-900002',
      customerName: 'Stranger',
      email: 'stranger@example.com',
      itemType: 'coin',
      quantity: 100,
      amount: 99,
      paymentIntentId: 'pi_test_2',
      provider: 'test_mode',
      paidAt: new Date().toISOString(),
    });
    await consumed(marketing, 'ORDERS', 'order.paid');
    const { stats } = (await call(marketing, 'GET', '/api/marketing/stats')).body as { stats: MarketingStats };
    expect(stats).toMatchObject({ totalEmails: 2, emailOpenRate: 100, revenueFromMarketing: 512.5 });
    expect(stats.subscriberGrowth).toHaveLength(30);
  });

  it('sends a scheduled campaign at its time, not before', async () => {
    const c = await addSubscriber({ name: 'Charlie Three', email: 'charlie@example.com' });
    await onlyThese([c.id]);
    const at = new Date(Date.now() + 2500);
    const scheduled = await createCampaign({ name: 'Scheduled', scheduledDate: at.toISOString() });
    expect(scheduled.status).toBe('scheduled');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await campaign(scheduled.id)).status).toBe('scheduled');
    const sent = await eventually(
      () => campaign(scheduled.id),
      (x) => x.status === 'sent',
      20_000,
    );
    expect(sent.recipients).toBe(1);
    const mail = await eventually(
      () => smtp.mails.filter((m) => m.to === 'charlie@example.com'),
      (m) => m.length === 1,
    );
    expect(mail).toHaveLength(1);
  });
});
