// The official mongodb driver (7.8) against the embedded server in replica-set mode, with a plain URI.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  Binary,
  BSONRegExp,
  Decimal128,
  Double,
  Int32,
  Long,
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  ObjectId,
  Timestamp,
  UUID,
  type Collection,
  type Db,
} from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../src/index.js';

let mongo: EmbeddedMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  mongo = await startEmbeddedMongo({ port: 0, replSet: 'rs0' });
  client = new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

// Tests use their own _id types (numbers, strings), as applications may.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const coll = (name: string) => db.collection(name) as unknown as Collection<any>;

let dbCounter = 0;
beforeEach(() => {
  db = client.db(`driver_${++dbCounter}`);
});

describe('handshake', () => {
  it('is a one-member replica set primary running MongoDB 7.0', async () => {
    expect(mongo.uri).toBe(`mongodb://127.0.0.1:${mongo.port}/?replicaSet=rs0`);
    const hello = await client.db('admin').command({ hello: 1 });
    expect(hello).toMatchObject({
      isWritablePrimary: true,
      setName: 'rs0',
      hosts: [`127.0.0.1:${mongo.port}`],
      primary: `127.0.0.1:${mongo.port}`,
      me: `127.0.0.1:${mongo.port}`,
      maxWireVersion: 21,
      minWireVersion: 0,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      logicalSessionTimeoutMinutes: 30,
      ok: 1,
    });
    expect(hello.lastWrite.opTime.ts).toBeInstanceOf(Timestamp);
    expect(hello.topologyVersion.processId).toBeInstanceOf(ObjectId);
    expect(client.options.hosts.map(String)).toEqual([`127.0.0.1:${mongo.port}`]);
    const info = await client.db('admin').command({ buildInfo: 1 });
    expect(info.version).toBe('7.0.0');
    expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  it('answers the admin commands tools send', async () => {
    const admin = client.db('admin');
    expect(await admin.command({ getParameter: 1, featureCompatibilityVersion: 1 })).toMatchObject({
      featureCompatibilityVersion: { version: '7.0' },
    });
    expect((await admin.command({ serverStatus: 1 })).connections.current).toBeGreaterThan(0);
    expect((await admin.command({ hostInfo: 1 })).system.numCores).toBeGreaterThan(0);
    expect(await admin.command({ connectionStatus: 1 })).toMatchObject({ authInfo: { authenticatedUsers: [] } });
    expect((await admin.command({ whatsmyuri: 1 })).you).toMatch(/^127\.0\.0\.1:\d+$/);
    expect((await admin.command({ getCmdLineOpts: 1 })).parsed.replication).toEqual({ replSet: 'rs0' });
    expect(await admin.command({ getLog: 'startupWarnings' })).toMatchObject({ log: [] });
    expect(await admin.command({ replSetGetStatus: 1 })).toMatchObject({ set: 'rs0', myState: 1 });
  });

  it('answers an unknown command with code 59 and keeps the connection', async () => {
    const error = await db.command({ frobnicate: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 59, codeName: 'CommandNotFound', message: "no such command: 'frobnicate'" });
    expect(await db.command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  it('keeps driver monitors on the streaming (awaitable hello) protocol without failures', async () => {
    const watcher = new MongoClient(mongo.uri, { heartbeatFrequencyMS: 500, serverSelectionTimeoutMS: 5000 });
    let awaited = 0;
    const failures: unknown[] = [];
    watcher.on('serverHeartbeatSucceeded', (event) => {
      if (event.awaited) awaited++;
    });
    watcher.on('serverHeartbeatFailed', (event) => failures.push(event.failure));
    await watcher.connect();
    await new Promise((resolve) => setTimeout(resolve, 2600));
    await watcher.db('admin').command({ ping: 1 });
    await watcher.close();
    expect(failures).toEqual([]);
    // One streamed reply about every heartbeatFrequencyMS: streaming, not a busy loop.
    expect(awaited).toBeGreaterThanOrEqual(2);
    expect(awaited).toBeLessThanOrEqual(8);
  });

  it('refuses authentication clearly', async () => {
    const withAuth = new MongoClient(`mongodb://buyer:secret@127.0.0.1:${mongo.port}/?replicaSet=rs0`, {
      serverSelectionTimeoutMS: 3000,
    });
    const error = await withAuth.connect().catch((e: unknown) => e);
    await withAuth.close();
    expect(String((error as Error).message)).toMatch(/Authentication is not supported/);
  });
});

describe('writes', () => {
  it('insertMany ordered stops at the first duplicate; unordered goes on', async () => {
    const coins = coll('coins');
    const ordered = await coins
      .insertMany([{ _id: 1 }, { _id: 2 }, { _id: 1 }, { _id: 3 }] as never[])
      .catch((e: unknown) => e);
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    const orderedError = ordered as MongoBulkWriteError;
    expect(orderedError.code).toBe(11000);
    expect(orderedError.result.insertedCount).toBe(2);
    expect(orderedError.writeErrors).toMatchObject([{ index: 2, code: 11000 }]);
    expect(await coins.countDocuments()).toBe(2);

    const unordered = await coins
      .insertMany([{ _id: 2 }, { _id: 4 }, { _id: 1 }, { _id: 5 }] as never[], { ordered: false })
      .catch((e: unknown) => e);
    const unorderedError = unordered as MongoBulkWriteError;
    expect(unorderedError.result.insertedCount).toBe(2);
    expect([unorderedError.writeErrors].flat().map((e) => e.index)).toEqual([0, 2]);
    expect(await coins.countDocuments()).toBe(4);
  });

  it('bulkWrite mixes inserts, updates, upserts, replaces and deletes', async () => {
    const patches = coll('patches');
    const result = await patches.bulkWrite([
      { insertOne: { document: { _id: 'p1', name: 'Eagle', qty: 5 } } },
      { insertOne: { document: { _id: 'p2', name: 'Anchor', qty: 1 } } },
      { updateOne: { filter: { _id: 'p1' }, update: { $inc: { qty: 2 } } } },
      { updateOne: { filter: { _id: 'p9' }, update: { $set: { name: 'Skull' } }, upsert: true } },
      { replaceOne: { filter: { _id: 'p2' }, replacement: { name: 'Anchor v2', qty: 3 } } },
      { deleteOne: { filter: { _id: 'p9' } } },
    ] as never[]);
    expect(result).toMatchObject({
      insertedCount: 2,
      matchedCount: 2,
      modifiedCount: 2,
      upsertedCount: 1,
      deletedCount: 1,
    });
    expect(result.upsertedIds).toEqual({ 3: 'p9' });
    expect(await patches.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 'p1', name: 'Eagle', qty: 7 },
      { _id: 'p2', name: 'Anchor v2', qty: 3 },
    ]);
  });

  it('findOneAndUpdate returns the document before or after', async () => {
    const shirts = coll('shirts');
    await shirts.insertOne({ _id: 's1', stock: 10 });
    const before = await shirts.findOneAndUpdate({ _id: 's1' } as never, { $inc: { stock: -1 } });
    expect(before).toEqual({ _id: 's1', stock: 10 });
    const after = await shirts.findOneAndUpdate(
      { _id: 's1' } as never,
      { $inc: { stock: -1 } },
      { returnDocument: 'after' },
    );
    expect(after).toEqual({ _id: 's1', stock: 8 });
    const removed = await shirts.findOneAndDelete({ _id: 's1' } as never);
    expect(removed).toEqual({ _id: 's1', stock: 8 });
    expect(await shirts.findOneAndUpdate({ _id: 'none' } as never, { $set: { x: 1 } })).toBeNull();
  });
});

describe('reads and cursors', () => {
  it('walks 10,000 documents in batches, with getMore and the cursor closed at the end', async () => {
    const orders = coll('orders');
    const docs = Array.from({ length: 10_000 }, (_, i) => ({ _id: i, n: i, tag: i % 7 }));
    await orders.insertMany(docs);
    const cursor = orders.find({}, { batchSize: 500, sort: { _id: 1 } });
    let count = 0;
    let last = -1;
    for await (const doc of cursor) {
      expect(doc._id).toBe(last + 1);
      last = doc._id as number;
      count++;
    }
    expect(count).toBe(10_000);
    expect(cursor.closed).toBe(true);
    expect(await orders.countDocuments({ tag: 3 })).toBe(docs.filter((d) => d.tag === 3).length);
  });

  it('kills a cursor that is not read to the end', async () => {
    const orders = coll('orders');
    await orders.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i })));
    const cursor = orders.find({}, { batchSize: 10 });
    await cursor.next();
    const id = cursor.id!;
    expect(id.isZero()).toBe(false);
    await cursor.close();
    const error = await db.command({ getMore: id, collection: 'orders' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 43, codeName: 'CursorNotFound' });
  });

  it('honours filter, sort, projection, skip and limit (also across batches)', async () => {
    const items = coll('items');
    await items.insertMany(
      Array.from({ length: 50 }, (_, i) => ({
        _id: i,
        price: (i * 37) % 50,
        kind: i % 2 ? 'coin' : 'patch',
        secret: 'x',
      })),
    );
    const page = await items
      .find({ kind: 'coin' }, { sort: { price: -1 }, projection: { secret: 0 }, skip: 2, limit: 5 })
      .toArray();
    const expected = Array.from({ length: 50 }, (_, i) => ({
      _id: i,
      price: (i * 37) % 50,
      kind: i % 2 ? 'coin' : 'patch',
    }))
      .filter((d) => d.kind === 'coin')
      .sort((a, b) => b.price - a.price)
      .slice(2, 7);
    expect(page).toEqual(expected);
    const limited = await items.find({}, { limit: 25, batchSize: 10 }).toArray();
    expect(limited).toHaveLength(25);
    const single = await items.find({}, { limit: 30, batchSize: 10, singleBatch: true } as never).toArray();
    expect(single).toHaveLength(10);
  });

  it('counts and lists distinct values', async () => {
    const items = coll('items');
    await items.insertMany([{ k: 'a' }, { k: 'b' }, { k: 'a' }, { k: ['c', 'a'] }]);
    expect((await items.distinct('k')).sort()).toEqual(['a', 'b', 'c']);
    expect(await items.countDocuments({ k: 'a' })).toBe(3);
    expect(await items.estimatedDocumentCount()).toBe(4);
  });

  it('aggregates through a cursor and explains without running', async () => {
    const sales = coll('sales');
    await sales.insertMany([
      { sku: 'coin', qty: 2 },
      { sku: 'coin', qty: 3 },
      { sku: 'patch', qty: 1 },
    ]);
    const totals = await sales
      .aggregate([{ $group: { _id: '$sku', qty: { $sum: '$qty' } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(totals).toEqual([
      { _id: 'coin', qty: 5 },
      { _id: 'patch', qty: 1 },
    ]);
    const plan = await sales.find({ sku: 'coin' }).explain();
    expect(plan.queryPlanner.namespace).toBe(`${db.databaseName}.sales`);
    const aggPlan = await sales.aggregate([{ $match: { sku: 'coin' } }]).explain();
    expect(aggPlan.ok).toBe(1);
  });
});

describe('catalog', () => {
  it('lists, creates and drops collections, indexes and databases', async () => {
    await db.createCollection('coins');
    await coll('patches').insertOne({ name: 'Eagle' });
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
    expect(names).toEqual(['coins', 'patches']);
    expect(await db.listCollections({ name: 'coins' }).toArray()).toMatchObject([
      { name: 'coins', type: 'collection' },
    ]);
    const createError = await db.createCollection('coins').catch((e: unknown) => e);
    expect(createError).toMatchObject({ code: 48, codeName: 'NamespaceExists' });

    const coins = coll('coins');
    expect(await coins.createIndex({ sku: 1 }, { unique: true })).toBe('sku_1');
    await coins.createIndex({ maker: 1, year: -1 }, { name: 'maker_year' });
    expect((await coins.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'sku_1', 'maker_year']);
    await coins.dropIndex('sku_1');
    expect((await coins.indexes()).map((i) => i.name)).toEqual(['_id_', 'maker_year']);
    await coins.dropIndexes();
    expect((await coins.indexes()).map((i) => i.name)).toEqual(['_id_']);

    await coins.insertMany([{ sku: 'a' }, { sku: 'b' }]);
    expect(await db.command({ validate: 'coins' })).toMatchObject({ valid: true, nrecords: 2, nIndexes: 1 });
    expect(await coins.drop()).toBe(true);
    const { databases } = await client.db('admin').admin().listDatabases();
    expect(databases.map((d) => d.name)).toContain(db.databaseName);
    const named = await client
      .db('admin')
      .command({ listDatabases: 1, nameOnly: true, filter: { name: db.databaseName } });
    expect(named.databases).toEqual([{ name: db.databaseName }]);
    expect(await db.dropDatabase()).toBe(true);
    const after = await client.db('admin').admin().listDatabases();
    expect(after.databases.map((d) => d.name)).not.toContain(db.databaseName);
  });

  it('pages listCollections past the first batch', async () => {
    for (let i = 0; i < 120; i++) await db.createCollection(`c${String(i).padStart(3, '0')}`);
    const names = (await db.listCollections({}, { nameOnly: true, batchSize: 50 }).toArray()).map((c) => c.name);
    expect(names).toHaveLength(120);
    expect(new Set(names).size).toBe(120);
  });

  it('rejects invalid collection names with InvalidNamespace', async () => {
    const error = await db.command({ insert: 'bad$name', documents: [{ a: 1 }] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 73, codeName: 'InvalidNamespace' });
    const empty = await db.command({ find: '' }).catch((e: unknown) => e);
    expect(empty).toMatchObject({ code: 73 });
  });

  it('renames a collection with its documents and indexes', async () => {
    await coll('drafts').insertMany([{ a: 1 }, { a: 2 }]);
    await coll('drafts').createIndex({ a: 1 });
    await db.renameCollection('drafts', 'designs');
    expect(await coll('designs').countDocuments()).toBe(2);
    expect((await coll('designs').indexes()).map((i) => i.name)).toEqual(['_id_', 'a_1']);
    expect(await db.listCollections({ name: 'drafts' }).toArray()).toEqual([]);
  });
});

describe('BSON types', () => {
  it('round-trip unchanged', async () => {
    const uuid = new UUID();
    const doc = {
      _id: new ObjectId(),
      date: new Date('2026-11-22T10:00:00.123Z'),
      price: Decimal128.fromString('19.99'),
      big: Long.fromString('9007199254740993'),
      small: new Int32(7),
      ratio: new Double(2.5),
      bytes: new Binary(Buffer.from([1, 2, 3, 250])),
      uuid,
      ts: new Timestamp({ t: 1_700_000_000, i: 3 }),
      pattern: new BSONRegExp('^coin', 'i'),
      nested: [[1, [2, { deep: [3, 'x'] }]], { arr: [] }],
      nothing: null,
      flag: true,
    };
    const types = coll('types');
    await types.insertOne(doc);
    const raw = await types.findOne({ _id: doc._id }, { promoteValues: false, promoteLongs: false, bsonRegExp: true });
    expect(raw!._id).toEqual(doc._id);
    expect(raw!.date).toEqual(doc.date);
    expect(raw!.price.toString()).toBe('19.99');
    expect(raw!.price).toBeInstanceOf(Decimal128);
    expect(raw!.big).toBeInstanceOf(Long);
    expect(raw!.big.toString()).toBe('9007199254740993');
    expect(raw!.small).toBeInstanceOf(Int32);
    expect(raw!.small.valueOf()).toBe(7);
    expect(raw!.ratio).toBeInstanceOf(Double);
    expect(raw!.ratio.valueOf()).toBe(2.5);
    expect(Buffer.from(raw!.bytes.buffer)).toEqual(Buffer.from([1, 2, 3, 250]));
    expect(raw!.uuid.sub_type).toBe(4);
    expect(raw!.uuid.toUUID().toHexString()).toBe(uuid.toHexString());
    expect(raw!.ts).toEqual(doc.ts);
    expect(raw!.pattern).toEqual(doc.pattern);
    expect(raw!.flag).toBe(true);
    expect(raw!.nothing).toBeNull();
    const plain = await types.findOne({ _id: doc._id });
    expect(plain!.nested).toEqual(doc.nested);
    expect(await types.countDocuments({ uuid })).toBe(1);
    expect(await types.countDocuments({ date: { $gt: new Date('2026-01-01') } })).toBe(1);
  });
});

describe('declared limits', () => {
  it('answers $text, geo, $where and change streams with a clear error', async () => {
    const limits = coll('limits');
    await limits.insertOne({ a: 1 });
    for (const filter of [{ $text: { $search: 'eagle' } }, { loc: { $near: [0, 0] } }, { $where: 'this.a == 1' }]) {
      const error = await limits
        .find(filter as never)
        .toArray()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as Error).message).toMatch(/not supported by the embedded MongoDB server/);
    }
    const minError = await limits
      .find({})
      .min({ a: 0 })
      .hint({ a: 1 })
      .toArray()
      .catch((e: unknown) => e);
    expect((minError as Error).message).toMatch(/find option 'min' is not supported/);
    const stream = limits.watch();
    const error = await stream.tryNext().catch((e: unknown) => e);
    await stream.close();
    expect((error as Error).message).toMatch(/change streams/);
  });
});

describe('mongosh is not needed', () => {
  it('nothing in this package spawns mongosh', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const path = await import('node:path');
    const root = path.resolve(import.meta.dirname, '../..');
    const files: string[] = [];
    for (const dir of ['src', 'test', 'bin']) {
      for (const entry of await readdir(path.join(root, dir), { recursive: true, withFileTypes: true })) {
        if (entry.isFile() && /\.(ts|mjs|js)$/.test(entry.name)) files.push(path.join(entry.parentPath, entry.name));
      }
    }
    expect(files.length).toBeGreaterThan(5);
    const spawnsMongosh = /(spawn|exec|execFile|fork)(Sync)?\(\s*['"`][^'"`]*mongosh/;
    for (const file of files) expect(spawnsMongosh.test(await readFile(file, 'utf8')), file).toBe(false);
  });
});
