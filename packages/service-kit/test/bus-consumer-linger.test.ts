// A busy consumer lets its next batch fill (issue 20): once a batch held several events and more are
// waiting, the consumer waits (up to its linger) for a full batch instead of handling each arrival in a
// transaction of its own; at a trickle, or once the stream stops, nothing waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { createEvent } from '@shop/contracts';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { consumeEventBatches, createService, loadServiceConfig } from '../src/index.js';
import { eventually, LogLines, orderCreatedData, projectionModels, type CustomersLikeService } from './helpers.js';

let mongo: StartedMongo;
let nats: StartedNats;
let nc: NatsConnection;
let service: CustomersLikeService;

/** The order numbers of each batch handled, in turn. */
const batches: string[][] = [];
let releaseFirst!: () => void;
const firstMayFinish = new Promise<void>((resolve) => (releaseFirst = resolve));
let releaseSecond!: () => void;
const secondMayFinish = new Promise<void>((resolve) => (releaseSecond = resolve));

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
    consumers: () => [
      consumeEventBatches(
        'order.created',
        async (events) => {
          batches.push(events.map((e) => e.data.orderNumber));
          // The first two batches hold the consumer while the test publishes what follows them.
          if (events[0].data.orderNumber === 'L-0') await firstMayFinish;
          if (events[0].data.orderNumber === 'L-1') await secondMayFinish;
        },
        // A long linger: the test would time out if a batch waited it out instead of filling.
        { batchSize: 5, batchLingerMs: 60_000 },
      ),
    ],
  });
  await service.start();
  nc = await connect({ servers: nats.url });
}, 60_000);

afterAll(async () => {
  await nc?.close();
  await service?.stop();
  await nats?.stop();
  await mongo?.stop();
});

async function publish(orderNumber: string) {
  const event = createEvent('order.created', 'orders', orderCreatedData(orderNumber));
  await jetstream(nc).publish('order.created', JSON.stringify(event), { msgID: event.id });
}

const handled = () => batches.flat();

/** Delivered to the consumer and not acked yet: the events it holds. */
async function held() {
  const info = await (await jetstreamManager(nc)).consumers.info('ORDERS', 'customers--order-created');
  return info.num_ack_pending;
}

describe('a busy consumer', () => {
  it('waits for a full batch while events keep coming, and not once they stop', async () => {
    await publish('L-0');
    await eventually(async () => handled().includes('L-0'));
    await publish('L-1');
    await publish('L-2');
    // Both received before L-0's batch ends: they make the next batch together.
    await eventually(async () => (await held()) === 3);
    releaseFirst();
    await eventually(async () => handled().includes('L-2'));
    // L-3 arrives while the batch of two is handled: the consumer is busy once that batch commits.
    await publish('L-3');
    await eventually(async () => (await held()) === 3);
    releaseSecond();
    // The rest arrive one at a time, well apart: they fill one batch with L-3 instead of going one by one.
    for (const n of ['L-4', 'L-5', 'L-6', 'L-7']) {
      await new Promise((r) => setTimeout(r, 150));
      await publish(n);
    }
    await eventually(async () => handled().includes('L-7'));
    expect(batches).toEqual([['L-0'], ['L-1', 'L-2'], ['L-3', 'L-4', 'L-5', 'L-6', 'L-7']]);
    // The stream stopped: a single event is handled at once, not after the linger.
    await publish('L-8');
    await eventually(async () => handled().includes('L-8'));
    expect(batches.at(-1)).toEqual(['L-8']);
  });
});
