// The outbox relay publishes a batch of pending events at once and marks it sent in one write: every
// event reaches its stream once, in the order it was written, and an event JetStream refuses stays
// pending (with its error and a later retry time) without holding back the rest of its batch.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import mongoose, { type Connection } from 'mongoose';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { createLogger, ensureAllStreams, outboxModel, OutboxRelay, type OutboxDoc } from '../src/index.js';
import { runInOutboxTransaction } from '../src/bus/outbox.js';
import { eventually, orderCreatedData } from './helpers.js';

let mongo: StartedMongo;
let nats: StartedNats;
let connection: Connection;
let nc: NatsConnection;
let js: JetStreamClient;
const log = createLogger({ service: 'orders', level: 'silent' });

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  connection = await mongoose.createConnection(mongo.uri, { dbName: 'relay_test' }).asPromise();
  nc = await connect({ servers: nats.url });
  js = jetstream(nc);
  await ensureAllStreams(await jetstreamManager(nc), log);
});

afterAll(async () => {
  await nc?.close();
  await connection?.close();
  await nats?.stop();
  await mongo?.stop();
});

/** The order numbers of the order.created messages in the ORDERS stream, in stream order. */
async function streamedOrderNumbers(): Promise<string[]> {
  const jsm = await jetstreamManager(nc);
  const info = await jsm.streams.info('ORDERS');
  const numbers: string[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
    const m = await jsm.streams.getMessage('ORDERS', { seq }).catch(() => null);
    if (m?.subject === 'order.created') numbers.push(m.json<{ data: { orderNumber: string } }>().data.orderNumber);
  }
  return numbers;
}

describe('outbox relay', () => {
  it('publishes 250 events in batches of 100, in the order they were written, and marks each sent once', async () => {
    const Outbox = outboxModel(connection);
    const written: string[] = [];
    // Ten transactions of 25 events each, so createdAt ties inside one transaction too.
    for (let t = 0; t < 10; t++) {
      await runInOutboxTransaction(connection, Outbox, 'orders', async (_session, outbox) => {
        for (let i = 0; i < 25; i++) {
          const orderNumber = `CC-${String(t * 25 + i).padStart(4, '0')}`;
          outbox.add('order.created', orderCreatedData(orderNumber));
          written.push(orderNumber);
        }
      });
    }
    const relay = new OutboxRelay(
      Outbox,
      () => js,
      () => !nc.isClosed(),
      log,
      { batchSize: 100 },
    );
    relay.start();
    try {
      await eventually(async () => (await Outbox.countDocuments({ status: 'pending' })) === 0 || undefined);
    } finally {
      await relay.stop();
    }
    const docs = await Outbox.find({}).lean<OutboxDoc[]>();
    expect(docs).toHaveLength(250);
    expect(docs.every((d) => d.status === 'sent' && d.sentAt instanceof Date && d.attempts === 0)).toBe(true);
    const streamed = await streamedOrderNumbers();
    // Once each, and in the order the events were written (createdAt: the relay's order).
    expect(new Set(streamed).size).toBe(250);
    const createdAt = new Map(
      docs.map((d) => [(d.event as { data: { orderNumber: string } }).data.orderNumber, d.createdAt.getTime()]),
    );
    const times = streamed.map((n) => createdAt.get(n)!);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect([...streamed].sort()).toEqual([...written].sort());
  });

  it('keeps an event JetStream refuses pending with its error, and sends the rest of its batch', async () => {
    const Outbox = outboxModel(connection);
    await Outbox.deleteMany({});
    const now = new Date();
    const doc = (id: string, type: string, orderNumber: string, secret = false): OutboxDoc => ({
      _id: id,
      type,
      event: { id, type, data: { orderNumber } },
      ...(secret ? { secret: true } : {}),
      traceHeaders: {},
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
    // No stream takes the subject `nowhere.to_go`: JetStream has no responder for it.
    await Outbox.insertMany([
      doc('e-1', 'order.created', 'CC-9001'),
      doc('e-2', 'nowhere.to_go', 'CC-9002'),
      doc('e-3', 'order.created', 'CC-9003', true),
    ]);
    const relay = new OutboxRelay(
      Outbox,
      () => js,
      () => !nc.isClosed(),
      log,
      {
        batchSize: 10,
        publishTimeoutMs: 2000,
      },
    );
    relay.start();
    try {
      await eventually(async () => {
        const failed = await Outbox.findById('e-2').lean<OutboxDoc>();
        return failed && failed.attempts === 1 ? failed : undefined;
      });
    } finally {
      await relay.stop();
    }
    const byId = new Map((await Outbox.find({}).lean<OutboxDoc[]>()).map((d) => [d._id, d]));
    expect(byId.get('e-1')).toMatchObject({ status: 'sent', event: { data: { orderNumber: 'CC-9001' } } });
    // A secret event loses its body in the same write that marks it sent.
    expect(byId.get('e-3')).toMatchObject({ status: 'sent', secret: true });
    expect(byId.get('e-3')!.event).toBeUndefined();
    const refused = byId.get('e-2')!;
    expect(refused).toMatchObject({ status: 'pending', attempts: 1 });
    expect(refused.lastError).toBeTruthy();
    expect(refused.nextAttemptAt.getTime()).toBeGreaterThan(now.getTime());
    expect((await streamedOrderNumbers()).filter((n) => n.startsWith('CC-900'))).toEqual(['CC-9001', 'CC-9003']);
  });
  it('publishes the events a transaction hands it without reading the outbox, and the sweep finds the rest', async () => {
    const Outbox = outboxModel(connection);
    await Outbox.deleteMany({});
    // Only the start reads the outbox here: the timer's sweep is an hour away.
    const relay = new OutboxRelay(
      Outbox,
      () => js,
      () => !nc.isClosed(),
      log,
      { sweepIntervalMs: 3_600_000 },
    );
    relay.start();
    await relay.idle();
    const reads = vi.spyOn(Outbox, 'find');
    try {
      const { events } = await runInOutboxTransaction(connection, Outbox, 'orders', async (_session, outbox) => {
        outbox.add('order.created', orderCreatedData('CC-7001'));
        outbox.add('order.created', orderCreatedData('CC-7002'));
      });
      relay.wake(false, events);
      await relay.idle();
      expect(reads).not.toHaveBeenCalled();
      const docs = await Outbox.find({}).lean<OutboxDoc[]>();
      expect(docs.map((d) => d.status)).toEqual(['sent', 'sent']);
      expect((await streamedOrderNumbers()).filter((n) => n.startsWith('CC-700'))).toEqual(['CC-7001', 'CC-7002']);

      // Written without handing it over (another process): a wake without events reads the outbox.
      await runInOutboxTransaction(connection, Outbox, 'orders', async (_session, outbox) => {
        outbox.add('order.created', orderCreatedData('CC-7003'));
      });
      reads.mockClear();
      relay.wake();
      await relay.idle();
      expect(reads).toHaveBeenCalled();
      expect(await Outbox.countDocuments({ status: 'pending' })).toBe(0);
      expect((await streamedOrderNumbers()).filter((n) => n.startsWith('CC-700'))).toEqual([
        'CC-7001',
        'CC-7002',
        'CC-7003',
      ]);
    } finally {
      reads.mockRestore();
      await relay.stop();
    }
  });
});
