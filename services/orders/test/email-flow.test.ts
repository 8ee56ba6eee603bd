// The quote flow across services with real parts only: a quote request, Apply Quote in the back office,
// the email service (its real app, same MongoDB server and nats-server) sends the quote over SMTP to the
// dev mailbox with the absolute payment link, and email.sent fills the order's email history.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { adminOrderResponseSchema, createEvent, type CreateOrderResponse } from '@shop/contracts';
import { startDevMailbox, type DevMailbox } from '@shop/dev-mailbox';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp as buildOrders } from '../src/app.js';
import { loadConfig as ordersConfig } from '../src/config.js';
// The email service is started from its source as the other half of the flow (a test-only dependency).
import { buildApp as buildEmail } from '../../email/src/app.js';
import { loadConfig as emailConfig } from '../../email/src/config.js';
import { coinOrder, eventually, postJson, startStandInPayments, type StandInPayments } from './helpers.js';
import { adminHeaders } from '@shop/service-kit/testing';

/** The gateway's signed identity of the admin (the orders service checks it on admin routes). */
const admin = adminHeaders('boss@shop.test');

let mongo: StartedMongo;
let nats: StartedNats;
let mailbox: DevMailbox;
let orders: Awaited<ReturnType<typeof buildOrders>>;
let email: Awaited<ReturnType<typeof buildEmail>>;
let url: string;
let payments: StandInPayments;

beforeAll(async () => {
  [mongo, nats, mailbox] = await Promise.all([startMongo(), startNats(), startDevMailbox()]);
  orders = await buildOrders(
    ordersConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent' }),
    { relay: { sweepIntervalMs: 200 } },
  );
  email = await buildEmail(
    emailConfig({
      PORT: '0',
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
      SMTP_URL: mailbox.smtpUrl,
      SHOP_URL: 'http://127.0.0.1:8080',
      EMAIL_POLL_INTERVAL_MS: '100',
    }),
    { relay: { sweepIntervalMs: 200 } },
  );
  url = await orders.start();
  await email.start();
  payments = await startStandInPayments(nats.url);
}, 60_000);

afterAll(async () => {
  await payments?.stop();
  await orders?.stop();
  await email?.stop();
  await Promise.all([mongo?.stop(), nats?.stop(), mailbox?.stop()]);
});

it('Apply Quote emails the customer the quote with a working payment link, and the history shows it sent', async () => {
  const created = await postJson<CreateOrderResponse>(`${url}/api/orders`, coinOrder({ email: 'flow@example.com' }));
  expect(created.status).toBe(201);
  const id = created.body.order.id;
  const emailHistory = async () =>
    adminOrderResponseSchema.parse(await (await fetch(`${url}/api/orders/${id}/details`, { headers: admin })).json())
      .order.emailHistory;
  // The quote is applied once the confirmation has gone out, as in the shop (an administrator prices a request
  // later): two emails in one claim of the email worker go out concurrently, and the history orders by sentAt.
  const confirmed = await eventually(emailHistory, (h) => h.length === 1 && h[0].status === 'sent');
  expect(confirmed.map((e) => e.subject.split(':')[0])).toEqual(['Quote request received']);
  const quote = await postJson(
    `${url}/api/orders/${id}/generate-quote`,
    { quoteAmount: 999.99, quoteNotes: 'Rush production' },
    admin,
  );
  expect(quote.status).toBe(200);

  const mail = await mailbox.waitFor((m) => m.to.includes('flow@example.com') && m.subject.startsWith('Your quote'));
  // Shipped to TX (6.25% in the stand-in table): 999.99 + 62.50 tax.
  expect(mail.subject).toBe(`Your quote for order #${created.body.order.orderNumber}: $1,062.49`);
  expect(mail.text).toMatch(/Subtotal: \$999\.99/);
  expect(mail.text).toMatch(/Tax \(6\.25%\): \$62\.50/);
  expect(mail.text).toContain(`http://127.0.0.1:8080/order/pay/${id}`);
  expect(mail.text).toContain('Rush production');

  const history = await eventually(emailHistory, (h) => h.length === 2 && h.every((e) => e.status === 'sent'));
  // Newest first: the quote, then the confirmation sent when the order was placed.
  expect(history.map((e) => [e.subject.split(':')[0], e.status])).toEqual([
    [`Your quote for order #${created.body.order.orderNumber}`, 'sent'],
    [`Quote request received`, 'sent'],
  ]);
  expect(history[0].preview).toMatch(/^Your quote is ready/);
}, 60_000);

it('a payment from the provider: the order is paid, the customer gets exactly one email (the receipt), shown sent in the history', async () => {
  const created = await postJson<CreateOrderResponse>(`${url}/api/orders`, coinOrder({ email: 'payer@example.com' }));
  const id = created.body.order.id;
  const orderNumber = created.body.order.orderNumber;
  expect((await postJson(`${url}/api/orders/${id}/generate-quote`, { quoteAmount: 1000 }, admin)).status).toBe(200);
  await mailbox.waitFor((m) => m.to.includes('payer@example.com') && m.subject.startsWith('Your quote'));

  const nc = await connect({ servers: nats.url });
  try {
    const event = createEvent('payment.succeeded', 'payments', {
      orderId: id,
      orderNumber,
      paymentIntentId: 'pi_flow',
      amount: 106250,
      currency: 'usd',
      provider: 'test_mode',
      paidAt: new Date().toISOString(),
    });
    await jetstream(nc).publish('payment.succeeded', JSON.stringify(event), { msgID: event.id });
  } finally {
    await nc.close();
  }
  const receipt = await mailbox.waitFor(
    (m) => m.to.includes('payer@example.com') && m.subject.startsWith('Payment received'),
  );
  expect(receipt.subject).toBe(`Payment received for order #${orderNumber}`);
  expect(receipt.text).toContain('Total charged: $1,062.50');
  expect(receipt.text).toContain('Payment reference: pi_flow');

  const history = await eventually(
    async () =>
      adminOrderResponseSchema.parse(await (await fetch(`${url}/api/orders/${id}/details`, { headers: admin })).json())
        .order,
    (o) => o.emailHistory.length === 3 && o.emailHistory.every((e) => e.status === 'sent'),
  );
  expect(history.status).toBe('paid');
  expect(history.emailHistory.map((e) => e.subject.split(':')[0])).toEqual([
    `Payment received for order #${orderNumber}`,
    `Your quote for order #${orderNumber}`,
    'Quote request received',
  ]);
  // Confirmation, quote, receipt: no status-update email besides the receipt.
  expect(await mailbox.messages({ to: 'payer@example.com' })).toHaveLength(3);
}, 60_000);
