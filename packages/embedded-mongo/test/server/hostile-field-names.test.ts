// Field names are data. `__proto__`, `constructor` and `prototype` (and other names Object.prototype carries)
// are ordinary field names in MongoDB; here they go through every family of operators that takes a field path.
// After each test, Object.prototype must be exactly what it was and a $project must still work: a single
// write that reached Object.prototype would otherwise break every later aggregation for every client.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MongoClient, MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../src/index.js';

let mongo: EmbeddedMongo;
let client: MongoClient;
let db: Db;
let dbCounter = 0;

const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();
const PROTO_DESCRIPTORS = Object.getOwnPropertyDescriptors(Object.prototype);
const PROTO_OF_OBJECT = Object.getPrototypeOf({});

beforeAll(async () => {
  mongo = await startEmbeddedMongo({ port: 0 });
  client = new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

beforeEach(() => {
  db = client.db(`hostile_${++dbCounter}`);
});

afterEach(async () => {
  // Object.prototype untouched: same names, same values.
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTO_NAMES);
  const now = Object.getOwnPropertyDescriptors(Object.prototype) as Record<string, PropertyDescriptor>;
  for (const name of PROTO_NAMES)
    expect(now[name]).toEqual((PROTO_DESCRIPTORS as Record<string, PropertyDescriptor>)[name]);
  expect(Object.getPrototypeOf({})).toBe(PROTO_OF_OBJECT);
  for (const name of ['polluted', 'x', 'y', 'n']) expect(({} as Document)[name]).toBeUndefined();
  // ...and $project, $unset and a query still work for everyone.
  const probe = client.db('hostile_probe').collection('probe');
  await probe.deleteMany({});
  await probe.insertOne({ _id: 1 as never, a: 1, b: 2 });
  expect(await probe.aggregate([{ $project: { a: 1 } }]).toArray()).toEqual([{ _id: 1, a: 1 }]);
  expect(await probe.aggregate([{ $unset: 'b' }]).toArray()).toEqual([{ _id: 1, a: 1 }]);
  expect(await probe.find({ a: 1 }, { projection: { _id: 0, b: 1 } }).toArray()).toEqual([{ b: 2 }]);
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const coll = (name = 'c'): Collection<any> => db.collection(name);

/** An object with the given own fields, `__proto__` included (a literal `{__proto__: v}` sets the prototype). */
const fields = (...entries: [string, unknown][]): Document => {
  const o: Document = {};
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
};
/** A field's own value, `undefined` when the document has no such own field. */
const own = (o: unknown, ...path: string[]): unknown => {
  let v = o;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, k)) return undefined;
    v = (v as Document)[k];
  }
  return v;
};
const hasOwn = (o: unknown, k: string) =>
  o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k);

const failure = async (p: Promise<unknown>): Promise<MongoServerError> => {
  const outcome = await p.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(MongoServerError);
  return outcome as MongoServerError;
};

describe('documents keep reserved names as fields', () => {
  it('stores and returns __proto__, constructor and prototype keys at any depth', async () => {
    const doc = fields(
      ['_id', 1],
      ['__proto__', fields(['x', 1])],
      ['constructor', 'c'],
      ['prototype', fields(['__proto__', 2])],
    );
    await coll().insertOne(doc);
    const [back] = await coll().find({ _id: 1 }).toArray();
    expect(own(back, '__proto__', 'x')).toBe(1);
    expect(own(back, 'constructor')).toBe('c');
    expect(own(back, 'prototype', '__proto__')).toBe(2);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  });

  it('matches reserved names as data and never sees inherited properties', async () => {
    await coll().insertMany([fields(['_id', 1], ['__proto__', fields(['x', 1])]), { _id: 2, a: 1 }]);
    const ids = async (filter: Document) => (await coll().find(filter).toArray()).map((d) => d._id);
    expect(await ids({ '__proto__.x': 1 })).toEqual([1]);
    expect(await ids(fields(['__proto__', fields(['x', 1])]))).toEqual([1]);
    expect(await ids(fields(['__proto__', { $exists: true }]))).toEqual([1]);
    expect(await ids({ constructor: { $exists: true } })).toEqual([]);
    expect(await ids({ toString: { $exists: false }, hasOwnProperty: null })).toEqual([1, 2]);
    expect(await ids({ 'constructor.name': { $exists: true } })).toEqual([]);
    expect(await ids({ $expr: { $eq: ['$__proto__.x', 1] } })).toEqual([1]);
    expect(await ids({ $jsonSchema: { required: ['constructor'] } })).toEqual([]);
    expect(await ids({ $jsonSchema: { required: ['__proto__'] } })).toEqual([1]);
    expect(await coll().distinct('__proto__.x')).toEqual([1]);
    expect(await coll().countDocuments({ 'constructor.prototype': { $exists: true } })).toBe(0);
  });

  it('keeps __proto__ through the journal and a snapshot', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hostile-journal-'));
    let server = await startEmbeddedMongo({ port: 0, dbPath: dir });
    let c = new MongoClient(server.uri);
    try {
      await c
        .db('j')
        .collection('c')
        .insertOne(fields(['_id', 1], ['__proto__', fields(['x', 1])]));
      await c
        .db('j')
        .collection('c')
        .updateOne({ _id: 1 } as never, { $set: { 'constructor.prototype.y': 2 } });
      await c.close();
      await server.stop();
      server = await startEmbeddedMongo({ port: 0, dbPath: dir, compactEveryOps: 1 });
      c = new MongoClient(server.uri);
      const [doc] = await c.db('j').collection('c').find({}).toArray();
      expect(own(doc, '__proto__', 'x')).toBe(1);
      expect(own(doc, 'constructor', 'prototype', 'y')).toBe(2);
      await c
        .db('j')
        .collection('c')
        .updateOne({ _id: 1 } as never, { $inc: { '__proto__.x': 1 } });
      await c.close();
      await server.stop();
      server = await startEmbeddedMongo({ port: 0, dbPath: dir });
      c = new MongoClient(server.uri);
      const [again] = await c.db('j').collection('c').find({}).toArray();
      expect(own(again, '__proto__', 'x')).toBe(2);
    } finally {
      await c.close();
      await server.stop();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('update operators on reserved paths', () => {
  it('$set and $setOnInsert create nested fields named __proto__, constructor and prototype', async () => {
    await coll().insertOne({ _id: 1 });
    await coll().updateOne(
      { _id: 1 },
      { $set: { '__proto__.polluted': 1, 'constructor.prototype.polluted': 2, 'prototype.x': 3, toString: 4 } },
    );
    const doc = await coll().findOne({ _id: 1 });
    expect(own(doc, '__proto__', 'polluted')).toBe(1);
    expect(own(doc, 'constructor', 'prototype', 'polluted')).toBe(2);
    expect(own(doc, 'prototype', 'x')).toBe(3);
    expect(own(doc, 'toString')).toBe(4);
    await coll().updateOne({ _id: 2 }, { $setOnInsert: { '__proto__.y': 1 } }, { upsert: true });
    expect(own(await coll().findOne({ _id: 2 }), '__proto__', 'y')).toBe(1);
  });

  it('$unset removes them and nothing inherited', async () => {
    await coll().insertOne(fields(['_id', 1], ['__proto__', fields(['x', 1], ['y', 2])], ['constructor', 1]));
    await coll().updateOne({ _id: 1 }, { $unset: { '__proto__.x': '', constructor: '', 'toString.x': '' } });
    const doc = await coll().findOne({ _id: 1 });
    expect(own(doc, '__proto__')).toEqual({ y: 2 });
    expect(hasOwn(doc, 'constructor')).toBe(false);
  });

  it('$rename to and from reserved paths', async () => {
    await coll().insertOne({ _id: 1, a: 1, b: { c: 2 } });
    await coll().updateOne(
      { _id: 1 },
      { $rename: { a: '__proto__.polluted', 'b.c': 'constructor.prototype.polluted' } },
    );
    let doc = await coll().findOne({ _id: 1 });
    expect(own(doc, '__proto__', 'polluted')).toBe(1);
    expect(own(doc, 'constructor', 'prototype', 'polluted')).toBe(2);
    await coll().updateOne(
      { _id: 1 },
      { $rename: fields(['__proto__', 'p'], ['constructor', 'q'], ['toString', 'r']) },
    );
    doc = await coll().findOne({ _id: 1 });
    expect(doc).toEqual({ _id: 1, b: {}, p: { polluted: 1 }, q: { prototype: { polluted: 2 } } });
  });

  it('$inc, $mul, $min, $max, $currentDate and $bit', async () => {
    await coll().insertOne({ _id: 1 });
    await coll().updateOne(
      { _id: 1 },
      {
        $inc: { '__proto__.n': 2 },
        $mul: { 'constructor.n': 3 },
        $min: { 'prototype.n': 1 },
        $max: { 'valueOf.n': 5 },
        $currentDate: { '__proto__.at': true },
        $bit: { 'hasOwnProperty.n': { or: 1 } },
      },
    );
    const doc = await coll().findOne({ _id: 1 });
    expect(own(doc, '__proto__', 'n')).toBe(2);
    expect(own(doc, '__proto__', 'at')).toBeInstanceOf(Date);
    expect(own(doc, 'constructor', 'n')).toBe(0);
    expect(own(doc, 'prototype', 'n')).toBe(1);
    expect(own(doc, 'valueOf', 'n')).toBe(5);
    expect(own(doc, 'hasOwnProperty', 'n')).toBe(1);
  });

  it('$push (with $each and $sort), $addToSet, $pull, $pullAll and $pop', async () => {
    await coll().insertOne({ _id: 1 });
    await coll().updateOne({ _id: 1 }, {
      $push: {
        '__proto__.list': {
          $each: [fields(['__proto__', 2]), fields(['__proto__', 1])],
          $sort: fields(['__proto__', 1]),
        },
      },
      $addToSet: { 'constructor.set': 'a' },
    } as Document);
    let doc = await coll().findOne({ _id: 1 });
    expect((own(doc, '__proto__', 'list') as Document[]).map((x) => own(x, '__proto__'))).toEqual([1, 2]);
    expect(own(doc, 'constructor', 'set')).toEqual(['a']);
    await coll().updateOne({ _id: 1 }, {
      $pull: { '__proto__.list': fields(['__proto__', 1]) },
      $pullAll: { 'constructor.set': ['a'] },
    } as Document);
    doc = await coll().findOne({ _id: 1 });
    expect((own(doc, '__proto__', 'list') as Document[]).map((x) => own(x, '__proto__'))).toEqual([2]);
    expect(own(doc, 'constructor', 'set')).toEqual([]);
    await coll().updateOne({ _id: 1 }, { $pop: { '__proto__.list': 1 } });
    expect(own(await coll().findOne({ _id: 1 }), '__proto__', 'list')).toEqual([]);
  });

  it('positional $, $[] and $[<id>] through reserved names', async () => {
    await coll().insertOne(fields(['_id', 1], ['items', [fields(['__proto__', 1]), fields(['__proto__', 2])]]));
    await coll().updateOne({ 'items.__proto__': 2 }, { $set: { 'items.$.constructor': 'matched' } });
    await coll().updateOne({ _id: 1 }, { $inc: { 'items.$[].__proto__': 10 } });
    await coll().updateOne(
      { _id: 1 },
      { $set: { 'items.$[el].prototype': true } },
      { arrayFilters: [{ 'el.__proto__': 12 }] },
    );
    const doc = await coll().findOne({ _id: 1 });
    const items = own(doc, 'items') as Document[];
    expect(items.map((x) => own(x, '__proto__'))).toEqual([11, 12]);
    expect(items.map((x) => own(x, 'constructor'))).toEqual([undefined, 'matched']);
    expect(items.map((x) => own(x, 'prototype'))).toEqual([undefined, true]);
  });

  it('upserts seeded from filters on reserved paths', async () => {
    await coll().updateOne(
      { '__proto__.polluted': 1, 'constructor.x': 2, prototype: 3 },
      { $set: { y: 1 } },
      { upsert: true },
    );
    const doc = await coll().findOne({ y: 1 });
    expect(own(doc, '__proto__', 'polluted')).toBe(1);
    expect(own(doc, 'constructor', 'x')).toBe(2);
    expect(own(doc, 'prototype')).toBe(3);
    await coll().updateOne({ $and: [{ '__proto__.z': 1 }] }, [{ $set: { '__proto__.w': 2 } }], { upsert: true });
    const piped = await coll().findOne({ '__proto__.z': 1 });
    expect(own(piped, '__proto__')).toEqual({ z: 1, w: 2 });
  });

  it('replacements and findOneAndUpdate keep __proto__ as a field', async () => {
    await coll().insertOne({ _id: 1, a: 1 });
    await coll().replaceOne({ _id: 1 }, fields(['__proto__', fields(['polluted', 1])], ['b', 2]));
    expect(own(await coll().findOne({ _id: 1 }), '__proto__', 'polluted')).toBe(1);
    const before = await coll().findOneAndUpdate(
      { '__proto__.polluted': 1 },
      { $set: { '__proto__.polluted': 2 } },
      { returnDocument: 'after' },
    );
    expect(own(before, '__proto__', 'polluted')).toBe(2);
  });

  it('pipeline updates with $set, $unset, $replaceWith', async () => {
    await coll().insertOne(fields(['_id', 1], ['__proto__', fields(['x', 1])], ['keep', 1]));
    await coll().updateOne({ _id: 1 }, [
      { $set: { '__proto__.polluted': '$__proto__.x', 'constructor.prototype.y': 1 } },
    ]);
    let doc = await coll().findOne({ _id: 1 });
    expect(own(doc, '__proto__')).toEqual({ x: 1, polluted: 1 });
    expect(own(doc, 'constructor', 'prototype', 'y')).toBe(1);
    await coll().updateOne({ _id: 1 }, [{ $unset: ['__proto__.x', 'constructor'] }]);
    doc = await coll().findOne({ _id: 1 });
    expect(own(doc, '__proto__')).toEqual({ polluted: 1 });
    expect(hasOwn(doc, 'constructor')).toBe(false);
    await coll().updateOne({ _id: 1 }, [{ $replaceWith: { _id: '$_id', prototype: '$__proto__' } }]);
    expect(await coll().findOne({ _id: 1 })).toEqual({ _id: 1, prototype: { polluted: 1 } });
  });
});

describe('reads and aggregation on reserved paths', () => {
  const seed = () =>
    coll().insertMany([
      fields(['_id', 1], ['__proto__', fields(['x', 1], ['list', [1, 2]])], ['constructor', 'a']),
      fields(['_id', 2], ['__proto__', fields(['x', 2], ['list', [3]])], ['constructor', 'b']),
    ]);

  it('find projections: inclusion, exclusion, $slice, $elemMatch and computed fields', async () => {
    await seed();
    const find = (projection: Document) => coll().find({ _id: 1 }, { projection }).toArray();
    expect(own((await find({ '__proto__.x': 1 }))[0], '__proto__')).toEqual({ x: 1 });
    expect(hasOwn((await find(fields(['constructor', 0], ['__proto__', 0])))[0], '__proto__')).toBe(false);
    expect(own((await find({ '__proto__.list': { $slice: 1 } }))[0], '__proto__', 'list')).toEqual([1]);
    expect((await find({ y: '$__proto__.x', z: '$constructor', w: '$toString' }))[0]).toEqual({ _id: 1, y: 1, z: 'a' });
    expect(own((await find(fields(['__proto__', { $literal: 5 }])))[0], '__proto__')).toBe(5);
  });

  it('$match, $project, $addFields, $unset, $sort, $group, $replaceRoot, $unwind, $count', async () => {
    await seed();
    const run = (pipeline: Document[]) => coll().aggregate(pipeline).toArray();
    expect(await run([{ $match: { '__proto__.x': 2 } }, { $project: { _id: 1 } }])).toEqual([{ _id: 2 }]);
    const projected = await run([
      { $project: { '__proto__.x': 1, y: '$__proto__.x' } },
      { $sort: { '__proto__.x': -1 } },
    ]);
    expect(projected.map((d) => [own(d, '__proto__', 'x'), d.y])).toEqual([
      [2, 2],
      [1, 1],
    ]);
    const added = await run([
      { $addFields: { '__proto__.polluted': 1, 'constructor.prototype.polluted': 1 } },
      { $limit: 1 },
    ]);
    expect(own(added[0], '__proto__', 'polluted')).toBe(1);
    expect(own(added[0], '__proto__', 'x')).toBe(1);
    const unset = await run([{ $unset: ['__proto__', 'constructor'] }]);
    expect(unset).toEqual([{ _id: 1 }, { _id: 2 }]);
    const grouped = await run([
      { $group: fields(['_id', '$constructor'], ['__proto__', { $sum: '$__proto__.x' }]) },
      { $sort: { _id: 1 } },
    ]);
    expect(grouped.map((g) => [g._id, own(g, '__proto__')])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    const replaced = await run([{ $replaceRoot: { newRoot: '$__proto__' } }, { $sort: { x: 1 } }]);
    expect(replaced).toEqual([
      { x: 1, list: [1, 2] },
      { x: 2, list: [3] },
    ]);
    const unwound = await run([
      { $unwind: { path: '$__proto__.list', includeArrayIndex: 'prototype' } },
      { $project: { _id: 0, v: '$__proto__.list', i: '$prototype' } },
    ]);
    expect(unwound).toEqual([
      { v: 1, i: 0 },
      { v: 2, i: 1 },
      { v: 3, i: 0 },
    ]);
    const counted = await run([{ $count: '__proto__' }]);
    expect(own(counted[0], '__proto__')).toBe(2);
    const fast = await run([
      { $group: fields(['_id', null], ['constructor', { $sum: 1 }], ['__proto__', { $max: '$__proto__.x' }]) },
    ]);
    expect([own(fast[0], 'constructor'), own(fast[0], '__proto__')]).toEqual([2, 2]);
  });

  it('$lookup, $facet, $getField, $setField and $objectToArray', async () => {
    await seed();
    await coll('other').insertOne(fields(['_id', 9], ['prototype', 2]));
    const [joined] = await coll()
      .aggregate([
        { $match: { _id: 2 } },
        { $lookup: { from: 'other', localField: '__proto__.x', foreignField: 'prototype', as: 'prototype' } },
      ])
      .toArray();
    // (An array under `constructor` would come back as raw bytes: the driver's own decoder looks up field
    // names in a plain options object. The server's answer is right either way; `prototype` avoids that.)
    expect((own(joined, 'prototype') as Document[]).map((d) => d._id)).toEqual([9]);
    const [faceted] = await coll()
      .aggregate([{ $facet: { a: [{ $project: { _id: 0, v: '$__proto__.x' } }] } }])
      .toArray();
    expect(faceted).toEqual({ a: [{ v: 1 }, { v: 2 }] });
    const fieldOps = await coll()
      .aggregate([
        { $match: { _id: 1 } },
        {
          $project: {
            _id: 0,
            g: { $getField: '__proto__' },
            s: { $setField: { field: 'constructor', input: { a: 1 }, value: 2 } },
          },
        },
      ])
      .toArray();
    expect(fieldOps[0].g).toEqual({ x: 1, list: [1, 2] });
    expect(own(fieldOps[0].s, 'constructor')).toBe(2);
  });

  it('indexes on reserved paths extract keys from the field, enforce uniqueness and serve reads', async () => {
    await coll().createIndex({ '__proto__.x': 1 }, { unique: true });
    await coll().createIndex({ constructor: 1 });
    await seed();
    const dup = await failure(coll().insertOne(fields(['_id', 3], ['__proto__', fields(['x', 1])])));
    expect(dup.code).toBe(11000);
    // Documents without the field all index as null: two of them collide on the unique index, as in MongoDB.
    await coll().insertOne({ _id: 4 });
    expect((await failure(coll().insertOne({ _id: 5 }))).code).toBe(11000);
    const sorted = await coll()
      .find({})
      .sort(fields(['constructor', -1]))
      .toArray();
    expect(sorted.map((d) => d._id)).toEqual([2, 1, 4]);
    expect((await coll().find({ '__proto__.x': 2 }).toArray()).map((d) => d._id)).toEqual([2]);
  });
});
