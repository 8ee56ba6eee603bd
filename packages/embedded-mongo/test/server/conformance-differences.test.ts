// Conformance for differences a public MongoDB client test suite found: each test states MongoDB 7.0's
// documented behaviour (the manual's words in the test name) and checks the server answers the same.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  Binary,
  DBRef,
  Double,
  Long,
  MongoClient,
  MongoServerError,
  type Collection,
  type Db,
  type Document,
} from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../src/index.js';

let mongo: EmbeddedMongo;
let client: MongoClient;
let db: Db;
let dbCounter = 0;

beforeAll(async () => {
  mongo = await startEmbeddedMongo({ port: 0, replSet: 'rs0' });
  client = new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

beforeEach(() => {
  db = client.db(`differences_${++dbCounter}`);
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const coll = (name = 'c'): Collection<any> => db.collection(name);

const failure = async (p: Promise<unknown>): Promise<MongoServerError> => {
  const outcome = await p.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(MongoServerError);
  return outcome as MongoServerError;
};

describe('$elemMatch', () => {
  it('projects the first element of an array of plain values that satisfies an operator-only condition', async () => {
    await coll().insertOne({ _id: 1, ids: [1, 5, 9], scores: [70, 85, 90] });
    const [a] = await coll()
      .find({}, { projection: { ids: { $elemMatch: { $in: [9, 5] } } } })
      .toArray();
    expect(a).toEqual({ _id: 1, ids: [5] });
    const [b] = await coll()
      .find({}, { projection: { scores: { $elemMatch: { $gte: 80, $lt: 90 } } } })
      .toArray();
    expect(b).toEqual({ _id: 1, scores: [85] });
  });

  it('matches and projects DBRef elements by $id (and $ref), which are field names, not operators', async () => {
    await coll().insertOne({
      _id: 1,
      refs: [new DBRef('coins', 10 as never), new DBRef('patches', 20 as never)],
      owner: new DBRef('users', 7 as never),
    });
    expect(await coll().countDocuments({ refs: { $elemMatch: { $id: 20 } } })).toBe(1);
    expect(await coll().countDocuments({ refs: { $elemMatch: { $ref: 'patches', $id: 10 } } })).toBe(0);
    expect(await coll().countDocuments({ 'owner.$id': 7 })).toBe(1);
    const [doc] = await coll()
      .find({}, { projection: { refs: { $elemMatch: { $id: 20 } } } })
      .toArray();
    expect(doc.refs).toHaveLength(1);
    expect(doc.refs[0]).toBeInstanceOf(DBRef);
    expect(doc.refs[0]).toMatchObject({ collection: 'patches', oid: 20 });
    // A stored DBRef comes back as a DBRef ({$ref, $id} on the wire), not as its JS properties.
    expect((await coll().findOne({ _id: 1 }))!.owner).toEqual(new DBRef('users', 7 as never));
  });
});

describe('field names with dollar signs (MongoDB 5.0+)', () => {
  it('inserts accept $-prefixed top-level and nested field names', async () => {
    await coll().insertOne({ _id: 1, $price: 50, quantity: 30, location: { $db: 'novels', $inc: true } });
    expect(await coll().findOne({ _id: 1 })).toEqual({
      _id: 1,
      $price: 50,
      quantity: 30,
      location: { $db: 'novels', $inc: true },
    });
  });

  it('an upsert that inserts accepts $-prefixed fields in $set; the same update on an existing document fails (52)', async () => {
    const update = { $set: { phone: 25.17, $hotel: 320.1 } };
    const r = await coll().updateOne({ date: '2021-07-07' }, update, { upsert: true });
    expect(r.upsertedCount).toBe(1);
    expect(await coll().findOne({ date: '2021-07-07' }, { projection: { _id: 0 } })).toEqual({
      date: '2021-07-07',
      phone: 25.17,
      $hotel: 320.1,
    });
    const err = await failure(coll().updateOne({ date: '2021-07-07' }, update, { upsert: true }));
    expect(err.code).toBe(52);
  });
});

describe('projection', () => {
  it('an embedded-document projection {account: {amount: 1}} is the nested field account.amount', async () => {
    await coll().insertOne({ _id: 1, account: { amount: 5, owner: 'x' }, other: 1 });
    expect(
      await coll()
        .find({}, { projection: { account: { amount: 1 } } })
        .toArray(),
    ).toEqual([{ _id: 1, account: { amount: 5 } }]);
    expect(
      await coll()
        .find({}, { projection: { account: { owner: 0 }, other: 0 } })
        .toArray(),
    ).toEqual([{ _id: 1, account: { amount: 5 } }]);
  });
});

describe('the 16 MiB document limit', () => {
  const MiB = 1024 * 1024;
  it('an insert over 16 MiB is refused with BSONObjectTooLarge (10334)', async () => {
    const res = await db.command({ insert: 'c', documents: [{ _id: 1, big: 'x'.repeat(16 * MiB) }] });
    expect(res.writeErrors?.[0]).toMatchObject({ code: 10334 });
    expect(await coll().countDocuments()).toBe(0);
  });

  it('an update that grows a document past 16 MiB answers 17419; an upsert that would insert one answers 17420', async () => {
    await coll().insertOne({ _id: 1, a: 'x'.repeat(9 * MiB) });
    expect((await failure(coll().updateOne({ _id: 1 }, { $set: { b: 'y'.repeat(9 * MiB) } }))).code).toBe(17419);
    expect((await coll().findOne({ _id: 1 }))!.b).toBeUndefined();
    const doubled = [{ $set: { a: 'x'.repeat(9 * MiB) } }, { $set: { b: { $concat: ['$a', '$a'] } } }];
    const upsert = await failure(coll().updateOne({ _id: 2 }, doubled, { upsert: true }));
    expect(upsert.code).toBe(17420);
  });
});

describe('aggregate', () => {
  it('a database-level aggregate starts with $documents', async () => {
    const out = await db
      .aggregate([
        { $documents: [{ x: 1 }, { x: 2 }, { x: 3 }] },
        { $match: { x: { $gte: 2 } } },
        { $project: { y: { $multiply: ['$x', 10] } } },
      ])
      .toArray();
    expect(out).toEqual([{ y: 20 }, { y: 30 }]);
  });

  it('$avg of integers is a double', async () => {
    await coll().insertMany([
      { _id: 1, n: 1 },
      { _id: 2, n: 3 },
    ]);
    const fast = await coll()
      .aggregate([{ $group: { _id: null, avg: { $avg: '$n' } } }], { promoteValues: false })
      .toArray();
    expect(fast[0].avg).toBeInstanceOf(Double);
    expect(fast[0].avg.value).toBe(2);
    const general = await coll()
      .aggregate([{ $group: { _id: null, avg: { $avg: '$n' } } }, { $project: { t: { $type: '$avg' }, avg: 1 } }])
      .toArray();
    expect(general).toEqual([{ _id: null, avg: 2, t: 'double' }]);
  });
});

describe('find', () => {
  it('hint decides the order of an unsorted find: the hinted index order, or $natural', async () => {
    await coll().insertMany([{ _id: 1, a: 3 }, { _id: 2, a: 1 }, { _id: 3, a: 2 }, { _id: 4 }]);
    await coll().createIndex({ a: 1 });
    await coll().createIndex({ a: -1 }, { name: 'a_desc' });
    await coll().createIndex({ a: 1, z: 1 }, { name: 'sparse_a', sparse: true });
    const ids = async (hint: Document | string) => (await coll().find({}).hint(hint).toArray()).map((d) => d._id);
    expect(await ids({ a: 1 })).toEqual([4, 2, 3, 1]);
    expect(await ids('a_desc')).toEqual([1, 3, 2, 4]);
    expect(await ids({ $natural: -1 })).toEqual([4, 3, 2, 1]);
    expect(await ids('sparse_a')).toEqual([2, 3, 1]);
    expect((await coll().find({}).hint({ a: 1 }).skip(1).limit(2).toArray()).map((d) => d._id)).toEqual([2, 3]);
  });

  it('the positional $ after an $exists condition on a path through an array updates the element that has the field', async () => {
    await coll().insertOne({ _id: 1, items: [{ a: 1 }, { b: 2 }, { b: 3 }] });
    await coll().updateOne({ 'items.b': { $exists: true } }, { $set: { 'items.$.hit': true } });
    expect((await coll().findOne({ _id: 1 }))!.items).toEqual([{ a: 1 }, { b: 2, hit: true }, { b: 3 }]);
    const [projected] = await coll()
      .find({ 'items.b': { $exists: true } }, { projection: { 'items.$': 1 } })
      .toArray();
    expect(projected).toEqual({ _id: 1, items: [{ b: 2, hit: true }] });
  });

  it('$bitsAllSet, $bitsAnySet, $bitsAllClear and $bitsAnyClear match BinData (bit 0 = lowest bit of the first byte)', async () => {
    await coll().insertMany([
      { _id: 1, b: new Binary(Buffer.from([0b0000_0101])) },
      { _id: 2, b: new Binary(Buffer.from([0b0000_0000, 0b0000_0001])) },
      { _id: 3, b: 5 },
    ]);
    const ids = async (q: Document) => (await coll().find({ b: q }).toArray()).map((d) => d._id);
    expect(await ids({ $bitsAllSet: [0, 2] })).toEqual([1, 3]);
    expect(await ids({ $bitsAnySet: [8] })).toEqual([2]);
    expect(await ids({ $bitsAllClear: [1, 3] })).toEqual([1, 2, 3]);
    expect(await ids({ $bitsAnyClear: [0, 2] })).toEqual([2]);
    expect(await ids({ $bitsAllSet: new Binary(Buffer.from([0b0000_0101])) })).toEqual([1, 3]);
  });
});

describe('commands', () => {
  it('create with capped: true and no size answers InvalidOptions (72)', async () => {
    const err = await failure(db.createCollection('capped', { capped: true }));
    expect(err.code).toBe(72);
    expect(err.message).toBe("the 'size' field is required when 'capped' is true");
  });

  it('setParameter answers the previous value for a runtime parameter and refuses unknown or startup-only ones', async () => {
    const admin = client.db('admin');
    const r = await admin.command({ setParameter: 1, cursorTimeoutMillis: Long.fromNumber(120_000) });
    expect(r.ok).toBe(1);
    expect(Number(r.was)).toBe(600_000);
    expect(Number((await admin.command({ getParameter: 1, cursorTimeoutMillis: 1 })).cursorTimeoutMillis)).toBe(
      120_000,
    );
    expect(Number((await admin.command({ setParameter: 1, cursorTimeoutMillis: Long.fromNumber(600_000) })).was)).toBe(
      120_000,
    );
    expect((await failure(admin.command({ setParameter: 1, noSuchParameter: 1 }))).code).toBe(72);
    expect((await failure(admin.command({ setParameter: 1, port: 1 }))).code).toBe(72);
    expect((await failure(db.command({ setParameter: 1, logLevel: 1 }))).code).toBe(13);
  });
});
