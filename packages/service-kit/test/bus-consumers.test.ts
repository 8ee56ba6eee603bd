// Consumer options (issue 20): several events handled at once while events with the same order key keep
// their stream order, irrelevant events acked without a transaction, and callbacks run after the commit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { createEvent, type EventEnvelope } from '@shop/contracts';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { consumeEvent, createService, loadServiceConfig } from '../src/index.js';
import { eventually, LogLines, orderCreatedData, projectionModels, type CustomersLikeService } from './helpers.js';

let mongo: StartedMongo;
let nats: StartedNats;
let service: CustomersLikeService;

/** Order numbers in the order their handling started and finished. */
const started: string[] = [];
const finished: string[] = [];
/** What each after-commit callback saw: the event's processed mark, read outside the transaction. */
const afterCommitSaw = new Map<string, boolean>();
let firstBStarted!: () => void;
const bStarted = new Promise<void>((resolve) => (firstBStarted = resolve));

const keyOf = (event: EventEnvelope<'order.created'>) => event.data.orderNumber.split('-')[0];

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
          if (orderNumber.startsWith('B')) firstBStarted();
          // A-1 finishes only once a B event has started: handled one at a time, this would never end.
          if (orderNumber === 'A-1') await bStarted;
          await ctx.models.Projection.updateOne(
            { _id: orderNumber },
            { $set: { orderNumber }, $inc: { timesActed: 1 } },
            { upsert: true, session },
          );
          afterCommit(() => {
            void ctx.bus.processed.exists({ _id: event.id }).then((mark) => {
              afterCommitSaw.set(orderNumber, mark !== null);
            });
          });
          finished.push(orderNumber);
        },
        { concurrency: 4, orderKey: keyOf, relevant: (event) => !event.data.orderNumber.startsWith('SKIP') },
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

async function allAcked() {
  const jsm = await jetstreamManager(service.ctx.bus.connection!);
  const info = await jsm.consumers.info('ORDERS', 'customers--order-created');
  return info.num_pending === 0 && info.num_ack_pending === 0;
}

describe('event consumers with options', () => {
  it('handles events of different keys at once, and events of one key in stream order, each once', async () => {
    const numbers = ['A-1', 'A-2', 'A-3', 'B-1', 'B-2', 'C-1', 'A-4', 'B-3'];
    await publish(numbers);
    await eventually(async () => finished.length === numbers.length && (await allAcked()));
    // B-1 started while A-1 was waiting for it.
    expect(finished.indexOf('B-1')).toBeLessThan(finished.indexOf('A-1'));
    for (const key of ['A', 'B', 'C']) {
      const inStream = numbers.filter((n) => n.startsWith(key));
      expect(started.filter((n) => n.startsWith(key))).toEqual(inStream);
      expect(finished.filter((n) => n.startsWith(key))).toEqual(inStream);
    }
    const acted = await service.ctx.bus.processed.db
      .collection<{ _id: string; timesActed: number }>('order_projection')
      .find({ _id: { $in: numbers } })
      .toArray();
    expect(acted.map((p) => p.timesActed)).toEqual(numbers.map(() => 1));
    // Every callback ran after its commit: the processed mark was there to read.
    await eventually(async () => afterCommitSaw.size === numbers.length);
    expect([...afterCommitSaw.values()].every(Boolean)).toBe(true);
  });

  it('acks an event the consumer finds irrelevant without handling it or marking it processed', async () => {
    const ids = await publish(['SKIP-1', 'C-2']);
    await eventually(async () => finished.includes('C-2') && (await allAcked()));
    expect(started).not.toContain('SKIP-1');
    expect(await service.ctx.bus.processed.exists({ _id: ids.get('SKIP-1')! })).toBeNull();
    expect(await service.ctx.bus.processed.exists({ _id: ids.get('C-2')! })).not.toBeNull();
  });
});
