// The fast paths (ordered index walks for sorted finds, the $group loop, counts from an index) must give
// exactly what the general path gives: same documents, same order, same BSON types. Each case runs the
// same command on an engine that takes the fast path and on one that cannot (no index, or a pipeline
// the fast path does not accept), and compares the BSON bytes of the results.
import { describe, expect, test } from 'vitest';
import { BSON, Decimal128, Double, Int32, Long, ObjectId, type Document } from 'bson';
import { freshEngine, ns } from './helpers.js';
import type { EmbeddedEngine } from '../../src/engine/index.js';
import type { IndexSpec } from '../../src/engine/types.js';

const bytes = (docs: Document[]) => Buffer.from(BSON.serialize({ docs }));
const expectSame = (fast: Document[], general: Document[]) => {
  // toEqual first for a readable diff, then the bytes for exact BSON types (1 vs 1.0 vs Long(1)).
  expect(fast).toEqual(general);
  expect(bytes(fast).equals(bytes(general))).toBe(true);
};

const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));

/** Sort values of every BSON type, with ties, missing fields and nulls; no arrays (those make an index multikey). */
const sortData = (): Document[] => {
  const vs: unknown[] = [
    3,
    1,
    new Double(1),
    Long.fromNumber(1),
    Decimal128.fromString('1.0'),
    2.5,
    -4,
    'b',
    'a',
    'B',
    '',
    null,
    undefined,
    new Date('2025-01-02T00:00:00Z'),
    new Date('2024-06-01T00:00:00Z'),
    true,
    false,
    oid(7),
    oid(3),
    { x: 1 },
    { x: 0, y: 1 },
    3,
    'b',
    null,
    undefined,
    2.5,
    new Date('2025-01-02T00:00:00Z'),
    new Int32(10),
    10,
    Long.fromNumber(11),
  ];
  return vs.map((v, i) => {
    const d: Document = { _id: (i * 7919) % 101, w: i % 4 };
    if (i % 5 === 0) d.w = null;
    if (v !== undefined) d.v = v;
    d.n = { v: i % 3 === 0 ? undefined : v };
    if (d.n.v === undefined) delete d.n.v;
    return d;
  });
};

const load = async (e: EmbeddedEngine, docs: Document[], indexes: IndexSpec[] = []) => {
  if (indexes.length) await e.createIndexes(ns, indexes);
  await e.insert(ns, docs, {});
  return e;
};

const sorts: Document[] = [
  { v: 1 },
  { v: -1 },
  { v: 1, _id: 1 },
  { v: -1, _id: -1 },
  { v: 1, w: -1 },
  { v: -1, w: 1 },
  { v: -1, w: 1, _id: -1 },
];
const filters: Document[] = [
  {},
  { w: { $gte: 2 } },
  { w: null },
  { v: { $gte: 1, $lt: 3 } },
  { v: { $gt: 'a' } },
  { v: { $type: 'string' } },
  { $or: [{ w: 1 }, { v: { $lte: new Date('2024-12-31T00:00:00Z') } }] },
  { v: { $exists: false } },
];
const pages: [number, number][] = [
  [0, 0],
  [0, 1],
  [0, 5],
  [3, 4],
  [20, 100],
  [40, 5],
];

describe('sorted finds walk an index in order', () => {
  const cases = [
    { name: 'ascending index', idx: [{ key: { v: 1 }, name: 'v_1' }] },
    { name: 'descending index', idx: [{ key: { v: -1 }, name: 'v_-1' }] },
    {
      name: 'compound index covering only the first sort key',
      idx: [{ key: { v: -1, other: 1 }, name: 'v_-1_other_1' }],
    },
  ];
  for (const c of cases) {
    test(`${c.name}: every sort, filter and page gives the general path's result`, async () => {
      const fast = await load(freshEngine(), sortData(), c.idx);
      const general = await load(freshEngine(), sortData());
      let walked = 0;
      for (const sort of sorts) {
        for (const filter of filters) {
          for (const [skip, limit] of pages) {
            const o = { filter, sort, skip, limit };
            const got = fast.find(ns, o);
            if (fast.lastQueryStats().fastPath === 'index-order') walked++;
            expectSame(got, general.find(ns, o));
          }
        }
      }
      // The walk was really taken (not every case: a narrower index plan may win for some filters).
      expect(walked).toBeGreaterThan(sorts.length * pages.length);
    });
  }

  test('a dotted sort path, and a walk that stops early examines only what the page needs', async () => {
    const docs: Document[] = [];
    for (let i = 0; i < 5000; i++) docs.push({ _id: i, n: { at: (i * 37) % 1000 }, tag: i % 3 === 0 ? 'x' : 'y' });
    const fast = await load(freshEngine(), docs, [{ key: { 'n.at': -1 }, name: 'n.at_-1' }]);
    const general = await load(freshEngine(), docs);
    for (const filter of [{}, { tag: 'x' }]) {
      const o = { filter, sort: { 'n.at': -1, _id: 1 }, skip: 10, limit: 20 };
      expectSame(fast.find(ns, o), general.find(ns, o));
      expect(fast.lastQueryStats()).toMatchObject({ fastPath: 'index-order', indexUsed: 'n.at_-1' });
      expect(fast.lastQueryStats().docsExamined).toBeLessThan(200);
    }
    const dotted = await load(freshEngine(), sortData(), [{ key: { 'n.v': 1 }, name: 'nv' }]);
    const plain = await load(freshEngine(), sortData());
    for (const sort of [{ 'n.v': 1 }, { 'n.v': -1, _id: 1 }]) {
      expectSame(dotted.find(ns, { sort, limit: 7 }), plain.find(ns, { sort, limit: 7 }));
      expect(dotted.lastQueryStats().fastPath).toBe('index-order');
    }
  });

  test('sparse and partial indexes are not used for a sort that would drop documents', async () => {
    for (const idx of [
      { key: { v: 1 }, name: 'v_sparse', sparse: true },
      { key: { v: 1 }, name: 'v_partial', partialFilterExpression: { w: { $gte: 1 } } },
    ]) {
      const fast = await load(freshEngine(), sortData(), [idx]);
      const general = await load(freshEngine(), sortData());
      for (const sort of sorts) {
        expectSame(fast.find(ns, { sort, limit: 50 }), general.find(ns, { sort, limit: 50 }));
        expect(fast.lastQueryStats().fastPath).toBeUndefined();
      }
      expect(fast.find(ns, { sort: { v: 1 } })).toHaveLength(sortData().length);
    }
  });

  test('an array value (multikey index) stops the walk: arrays sort by their smallest or largest element', async () => {
    const docs = [...sortData(), { _id: 500, v: [5, -10, 'z'] }, { _id: 501, v: [] }, { _id: 502, v: [2] }];
    const fast = await load(freshEngine(), docs, [{ key: { v: 1 }, name: 'v_1' }]);
    const general = await load(freshEngine(), docs);
    for (const sort of sorts) {
      for (const [skip, limit] of pages)
        expectSame(fast.find(ns, { sort, skip, limit }), general.find(ns, { sort, skip, limit }));
    }
    expect(fast.lastQueryStats().fastPath).toBeUndefined();
    // Once the arrays are gone the index orders the collection again.
    await fast.delete(ns, [{ q: { _id: { $in: [500, 501, 502] } }, limit: 0 }], {});
    await general.delete(ns, [{ q: { _id: { $in: [500, 501, 502] } }, limit: 0 }], {});
    expectSame(fast.find(ns, { sort: { v: -1 }, limit: 5 }), general.find(ns, { sort: { v: -1 }, limit: 5 }));
    expect(fast.lastQueryStats().fastPath).toBe('index-order');
  });

  test('the index order stays right through inserts, updates and deletes after a walk', async () => {
    const fast = await load(freshEngine(), sortData(), [{ key: { v: -1 }, name: 'v_-1' }]);
    const general = await load(freshEngine(), sortData());
    const check = () => {
      for (const sort of sorts) expectSame(fast.find(ns, { sort, limit: 12 }), general.find(ns, { sort, limit: 12 }));
      expectSame(fast.find(ns, { sort: { v: 1 } }), general.find(ns, { sort: { v: 1 } }));
    };
    check();
    for (const e of [fast, general]) {
      await e.insert(ns, [{ _id: 1000, v: 2 }, { _id: 1001, v: 'a' }, { _id: 1002 }], {});
      await e.update(
        ns,
        [
          { q: { v: 3 }, u: { $set: { v: -100 } }, multi: true },
          { q: { _id: 1002 }, u: { $set: { v: 2 } } },
        ],
        {},
      );
      await e.delete(
        ns,
        [
          { q: { v: 'b' }, limit: 1 },
          { q: { v: null }, limit: 1 },
        ],
        {},
      );
    }
    check();
  });

  test('collation: an index with a collation orders a query under the same collation only', async () => {
    const names = ['bob', 'Alice', 'alice', 'Bob', 'carol', 'ALICE', 'dave', 'Émile', 'emile'];
    const docs = names.map((name, i) => ({ _id: i, name }));
    const collation = { locale: 'en', strength: 2 };
    const fast = await load(freshEngine(), docs, [{ key: { name: 1 }, name: 'name_ci', collation }]);
    const general = await load(freshEngine(), docs);
    for (const sort of [{ name: 1 }, { name: -1 }, { name: 1, _id: -1 }]) {
      expectSame(fast.find(ns, { sort, collation, limit: 4 }), general.find(ns, { sort, collation, limit: 4 }));
      expect(fast.lastQueryStats().fastPath).toBe('index-order');
      expectSame(fast.find(ns, { sort, limit: 4 }), general.find(ns, { sort, limit: 4 }));
      expect(fast.lastQueryStats().fastPath).toBeUndefined();
    }
  });

  test("inside a transaction the general path answers (the index does not see the transaction's writes)", async () => {
    const fast = await load(freshEngine(), sortData(), [{ key: { v: 1 }, name: 'v_1' }]);
    const general = await load(freshEngine(), sortData());
    const [t1, t2] = [fast.beginTransaction(), general.beginTransaction()];
    await fast.insert(ns, [{ _id: 2000, v: -1000 }], {}, t1);
    await general.insert(ns, [{ _id: 2000, v: -1000 }], {}, t2);
    const page = { filter: { v: { $type: 'number' } }, sort: { v: 1 }, limit: 2 };
    expect(fast.find(ns, page, t1)[0]).toEqual({ _id: 2000, v: -1000 });
    expectSame(fast.find(ns, page, t1), general.find(ns, page, t2));
    fast.abortTransaction(t1);
    expect(fast.find(ns, page)[0]._id).not.toBe(2000);
  });
});

/** Group keys and values of mixed BSON types, with missing fields and nulls (no arrays). */
const groupData = (): Document[] => {
  const keys: unknown[] = [
    'a',
    'b',
    1,
    new Double(1),
    Long.fromNumber(1),
    '1',
    null,
    undefined,
    oid(1),
    new Date(0),
    { s: 1 },
    true,
  ];
  const xs: unknown[] = [
    1,
    2.5,
    new Double(2),
    Long.fromNumber(5),
    Decimal128.fromString('0.1'),
    2147483647,
    'text',
    null,
    undefined,
    -3,
    new Int32(7),
    true,
  ];
  const docs: Document[] = [];
  for (let i = 0; i < 144; i++) {
    const d: Document = { _id: i, j: i % 2 === 0 ? 'even' : 'odd', sub: { k: i % 3 } };
    const k = keys[i % keys.length];
    const x = xs[Math.floor(i / keys.length) % xs.length];
    if (k !== undefined) d.k = k;
    if (x !== undefined) d.x = x;
    docs.push(d);
  }
  return docs;
};

const accumulators = {
  n: { $sum: 1 },
  c: { $count: {} },
  twice: { $sum: 2 },
  t: { $sum: '$x' },
  a: { $avg: '$x' },
  lo: { $min: '$x' },
  hi: { $max: '$x' },
};

describe('$group fast path', () => {
  const pipelines: Document[][] = [
    [{ $group: { _id: '$k', ...accumulators } }],
    [{ $group: { _id: null, ...accumulators } }],
    [{ $group: { _id: 1, n: { $sum: 1 } } }],
    [{ $match: { j: 'even' } }, { $group: { _id: '$k', ...accumulators } }],
    [{ $match: { _id: { $gte: 20, $lt: 90 } } }, { $group: { _id: { j: '$j', k: '$sub.k' }, ...accumulators } }],
    [{ $group: { _id: '$sub.k', t: { $sum: '$x' }, hi: { $max: '$k' } } }, { $sort: { _id: -1 } }],
    [{ $match: { x: { $type: 'number' } } }, { $group: { _id: '$j', t: { $sum: '$x' }, a: { $avg: '$x' } } }],
    [{ $match: { k: 'nothing' } }, { $group: { _id: null, n: { $sum: 1 } } }],
    // A missing member of an object key: left to mingo.
    [{ $group: { _id: { k: '$k', j: '$j' }, n: { $sum: 1 } } }],
  ];

  test("gives the mingo path's groups, values, types and order", async () => {
    for (const withIndexes of [false, true]) {
      const e = await load(
        freshEngine(),
        groupData(),
        withIndexes
          ? [
              { key: { k: 1 }, name: 'k_1' },
              { key: { j: 1 }, name: 'j_1' },
            ]
          : [],
      );
      for (const p of pipelines) {
        const fast = await e.aggregate(ns.db, ns.coll, p, {});
        // A leading $skip: 0 keeps the fast path out: the same pipeline through mingo.
        const general = await e.aggregate(ns.db, ns.coll, [{ $skip: 0 }, ...p], {});
        expect(e.lastQueryStats().fastPath).toBeUndefined();
        expectSame(fast, general);
      }
    }
  });

  test("is taken for the dashboard's shape, and a Long overflow and Decimal128 sums stay exact", async () => {
    const e = await load(freshEngine(), [
      { _id: 1, s: 'a', x: 2147483647 },
      { _id: 2, s: 'a', x: 1 },
      { _id: 3, s: 'b', x: Decimal128.fromString('0.1') },
      { _id: 4, s: 'b', x: Decimal128.fromString('0.2') },
      { _id: 5, s: 'c', x: Long.fromString('9007199254740993') },
      { _id: 6, s: 'c', x: 1 },
      // equal values of three types: $min/$max keep the first one seen
      { _id: 7, s: 'd', x: Long.fromNumber(1) },
      { _id: 8, s: 'd', x: new Double(1) },
      { _id: 9, s: 'd', x: 1 },
    ]);
    const p = [
      {
        $group: {
          _id: '$s',
          n: { $sum: 1 },
          total: { $sum: '$x' },
          avg: { $avg: '$x' },
          lo: { $min: '$x' },
          hi: { $max: '$x' },
        },
      },
    ];
    const fast = await e.aggregate(ns.db, ns.coll, p, {});
    expect(e.lastQueryStats().fastPath).toBe('group');
    expectSame(fast, await e.aggregate(ns.db, ns.coll, [{ $skip: 0 }, ...p], {}));
    expect(fast[0].total).toEqual(Long.fromNumber(2147483648));
    expect(fast[1].total.toString()).toBe('0.3');
    expect(fast[2].total).toEqual(Long.fromString('9007199254740994'));
    expect(fast[3].lo).toEqual(Long.fromNumber(1));
    expect(fast[3].hi).toEqual(Long.fromNumber(1));
  });

  test('arrays on a grouped or summed path send the pipeline to mingo', async () => {
    const docs = [
      ...groupData(),
      { _id: 900, k: ['a', 'b'], x: 1 },
      { _id: 901, k: 'a', x: [1, 2, 3] },
      { _id: 902, sub: [{ k: 1 }, { k: 2 }], x: 4 },
    ];
    const e = await load(freshEngine(), docs);
    for (const p of pipelines) {
      const fast = await e.aggregate(ns.db, ns.coll, p, {});
      expectSame(fast, await e.aggregate(ns.db, ns.coll, [{ $skip: 0 }, ...p], {}));
    }
  });

  test("counts from an index alone where it answers exactly (mongoose countDocuments' pipeline, count)", async () => {
    const docs: Document[] = [];
    for (let i = 0; i < 3000; i++)
      docs.push({ _id: i, status: ['new', 'paid', 'shipped'][i % 3], tags: i % 10 === 0 ? ['x', 'x', 'y'] : ['y'] });
    const e = await load(freshEngine(), docs, [
      { key: { status: 1, _id: -1 }, name: 'status' },
      { key: { tags: 1 }, name: 'tags' },
    ]);
    const plain = await load(freshEngine(), docs);
    const countPipeline = (filter: Document) => [{ $match: filter }, { $group: { _id: 1, n: { $sum: 1 } } }];
    for (const filter of [
      {},
      { status: 'paid' },
      { status: { $eq: 'new' } },
      { tags: 'x' },
      { _id: 7 },
      { _id: 'nope' },
      { status: 'none' },
    ]) {
      expectSame(
        await e.aggregate(ns.db, ns.coll, countPipeline(filter), {}),
        await plain.aggregate(ns.db, ns.coll, [{ $skip: 0 }, ...countPipeline(filter)], {}),
      );
      expect(e.lastQueryStats()).toMatchObject({ fastPath: 'count', docsExamined: 0 });
      expect(e.count(ns, filter, {})).toBe(plain.count(ns, filter, {}));
      expect(e.lastQueryStats()).toMatchObject({ fastPath: 'count', docsExamined: 0 });
    }
    expect(e.count(ns, { tags: 'x' }, {})).toBe(300);
    // Not answerable from the index alone: counted the general way.
    expect(e.count(ns, { status: 'paid', tags: 'y' }, {})).toBe(plain.count(ns, { status: 'paid', tags: 'y' }, {}));
    expect(e.lastQueryStats().fastPath).toBeUndefined();
  });
});
