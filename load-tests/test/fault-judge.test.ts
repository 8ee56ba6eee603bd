// The fault suite's judge must see what it is there to see: a missing order, a doubled one, a missing or
// doubled email, a customer projection that does not match, an event stuck in an outbox. Seeded into a
// real embedded MongoDB and a real development mailbox (over SMTP), then judged.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { startDevMailbox, type DevMailbox } from '@shop/dev-mailbox';
import { startMongo, type StartedMongo } from '@shop/test-support';
import { Judge } from '../src/faults/checks.js';
import type { Outcome } from '../src/faults/shop-client.js';

let mongo: StartedMongo;
let mailbox: DevMailbox;
let client: MongoClient;
let judge: Judge;

/** One message over plain SMTP, the way the email service hands mail to the mailbox. */
function sendMail(to: string, subject: string): Promise<void> {
  const port = Number(new URL(mailbox.smtpUrl).port);
  const lines = [
    'EHLO judge.test',
    'MAIL FROM:<orders@shop.local>',
    `RCPT TO:<${to}>`,
    'DATA',
    `Subject: ${subject}\r\nTo: ${to}\r\n\r\nHello\r\n.`,
    'QUIT',
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let step = 0;
    let buffer = '';
    socket.on('data', (data) => {
      buffer += data.toString();
      // A reply is complete at its last line, "NNN text" (continuation lines are "NNN-text").
      if (!/^\d{3} .*\r\n$/m.test(buffer)) return;
      if (/^[45]\d\d /m.test(buffer)) reject(new Error(buffer));
      buffer = '';
      if (step < lines.length) socket.write(lines[step++] + '\r\n');
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}

const quote = (email: string, orderNumber: string): Outcome => ({
  operation: 'quote',
  fault: 'test',
  startedAt: Date.now(),
  ms: 10,
  status: 201,
  attempts: 1,
  attemptStatuses: [201],
  longestAttemptMs: 10,
  email,
  orderNumber,
});

beforeAll(async () => {
  mongo = await startMongo();
  mailbox = await startDevMailbox();
  client = new MongoClient(mongo.uri);
  judge = new Judge(mongo.uri, mailbox.httpUrl);
  const orders = client.db('shop_orders').collection('orders');
  const customers = client.db('shop_customers').collection('customers');
  await orders.insertMany([
    { _id: 'o-good' as never, emailKey: 'good@example.com', status: 'pending_quote', statusHistory: [] },
    { _id: 'o-twice-1' as never, emailKey: 'twice@example.com', status: 'pending_quote', statusHistory: [] },
    { _id: 'o-twice-2' as never, emailKey: 'twice@example.com', status: 'pending_quote', statusHistory: [] },
    { _id: 'o-nomail' as never, emailKey: 'nomail@example.com', status: 'paid', statusHistory: [] },
  ]);
  await customers.insertMany([
    { email: 'good@example.com', orderCount: 1, spentOrders: 0 },
    { email: 'twice@example.com', orderCount: 2, spentOrders: 0 },
    { email: 'nomail@example.com', orderCount: 1, spentOrders: 0 },
  ]);
  await sendMail('good@example.com', 'Quote request received: order CC-1');
  await sendMail('twice@example.com', 'Quote request received: order CC-2');
  await sendMail('twice@example.com', 'Quote request received: order CC-2');
}, 60_000);

afterAll(async () => {
  await judge?.close();
  await client?.close();
  await mailbox?.stop();
  await mongo?.stop();
});

describe('fault suite judge', () => {
  it('passes a quote request that left one order, one confirmation and a matching customer', async () => {
    const result = await judge.check([quote('good@example.com', 'CC-1')]);
    expect(result.problems).toEqual([]);
  });

  it('counts a lost order, a duplicated order and a duplicated confirmation', async () => {
    const result = await judge.check([quote('lost@example.com', 'CC-0'), quote('twice@example.com', 'CC-2')]);
    expect(result.lost).toBe(1);
    expect(result.duplicates).toBe(2);
    expect(result.problems.map((p) => p.what).join('\n')).toMatch(
      /order of quote request CC-0 \(lost@example.com\): none/,
    );
  });

  it('counts a missing confirmation and customer figures that do not match the orders as undelivered', async () => {
    const result = await judge.check([quote('nomail@example.com', 'CC-3')]);
    expect(result.lost).toBe(0);
    expect(result.undelivered).toBe(2);
    expect(result.problems.map((p) => p.what).join('\n')).toMatch(/1 orders, 0 paid; orders say 1 orders, 1 paid/);
  });

  it('reports events still waiting in an outbox', async () => {
    await client.db('shop_payments').collection('outbox').insertOne({ status: 'pending', type: 'payment.succeeded' });
    expect(await judge.pendingOutbox()).toEqual({ payments: 1 });
    const result = await judge.check([quote('good@example.com', 'CC-1')]);
    expect(result.problems).toEqual([{ kind: 'undelivered', what: 'payments: 1 events still in the outbox' }]);
  });
});
