// Conformance with MongoDB's documented behaviour, through the official driver (7.8): the examples of the
// MongoDB manual for query and update operators, projections, aggregation stages, indexes, transactions and
// the error codes mongod 7.0 answers. Expected values are the manual's, not what this server happens to do.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  Binary,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  ObjectId,
  Timestamp,
  type Collection,
  type Db,
  type Document,
} from 'mongodb';
import mongoose from 'mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../src/index.js';

let mongo: EmbeddedMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  // A short TTL sweep so expiry can be observed without waiting for mongod's 60 s monitor.
  mongo = await startEmbeddedMongo({ port: 0, replSet: 'rs0', ttlSweepMs: 50 });
  client = new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

let dbCounter = 0;
beforeEach(() => {
  db = client.db(`conformance_${++dbCounter}`);
});

/**
 * Tests use the manual's documents, with their own _id types (numbers, strings); the driver's generic typings
 * reject those, so the tests talk to collections untyped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<keyof Collection<Document>, any>;
const coll = (name: string) => db.collection(name) as unknown as Loose;

/** The error a promise rejects with (fails the test if it resolves). */
const failure = async (p: Promise<unknown>): Promise<MongoServerError> => {
  const outcome = await p.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(MongoServerError);
  return outcome as MongoServerError;
};

const ids = (docs: Document[]) => docs.map((d) => d._id);
const items = (docs: Document[]) => docs.map((d) => d.item);

// The manual's `inventory` collection (Query Documents pages).
const INVENTORY = [
  {
    _id: 1,
    item: 'journal',
    qty: 25,
    size: { h: 14, w: 21, uom: 'cm' },
    status: 'A',
    tags: ['blank', 'red'],
    dim_cm: [14, 21],
  },
  {
    _id: 2,
    item: 'notebook',
    qty: 50,
    size: { h: 8.5, w: 11, uom: 'in' },
    status: 'A',
    tags: ['red', 'blank'],
    dim_cm: [14, 21],
  },
  {
    _id: 3,
    item: 'paper',
    qty: 100,
    size: { h: 8.5, w: 11, uom: 'in' },
    status: 'D',
    tags: ['red', 'blank', 'plain'],
    dim_cm: [14, 21],
  },
  {
    _id: 4,
    item: 'planner',
    qty: 75,
    size: { h: 22.85, w: 30, uom: 'cm' },
    status: 'D',
    tags: ['blank', 'red'],
    dim_cm: [22.85, 30],
  },
  {
    _id: 5,
    item: 'postcard',
    qty: 45,
    size: { h: 10, w: 15.25, uom: 'cm' },
    status: 'A',
    tags: ['blue'],
    dim_cm: [10, 15.25],
  },
];

describe('query operators', () => {
  let inventory: Loose;
  beforeEach(async () => {
    inventory = coll('inventory');
    await inventory.insertMany(INVENTORY);
  });
  const find = async (filter: Document) => items(await inventory.find(filter).sort({ _id: 1 }).toArray());

  it('compares with $eq $ne $gt $gte $lt $lte $in $nin', async () => {
    expect(await find({ status: 'D' })).toEqual(['paper', 'planner']);
    expect(await find({ status: { $eq: 'D' } })).toEqual(['paper', 'planner']);
    expect(await find({ status: { $ne: 'A' } })).toEqual(['paper', 'planner']);
    expect(await find({ qty: { $gt: 50 } })).toEqual(['paper', 'planner']);
    expect(await find({ qty: { $gte: 50 } })).toEqual(['notebook', 'paper', 'planner']);
    expect(await find({ qty: { $lt: 45 } })).toEqual(['journal']);
    expect(await find({ qty: { $lte: 45 } })).toEqual(['journal', 'postcard']);
    expect(await find({ status: { $in: ['A', 'D'] } })).toHaveLength(5);
    expect(await find({ qty: { $nin: [25, 50] } })).toEqual(['paper', 'planner', 'postcard']);
    expect(await find({ status: 'A', qty: { $lt: 30 } })).toEqual(['journal']);
  });

  it('combines with $and $or $nor $not', async () => {
    expect(await find({ $or: [{ status: 'A' }, { qty: { $lt: 30 } }] })).toEqual(['journal', 'notebook', 'postcard']);
    expect(await find({ status: 'A', $or: [{ qty: { $lt: 30 } }, { item: /^p/ }] })).toEqual(['journal', 'postcard']);
    expect(await find({ $and: [{ qty: { $gt: 40 } }, { qty: { $lt: 80 } }] })).toEqual([
      'notebook',
      'planner',
      'postcard',
    ]);
    expect(await find({ $nor: [{ status: 'A' }, { qty: { $gt: 80 } }] })).toEqual(['planner']);
    expect(await find({ qty: { $not: { $gt: 50 } } })).toEqual(['journal', 'notebook', 'postcard']);
    expect(await find({ item: { $not: /^p/ } })).toEqual(['journal', 'notebook']);
  });

  it('matches embedded documents exactly (field order counts) and by dotted path', async () => {
    expect(await find({ size: { h: 14, w: 21, uom: 'cm' } })).toEqual(['journal']);
    expect(await find({ size: { w: 21, h: 14, uom: 'cm' } })).toEqual([]);
    expect(await find({ 'size.uom': 'in' })).toEqual(['notebook', 'paper']);
    expect(await find({ 'size.h': { $lt: 15 }, 'size.uom': 'in', status: 'D' })).toEqual(['paper']);
  });

  it('matches arrays: exact, element, $all, $size, $elemMatch, by index', async () => {
    expect(await find({ tags: ['red', 'blank'] })).toEqual(['notebook']);
    expect(await find({ tags: { $all: ['red', 'blank'] } })).toEqual(['journal', 'notebook', 'paper', 'planner']);
    expect(await find({ tags: 'red' })).toEqual(['journal', 'notebook', 'paper', 'planner']);
    expect(await find({ dim_cm: { $gt: 25 } })).toEqual(['planner']);
    // without $elemMatch each condition may be met by a different element
    expect(await find({ dim_cm: { $gt: 15, $lt: 20 } })).toEqual(['journal', 'notebook', 'paper', 'postcard']);
    expect(await find({ dim_cm: { $elemMatch: { $gt: 22, $lt: 30 } } })).toEqual(['planner']);
    expect(await find({ 'dim_cm.1': { $gt: 25 } })).toEqual(['planner']);
    expect(await find({ tags: { $size: 3 } })).toEqual(['paper']);
    expect(await find({ tags: { $all: [] } })).toEqual([]);
  });

  it('matches arrays of embedded documents ($elemMatch versus dotted paths)', async () => {
    const survey = coll('survey');
    await survey.insertMany([
      {
        _id: 1,
        results: [
          { product: 'abc', score: 10 },
          { product: 'xyz', score: 5 },
        ],
      },
      {
        _id: 2,
        results: [
          { product: 'abc', score: 8 },
          { product: 'xyz', score: 7 },
        ],
      },
      {
        _id: 3,
        results: [
          { product: 'abc', score: 7 },
          { product: 'xyz', score: 8 },
        ],
      },
      {
        _id: 4,
        results: [
          { product: 'abc', score: 7 },
          { product: 'def', score: 8 },
        ],
      },
    ]);
    const q = async (f: Document) => ids(await survey.find(f).sort({ _id: 1 }).toArray());
    expect(await q({ results: { $elemMatch: { product: 'xyz', score: { $gte: 8 } } } })).toEqual([3]);
    expect(await q({ 'results.product': 'xyz', 'results.score': { $gte: 8 } })).toEqual([1, 2, 3]);
    expect(await q({ results: { $elemMatch: { product: { $ne: 'xyz' } } } })).toEqual([1, 2, 3, 4]);
    expect(await q({ 'results.product': { $ne: 'xyz' } })).toEqual([4]);
    expect(await q({ results: { product: 'abc', score: 10 } })).toEqual([1]);
    expect(await q({ 'results.0.score': { $lte: 7 } })).toEqual([3, 4]);
  });

  it('null matches null and missing fields; $exists and $type tell them apart', async () => {
    const c = coll('nulls');
    await c.insertMany([{ _id: 1, item: null }, { _id: 2 }, { _id: 3, item: 'x' }]);
    const q = async (f: Document) => ids(await c.find(f).sort({ _id: 1 }).toArray());
    expect(await q({ item: null })).toEqual([1, 2]);
    expect(await q({ item: { $eq: null } })).toEqual([1, 2]);
    expect(await q({ item: { $in: [null] } })).toEqual([1, 2]);
    expect(await q({ item: { $ne: null } })).toEqual([3]);
    expect(await q({ item: { $type: 'null' } })).toEqual([1]);
    expect(await q({ item: { $type: 10 } })).toEqual([1]);
    expect(await q({ item: { $exists: false } })).toEqual([2]);
    expect(await q({ item: { $exists: true } })).toEqual([1, 3]);
  });

  it('$type matches BSON types by alias and number, arrays by their elements', async () => {
    const c = coll('types');
    await c.insertMany([
      { _id: 1, v: 1 },
      { _id: 2, v: 1.5 },
      { _id: 3, v: new Double(2) },
      { _id: 4, v: Long.fromNumber(3) },
      { _id: 5, v: Decimal128.fromString('4') },
      { _id: 6, v: 'five' },
      { _id: 7, v: [6, 'six'] },
      { _id: 8, v: true },
      { _id: 9, v: new Date(0) },
      { _id: 10, v: new ObjectId() },
      { _id: 11, v: { x: 1 } },
      { _id: 12, v: null },
    ]);
    const q = async (t: unknown) =>
      ids(
        await c
          .find({ v: { $type: t } })
          .sort({ _id: 1 })
          .toArray(),
      );
    expect(await q('double')).toEqual([2, 3]);
    expect(await q(1)).toEqual([2, 3]);
    expect(await q('int')).toEqual([1, 7]);
    expect(await q('long')).toEqual([4]);
    expect(await q('decimal')).toEqual([5]);
    expect(await q('number')).toEqual([1, 2, 3, 4, 5, 7]);
    expect(await q('string')).toEqual([6, 7]);
    expect(await q(['bool', 'date'])).toEqual([8, 9]);
    expect(await q('array')).toEqual([7]);
    expect(await q('objectId')).toEqual([10]);
    expect(await q('object')).toEqual([11]);
    const error = await failure(c.find({ v: { $type: 'nonsense' } }).toArray());
    expect(error.code).toBe(2);
  });

  it('$regex with options, regex literals and regexes inside $in', async () => {
    expect(await find({ item: { $regex: '^P', $options: 'i' } })).toEqual(['paper', 'planner', 'postcard']);
    expect(await find({ item: { $regex: /^P/i } })).toEqual(['paper', 'planner', 'postcard']);
    expect(await find({ item: /^P/ })).toEqual([]);
    expect(await find({ item: { $in: [/^j/, /^n/] } })).toEqual(['journal', 'notebook']);
    const products = coll('products');
    await products.insertMany([
      { _id: 100, sku: 'abc123', description: 'Single line description.' },
      { _id: 101, sku: 'abc789', description: 'First line\nSecond line' },
    ]);
    const q = async (f: Document) => ids(await products.find(f).sort({ _id: 1 }).toArray());
    expect(await q({ description: { $regex: /^S/, $options: 'm' } })).toEqual([100, 101]);
    expect(await q({ description: { $regex: /^S/ } })).toEqual([100]);
    expect(await q({ sku: { $regex: 'ABC', $options: 'i' } })).toEqual([100, 101]);
    expect(await q({ description: { $regex: 'line$', $options: 'm' } })).toEqual([101]);
  });

  it('$mod divides and compares the remainder', async () => {
    expect(await find({ qty: { $mod: [4, 0] } })).toEqual(['paper']);
    expect(await find({ qty: { $mod: [25, 0] } })).toEqual(['journal', 'notebook', 'paper', 'planner']);
    expect((await failure(inventory.find({ qty: { $mod: [4] } }).toArray())).code).toBe(2);
  });

  it('an array field equals an array value, or contains it as an element', async () => {
    const c = coll('nested');
    await c.insertMany([
      { _id: 1, a: [1, 2] },
      { _id: 2, a: [[1, 2], 3] },
      { _id: 3, a: [2, 1] },
    ]);
    expect(
      ids(
        await c
          .find({ a: [1, 2] })
          .sort({ _id: 1 })
          .toArray(),
      ),
    ).toEqual([1, 2]);
    expect(ids(await c.find({ a: 2 }).sort({ _id: 1 }).toArray())).toEqual([1, 3]);
  });

  it('answers unknown operators as mongod does', async () => {
    const unknown = await failure(inventory.find({ qty: { $foo: 1 } }).toArray());
    expect(unknown).toMatchObject({ code: 2, codeName: 'BadValue' });
    expect(unknown.message).toBe('unknown operator: $foo');
    const top = await failure(inventory.find({ $foo: 1 }).toArray());
    expect(top.code).toBe(2);
    expect(top.message).toMatch(/^unknown top level operator: \$foo/);
  });
});

describe('sorting', () => {
  it('orders mixed types by the BSON comparison order', async () => {
    const c = coll('mixed');
    await c.insertMany([
      { _id: 1, v: 'b' },
      { _id: 2, v: 3 },
      { _id: 3, v: null },
      { _id: 4 },
      { _id: 5, v: { x: 1 } },
      { _id: 6, v: true },
      { _id: 7, v: new Date(0) },
      { _id: 8, v: new ObjectId('507f1f77bcf86cd799439011') },
      { _id: 9, v: 1.5 },
      { _id: 10, v: Long.fromNumber(2) },
      { _id: 11, v: Decimal128.fromString('2.5') },
      { _id: 12, v: 'a' },
      { _id: 13, v: /x/ },
      { _id: 14, v: new MinKey() },
      { _id: 15, v: new MaxKey() },
      { _id: 16, v: new Binary(Buffer.from('hi')) },
      { _id: 17, v: new Timestamp({ t: 1, i: 1 }) },
    ]);
    const asc = ids(await c.find().sort({ v: 1, _id: 1 }).toArray());
    expect(asc).toEqual([14, 3, 4, 9, 10, 11, 2, 12, 1, 5, 16, 8, 6, 7, 17, 13, 15]);
    const desc = ids(await c.find().sort({ v: -1, _id: 1 }).toArray());
    expect(desc).toEqual([15, 13, 17, 7, 6, 8, 16, 5, 1, 12, 2, 11, 10, 9, 3, 4, 14]);
  });

  it('sorts arrays by their smallest element ascending and their largest descending', async () => {
    const c = coll('arrays');
    await c.insertMany([
      { _id: 1, v: [5, 1] },
      { _id: 2, v: [3] },
      { _id: 3, v: 2 },
      { _id: 4, v: [0, 9] },
    ]);
    expect(ids(await c.find().sort({ v: 1 }).toArray())).toEqual([4, 1, 3, 2]);
    expect(ids(await c.find().sort({ v: -1 }).toArray())).toEqual([4, 1, 2, 3]);
  });
});

describe('projection', () => {
  beforeEach(async () => {
    await coll('inventory').insertMany(INVENTORY);
  });

  it('includes, excludes and drops _id on request', async () => {
    const c = coll('inventory');
    expect(await c.findOne({ _id: 1 }, { projection: { item: 1, status: 1 } })).toEqual({
      _id: 1,
      item: 'journal',
      status: 'A',
    });
    expect(await c.findOne({ _id: 1 }, { projection: { item: 1, status: 1, _id: 0 } })).toEqual({
      item: 'journal',
      status: 'A',
    });
    expect(await c.findOne({ _id: 1 }, { projection: { status: 0, tags: 0, dim_cm: 0, size: 0 } })).toEqual({
      _id: 1,
      item: 'journal',
      qty: 25,
    });
    expect(await c.findOne({ _id: 1 }, { projection: { item: 1, 'size.uom': 1 } })).toEqual({
      _id: 1,
      item: 'journal',
      size: { uom: 'cm' },
    });
    expect(await c.findOne({ _id: 1 }, { projection: { 'size.uom': 0, tags: 0, dim_cm: 0 } })).toEqual({
      _id: 1,
      item: 'journal',
      qty: 25,
      size: { h: 14, w: 21 },
      status: 'A',
    });
  });

  it('refuses mixing inclusion and exclusion', async () => {
    const c = coll('inventory');
    const exclusionInInclusion = await failure(c.findOne({}, { projection: { item: 1, status: 0 } }));
    expect(exclusionInInclusion.code).toBe(31254);
    expect(exclusionInInclusion.message).toBe('Cannot do exclusion on field status in inclusion projection');
    const inclusionInExclusion = await failure(c.findOne({}, { projection: { status: 0, item: 1 } }));
    expect(inclusionInExclusion.code).toBe(31253);
    expect(inclusionInExclusion.message).toBe('Cannot do inclusion on field item in exclusion projection');
  });

  it('$slice, $elemMatch and the positional $ in projections', async () => {
    const c = coll('inventory');
    expect(await c.findOne({ _id: 3 }, { projection: { tags: { $slice: 1 }, item: 1 } })).toEqual({
      _id: 3,
      item: 'paper',
      tags: ['red'],
    });
    expect(await c.findOne({ _id: 3 }, { projection: { tags: { $slice: -2 }, _id: 0, item: 1 } })).toEqual({
      item: 'paper',
      tags: ['blank', 'plain'],
    });
    expect(await c.findOne({ _id: 3 }, { projection: { tags: { $slice: [1, 1] }, _id: 0, item: 1 } })).toEqual({
      item: 'paper',
      tags: ['blank'],
    });
    const schools = coll('schools');
    await schools.insertMany([
      {
        _id: 1,
        zipcode: '63109',
        students: [
          { name: 'john', school: 102, age: 10 },
          { name: 'jess', school: 102, age: 11 },
          { name: 'jeff', school: 108, age: 15 },
        ],
      },
      {
        _id: 2,
        zipcode: '63110',
        students: [
          { name: 'ajax', school: 100, age: 7 },
          { name: 'achilles', school: 100, age: 8 },
        ],
      },
      {
        _id: 3,
        zipcode: '63109',
        students: [
          { name: 'ajax', school: 100, age: 7 },
          { name: 'achilles', school: 100, age: 8 },
        ],
      },
    ]);
    const matched = await schools
      .find({ zipcode: '63109' }, { projection: { students: { $elemMatch: { school: 102 } } } })
      .sort({ _id: 1 })
      .toArray();
    expect(matched).toEqual([{ _id: 1, students: [{ name: 'john', school: 102, age: 10 }] }, { _id: 3 }]);
    const positional = await schools.findOne({ 'students.age': { $gte: 11 } }, { projection: { 'students.$': 1 } });
    expect(positional).toEqual({ _id: 1, students: [{ name: 'jess', school: 102, age: 11 }] });
  });
});

describe("update operators (the manual's examples)", () => {
  it('$set top-level, embedded and array-element fields', async () => {
    const c = coll('products');
    await c.insertOne({
      _id: 100,
      quantity: 250,
      instock: true,
      reorder: false,
      details: { model: '14QQ', make: 'Clothes Corp' },
      tags: ['apparel', 'clothing'],
      ratings: [{ by: 'Customer007', rating: 4 }],
    });
    await c.updateOne(
      { _id: 100 },
      {
        $set: {
          quantity: 500,
          details: { model: '2600', make: 'Fashionaires' },
          tags: ['coats', 'outerwear', 'clothing'],
        },
      },
    );
    await c.updateOne({ _id: 100 }, { $set: { 'details.make': 'Kustom Kidz' } });
    await c.updateOne({ _id: 100 }, { $set: { 'tags.1': 'rain gear', 'ratings.0.rating': 2 } });
    expect(await c.findOne({ _id: 100 })).toEqual({
      _id: 100,
      quantity: 500,
      instock: true,
      reorder: false,
      details: { model: '2600', make: 'Kustom Kidz' },
      tags: ['coats', 'rain gear', 'clothing'],
      ratings: [{ by: 'Customer007', rating: 2 }],
    });
  });

  it('$unset, $inc, $mul, $rename', async () => {
    const c = coll('products');
    await c.insertOne({ _id: 1, sku: 'abc123', quantity: 10, instock: true, metrics: { orders: 2, ratings: 3.5 } });
    await c.updateOne({ _id: 1 }, { $inc: { quantity: -2, 'metrics.orders': 1 } });
    await c.updateOne({ _id: 1 }, { $unset: { instock: '' } });
    await c.updateOne({ _id: 1 }, { $rename: { sku: 'code', 'metrics.ratings': 'metrics.stars' } });
    expect(await c.findOne({ _id: 1 })).toEqual({
      _id: 1,
      quantity: 8,
      metrics: { orders: 3, stars: 3.5 },
      code: 'abc123',
    });

    await c.insertOne({ _id: 2, item: 'Hats', price: Decimal128.fromString('10.99'), quantity: 25 });
    await c.updateOne({ _id: 2 }, { $mul: { price: Decimal128.fromString('1.25'), quantity: 2 } });
    const hats = await c.findOne({ _id: 2 });
    expect(hats!.price.toString()).toBe('13.7375');
    expect(hats!.quantity).toBe(50);
    await c.insertOne({ _id: 3, item: 'Unknown' });
    await c.updateOne({ _id: 3 }, { $mul: { price: Long.fromNumber(100) } });
    const unknown = await c.findOne({ _id: 3 }, { promoteLongs: false });
    expect(unknown!.price).toBeInstanceOf(Long);
    expect(unknown!.price.toNumber()).toBe(0);
  });

  it('$min and $max only move a value in their direction', async () => {
    const c = coll('scores');
    await c.insertOne({ _id: 1, highScore: 800, lowScore: 200 });
    expect((await c.updateOne({ _id: 1 }, { $min: { lowScore: 150 } })).modifiedCount).toBe(1);
    expect((await c.updateOne({ _id: 1 }, { $min: { lowScore: 250 } })).modifiedCount).toBe(0);
    expect((await c.updateOne({ _id: 1 }, { $max: { highScore: 950 } })).modifiedCount).toBe(1);
    expect((await c.updateOne({ _id: 1 }, { $max: { highScore: 870 } })).modifiedCount).toBe(0);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, highScore: 950, lowScore: 150 });
    await c.insertOne({
      _id: 2,
      dateEntered: new Date('2023-10-01T05:00:00Z'),
      dateExpired: new Date('2023-10-01T16:04:36Z'),
    });
    await c.updateOne(
      { _id: 2 },
      { $min: { dateEntered: new Date('2023-09-25') }, $max: { dateExpired: new Date('2023-10-02') } },
    );
    expect(await c.findOne({ _id: 2 })).toEqual({
      _id: 2,
      dateEntered: new Date('2023-09-25'),
      dateExpired: new Date('2023-10-02'),
    });
  });

  it('$currentDate as a date and as a timestamp', async () => {
    const c = coll('customers');
    await c.insertOne({ _id: 1, status: 'a', lastModified: new Date('2013-10-02T01:11:18.965Z') });
    const before = Date.now();
    await c.updateOne(
      { _id: 1 },
      {
        $currentDate: { lastModified: true, 'cancellation.date': { $type: 'timestamp' } },
        $set: { 'cancellation.reason': 'user request', status: 'D' },
      },
    );
    const doc = await c.findOne({ _id: 1 });
    expect(doc!.status).toBe('D');
    expect(doc!.lastModified).toBeInstanceOf(Date);
    expect(doc!.lastModified.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(doc!.cancellation.date).toBeInstanceOf(Timestamp);
    expect(doc!.cancellation.reason).toBe('user request');
  });

  it('$setOnInsert applies only when an upsert inserts', async () => {
    const c = coll('products');
    const r = await c.updateOne(
      { _id: 1 },
      { $set: { item: 'apple' }, $setOnInsert: { defaultQty: 100 } },
      { upsert: true },
    );
    expect(r).toMatchObject({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: 1 });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, item: 'apple', defaultQty: 100 });
    await c.updateOne({ _id: 1 }, { $set: { item: 'pear' }, $setOnInsert: { defaultQty: 500 } }, { upsert: true });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, item: 'pear', defaultQty: 100 });
  });

  it('the positional $ updates the first matched element', async () => {
    const c = coll('students');
    await c.insertMany([
      { _id: 1, grades: [85, 80, 80] },
      {
        _id: 4,
        grades: [
          { grade: 80, mean: 75, std: 8 },
          { grade: 85, mean: 90, std: 5 },
          { grade: 85, mean: 85, std: 8 },
        ],
      },
    ]);
    await c.updateOne({ _id: 1, grades: 80 }, { $set: { 'grades.$': 82 } });
    await c.updateOne({ _id: 4, 'grades.grade': 85 }, { $set: { 'grades.$.std': 6 } });
    expect((await c.findOne({ _id: 1 }))!.grades).toEqual([85, 82, 80]);
    expect((await c.findOne({ _id: 4 }))!.grades).toEqual([
      { grade: 80, mean: 75, std: 8 },
      { grade: 85, mean: 90, std: 6 },
      { grade: 85, mean: 85, std: 8 },
    ]);
    const noMatch = await failure(c.updateOne({ _id: 1 }, { $set: { 'grades.$': 1 } }));
    expect(noMatch.code).toBe(2);
    expect(noMatch.message).toBe('The positional operator did not find the match needed from the query.');
  });

  it('$[] updates every element and $[<identifier>] the ones arrayFilters select', async () => {
    const c = coll('students');
    await c.insertMany([
      { _id: 1, grades: [95, 92, 90] },
      { _id: 2, grades: [98, 100, 102] },
      { _id: 3, grades: [95, 110, 100] },
    ]);
    const r = await c.updateMany(
      {},
      { $set: { 'grades.$[element]': 100 } },
      { arrayFilters: [{ element: { $gte: 100 } }] },
    );
    expect(r).toMatchObject({ matchedCount: 3, modifiedCount: 2 });
    expect((await c.find().sort({ _id: 1 }).toArray()).map((d: Document) => d.grades)).toEqual([
      [95, 92, 90],
      [98, 100, 100],
      [95, 100, 100],
    ]);
    await c.updateMany({}, { $inc: { 'grades.$[]': 10 } });
    expect((await c.find().sort({ _id: 1 }).toArray()).map((d: Document) => d.grades)).toEqual([
      [105, 102, 100],
      [108, 110, 110],
      [105, 110, 110],
    ]);

    const s2 = coll('students2');
    await s2.insertOne({
      _id: 1,
      grades: [
        { grade: 80, mean: 75, std: 6 },
        { grade: 85, mean: 90, std: 4 },
        { grade: 85, mean: 85, std: 6 },
      ],
    });
    await s2.updateMany(
      {},
      { $set: { 'grades.$[elem].mean': 100 } },
      { arrayFilters: [{ 'elem.grade': { $gte: 85 } }] },
    );
    expect((await s2.findOne({ _id: 1 }))!.grades.map((g: Document) => g.mean)).toEqual([75, 100, 100]);
  });

  it('$push with $each, $sort, $slice and $position', async () => {
    const c = coll('students');
    await c.insertOne({
      _id: 5,
      quizzes: [
        { wk: 1, score: 10 },
        { wk: 2, score: 8 },
        { wk: 3, score: 5 },
        { wk: 4, score: 6 },
      ],
    });
    await c.updateOne(
      { _id: 5 },
      {
        $push: {
          quizzes: {
            $each: [
              { wk: 5, score: 8 },
              { wk: 6, score: 7 },
              { wk: 7, score: 6 },
            ],
            $sort: { score: -1 },
            $slice: 3,
          },
        },
      },
    );
    expect((await c.findOne({ _id: 5 }))!.quizzes).toEqual([
      { wk: 1, score: 10 },
      { wk: 2, score: 8 },
      { wk: 5, score: 8 },
    ]);
    await c.insertOne({ _id: 1, scores: [100] });
    await c.updateOne({ _id: 1 }, { $push: { scores: { $each: [50, 60, 70], $position: 0 } } });
    expect((await c.findOne({ _id: 1 }))!.scores).toEqual([50, 60, 70, 100]);
    await c.updateOne({ _id: 1 }, { $push: { scores: 80 } });
    expect((await c.findOne({ _id: 1 }))!.scores).toEqual([50, 60, 70, 100, 80]);
    await c.updateOne({ _id: 1 }, { $push: { scores: { $each: [], $sort: 1 } } });
    expect((await c.findOne({ _id: 1 }))!.scores).toEqual([50, 60, 70, 80, 100]);
  });

  it('$addToSet adds only missing values; $each adds several', async () => {
    const c = coll('inventory');
    await c.insertOne({ _id: 2, item: 'cable', tags: ['electronics', 'supplies'] });
    await c.updateOne({ _id: 2 }, { $addToSet: { tags: { $each: ['camera', 'electronics', 'accessories'] } } });
    expect((await c.findOne({ _id: 2 }))!.tags).toEqual(['electronics', 'supplies', 'camera', 'accessories']);
    await c.insertOne({ _id: 1, letters: ['a', 'b'] });
    await c.updateOne({ _id: 1 }, { $addToSet: { letters: ['c', 'd'] } });
    expect((await c.findOne({ _id: 1 }))!.letters).toEqual(['a', 'b', ['c', 'd']]);
    expect((await c.updateOne({ _id: 1 }, { $addToSet: { letters: 'a' } })).modifiedCount).toBe(0);
  });

  it('$pull removes values and documents that match a condition; $pop removes an end', async () => {
    const stores = coll('stores');
    await stores.insertMany([
      {
        _id: 1,
        fruits: ['apples', 'pears', 'oranges', 'grapes', 'bananas'],
        vegetables: ['carrots', 'celery', 'squash', 'carrots'],
      },
      {
        _id: 2,
        fruits: ['plums', 'kiwis', 'oranges', 'bananas', 'apples'],
        vegetables: ['broccoli', 'zucchini', 'carrots', 'onions'],
      },
    ]);
    await stores.updateMany({}, { $pull: { fruits: { $in: ['apples', 'oranges'] }, vegetables: 'carrots' } });
    expect(await stores.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, fruits: ['pears', 'grapes', 'bananas'], vegetables: ['celery', 'squash'] },
      { _id: 2, fruits: ['plums', 'kiwis', 'bananas'], vegetables: ['broccoli', 'zucchini', 'onions'] },
    ]);
    const profiles = coll('profiles');
    await profiles.insertOne({ _id: 1, votes: [3, 5, 6, 7, 7, 8] });
    await profiles.updateOne({ _id: 1 }, { $pull: { votes: { $gte: 6 } } });
    expect((await profiles.findOne({ _id: 1 }))!.votes).toEqual([3, 5]);
    const survey = coll('survey');
    await survey.insertOne({
      _id: 1,
      results: [
        { item: 'A', score: 5 },
        { item: 'B', score: 8 },
      ],
    });
    await survey.updateOne({ _id: 1 }, { $pull: { results: { score: 8, item: 'B' } } });
    expect((await survey.findOne({ _id: 1 }))!.results).toEqual([{ item: 'A', score: 5 }]);
    const s = coll('students');
    await s.insertOne({ _id: 1, scores: [8, 9, 10] });
    await s.updateOne({ _id: 1 }, { $pop: { scores: -1 } });
    expect((await s.findOne({ _id: 1 }))!.scores).toEqual([9, 10]);
    await s.updateOne({ _id: 1 }, { $pop: { scores: 1 } });
    expect((await s.findOne({ _id: 1 }))!.scores).toEqual([9]);
  });
});

describe('upserts, counts and replacements', () => {
  it('seeds an upserted document from equality conditions, dotted paths and $and', async () => {
    const c = coll('people');
    const a = await c.updateOne(
      { name: 'Ada', 'address.city': 'London', age: { $gt: 30 } },
      { $set: { role: 'admin' } },
      { upsert: true },
    );
    expect(a.upsertedId).toBeInstanceOf(ObjectId);
    expect(await c.findOne({ _id: a.upsertedId }, { projection: { _id: 0 } })).toEqual({
      name: 'Ada',
      address: { city: 'London' },
      role: 'admin',
    });
    const b = await c.updateOne(
      { $and: [{ name: 'Bob' }, { team: { $eq: 'red' } }] },
      { $inc: { visits: 1 } },
      { upsert: true },
    );
    expect(await c.findOne({ _id: b.upsertedId }, { projection: { _id: 0 } })).toEqual({
      name: 'Bob',
      team: 'red',
      visits: 1,
    });
    const r = await c.replaceOne({ name: 'Cy' }, { name: 'Cy', age: 7 }, { upsert: true });
    expect(await c.findOne({ _id: r.upsertedId }, { projection: { _id: 0 } })).toEqual({ name: 'Cy', age: 7 });
  });

  it('updateMany reports matched, modified and upserted counts', async () => {
    const c = coll('orders');
    await c.insertMany([
      { _id: 1, status: 'A' },
      { _id: 2, status: 'A' },
      { _id: 3, status: 'B' },
    ]);
    const r = await c.updateMany({}, { $set: { status: 'B' } });
    expect(r).toMatchObject({
      acknowledged: true,
      matchedCount: 3,
      modifiedCount: 2,
      upsertedCount: 0,
      upsertedId: null,
    });
    const none = await c.updateMany({ status: 'Z' }, { $set: { x: 1 } });
    expect(none).toMatchObject({ matchedCount: 0, modifiedCount: 0, upsertedCount: 0 });
    const up = await c.updateMany({ status: 'Z' }, { $set: { x: 1 } }, { upsert: true });
    expect(up).toMatchObject({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1 });
    expect(await c.findOne({ _id: up.upsertedId })).toMatchObject({ status: 'Z', x: 1 });
  });

  it('replaceOne keeps _id and refuses to change it', async () => {
    const c = coll('restaurant');
    await c.insertOne({ _id: 1, name: 'Central Perk Cafe', Borough: 'Manhattan' });
    const r = await c.replaceOne({ name: 'Central Perk Cafe' }, { name: 'Central Pork Cafe', Borough: 'Manhattan' });
    expect(r).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, name: 'Central Pork Cafe', Borough: 'Manhattan' });
    const changed = await failure(c.replaceOne({ _id: 1 }, { _id: 2, name: 'x' }));
    expect(changed.code).toBe(66);
    expect(changed.codeName).toBe('ImmutableField');
    expect(changed.message).toBe(
      "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 2",
    );
  });

  it('findOneAndUpdate returns the document before or after, chosen by sort, with a projection', async () => {
    const c = coll('grades');
    await c.insertMany([
      { _id: 1, name: 'A', points: 5 },
      { _id: 2, name: 'B', points: 9 },
      { _id: 3, name: 'C', points: 7 },
    ]);
    const before = await c.findOneAndUpdate(
      {},
      { $inc: { points: 1 } },
      { sort: { points: -1 }, projection: { _id: 0, name: 1, points: 1 } },
    );
    expect(before).toEqual({ name: 'B', points: 9 });
    const after = await c.findOneAndUpdate(
      {},
      { $inc: { points: 1 } },
      { sort: { points: 1 }, projection: { points: 1 }, returnDocument: 'after' },
    );
    expect(after).toEqual({ _id: 1, points: 6 });
    expect(await c.findOneAndUpdate({ name: 'nobody' }, { $set: { x: 1 } })).toBeNull();
    const upserted = await c.findOneAndUpdate(
      { name: 'D' },
      { $set: { points: 1 } },
      { upsert: true, returnDocument: 'after', projection: { _id: 0 } },
    );
    expect(upserted).toEqual({ name: 'D', points: 1 });
    const removed = await c.findOneAndDelete({ points: { $gte: 10 } });
    expect(removed).toMatchObject({ _id: 2, name: 'B', points: 10 });
    const replaced = await c.findOneAndReplace({ _id: 3 }, { name: 'C2' }, { returnDocument: 'after' });
    expect(replaced).toEqual({ _id: 3, name: 'C2' });
    const withMeta = await c.findOneAndUpdate({ _id: 1 }, { $set: { y: 1 } }, { includeResultMetadata: true });
    expect(withMeta).toMatchObject({ ok: 1, lastErrorObject: { n: 1, updatedExisting: true }, value: { _id: 1 } });
  });

  it('countDocuments and estimatedDocumentCount', async () => {
    const c = coll('counted');
    await c.insertMany(Array.from({ length: 25 }, (_, i) => ({ _id: i, even: i % 2 === 0 })));
    expect(await c.countDocuments()).toBe(25);
    expect(await c.countDocuments({ even: true })).toBe(13);
    expect(await c.countDocuments({ even: true }, { skip: 10 })).toBe(3);
    expect(await c.countDocuments({}, { limit: 5 })).toBe(5);
    expect(await c.estimatedDocumentCount()).toBe(25);
    expect(await coll('missing').estimatedDocumentCount()).toBe(0);
    expect(await coll('missing').countDocuments()).toBe(0);
  });

  it('distinct flattens arrays and reaches into embedded documents', async () => {
    await coll('inventory').insertMany(INVENTORY);
    const c = coll('inventory');
    expect((await c.distinct('tags')).sort()).toEqual(['blank', 'blue', 'plain', 'red']);
    expect((await c.distinct('size.uom')).sort()).toEqual(['cm', 'in']);
    expect((await c.distinct('item', { status: 'D' })).sort()).toEqual(['paper', 'planner']);
    expect((await c.distinct('dim_cm')).sort((a: number, b: number) => a - b)).toEqual([10, 14, 15.25, 21, 22.85, 30]);
    expect(await c.distinct('nothing')).toEqual([]);
  });
});

describe('bulk writes', () => {
  it('ordered: stops at the first error and reports what was done', async () => {
    const c = coll('bulk');
    const error = await c
      .bulkWrite([
        { insertOne: { document: { _id: 1 } } },
        { insertOne: { document: { _id: 1 } } },
        { insertOne: { document: { _id: 2 } } },
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    const e = error as MongoBulkWriteError;
    expect(e.code).toBe(11000);
    expect(e.insertedCount).toBe(1);
    const writeErrors = Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors];
    expect(writeErrors).toHaveLength(1);
    expect(writeErrors[0]!.index).toBe(1);
    expect(writeErrors[0]!.code).toBe(11000);
    expect(await c.countDocuments()).toBe(1);
  });

  it('unordered: carries on past errors, with each error at its index', async () => {
    const c = coll('bulk');
    await c.insertOne({ _id: 1, n: 0 });
    const error = await c
      .bulkWrite(
        [
          { insertOne: { document: { _id: 1 } } },
          { updateOne: { filter: { _id: 1 }, update: { $inc: { n: 1 } } } },
          { insertOne: { document: { _id: 2 } } },
          { updateOne: { filter: { _id: 1 }, update: { $inc: { n: 'x' } } } },
          { deleteOne: { filter: { _id: 2 } } },
          { updateOne: { filter: { _id: 9 }, update: { $set: { n: 9 } }, upsert: true } },
        ],
        { ordered: false },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    const e = error as MongoBulkWriteError;
    expect(e.insertedCount).toBe(1);
    expect(e.matchedCount).toBe(1);
    expect(e.modifiedCount).toBe(1);
    expect(e.deletedCount).toBe(1);
    expect(e.upsertedCount).toBe(1);
    const writeErrors = (Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors]).map((w) => ({
      index: w.index,
      code: w.code,
    }));
    expect(writeErrors).toEqual([
      { index: 0, code: 11000 },
      { index: 3, code: 14 },
    ]);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 1 },
      { _id: 9, n: 9 },
    ]);
  });

  it('a successful bulk write reports every count', async () => {
    const c = coll('bulk');
    const r = await c.bulkWrite([
      { insertOne: { document: { _id: 1, v: 1 } } },
      { insertOne: { document: { _id: 2, v: 2 } } },
      { updateMany: { filter: {}, update: { $inc: { v: 10 } } } },
      { replaceOne: { filter: { _id: 2 }, replacement: { v: 0 } } },
      { deleteMany: { filter: { v: 11 } } },
      { updateOne: { filter: { _id: 3 }, update: { $set: { v: 3 } }, upsert: true } },
    ]);
    expect(r).toMatchObject({ insertedCount: 2, matchedCount: 3, modifiedCount: 3, deletedCount: 1, upsertedCount: 1 });
    expect(r.upsertedIds).toEqual({ 5: 3 });
  });
});

describe("aggregation (the manual's examples)", () => {
  const SALES = [
    { _id: 1, item: 'abc', price: Decimal128.fromString('10'), quantity: 2, date: new Date('2014-03-01T08:00:00Z') },
    { _id: 2, item: 'jkl', price: Decimal128.fromString('20'), quantity: 1, date: new Date('2014-03-01T09:00:00Z') },
    { _id: 3, item: 'xyz', price: Decimal128.fromString('5'), quantity: 10, date: new Date('2014-03-15T09:00:00Z') },
    {
      _id: 4,
      item: 'xyz',
      price: Decimal128.fromString('5'),
      quantity: 20,
      date: new Date('2014-04-04T11:21:39.736Z'),
    },
    {
      _id: 5,
      item: 'abc',
      price: Decimal128.fromString('10'),
      quantity: 10,
      date: new Date('2014-04-04T21:23:13.331Z'),
    },
    { _id: 6, item: 'def', price: Decimal128.fromString('7.5'), quantity: 5, date: new Date('2015-06-04T05:08:13Z') },
    { _id: 7, item: 'def', price: Decimal128.fromString('7.5'), quantity: 10, date: new Date('2015-09-10T08:43:00Z') },
    { _id: 8, item: 'abc', price: Decimal128.fromString('10'), quantity: 5, date: new Date('2016-02-06T20:20:13Z') },
  ];
  let sales: Loose;
  beforeEach(async () => {
    sales = coll('sales');
    await sales.insertMany(SALES);
  });
  /** Decimal128 values as 'D<digits>' so whole results compare with toEqual. */
  const str = (docs: Document[]) =>
    JSON.parse(
      JSON.stringify(docs, (_k, v) => (v && typeof v.$numberDecimal === 'string' ? `D${v.$numberDecimal}` : v)),
    );

  it('$group with $sum of $multiply over Decimal128, then $match on the total', async () => {
    const out = await sales
      .aggregate([
        { $group: { _id: '$item', totalSaleAmount: { $sum: { $multiply: ['$price', '$quantity'] } } } },
        { $match: { totalSaleAmount: { $gte: 100 } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(str(out)).toEqual([
      { _id: 'abc', totalSaleAmount: 'D170' },
      { _id: 'def', totalSaleAmount: 'D112.5' },
      { _id: 'xyz', totalSaleAmount: 'D150' },
    ]);
  });

  it('$group by day with $dateToString, $avg and a count', async () => {
    const out = await sales
      .aggregate([
        { $match: { date: { $gte: new Date('2014-01-01'), $lt: new Date('2015-01-01') } } },
        {
          $group: {
            _id: { $dateToString: { format: '%Y-%m-%d', date: '$date' } },
            totalSaleAmount: { $sum: { $multiply: ['$price', '$quantity'] } },
            averageQuantity: { $avg: '$quantity' },
            count: { $sum: 1 },
          },
        },
        { $sort: { totalSaleAmount: -1 } },
      ])
      .toArray();
    expect(str(out)).toEqual([
      { _id: '2014-04-04', totalSaleAmount: 'D200', averageQuantity: 15, count: 2 },
      { _id: '2014-03-15', totalSaleAmount: 'D50', averageQuantity: 10, count: 1 },
      { _id: '2014-03-01', totalSaleAmount: 'D40', averageQuantity: 1.5, count: 2 },
    ]);
    const all = await sales
      .aggregate([
        {
          $group: {
            _id: null,
            totalSaleAmount: { $sum: { $multiply: ['$price', '$quantity'] } },
            averageQuantity: { $avg: '$quantity' },
            count: { $sum: 1 },
          },
        },
      ])
      .toArray();
    expect(str(all)).toEqual([{ _id: null, totalSaleAmount: 'D452.5', averageQuantity: 7.875, count: 8 }]);
  });

  it('$group accumulators $min $max $first $last $push $addToSet', async () => {
    const out = await sales
      .aggregate([
        { $sort: { date: 1 } },
        {
          $group: {
            _id: '$item',
            first: { $first: '$quantity' },
            last: { $last: '$quantity' },
            minQ: { $min: '$quantity' },
            maxQ: { $max: '$quantity' },
            qs: { $push: '$quantity' },
            years: { $addToSet: { $year: '$date' } },
            firstSale: { $min: '$date' },
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(out.map((d: Document) => ({ ...d, years: [...d.years].sort() }))).toEqual([
      {
        _id: 'abc',
        first: 2,
        last: 5,
        minQ: 2,
        maxQ: 10,
        qs: [2, 10, 5],
        years: [2014, 2016],
        firstSale: new Date('2014-03-01T08:00:00Z'),
      },
      {
        _id: 'def',
        first: 5,
        last: 10,
        minQ: 5,
        maxQ: 10,
        qs: [5, 10],
        years: [2015],
        firstSale: new Date('2015-06-04T05:08:13Z'),
      },
      {
        _id: 'jkl',
        first: 1,
        last: 1,
        minQ: 1,
        maxQ: 1,
        qs: [1],
        years: [2014],
        firstSale: new Date('2014-03-01T09:00:00Z'),
      },
      {
        _id: 'xyz',
        first: 10,
        last: 20,
        minQ: 10,
        maxQ: 20,
        qs: [10, 20],
        years: [2014],
        firstSale: new Date('2014-03-15T09:00:00Z'),
      },
    ]);
  });

  it('$dateToString with formats and time zones', async () => {
    const c = coll('dates');
    await c.insertOne({ _id: 1, date: new Date('2014-01-01T08:15:39.736Z') });
    const [out] = await c
      .aggregate([
        {
          $project: {
            yearMonthDayUTC: { $dateToString: { format: '%Y-%m-%d', date: '$date' } },
            timewithOffsetNY: {
              $dateToString: { format: '%H:%M:%S:%L%z', date: '$date', timezone: 'America/New_York' },
            },
            timewithOffset430: { $dateToString: { format: '%H:%M:%S:%L%z', date: '$date', timezone: '+04:30' } },
            minutesOffsetNY: { $dateToString: { format: '%Z', date: '$date', timezone: 'America/New_York' } },
            iso: { $dateToString: { date: '$date' } },
          },
        },
      ])
      .toArray();
    expect(out).toEqual({
      _id: 1,
      yearMonthDayUTC: '2014-01-01',
      timewithOffsetNY: '03:15:39:736-0500',
      timewithOffset430: '12:45:39:736+0430',
      minutesOffsetNY: '-300',
      iso: '2014-01-01T08:15:39.736Z',
    });
  });

  it('$lookup matches null and missing local fields to null and missing foreign fields', async () => {
    await coll('orders').insertMany([
      { _id: 1, item: 'almonds', price: 12, quantity: 2 },
      { _id: 2, item: 'pecans', price: 20, quantity: 1 },
      { _id: 3 },
    ]);
    await coll('inventory').insertMany([
      { _id: 1, sku: 'almonds', description: 'product 1', instock: 120 },
      { _id: 2, sku: 'bread', description: 'product 2', instock: 80 },
      { _id: 3, sku: 'cashews', description: 'product 3', instock: 60 },
      { _id: 4, sku: 'pecans', description: 'product 4', instock: 70 },
      { _id: 5, sku: null, description: 'Incomplete' },
      { _id: 6 },
    ]);
    const out = await coll('orders')
      .aggregate([
        { $lookup: { from: 'inventory', localField: 'item', foreignField: 'sku', as: 'inventory_docs' } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(out.map((o: Document) => ids(o.inventory_docs))).toEqual([[1], [4], [5, 6]]);
    const piped = await coll('orders')
      .aggregate([
        { $match: { _id: { $lte: 2 } } },
        {
          $lookup: {
            from: 'inventory',
            let: { wanted: '$quantity' },
            pipeline: [
              { $match: { $expr: { $gte: ['$instock', { $multiply: ['$$wanted', 70] }] } } },
              { $project: { _id: 1 } },
            ],
            as: 'enough',
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(piped.map((o: Document) => ids(o.enough))).toEqual([[], [1, 2, 4]]);
  });

  it('$unwind with preserveNullAndEmptyArrays and includeArrayIndex', async () => {
    const c = coll('clothing');
    await c.insertMany([
      { _id: 1, item: 'ABC', sizes: ['S', 'M', 'L'] },
      { _id: 2, item: 'EFG', sizes: [] },
      { _id: 3, item: 'IJK', sizes: 'M' },
      { _id: 4, item: 'LMN' },
      { _id: 5, item: 'XYZ', sizes: null },
    ]);
    expect(await c.aggregate([{ $unwind: '$sizes' }]).toArray()).toEqual([
      { _id: 1, item: 'ABC', sizes: 'S' },
      { _id: 1, item: 'ABC', sizes: 'M' },
      { _id: 1, item: 'ABC', sizes: 'L' },
      { _id: 3, item: 'IJK', sizes: 'M' },
    ]);
    expect(await c.aggregate([{ $unwind: { path: '$sizes', preserveNullAndEmptyArrays: true } }]).toArray()).toEqual([
      { _id: 1, item: 'ABC', sizes: 'S' },
      { _id: 1, item: 'ABC', sizes: 'M' },
      { _id: 1, item: 'ABC', sizes: 'L' },
      { _id: 2, item: 'EFG' },
      { _id: 3, item: 'IJK', sizes: 'M' },
      { _id: 4, item: 'LMN' },
      { _id: 5, item: 'XYZ', sizes: null },
    ]);
    expect(await c.aggregate([{ $unwind: { path: '$sizes', includeArrayIndex: 'arrayIndex' } }]).toArray()).toEqual([
      { _id: 1, item: 'ABC', sizes: 'S', arrayIndex: 0 },
      { _id: 1, item: 'ABC', sizes: 'M', arrayIndex: 1 },
      { _id: 1, item: 'ABC', sizes: 'L', arrayIndex: 2 },
      { _id: 3, item: 'IJK', sizes: 'M', arrayIndex: null },
    ]);
  });

  it('$facet runs sub-pipelines over the same input; $bucket groups by boundaries', async () => {
    const artists = coll('artists');
    await artists.insertMany([
      { _id: 1, last_name: 'Bernard', first_name: 'Emil', year_born: 1868, year_died: 1941, nationality: 'France' },
      {
        _id: 2,
        last_name: 'Rippl-Ronai',
        first_name: 'Joszef',
        year_born: 1861,
        year_died: 1927,
        nationality: 'Hungary',
      },
      { _id: 3, last_name: 'Ostroumova', first_name: 'Anna', year_born: 1871, year_died: 1955, nationality: 'Russia' },
      {
        _id: 4,
        last_name: 'Van Gogh',
        first_name: 'Vincent',
        year_born: 1853,
        year_died: 1890,
        nationality: 'Holland',
      },
      { _id: 5, last_name: 'Maurer', first_name: 'Alfred', year_born: 1868, year_died: 1932, nationality: 'USA' },
      { _id: 6, last_name: 'Munch', first_name: 'Edvard', year_born: 1863, year_died: 1944, nationality: 'Norway' },
      { _id: 7, last_name: 'Redon', first_name: 'Odilon', year_born: 1840, year_died: 1916, nationality: 'France' },
      { _id: 8, last_name: 'Diriks', first_name: 'Edvard', year_born: 1855, year_died: 1930, nationality: 'Norway' },
    ]);
    const buckets = await artists
      .aggregate([
        {
          $bucket: {
            groupBy: '$year_born',
            boundaries: [1840, 1850, 1860, 1870, 1880],
            default: 'Other',
            output: {
              count: { $sum: 1 },
              artists: { $push: { name: { $concat: ['$first_name', ' ', '$last_name'] }, year_born: '$year_born' } },
            },
          },
        },
      ])
      .toArray();
    expect(buckets.map((b: Document) => [b._id, b.count])).toEqual([
      [1840, 1],
      [1850, 2],
      [1860, 4],
      [1870, 1],
    ]);
    expect(buckets[1]!.artists).toEqual([
      { name: 'Vincent Van Gogh', year_born: 1853 },
      { name: 'Edvard Diriks', year_born: 1855 },
    ]);
    const [faceted] = await artists
      .aggregate([
        {
          $facet: {
            byNationality: [{ $sortByCount: '$nationality' }, { $match: { count: { $gt: 1 } } }, { $sort: { _id: 1 } }],
            total: [{ $count: 'artists' }],
            byYear: [
              { $bucket: { groupBy: '$year_born', boundaries: [1840, 1860, 1880], output: { n: { $sum: 1 } } } },
            ],
          },
        },
      ])
      .toArray();
    expect(faceted).toEqual({
      byNationality: [
        { _id: 'France', count: 2 },
        { _id: 'Norway', count: 2 },
      ],
      total: [{ artists: 8 }],
      byYear: [
        { _id: 1840, n: 3 },
        { _id: 1860, n: 5 },
      ],
    });
  });

  it('$project with expressions, $cond (both forms) and $switch', async () => {
    const inv = coll('inventory');
    await inv.insertMany([
      { _id: 1, item: 'abc1', qty: 300 },
      { _id: 2, item: 'abc2', qty: 200 },
      { _id: 3, item: 'xyz1', qty: 250 },
    ]);
    const discounts = await inv
      .aggregate([{ $project: { item: 1, discount: { $cond: { if: { $gte: ['$qty', 250] }, then: 30, else: 20 } } } }])
      .toArray();
    expect(discounts).toEqual([
      { _id: 1, item: 'abc1', discount: 30 },
      { _id: 2, item: 'abc2', discount: 20 },
      { _id: 3, item: 'xyz1', discount: 30 },
    ]);
    expect(Object.keys(discounts[0])).toEqual(['_id', 'item', 'discount']);
    expect(
      await inv
        .aggregate([
          {
            $project: {
              _id: 0,
              big: { $cond: [{ $gt: ['$qty', 250] }, true, false] },
              code: { $toUpper: { $substrCP: ['$item', 0, 3] } },
              half: { $divide: ['$qty', 2] },
            },
          },
        ])
        .toArray(),
    ).toEqual([
      { big: true, code: 'ABC', half: 150 },
      { big: false, code: 'ABC', half: 100 },
      { big: false, code: 'XYZ', half: 125 },
    ]);
    const grades = coll('grades');
    await grades.insertMany([
      { _id: 1, name: 'Susan Wilkes', scores: [87, 86, 78] },
      { _id: 2, name: 'Bob Hanna', scores: [71, 64, 81] },
      { _id: 3, name: 'James Torrelio', scores: [91, 84, 97] },
    ]);
    const out = await grades
      .aggregate([
        {
          $project: {
            name: 1,
            summary: {
              $switch: {
                branches: [
                  { case: { $gte: [{ $avg: '$scores' }, 90] }, then: 'Doing great!' },
                  {
                    case: { $and: [{ $gte: [{ $avg: '$scores' }, 80] }, { $lt: [{ $avg: '$scores' }, 90] }] },
                    then: 'Doing pretty well.',
                  },
                  { case: { $lt: [{ $avg: '$scores' }, 80] }, then: 'Needs improvement.' },
                ],
                default: 'No scores found.',
              },
            },
          },
        },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 1, name: 'Susan Wilkes', summary: 'Doing pretty well.' },
      { _id: 2, name: 'Bob Hanna', summary: 'Needs improvement.' },
      { _id: 3, name: 'James Torrelio', summary: 'Doing great!' },
    ]);
  });

  it('$setWindowFields ranks and sums within partitions', async () => {
    const out = await sales
      .aggregate([
        {
          $setWindowFields: {
            partitionBy: '$item',
            sortBy: { date: 1 },
            output: {
              n: { $documentNumber: {} },
              running: { $sum: '$quantity', window: { documents: ['unbounded', 'current'] } },
            },
          },
        },
        { $match: { item: 'abc' } },
        { $project: { _id: 1, n: 1, running: 1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 1, n: 1, running: 2 },
      { _id: 5, n: 2, running: 12 },
      { _id: 8, n: 3, running: 17 },
    ]);
  });

  it('answers an unknown stage with 40324 and an unknown expression with 168', async () => {
    const stage = await failure(sales.aggregate([{ $foo: {} }]).toArray());
    expect(stage.code).toBe(40324);
    expect(stage.message).toBe("Unrecognized pipeline stage name: '$foo'");
    const nested = await failure(sales.aggregate([{ $facet: { a: [{ $bar: 1 }] } }]).toArray());
    expect(nested.code).toBe(40324);
    const expression = await failure(sales.aggregate([{ $project: { x: { $frobnicate: '$item' } } }]).toArray());
    expect(expression.code).toBe(168);
    expect(expression.message).toMatch(/Unrecognized expression '\$frobnicate'/);
  });

  it('checks stage arguments as mongod does', async () => {
    expect((await failure(sales.aggregate([{ $unwind: 'item' }]).toArray())).code).toBe(28818);
    expect((await failure(sales.aggregate([{ $limit: 0 }]).toArray())).code).toBe(15958);
    expect((await failure(sales.aggregate([{ $skip: -1 }]).toArray())).code).toBe(15956);
    expect((await failure(sales.aggregate([{ $project: {} }]).toArray())).code).toBe(51272);
    expect((await failure(sales.aggregate([{ $group: { n: { $sum: 1 } } }]).toArray())).code).toBe(15955);
    expect((await failure(sales.find({ item: { $regex: '(' } }).toArray())).code).toBe(51091);
  });
});

describe('error codes mongod answers', () => {
  it('update: unknown modifier (9), $inc on a string (14), _id change (66), path conflict (40), $push onto a non-array (2)', async () => {
    const c = coll('errors');
    await c.insertOne({ _id: 1, name: 'x', a: 'not an array' });
    const unknown = await failure(c.updateOne({ _id: 1 }, { $foo: { a: 1 } }));
    expect(unknown).toMatchObject({ code: 9, codeName: 'FailedToParse' });
    expect(unknown.message).toBe(
      'Unknown modifier: $foo. Expected a valid update modifier or pipeline-style update specified as an array',
    );
    const inc = await failure(c.updateOne({ _id: 1 }, { $inc: { name: 1 } }));
    expect(inc).toMatchObject({ code: 14, codeName: 'TypeMismatch' });
    expect(inc.message).toBe(
      "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 'name' of non-numeric type string",
    );
    const id = await failure(c.updateOne({ _id: 1 }, { $set: { _id: 2 } }));
    expect(id).toMatchObject({ code: 66, codeName: 'ImmutableField' });
    expect(id.message).toBe("Performing an update on the path '_id' would modify the immutable field '_id'");
    const conflict = await failure(c.updateOne({ _id: 1 }, { $set: { n: 1 }, $inc: { n: 1 } }));
    expect(conflict).toMatchObject({ code: 40, codeName: 'ConflictingUpdateOperators' });
    expect(conflict.message).toBe("Updating the path 'n' would create a conflict at 'n'");
    const push = await failure(c.updateOne({ _id: 1 }, { $push: { a: 1 } }));
    expect(push).toMatchObject({ code: 2, codeName: 'BadValue' });
    expect(push.message).toBe("The field 'a' must be an array but is of type string in document {_id: 1}");
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, name: 'x', a: 'not an array' });
  });

  it('update command: an empty update document replaces the document', async () => {
    const c = coll('errors');
    await c.insertOne({ _id: 1, name: 'x' });
    const reply = await db.command({ update: 'errors', updates: [{ q: { _id: 1 }, u: {} }] });
    expect(reply).toMatchObject({ ok: 1, n: 1, nModified: 1 });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1 });
  });

  it('insert of a duplicate _id: 11000 with keyPattern and keyValue', async () => {
    const c = coll('dups');
    await c.insertOne({ _id: 1 });
    const dup = await failure(c.insertOne({ _id: 1 }));
    expect(dup.code).toBe(11000);
    expect(dup.keyPattern).toEqual({ _id: 1 });
    expect(dup.keyValue).toEqual({ _id: 1 });
    expect(dup.message).toBe(
      `E11000 duplicate key error collection: ${db.databaseName}.dups index: _id_ dup key: { _id: 1 }`,
    );
  });

  it('findAndModify with both remove and update is FailedToParse', async () => {
    await coll('fam').insertOne({ _id: 1 });
    const error = await failure(
      db.command({ findAndModify: 'fam', query: {}, remove: true, update: { $set: { a: 1 } } }),
    );
    expect(error).toMatchObject({ code: 9, codeName: 'FailedToParse' });
    expect(error.message).toBe('Cannot specify both an update and remove=true');
  });

  it('bad namespaces are InvalidNamespace (73)', async () => {
    const error = await failure(db.command({ insert: 'bad$name', documents: [{ a: 1 }] }));
    expect(error).toMatchObject({ code: 73, codeName: 'InvalidNamespace' });
    expect((await failure(db.command({ find: '' }))).code).toBe(73);
  });

  it('dropping a collection that does not exist succeeds, as in MongoDB 7.0', async () => {
    expect(await coll('never_created').drop()).toBe(true);
    expect(await db.command({ drop: 'never_created' })).toMatchObject({ ok: 1 });
    await coll('created').insertOne({});
    expect(await coll('created').drop()).toBe(true);
    expect(await db.listCollections({ name: 'created' }).toArray()).toEqual([]);
  });

  it('createCollection twice: 48 NamespaceExists', async () => {
    await db.createCollection('once');
    const error = await failure(db.createCollection('once'));
    expect(error).toMatchObject({ code: 48, codeName: 'NamespaceExists' });
  });

  it('createIndexes conflicts: 85 IndexOptionsConflict and 86 IndexKeySpecsConflict; the _id index cannot be dropped (72)', async () => {
    const c = coll('indexed');
    await c.createIndex({ a: 1 }, { name: 'a_idx' });
    expect(await c.createIndex({ a: 1 }, { name: 'a_idx' })).toBe('a_idx');
    expect((await failure(c.createIndex({ a: 1 }, { name: 'other_name' }))).code).toBe(85);
    expect((await failure(c.createIndex({ a: 1 }, { name: 'a_idx', unique: true }))).code).toBe(85);
    const keys = await failure(c.createIndex({ b: 1 }, { name: 'a_idx' }));
    expect(keys).toMatchObject({ code: 86, codeName: 'IndexKeySpecsConflict' });
    const dropId = await failure(c.dropIndex('_id_'));
    expect(dropId).toMatchObject({ code: 72, codeName: 'InvalidOptions' });
    expect(dropId.message).toBe('cannot drop _id index');
    expect((await failure(c.dropIndex('nope'))).code).toBe(27);
  });
});

describe('indexes', () => {
  it('a unique compound index refuses a repeated pair with keyPattern and keyValue', async () => {
    const c = coll('pairs');
    await c.createIndex({ a: 1, b: 1 }, { unique: true });
    await c.insertMany([
      { a: 1, b: 1 },
      { a: 1, b: 2 },
      { a: 2, b: 1 },
    ]);
    const dup = await failure(c.insertOne({ a: 1, b: 1 }));
    expect(dup.code).toBe(11000);
    expect(dup.keyPattern).toEqual({ a: 1, b: 1 });
    expect(dup.keyValue).toEqual({ a: 1, b: 1 });
    expect(dup.message).toBe(
      `E11000 duplicate key error collection: ${db.databaseName}.pairs index: a_1_b_1 dup key: { a: 1, b: 1 }`,
    );
    const update = await failure(c.updateOne({ a: 2 }, { $set: { b: 2, a: 1 } }));
    expect(update.code).toBe(11000);
  });

  it('unique indexes: a dense one allows one missing value, a sparse one many, a partial one only where it applies', async () => {
    const dense = coll('dense');
    await dense.createIndex({ email: 1 }, { unique: true });
    await dense.insertOne({ name: 'a' });
    const missing = await failure(dense.insertOne({ name: 'b' }));
    expect(missing.code).toBe(11000);
    expect(missing.keyValue).toEqual({ email: null });

    const sparse = coll('sparse');
    await sparse.createIndex({ email: 1 }, { unique: true, sparse: true });
    await sparse.insertMany([{ name: 'a' }, { name: 'b' }, { email: 'x@example.com' }]);
    expect((await failure(sparse.insertOne({ email: 'x@example.com' }))).code).toBe(11000);

    const partial = coll('partial');
    await partial.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await partial.insertMany([
      { email: 'a', active: false },
      { email: 'a', active: false },
      { email: 'a', active: true },
    ]);
    expect((await failure(partial.insertOne({ email: 'a', active: true }))).code).toBe(11000);
    expect(await partial.countDocuments({ email: 'a' })).toBe(3);
  });

  it("listIndexes and listCollections answer mongod's shapes", async () => {
    const c = coll('shapes');
    await c.createIndex({ sku: 1 }, { unique: true });
    await c.createIndex({ createdAt: 1 }, { expireAfterSeconds: 3600, name: 'ttl' });
    expect(await c.listIndexes().toArray()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { sku: 1 }, name: 'sku_1', unique: true },
      { v: 2, key: { createdAt: 1 }, name: 'ttl', expireAfterSeconds: 3600 },
    ]);
    expect(await c.indexExists('sku_1')).toBe(true);
    const [info] = await db.listCollections({ name: 'shapes' }).toArray();
    expect(info).toMatchObject({
      name: 'shapes',
      type: 'collection',
      options: {},
      info: { readOnly: false },
      idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
    });
    expect((info as Document).info.uuid).toBeDefined();
    await db.createCollection('capped_like', { validator: { name: { $type: 'string' } } });
    expect(await db.listCollections({}, { nameOnly: true }).toArray()).toEqual(
      expect.arrayContaining([
        { name: 'shapes', type: 'collection' },
        { name: 'capped_like', type: 'collection' },
      ]),
    );
    const [withOptions] = await db.listCollections({ name: 'capped_like' }).toArray();
    expect((withOptions as Document).options).toEqual({ validator: { name: { $type: 'string' } } });
  });

  it('TTL: expired documents are removed by the background sweep', async () => {
    const c = coll('sessions');
    await c.createIndex({ createdAt: 1 }, { expireAfterSeconds: 0 });
    await c.createIndex({ lastSeen: 1 }, { expireAfterSeconds: 3600 });
    await c.insertMany([
      { _id: 'old', createdAt: new Date(Date.now() - 60_000) },
      { _id: 'future', createdAt: new Date(Date.now() + 3_600_000) },
      { _id: 'not-a-date', createdAt: 'yesterday' },
      { _id: 'recent', lastSeen: new Date() },
      { _id: 'stale', lastSeen: new Date(Date.now() - 7_200_000) },
      { _id: 'array', createdAt: [new Date(Date.now() + 3_600_000), new Date(Date.now() - 1000)] },
    ]);
    const deadline = Date.now() + 10_000;
    while ((await c.countDocuments()) > 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(ids(await c.find().sort({ _id: 1 }).toArray())).toEqual(['future', 'not-a-date', 'recent']);
  });
});

describe('collation', () => {
  beforeEach(async () => {
    await coll('myColl').insertMany([
      { _id: 1, category: 'café', status: 'A' },
      { _id: 2, category: 'cafe', status: 'a' },
      { _id: 3, category: 'cafE', status: 'a' },
    ]);
  });

  it('strength 1 ignores case and accents, strength 2 only case, the default compares both', async () => {
    const c = coll('myColl');
    expect(
      ids(
        await c
          .find({ category: 'cafe', status: 'a' })
          .collation({ locale: 'fr', strength: 1 })
          .sort({ _id: 1 })
          .toArray(),
      ),
    ).toEqual([1, 2, 3]);
    expect(
      ids(await c.find({ category: 'cafe' }).collation({ locale: 'fr', strength: 2 }).sort({ _id: 1 }).toArray()),
    ).toEqual([2, 3]);
    expect(ids(await c.find({ category: 'cafe' }).collation({ locale: 'fr' }).toArray())).toEqual([2]);
    expect(ids(await c.find({ category: 'cafe' }).toArray())).toEqual([2]);
    expect(await c.countDocuments({ category: 'CAFE' }, { collation: { locale: 'en', strength: 2 } })).toBe(2);
    expect(await c.distinct('status', {}, { collation: { locale: 'en', strength: 2 } })).toHaveLength(1);
    const grouped = await c
      .aggregate([{ $group: { _id: '$category', n: { $sum: 1 } } }], { collation: { locale: 'en', strength: 1 } })
      .toArray();
    expect(grouped).toHaveLength(1);
    expect(grouped[0]!.n).toBe(3);
    const updated = await c.updateMany(
      { status: 'A' },
      { $set: { seen: true } },
      { collation: { locale: 'en', strength: 2 } },
    );
    expect(updated.modifiedCount).toBe(3);
    expect((await c.deleteMany({ category: 'CAFE' }, { collation: { locale: 'en', strength: 2 } })).deletedCount).toBe(
      2,
    );
  });

  it('numericOrdering sorts digit runs as numbers', async () => {
    const c = coll('codes');
    await c.insertMany([
      { _id: 1, code: '10' },
      { _id: 2, code: '9' },
      { _id: 3, code: '2' },
      { _id: 4, code: 'a1' },
    ]);
    expect((await c.find().sort({ code: 1 }).toArray()).map((d: Document) => d.code)).toEqual(['10', '2', '9', 'a1']);
    expect(
      (await c.find().sort({ code: 1 }).collation({ locale: 'en', numericOrdering: true }).toArray()).map(
        (d: Document) => d.code,
      ),
    ).toEqual(['2', '9', '10', 'a1']);
  });

  it('a unique index with a case-insensitive collation refuses the same value in another case', async () => {
    const users = coll('users');
    await users.createIndex({ email: 1 }, { unique: true, collation: { locale: 'en', strength: 2 } });
    await users.insertOne({ email: 'Ann@Example.com' });
    const dup = await failure(users.insertOne({ email: 'ann@example.com' }));
    expect(dup.code).toBe(11000);
    expect(dup.keyValue).toEqual({ email: 'ann@example.com' });
    const [, index] = await users.listIndexes().toArray();
    expect(index).toMatchObject({ name: 'email_1', unique: true, collation: { locale: 'en', strength: 2 } });
    expect(
      await users.findOne({ email: 'ANN@EXAMPLE.COM' }, { collation: { locale: 'en', strength: 2 } }),
    ).toMatchObject({ email: 'Ann@Example.com' });
  });

  it("a collection's default collation applies to queries and its indexes", async () => {
    await db.createCollection('names', { collation: { locale: 'en', strength: 2 } });
    const names = coll('names');
    await names.createIndex({ name: 1 }, { unique: true });
    await names.insertOne({ name: 'ann' });
    expect(await names.countDocuments({ name: 'ANN' })).toBe(1);
    expect((await failure(names.insertOne({ name: 'Ann' }))).code).toBe(11000);
    expect(await names.countDocuments({ name: 'ANN' }, { collation: { locale: 'simple' } })).toBe(0);
  });
});

describe("schema validation (the manual's examples)", () => {
  const STUDENT_SCHEMA = {
    $jsonSchema: {
      bsonType: 'object',
      title: 'Student Object Validation',
      required: ['address', 'major', 'name', 'year'],
      properties: {
        name: { bsonType: 'string', description: "'name' must be a string and is required" },
        year: {
          bsonType: 'int',
          minimum: 2017,
          maximum: 3017,
          description: "'year' must be an integer in [ 2017, 3017 ] and is required",
        },
        gpa: { bsonType: ['double'], description: "'gpa' must be a double if the field exists" },
      },
    },
  };

  it('$jsonSchema validators refuse bad documents with 121 and accept good ones', async () => {
    await db.createCollection('students', { validator: STUDENT_SCHEMA });
    const students = coll('students');
    const student = {
      name: 'Alice',
      year: new Int32(2019),
      major: 'History',
      address: { city: 'NYC', street: '33rd Street' },
    };
    const refused = await failure(students.insertOne({ ...student, gpa: new Int32(3) }));
    expect(refused).toMatchObject({ code: 121, codeName: 'DocumentValidationFailure' });
    expect(refused.message).toBe('Document failed validation');
    expect(refused.errInfo).toMatchObject({ failingDocumentId: expect.anything() });
    await students.insertOne({ ...student, gpa: new Double(3) });
    expect(await students.countDocuments()).toBe(1);
    expect((await failure(students.insertOne({ name: 'Bob', major: 'Art', address: {}, year: 2016 }))).code).toBe(121);
    expect((await failure(students.updateOne({ name: 'Alice' }, { $unset: { major: '' } }))).code).toBe(121);
    expect((await failure(students.updateOne({ name: 'Alice' }, { $set: { year: 3018 } }))).code).toBe(121);
    await students.updateOne({ name: 'Alice' }, { $set: { year: 2020 } });
    await students.insertOne({ name: 'Carl' }, { bypassDocumentValidation: true });
    expect(await students.countDocuments({ $jsonSchema: { required: ['gpa'] } })).toBe(1);
    expect(await students.countDocuments({ $nor: [STUDENT_SCHEMA] })).toBe(1);
    const [info] = await db.listCollections({ name: 'students' }).toArray();
    expect((info as Document).options.validator).toEqual(STUDENT_SCHEMA);
  });

  it('query-operator validators, validationAction warn, validationLevel moderate and collMod', async () => {
    await db.createCollection('contacts', {
      validator: {
        $or: [
          { phone: { $type: 'string' } },
          { email: { $regex: /@mongodb\.com$/ } },
          { status: { $in: ['Unknown', 'Incomplete'] } },
        ],
      },
    });
    const contacts = coll('contacts');
    expect((await failure(contacts.insertOne({ name: 'Amanda', status: 'Updated' }))).code).toBe(121);
    await contacts.insertOne({ name: 'Anne', phone: '+1 555 0100' });

    await db.createCollection('warned', { validator: { qty: { $gte: 0 } }, validationAction: 'warn' });
    await coll('warned').insertOne({ qty: -1 });
    expect(await coll('warned').countDocuments()).toBe(1);

    const loose = coll('loose');
    await loose.insertMany([
      { _id: 1, name: 'ok', age: 30 },
      { _id: 2, name: 'old, no age' },
    ]);
    await db.command({ collMod: 'loose', validator: { age: { $type: 'int' } }, validationLevel: 'moderate' });
    await loose.updateOne({ _id: 2 }, { $set: { name: 'still no age' } });
    expect((await failure(loose.updateOne({ _id: 1 }, { $unset: { age: '' } }))).code).toBe(121);
    expect((await failure(loose.insertOne({ _id: 3 }))).code).toBe(121);
    await db.command({ collMod: 'loose', validationLevel: 'off' });
    await loose.insertOne({ _id: 3 });
    expect((await failure(db.createCollection('broken', { validator: { a: { $frobnicate: 1 } } }))).code).toBe(2);
  });
});

describe('transactions (session.withTransaction)', () => {
  it('commits every write together and aborts them all together', async () => {
    const accounts = coll('accounts');
    const outbox = coll('outbox');
    await accounts.insertOne({ _id: 'a', balance: 100 });
    await outbox.insertOne({ _id: 'seed' }); // collections exist before the transaction
    const session = client.startSession();
    try {
      await session.withTransaction(async () => {
        await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -30 } }, { session });
        await outbox.insertOne({ _id: 'evt1', type: 'debited' }, { session });
        // not visible outside the transaction before the commit
        expect(await accounts.findOne({ _id: 'a' })).toEqual({ _id: 'a', balance: 100 });
        expect(await outbox.findOne({ _id: 'evt1' }, { session })).toEqual({ _id: 'evt1', type: 'debited' });
      });
      expect(await accounts.findOne({ _id: 'a' })).toEqual({ _id: 'a', balance: 70 });
      expect(await outbox.countDocuments({ _id: 'evt1' })).toBe(1);

      const failed = await session
        .withTransaction(async () => {
          await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -500 } }, { session });
          await outbox.insertOne({ _id: 'evt2' }, { session });
          throw new Error('insufficient funds');
        })
        .catch((e: Error) => e);
      expect(failed.message).toBe('insufficient funds');
      expect(await accounts.findOne({ _id: 'a' })).toEqual({ _id: 'a', balance: 70 });
      expect(await outbox.countDocuments({ _id: 'evt2' })).toBe(0);

      session.startTransaction();
      await outbox.insertOne({ _id: 'evt3' }, { session });
      await session.abortTransaction();
      expect(await outbox.countDocuments({ _id: 'evt3' })).toBe(0);
    } finally {
      await session.endSession();
    }
  });

  it('a write conflict is a TransientTransactionError the driver retries', async () => {
    const counters = coll('counters');
    await counters.insertOne({ _id: 'c', n: 0 });
    const first = client.startSession();
    const second = client.startSession();
    let secondAttempts = 0;
    let conflictSeen!: () => void;
    const conflicted = new Promise<void>((resolve) => {
      conflictSeen = resolve;
    });
    let secondRun: Promise<unknown> | undefined;
    try {
      await first.withTransaction(async () => {
        await counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } }, { session: first });
        secondRun = second.withTransaction(async () => {
          secondAttempts++;
          try {
            await counters.updateOne({ _id: 'c' }, { $inc: { n: 10 } }, { session: second });
          } catch (error) {
            if (secondAttempts === 1) {
              expect(error).toBeInstanceOf(MongoServerError);
              expect((error as MongoServerError).code).toBe(112);
              expect((error as MongoServerError).hasErrorLabel('TransientTransactionError')).toBe(true);
              conflictSeen();
            }
            throw error;
          }
        });
        await conflicted;
      });
      await secondRun;
      expect(secondAttempts).toBeGreaterThanOrEqual(2);
      expect(await counters.findOne({ _id: 'c' })).toEqual({ _id: 'c', n: 11 });
    } finally {
      await first.endSession();
      await second.endSession();
    }
  });
});

describe('cursors', () => {
  it('walks 10,000 documents in batches of batchSize', async () => {
    const c = coll('many');
    const docs = Array.from({ length: 10_000 }, (_, i) => ({ _id: i, v: `doc ${i}` }));
    await c.insertMany(docs);
    const monitored = new MongoClient(mongo.uri, { monitorCommands: true, serverSelectionTimeoutMS: 5000 });
    const batches: number[] = [];
    monitored.on('commandSucceeded', (e) => {
      if (e.commandName === 'find') batches.push((e.reply as Document).cursor.firstBatch.length);
      if (e.commandName === 'getMore') batches.push((e.reply as Document).cursor.nextBatch.length);
    });
    try {
      await monitored.connect();
      const many = monitored.db(db.databaseName).collection('many') as unknown as Loose;
      const all = await many.find({}, { batchSize: 100 }).sort({ _id: 1 }).toArray();
      expect(all).toEqual(docs);
      expect(batches.every((n) => n <= 100)).toBe(true);
      expect(batches.reduce((a, b) => a + b, 0)).toBe(10_000);
      expect(batches.length).toBeGreaterThanOrEqual(100);
      const limited = await many.find({ _id: { $gte: 9000 } }, { batchSize: 7, limit: 50, skip: 5 }).toArray();
      expect(ids(limited)).toEqual(Array.from({ length: 50 }, (_, i) => 9005 + i));
    } finally {
      await monitored.close();
    }
  });
});

describe('numeric BSON types', () => {
  it('a whole-number double stays a double, int32 an int32 and a Long a Long', async () => {
    const c = coll('numbers');
    await c.insertOne({
      _id: 1,
      d: new Double(1),
      i: new Int32(1),
      l: Long.fromNumber(1),
      n: 1,
      f: 1.5,
      nested: { arr: [new Double(2), 3] },
    });
    const raw = await c.findOne({ _id: 1 }, { promoteValues: false });
    expect(raw!.d).toBeInstanceOf(Double);
    expect(raw!.i).toBeInstanceOf(Int32);
    expect(raw!.n).toBeInstanceOf(Int32);
    expect(raw!.l).toBeInstanceOf(Long);
    expect(raw!.f).toBeInstanceOf(Double);
    expect(raw!.nested.arr[0]).toBeInstanceOf(Double);
    expect(raw!.nested.arr[1]).toBeInstanceOf(Int32);
    const plain = await c.findOne({ _id: 1 });
    expect(plain).toMatchObject({ d: 1, i: 1, l: 1, n: 1, f: 1.5 });
    expect(await c.countDocuments({ d: { $type: 'double' } })).toBe(1);
    expect(await c.countDocuments({ d: { $type: 'int' } })).toBe(0);
    expect(await c.countDocuments({ i: { $type: 'int' } })).toBe(1);
    expect(await c.countDocuments({ l: { $type: 'long' } })).toBe(1);
    expect(await c.countDocuments({ 'nested.arr': { $type: 'double' } })).toBe(1);
    // numbers of different types are still equal by value
    expect(await c.countDocuments({ d: 1, i: 1.0, l: 1 })).toBe(1);
    const [types] = await c
      .aggregate([
        { $project: { _id: 0, d: { $type: '$d' }, i: { $type: '$i' }, l: { $type: '$l' }, f: { $type: '$f' } } },
      ])
      .toArray();
    expect(types).toEqual({ d: 'double', i: 'int', l: 'long', f: 'double' });
  });

  it('arithmetic keeps the widest type: int + double is a double, even when whole', async () => {
    const c = coll('numbers');
    await c.insertOne({ _id: 1, d: new Double(1), i: 1, f: 1.5 });
    await c.updateOne({ _id: 1 }, { $inc: { d: 1, i: 1, f: 0.5 } });
    const raw = await c.findOne({ _id: 1 }, { promoteValues: false });
    expect(raw!.d).toBeInstanceOf(Double);
    expect(raw!.d.valueOf()).toBe(2);
    expect(raw!.i).toBeInstanceOf(Int32);
    expect(raw!.f).toBeInstanceOf(Double);
    expect(raw!.f.valueOf()).toBe(2);
    expect(await c.countDocuments({ f: { $type: 'double' } })).toBe(1);
    // setting the same value with another type is a change
    expect((await c.updateOne({ _id: 1 }, { $set: { i: new Double(2) } })).modifiedCount).toBe(1);
    expect((await c.updateOne({ _id: 1 }, { $set: { i: new Double(2) } })).modifiedCount).toBe(0);
    expect(await c.countDocuments({ i: { $type: 'double' } })).toBe(1);
  });

  it('Decimal128 arithmetic is exact with $inc and $sum', async () => {
    const c = coll('money');
    await c.insertOne({ _id: 1, total: Decimal128.fromString('0') });
    for (let k = 0; k < 3; k++) await c.updateOne({ _id: 1 }, { $inc: { total: Decimal128.fromString('0.1') } });
    expect((await c.findOne({ _id: 1 }))!.total.toString()).toBe('0.3');
    await c.updateOne({ _id: 1 }, { $inc: { total: 1 } });
    expect((await c.findOne({ _id: 1 }))!.total.toString()).toBe('1.3');
    await c.insertMany([
      { _id: 2, total: Decimal128.fromString('0.2') },
      { _id: 3, total: 2 },
    ]);
    const [sum] = await c
      .aggregate([{ $group: { _id: null, s: { $sum: '$total' }, a: { $avg: '$total' } } }])
      .toArray();
    expect(sum!.s).toBeInstanceOf(Decimal128);
    expect(sum!.s.toString()).toBe('3.5');
    expect(Number(sum!.a.toString())).toBeCloseTo(3.5 / 3, 10);
    expect(await c.countDocuments({ total: { $gt: Decimal128.fromString('1.29'), $lt: 1.31 } })).toBe(1);
  });

  it('mongoose Double and Int32 schema types keep their BSON types', async () => {
    const connection = await mongoose.createConnection(mongo.uri, { dbName: db.databaseName }).asPromise();
    try {
      const Price = connection.model('Price', new mongoose.Schema({ amount: 'Double', units: 'Int32', label: String }));
      await Price.create({ amount: 5, units: 2, label: 'whole' });
      const native = db.collection('prices');
      expect(await native.countDocuments({ amount: { $type: 'double' }, units: { $type: 'int' } })).toBe(1);
      const doc = await Price.findOne({ label: 'whole' }).lean();
      expect(Number(doc!.amount)).toBe(5);
    } finally {
      await connection.close();
    }
  });
});
