import { describe, expect, test } from 'vitest';
import { Decimal128, ObjectId } from 'bson';
import { freshEngine, ns, rejection } from './helpers.js';

const c1 = new ObjectId('650000000000000000000001');
const c2 = new ObjectId('650000000000000000000002');
const orders = [
  {
    _id: 1,
    customer: c1,
    total: Decimal128.fromString('10.10'),
    items: ['coin', 'patch'],
    at: new Date('2024-03-05T10:00:00Z'),
    status: 'paid',
  },
  {
    _id: 2,
    customer: c2,
    total: Decimal128.fromString('5.05'),
    items: ['shirt'],
    at: new Date('2024-03-06T10:00:00Z'),
    status: 'paid',
  },
  {
    _id: 3,
    customer: new ObjectId(c1.toHexString()),
    total: Decimal128.fromString('0.20'),
    items: [],
    at: new Date('2024-04-01T00:00:00Z'),
    status: 'open',
  },
];
const setup = async () => {
  const e = freshEngine();
  await e.insert(ns, orders, {});
  await e.insert(
    { db: ns.db, coll: 'customers' },
    [
      { _id: c1, name: 'Ann' },
      { _id: c2, name: 'Bob' },
    ],
    {},
  );
  return e;
};
const agg = (e: Awaited<ReturnType<typeof setup>>, pipeline: object[], coll: string | null = ns.coll) =>
  e.aggregate(ns.db, coll, pipeline, {});

describe('aggregation', () => {
  test('$group by ObjectId with exact Decimal128 $sum/$avg, $min/$max, $push', async () => {
    const e = await setup();
    const out = await agg(e, [
      {
        $group: {
          _id: '$customer',
          total: { $sum: '$total' },
          avg: { $avg: '$total' },
          n: { $sum: 1 },
          first: { $min: '$at' },
          ids: { $push: '$_id' },
        },
      },
      { $sort: { _id: 1 } },
    ]);
    expect(out).toHaveLength(2);
    expect(out[0]._id).toEqual(c1);
    expect(out[0].total.toString()).toBe('10.30');
    expect(out[0].avg.toString()).toBe('5.15');
    expect(out[0].n).toBe(2);
    expect(out[0].first).toEqual(new Date('2024-03-05T10:00:00Z'));
    expect(out[0].ids).toEqual([1, 3]);
  });

  test('$match (BSON aware) $project $addFields $unwind $count $sortByCount $limit $skip', async () => {
    const e = await setup();
    expect(await agg(e, [{ $match: { total: { $gt: 1 } } }, { $count: 'n' }])).toEqual([{ n: 2 }]);
    expect(await agg(e, [{ $match: { customer: c1 } }, { $project: { _id: 1 } }])).toEqual([{ _id: 1 }, { _id: 3 }]);
    expect(await agg(e, [{ $unwind: '$items' }, { $sortByCount: '$items' }, { $limit: 1 }])).toHaveLength(1);
    expect(await agg(e, [{ $unwind: '$items' }, { $skip: 1 }, { $project: { items: 1, _id: 0 } }])).toEqual([
      { items: 'patch' },
      { items: 'shirt' },
    ]);
    const withMonth = await agg(e, [
      { $addFields: { month: { $month: '$at' }, day: { $dateToString: { format: '%Y-%m-%d', date: '$at' } } } },
      { $match: { _id: 1 } },
    ]);
    expect(withMonth[0]).toMatchObject({ month: 3, day: '2024-03-05' });
    const cond = await agg(e, [
      { $project: { big: { $cond: [{ $gte: ['$total', 5] }, 'yes', 'no'] }, note: { $ifNull: ['$missing', 'none'] } } },
    ]);
    expect(cond.map((d) => d.big)).toEqual(['yes', 'yes', 'no']);
    expect(cond[0].note).toBe('none');
  });

  test('$lookup by ObjectId, $facet, $replaceRoot, $bucket, $sample', async () => {
    const e = await setup();
    const joined = await agg(e, [
      { $lookup: { from: 'customers', localField: 'customer', foreignField: '_id', as: 'c' } },
      { $project: { name: { $first: '$c.name' } } },
    ]);
    expect(joined.map((d) => d.name)).toEqual(['Ann', 'Bob', 'Ann']);
    const piped = await agg(e, [
      {
        $lookup: {
          from: 'customers',
          let: { cid: '$customer' },
          pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$cid'] } } }],
          as: 'c',
        },
      },
    ]);
    expect(piped.map((d) => d.c[0].name)).toEqual(['Ann', 'Bob', 'Ann']);
    const [facet] = await agg(e, [
      { $facet: { paid: [{ $match: { status: 'paid' } }, { $count: 'n' }], all: [{ $count: 'n' }] } },
    ]);
    expect(facet).toEqual({ paid: [{ n: 2 }], all: [{ n: 3 }] });
    expect(await agg(e, [{ $match: { _id: 2 } }, { $replaceRoot: { newRoot: { s: '$status' } } }])).toEqual([
      { s: 'paid' },
    ]);
    const buckets = await agg(e, [{ $bucket: { groupBy: '$_id', boundaries: [0, 2, 10], default: 'other' } }]);
    expect(buckets).toEqual([
      { _id: 0, count: 1 },
      { _id: 2, count: 2 },
    ]);
    expect(await agg(e, [{ $sample: { size: 2 } }])).toHaveLength(2);
  });

  test('$out and $merge write through the engine', async () => {
    const e = await setup();
    expect(await agg(e, [{ $match: { status: 'paid' } }, { $project: { total: 1 } }, { $out: 'paid' }])).toEqual([]);
    expect(e.find({ db: ns.db, coll: 'paid' }, {}).map((d) => d._id)).toEqual([1, 2]);
    await agg(e, [{ $group: { _id: '$status', n: { $sum: 1 } } }, { $merge: { into: 'stats' } }]);
    await agg(e, [{ $group: { _id: '$status', m: { $sum: 2 } } }, { $merge: { into: 'stats', whenMatched: 'merge' } }]);
    const stats = e.find({ db: ns.db, coll: 'stats' }, { sort: { _id: 1 } });
    expect(stats).toEqual([
      { _id: 'open', n: 1, m: 2 },
      { _id: 'paid', n: 2, m: 4 },
    ]);
  });

  test('unsupported stages and $where answer clear errors', async () => {
    const e = await setup();
    expect((await rejection(agg(e, [{ $geoNear: {} }]))).code).toBe(2);
    expect((await rejection(agg(e, [{ $match: { $where: 'true' } }]))).message).toMatch(/not supported/);
  });

  test('expressions on BSON values: $type names, conversions, Decimal128 arithmetic', async () => {
    const e = freshEngine();
    await e.insert(
      ns,
      [
        {
          _id: new ObjectId('650000000000000000000001'),
          d: Decimal128.fromString('1.5'),
          s: '42',
          at: new Date('2024-01-02T03:04:05Z'),
        },
      ],
      {},
    );
    const [r] = await e.aggregate(
      ns.db,
      ns.coll,
      [
        {
          $project: {
            _id: 0,
            t: { $type: '$_id' },
            td: { $type: '$d' },
            tm: { $type: '$nope' },
            hex: { $toString: '$_id' },
            iso: { $toString: '$at' },
            oid: { $toObjectId: '650000000000000000000002' },
            dec: { $toDecimal: '$s' },
            sum: { $add: ['$d', 1] },
            div: { $divide: ['$d', 3] },
            cmp: { $gt: ['$d', 1] },
            created: { $toDate: '$_id' },
          },
        },
      ],
      {},
    );
    expect(r).toMatchObject({
      t: 'objectId',
      td: 'decimal',
      tm: 'missing',
      hex: '650000000000000000000001',
      iso: '2024-01-02T03:04:05.000Z',
      cmp: true,
    });
    expect(r.oid).toEqual(new ObjectId('650000000000000000000002'));
    expect(r.dec.toString()).toBe('42');
    expect(r.sum.toString()).toBe('2.5');
    expect(r.div.toString()).toBe('0.5');
    expect(r.created).toEqual(new ObjectId('650000000000000000000001').getTimestamp());
  });

  test('pipelines never modify stored documents', async () => {
    const e = freshEngine();
    await e.insert(ns, [{ _id: 1, nested: { x: 1 }, list: [{ y: 1 }] }], {});
    await e.aggregate(
      ns.db,
      ns.coll,
      [{ $set: { 'nested.x': 2 } }, { $unwind: '$list' }, { $set: { 'list.y': 3 } }, { $project: { 'nested.x': 0 } }],
      {},
    );
    await e.update(ns, [{ q: { _id: 9 }, u: [{ $set: { a: 1 } }], upsert: true }], {});
    const before = e.find(ns, { filter: { _id: 1 } })[0];
    await e.update(ns, [{ q: { _id: 1 }, u: [{ $set: { 'nested.x': 5 } }] }], {});
    expect(before).toEqual({ _id: 1, nested: { x: 1 }, list: [{ y: 1 }] });
    expect(e.find(ns, { filter: { _id: 1 } })[0]).toEqual({ _id: 1, nested: { x: 5 }, list: [{ y: 1 }] });
  });
});
