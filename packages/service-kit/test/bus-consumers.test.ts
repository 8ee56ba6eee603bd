// Consumers handle events in batches (issue 20): the events waiting when the consumer is free go through
// one transaction together, in stream order, each acted on once; an event that fails its batch is
// retried alone while the others of the batch commit; irrelevant events are acked without a
// transaction, and callbacks run after the commit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { createEvent } from '@shop/contracts';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { consumeEvent, consumeEventBatches, createService, loadServiceConfig } from '../src/index.js';
import { eventually, LogLines, orderCreatedData, projectionModels, type CustomersLikeService } from './helpers.js';

let mongo: StartedMongo;
let nats: StartedNats;
let service: CustomersLikeService;

/** Order numbers in the order their handling started, across every attempt. */
const started: string[] = [];
/** The transaction each handling ran in (session id and transaction number), by order number, last attempt. */
const sessionOf = new Map<string, string>();
/** What each after-commit callback saw: the event's processed mark, read outside the transaction. */
const afterCommitSaw = new Map<string, boolean>();
/** Order numbers whose handler fails this many more times. */
const failuresLeft = new Map<string, number>();
/** The email ids of each email.sent batch (a consumer that gathers its batches: `gatherMs`). */
const gatheredBatches: string[][] = [];
let releaseFirst!: () => void;
const firstMayFinish = new Promise<void>((resolve) => (releaseFirst = resolve));

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  service = await createService({
    name: 'customers',
    config: loadServiceConfig(
      { HOST: '127.0.0.1', PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'warn' },
      { port: 0 },
    ),
    logDestination: new LogLines(),
    models: projectionModels,
    routes() {},
    consumers: (ctx) => [
      consumeEvent(
        'order.created',
        async (event, { session, afterCommit }) => {
          const { orderNumber } = event.data;
          started.push(orderNumber);
          sessionOf.set(orderNumber, `${JSON.stringify(session.id)}:${session.serverSession?.txnNumber}`);
          // The first event holds its batch until the test has published the rest: they gather meanwhile.
          if (orderNumber === 'A-0') await firstMayFinish;
          await ctx.models.Projection.updateOne(
            { _id: orderNumber },
            { $set: { orderNumber }, $inc: { timesActed: 1 } },
            { upsert: true, session },
          );
          const left = failuresLeft.get(orderNumber) ?? 0;
          if (left > 0) {
            failuresLeft.set(orderNumber, left - 1);
            throw new Error(`${orderNumber} fails on purpose`);
          }
          afterCommit(() => {
            void ctx.bus.processed.exists({ _id: event.id }).then((mark) => {
              afterCommitSaw.set(orderNumber, mark !== null);
            });
          });
        },
        // Small batches: the six events below fill one and a half, so gathering waits for a full batch too.
        { batchSize: 4, relevant: (event) => !event.data.orderNumber.startsWith('SKIP') },
      ),
      consumeEventBatches(
        'email.sent',
        async (events) => {
          gatheredBatches.push(events.map((event) => event.data.emailId));
        },
        { batchSize: 5, gatherMs: 400 },
      ),
    ],
  });
  await service.start();
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await nats?.stop();
  await mongo?.stop();
});

async function publish(orderNumbers: string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const nc = await connect({ servers: nats.url });
  try {
    const js = jetstream(nc);
    for (const orderNumber of orderNumbers) {
      const event = createEvent('order.created', 'orders', orderCreatedData(orderNumber));
      ids.set(orderNumber, event.id);
      await js.publish('order.created', JSON.stringify(event), { msgID: event.id });
    }
  } finally {
    await nc.close();
  }
  return ids;
}

async function publishEmailSent(emailIds: string[], gapMs = 0) {
  const nc = await connect({ servers: nats.url });
  try {
    const js = jetstream(nc);
    for (const emailId of emailIds) {
      const event = createEvent('email.sent', 'email', {
        emailId,
        to: 'someone@example.com',
        subject: 'Hello',
        template: 'test',
        sentAt: new Date().toISOString(),
      });
      await js.publish('email.sent.other', JSON.stringify(event), { msgID: event.id });
      if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
    }
  } finally {
    await nc.close();
  }
}

async function allAcked() {
  const jsm = await jetstreamManager(service.ctx.bus.connection!);
  const info = await jsm.consumers.info('ORDERS', 'customers--order-created');
  return info.num_pending === 0 && info.num_ack_pending === 0;
}

async function timesActed(numbers: string[]) {
  const acted = await service.ctx.bus.processed.db
    .collection<{ _id: string; timesActed: number }>('order_projection')
    .find({ _id: { $in: numbers } })
    .toArray();
  return numbers.map((n) => acted.find((p) => p._id === n)?.timesActed ?? 0);
}

describe('event consumers in batches', () => {
  it('handles the events waiting together in transactions of up to a batch, in stream order, each once', async () => {
    await publish(['A-0']);
    await eventually(async () => started.includes('A-0'));
    const numbers = ['A-1', 'B-1', 'A-2', 'C-1', 'B-2', 'A-3'];
    await publish(numbers);
    releaseFirst();
    await eventually(async () => numbers.every((n) => afterCommitSaw.has(n)) && (await allAcked()));
    expect(started).toEqual(['A-0', ...numbers]);
    // The six that gathered while A-0 was handled went in two transactions: four, then two.
    const transactions = numbers.map((n) => sessionOf.get(n));
    expect(new Set(transactions.slice(0, 4)).size).toBe(1);
    expect(new Set(transactions.slice(4)).size).toBe(1);
    expect(transactions[4]).not.toBe(transactions[3]);
    expect(sessionOf.get('A-0')).not.toBe(sessionOf.get('A-1'));
    expect(await timesActed(['A-0', ...numbers])).toEqual([1, ...numbers.map(() => 1)]);
    // Every callback ran after its commit: the processed mark was there to read.
    expect([...afterCommitSaw.values()].every(Boolean)).toBe(true);
  });

  it('retries a failing event alone; the rest of its batch commits once', async () => {
    failuresLeft.set('D-2', 1);
    const numbers = ['D-1', 'D-2', 'D-3'];
    await publish(numbers);
    await eventually(async () => numbers.every((n) => afterCommitSaw.has(n)) && (await allAcked()));
    // The failed attempt's writes were rolled back: each order acted on exactly once.
    expect(await timesActed(numbers)).toEqual([1, 1, 1]);
    expect(failuresLeft.get('D-2')).toBe(0);
  });

  it('acks an event the consumer finds irrelevant without handling it or marking it processed', async () => {
    const ids = await publish(['SKIP-1', 'C-2']);
    await eventually(async () => afterCommitSaw.has('C-2') && (await allAcked()));
    expect(started).not.toContain('SKIP-1');
    expect(await service.ctx.bus.processed.exists({ _id: ids.get('SKIP-1')! })).toBeNull();
    expect(await service.ctx.bus.processed.exists({ _id: ids.get('C-2')! })).not.toBeNull();
  });

  it('lets a batch gather for gatherMs after its first event, and handles a full batch without waiting', async () => {
    // Three events 60 ms apart: without gathering each would be a batch of its own.
    await publishEmailSent(['g-1', 'g-2', 'g-3'], 60);
    await eventually(async () => gatheredBatches.flat().includes('g-3') || undefined);
    expect(gatheredBatches).toEqual([['g-1', 'g-2', 'g-3']]);
    // Seven at once: a full batch of five goes at once, the other two after their gathering time.
    const start = Date.now();
    await publishEmailSent(['h-1', 'h-2', 'h-3', 'h-4', 'h-5', 'h-6', 'h-7']);
    await eventually(async () => gatheredBatches.flat().includes('h-7') || undefined);
    expect(gatheredBatches.slice(1)).toEqual([
      ['h-1', 'h-2', 'h-3', 'h-4', 'h-5'],
      ['h-6', 'h-7'],
    ]);
    expect(Date.now() - start).toBeGreaterThanOrEqual(400);
  });
});
