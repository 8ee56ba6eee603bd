// Session rules as mongod applies them, driven with explicit lsid/txnNumber so every edge is reachable:
// transaction state machine and error labels, retryable-write dedupe, standalone refusals, cursor reaping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Binary, Long, type Document } from 'bson';
import { randomUUID } from 'node:crypto';
import { MongoClient, MongoServerError } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../src/index.js';
import { CursorManager } from '../../src/server/cursors.js';
import { RawClient } from './helpers.js';

const newLsid = () => ({ id: new Binary(Buffer.from(randomUUID().replace(/-/g, ''), 'hex'), Binary.SUBTYPE_UUID) });

describe('replica-set mode', () => {
  let mongo: EmbeddedMongo;
  let raw: RawClient;
  let dbCounter = 0;
  let db: string;
  const run = (command: Document) => raw.command({ ...command, $db: db });
  const count = async (coll: string, filter: Document = {}) => (await run({ count: coll, query: filter })).n as number;

  beforeAll(async () => {
    mongo = await startEmbeddedMongo({ port: 0, replSet: 'rs0' });
    raw = await RawClient.connect(mongo.port);
  });
  afterAll(async () => {
    raw?.close();
    await mongo?.stop();
  });
  const freshDb = () => {
    db = `sessions_${++dbCounter}`;
  };

  it('adds $clusterTime and operationTime to replies, advancing on writes', async () => {
    freshDb();
    const before = await run({ ping: 1 });
    expect(before.$clusterTime.clusterTime).toEqual(before.operationTime);
    const write = await run({ insert: 'coins', documents: [{ a: 1 }] });
    expect(write.operationTime.greaterThan(before.operationTime)).toBe(true);
  });

  it('commits a transaction atomically and answers a retried commit', async () => {
    freshDb();
    const lsid = newLsid();
    const txnNumber = Long.fromNumber(1);
    const first = await run({
      insert: 'orders',
      documents: [{ _id: 1 }],
      lsid,
      txnNumber,
      startTransaction: true,
      autocommit: false,
    });
    expect(first).toMatchObject({ ok: 1, n: 1 });
    await run({ insert: 'outbox', documents: [{ _id: 'e1' }], lsid, txnNumber, autocommit: false });
    const inside = await run({ find: 'orders', filter: {}, lsid, txnNumber, autocommit: false });
    expect(inside.cursor.firstBatch).toEqual([{ _id: 1 }]);
    expect(await count('orders')).toBe(0);
    expect(await count('outbox')).toBe(0);

    expect(await raw.command({ commitTransaction: 1, lsid, txnNumber, autocommit: false, $db: 'admin' })).toMatchObject(
      { ok: 1 },
    );
    expect(await count('orders')).toBe(1);
    expect(await count('outbox')).toBe(1);

    // A retried commit (reply lost on the network) is answered ok again.
    expect(await raw.command({ commitTransaction: 1, lsid, txnNumber, autocommit: false, $db: 'admin' })).toMatchObject(
      { ok: 1 },
    );
    // Statements after the commit find no transaction; abort says it was committed.
    const late = await run({ insert: 'orders', documents: [{ _id: 2 }], lsid, txnNumber, autocommit: false });
    expect(late).toMatchObject({
      ok: 0,
      code: 251,
      codeName: 'NoSuchTransaction',
      errorLabels: ['TransientTransactionError'],
    });
    const abort = await raw.command({ abortTransaction: 1, lsid, txnNumber, autocommit: false, $db: 'admin' });
    expect(abort).toMatchObject({ ok: 0, code: 256, codeName: 'TransactionCommitted' });
    expect(await count('orders')).toBe(1);
  });

  it('aborts a transaction: nothing is applied and later statements get NoSuchTransaction', async () => {
    freshDb();
    const lsid = newLsid();
    const txnNumber = Long.fromNumber(7);
    await run({
      insert: 'orders',
      documents: [{ _id: 1 }],
      lsid,
      txnNumber,
      startTransaction: true,
      autocommit: false,
    });
    await run({
      update: 'orders',
      updates: [{ q: { _id: 1 }, u: { $set: { paid: true } } }],
      lsid,
      txnNumber,
      autocommit: false,
    });
    expect(await raw.command({ abortTransaction: 1, lsid, txnNumber, autocommit: false, $db: 'admin' })).toMatchObject({
      ok: 1,
    });
    expect(await count('orders')).toBe(0);
    const commit = await raw.command({ commitTransaction: 1, lsid, txnNumber, autocommit: false, $db: 'admin' });
    expect(commit).toMatchObject({ ok: 0, code: 251, errorLabels: ['TransientTransactionError'] });
    const again = await raw.command({ abortTransaction: 1, lsid, txnNumber, autocommit: false, $db: 'admin' });
    expect(again).toMatchObject({ ok: 0, code: 251 });
  });

  it('refuses an older txnNumber with TransactionTooOld and an unknown one with NoSuchTransaction', async () => {
    freshDb();
    const lsid = newLsid();
    await run({
      insert: 'orders',
      documents: [{ _id: 1 }],
      lsid,
      txnNumber: Long.fromNumber(5),
      startTransaction: true,
      autocommit: false,
    });
    const old = await run({
      insert: 'orders',
      documents: [{ _id: 2 }],
      lsid,
      txnNumber: Long.fromNumber(4),
      startTransaction: true,
      autocommit: false,
    });
    expect(old).toMatchObject({ ok: 0, code: 225, codeName: 'TransactionTooOld' });
    const unknown = await raw.command({
      abortTransaction: 1,
      lsid,
      txnNumber: Long.fromNumber(9),
      autocommit: false,
      $db: 'admin',
    });
    expect(unknown).toMatchObject({
      ok: 0,
      code: 251,
      codeName: 'NoSuchTransaction',
      errorLabels: ['TransientTransactionError'],
    });
    // Starting a newer transaction aborts the open one.
    await run({
      insert: 'orders',
      documents: [{ _id: 3 }],
      lsid,
      txnNumber: Long.fromNumber(6),
      startTransaction: true,
      autocommit: false,
    });
    await raw.command({ commitTransaction: 1, lsid, txnNumber: Long.fromNumber(6), autocommit: false, $db: 'admin' });
    expect((await run({ find: 'orders', filter: {} })).cursor.firstBatch).toEqual([{ _id: 3 }]);
  });

  it('a failed statement aborts the transaction; unsupported commands are refused inside one', async () => {
    freshDb();
    await run({ createIndexes: 'customers', indexes: [{ key: { email: 1 }, name: 'email_1', unique: true }] });
    await run({ insert: 'customers', documents: [{ email: 'a@example.com' }] });
    const lsid = newLsid();
    const txnNumber = Long.fromNumber(1);
    await run({
      insert: 'outbox',
      documents: [{ type: 'x' }],
      lsid,
      txnNumber,
      startTransaction: true,
      autocommit: false,
    });
    const dup = await run({
      insert: 'customers',
      documents: [{ email: 'a@example.com' }],
      lsid,
      txnNumber,
      autocommit: false,
    });
    expect(dup).toMatchObject({ ok: 0, code: 11000, keyValue: { email: 'a@example.com' } });
    const commit = await raw.command({ commitTransaction: 1, lsid, txnNumber, autocommit: false, $db: 'admin' });
    expect(commit).toMatchObject({ ok: 0, code: 251 });
    expect(await count('outbox')).toBe(0);

    const next = Long.fromNumber(2);
    const refused = await run({ dbStats: 1, lsid, txnNumber: next, startTransaction: true, autocommit: false });
    expect(refused).toMatchObject({ ok: 0, code: 263, codeName: 'OperationNotSupportedInTransaction' });
    const autocommitTrue = await run({ find: 'outbox', lsid, txnNumber: Long.fromNumber(3), autocommit: true });
    expect(autocommitTrue).toMatchObject({ ok: 0, code: 72 });
  });

  it('applies a retried write once and answers with the recorded result', async () => {
    freshDb();
    const lsid = newLsid();
    const insert = {
      insert: 'payments',
      documents: [{ ref: 'pay_1', amount: 1299 }],
      lsid,
      txnNumber: Long.fromNumber(1),
    };
    expect(await run(insert)).toMatchObject({ ok: 1, n: 1 });
    expect(await run(insert)).toMatchObject({ ok: 1, n: 1 });
    expect(await count('payments')).toBe(1);

    const inc = {
      update: 'payments',
      updates: [{ q: { ref: 'pay_1' }, u: { $inc: { attempts: 1 } } }],
      lsid,
      txnNumber: Long.fromNumber(2),
    };
    expect(await run(inc)).toMatchObject({ ok: 1, n: 1, nModified: 1 });
    expect(await run(inc)).toMatchObject({ ok: 1, n: 1, nModified: 1 });
    const [doc] = (await run({ find: 'payments', filter: {} })).cursor.firstBatch;
    expect(doc.attempts).toBe(1);

    const fam = {
      findAndModify: 'payments',
      query: { ref: 'pay_1' },
      update: { $inc: { attempts: 1 } },
      new: true,
      lsid,
      txnNumber: Long.fromNumber(3),
    };
    expect((await run(fam)).value.attempts).toBe(2);
    expect((await run(fam)).value.attempts).toBe(2);

    const stale = await run({ ...insert, txnNumber: Long.fromNumber(1) });
    expect(stale).toMatchObject({ ok: 0, code: 225, codeName: 'TransactionTooOld' });
    const notWrite = await run({ find: 'payments', lsid, txnNumber: Long.fromNumber(10) });
    expect(notWrite.ok).toBe(0);
  });

  it('ends sessions: their open transaction is aborted and their cursors are closed', async () => {
    freshDb();
    await run({ insert: 'items', documents: Array.from({ length: 20 }, (_, i) => ({ _id: i })) });
    const lsid = newLsid();
    const found = await run({ find: 'items', batchSize: 2, lsid });
    await run({
      insert: 'items',
      documents: [{ _id: 'tx' }],
      lsid,
      txnNumber: Long.fromNumber(1),
      startTransaction: true,
      autocommit: false,
    });
    expect(await raw.command({ endSessions: [lsid], $db: 'admin' })).toMatchObject({ ok: 1 });
    const more = await run({ getMore: found.cursor.id, collection: 'items', lsid });
    expect(more).toMatchObject({ ok: 0, code: 43 });
    expect(await count('items')).toBe(20);
  });

  it('startSession hands out a UUID session id', async () => {
    const reply = await raw.command({ startSession: 1, $db: 'admin' });
    expect(reply.id.id.sub_type).toBe(4);
    expect(reply.timeoutMinutes).toBe(30);
  });
});

describe('standalone mode', () => {
  let mongo: EmbeddedMongo;
  beforeAll(async () => {
    mongo = await startEmbeddedMongo({ port: 0 });
  });
  afterAll(async () => {
    await mongo?.stop();
  });

  it('answers hello without a replica set and refuses transaction numbers like mongod', async () => {
    expect(mongo.uri).toBe(`mongodb://127.0.0.1:${mongo.port}/?directConnection=true`);
    const raw = await RawClient.connect(mongo.port);
    const hello = await raw.command({ hello: 1, $db: 'admin' });
    expect(hello.isWritablePrimary).toBe(true);
    expect(hello.setName).toBeUndefined();
    expect(hello.$clusterTime).toBeUndefined();
    const refused = await raw.command({
      insert: 'orders',
      documents: [{ a: 1 }],
      lsid: newLsid(),
      txnNumber: Long.fromNumber(1),
      startTransaction: true,
      autocommit: false,
      $db: 'shop',
    });
    expect(refused).toMatchObject({
      ok: 0,
      code: 20,
      codeName: 'IllegalOperation',
      errmsg: 'Transaction numbers are only allowed on a replica set member or mongos',
    });
    expect((await raw.command({ replSetGetStatus: 1, $db: 'admin' })).code).toBe(76);
    raw.close();
  });

  it('a driver transaction fails and writes nothing', async () => {
    const client = await new MongoClient(mongo.uri).connect();
    try {
      const orders = client.db('shop').collection('orders');
      const session = client.startSession();
      const error = await session
        .withTransaction(async () => {
          await orders.insertOne({ sku: 'COIN' }, { session });
        })
        .catch((e: unknown) => e)
        .finally(() => session.endSession());
      // Exactly what the driver makes of a real standalone mongod's refusal.
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as Error).message).toMatch(/does not support retryable writes/);
      expect(error).toMatchObject({
        originalError: { code: 20, message: 'Transaction numbers are only allowed on a replica set member or mongos' },
      });
      expect(await orders.countDocuments()).toBe(0);
      // Plain writes work (the driver does not send txnNumber to a standalone).
      await orders.insertOne({ sku: 'COIN' });
      expect(await orders.countDocuments()).toBe(1);
    } finally {
      await client.close();
    }
  });
});

describe('start-up', () => {
  it('says clearly when the port is taken', async () => {
    const first = await startEmbeddedMongo({ port: 0 });
    try {
      await expect(startEmbeddedMongo({ port: first.port })).rejects.toThrow(
        `port ${first.port} on 127.0.0.1 is already in use`,
      );
    } finally {
      await first.stop();
    }
  });

  it('rejects a replica set name that could not appear in a URI', async () => {
    await expect(startEmbeddedMongo({ replSet: 'rs 0/x' })).rejects.toThrow(/invalid replica set name/);
  });
});

describe('cursor reaping', () => {
  it('closes cursors idle for 10 minutes', () => {
    const cursors = new CursorManager();
    const docs = Array.from({ length: 5 }, (_, i) => ({ _id: i }));
    const { id } = cursors.open('shop.items', docs, { batchSize: 1 });
    expect(cursors.size).toBe(1);
    expect(cursors.reapIdle(Date.now() + 9 * 60 * 1000)).toBe(0);
    expect(cursors.reapIdle(Date.now() + 10 * 60 * 1000 + 1)).toBe(1);
    expect(() => cursors.getMore(id, 'shop.items', undefined, undefined)).toThrow(/not found/);
  });
});
