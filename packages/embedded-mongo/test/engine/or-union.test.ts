// A top-level `$or` whose every branch an index narrows is answered by an index union (each branch's
// candidates, merged by record, then the whole filter). Every case runs the same command on an engine with
// the indexes and on one without them (the scan), and compares results, order and the BSON bytes; the
// indexed engine must also report the union (lastQueryStats().indexUnion) and read fewer documents.
import { describe, expect, test } from 'vitest';
import { BSON, type Document } from 'bson';
import { freshEngine, ns } from './helpers.js';
import type { EmbeddedEngine } from '../../src/engine/index.js';
import type { IndexSpec } from '../../src/engine/types.js';

const bytes = (docs: Document[]) => Buffer.from(BSON.serialize({ docs }));
const expectSame = (indexed: Document[], scanned: Document[]) => {
  expect(indexed).toEqual(scanned);
  expect(bytes(indexed).equals(bytes(scanned))).toBe(true);
};

const INDEXES: IndexSpec[] = [
  { key: { emailKey: 1 }, name: 'emailKey_1' },
  { key: { status: 1, createdAt: -1 }, name: 'status_1_createdAt_-1' },
  { key: { n: 1 }, name: 'n_1' },
  { key: { tags: 1 }, name: 'tags_1' },
];
const STATUSES = ['pending', 'paid', 'shipped', 'cancelled'];
const TOTAL = 400;

/** Orders in an order unlike their _id's (natural order is what the scan answers in), some matching many branches. */
const orders = (): Document[] =>
  Array.from({ length: TOTAL }, (_, i) => {
    const id = (i * 7919) % 1009;
    const d: Document = {
      _id: id,
      emailKey: `buyer${i % 37}@example.com`,
      status: STATUSES[i % 4],
      n: i % 50,
      createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 28))),
      note: i % 9 === 0 ? 'gift' : null,
    };
    if (i % 3 === 0) d.tags = i % 2 ? ['red', 'blue'] : ['red'];
    if (i % 11 === 0) delete d.emailKey;
    if (i % 13 === 0) d.n = null;
    return d;
  });

const pair = async (): Promise<{ indexed: EmbeddedEngine; scanned: EmbeddedEngine }> => {
  const indexed = freshEngine();
  const scanned = freshEngine();
  await indexed.createIndexes(ns, INDEXES);
  await indexed.insert(ns, orders(), {});
  await scanned.insert(ns, orders(), {});
  return { indexed, scanned };
};

const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => ((from + i) * 7919) % 1009);

/** Every branch indexable; branches overlap (one order found by two or three branches). */
const unionFilters: Document[] = [
  // The privacy export/erasure shape: an email key or a list of ids.
  { $or: [{ emailKey: 'buyer3@example.com' }, { _id: { $in: ids(0, 40) } }] },
  { $or: [{ status: 'paid' }, { emailKey: { $in: ['buyer1@example.com', 'buyer2@example.com'] } }], n: { $gt: 20 } },
  { $or: [{ n: { $gte: 5, $lt: 8 } }, { emailKey: 'buyer5@example.com' }, { _id: 7919 % 1009 }] },
  { $and: [{ $or: [{ status: 'shipped' }, { tags: 'red' }] }, { n: { $lt: 30 } }] },
  { $or: [{ $or: [{ status: 'pending' }, { status: 'cancelled' }] }, { emailKey: 'buyer9@example.com' }] },
  { $or: [{ tags: 'blue' }, { tags: 'red', status: 'paid' }, { emailKey: { $eq: 'buyer4@example.com' } }] },
  { $or: [{ emailKey: 'nobody@example.com' }, { _id: -1 }] },
];

describe('$or answered by an index union', () => {
  test('find: the same documents in the same order as the scan, reading only the branches candidates', async () => {
    const { indexed, scanned } = await pair();
    for (const filter of unionFilters) {
      const a = indexed.find(ns, { filter });
      const stats = indexed.lastQueryStats();
      expectSame(a, scanned.find(ns, { filter }));
      expect(scanned.lastQueryStats().indexUnion).toBeUndefined();
      expect(stats.indexUnion, JSON.stringify(filter)).toBeDefined();
      expect(stats.docsExamined).toBeLessThan(TOTAL);
      // Each order once, even when several branches find it.
      expect(new Set(a.map((d) => d._id)).size).toBe(a.length);
    }
    // Sanity: the filters do find orders, and some through more than one branch.
    const both = indexed.find(ns, { filter: unionFilters[0] });
    expect(both.length).toBeGreaterThan(40);
    expect(both.some((d) => d.emailKey === 'buyer3@example.com' && ids(0, 40).includes(d._id as number))).toBe(true);
  });

  test('names each branch its index, in branch order', async () => {
    const { indexed } = await pair();
    indexed.find(ns, { filter: unionFilters[0] });
    expect(indexed.lastQueryStats().indexUnion).toEqual(['emailKey_1', '_id_']);
    indexed.find(ns, { filter: unionFilters[4] });
    expect(indexed.lastQueryStats().indexUnion).toEqual([
      'status_1_createdAt_-1',
      'status_1_createdAt_-1',
      'emailKey_1',
    ]);
  });

  test('sort, skip, limit and projections as the scan answers them', async () => {
    const { indexed, scanned } = await pair();
    const shapes: Document[] = [
      { sort: { n: 1, _id: -1 } },
      { sort: { createdAt: -1 }, skip: 3, limit: 7 },
      { sort: { emailKey: 1, _id: 1 }, limit: 5 },
      { skip: 10, limit: 10 },
      { projection: { emailKey: 1, status: 1 } },
      { projection: { _id: 0, tags: 1 }, sort: { _id: 1 }, limit: 20 },
      { projection: { 'tags.$': 1 }, filter: { $or: [{ tags: 'red' }, { emailKey: 'buyer2@example.com' }] } },
    ];
    for (const filter of unionFilters)
      for (const shape of shapes) {
        const o = { filter, ...shape };
        expectSame(indexed.find(ns, o), scanned.find(ns, o));
        expect(indexed.lastQueryStats().indexUnion).toBeDefined();
      }
  });

  test('a branch no index narrows means a scan, with the same answer', async () => {
    const { indexed, scanned } = await pair();
    for (const filter of [
      { $or: [{ emailKey: 'buyer3@example.com' }, { note: 'gift' }] },
      { $or: [{ status: 'paid' }, {}] },
      { $or: [{ emailKey: 'buyer3@example.com' }, { n: null }] },
      { $or: [{ emailKey: 'buyer3@example.com' }, { n: { $gte: 0 } }] },
    ]) {
      expectSame(indexed.find(ns, { filter }), scanned.find(ns, { filter }));
      expect(indexed.lastQueryStats()).toEqual({ docsExamined: TOTAL, indexUsed: null });
    }
  });

  test('count, distinct and an aggregate $match agree with the scan', async () => {
    const { indexed, scanned } = await pair();
    for (const filter of unionFilters) {
      expect(indexed.count(ns, filter, {})).toBe(scanned.count(ns, filter, {}));
      expect(indexed.distinct(ns, 'status', filter)).toEqual(scanned.distinct(ns, 'status', filter));
      const pipeline = [{ $match: filter }, { $sort: { _id: 1 } }, { $project: { emailKey: 1, n: 1 } }];
      expectSame(
        await indexed.aggregate(ns.db, ns.coll, pipeline, {}),
        await scanned.aggregate(ns.db, ns.coll, pipeline, {}),
      );
      expect(indexed.lastQueryStats().indexUnion).toBeDefined();
    }
  });

  test('updates and deletes (multi and single) change the same orders as the scan', async () => {
    const { indexed, scanned } = await pair();
    const all = (e: EmbeddedEngine) => e.find(ns, { filter: {} });
    for (const [i, filter] of unionFilters.entries()) {
      const statement = { q: filter, u: { $inc: { n: 1 }, $set: { touched: i } }, multi: i % 2 === 0 };
      const [a, b] = [await indexed.update(ns, [statement], {}), await scanned.update(ns, [statement], {})];
      expect(a).toEqual(b);
      expect(indexed.lastQueryStats().indexUnion).toBeDefined();
      expectSame(all(indexed), all(scanned));
    }
    // An upsert whose $or matches nothing inserts the same document on both.
    const upsert = {
      q: { $or: [{ emailKey: 'new@example.com' }, { _id: 5000 }] },
      u: { $set: { n: 1 }, $setOnInsert: { _id: 5001 } },
      upsert: true,
    };
    expect((await indexed.update(ns, [upsert], {})).upserted.length).toBe(1);
    await scanned.update(ns, [upsert], {});
    for (const [i, filter] of unionFilters.entries()) {
      const statement = { q: filter, limit: (i % 2) as 0 | 1 };
      expect(await indexed.delete(ns, [statement], {})).toEqual(await scanned.delete(ns, [statement], {}));
      expectSame(all(indexed), all(scanned));
    }
    const left = all(indexed).length;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(TOTAL);
  });

  test('findAndModify takes the same first order', async () => {
    const { indexed, scanned } = await pair();
    for (const filter of unionFilters.slice(0, 6)) {
      const args = { query: filter, sort: { createdAt: 1, _id: 1 }, update: { $set: { picked: true } }, new: true };
      expect(await indexed.findAndModify(ns, args)).toEqual(await scanned.findAndModify(ns, args));
      expect(indexed.lastQueryStats().indexUnion).toBeDefined();
    }
  });

  test('inside a transaction: its own writes count, committed writes of others do not', async () => {
    const { indexed, scanned } = await pair();
    const filter = unionFilters[0];
    for (const e of [indexed, scanned]) {
      const t = e.beginTransaction();
      await e.update(ns, [{ q: { _id: ids(0, 1)[0] }, u: { $set: { emailKey: 'moved@example.com' } } }], {}, t);
      await e.insert(ns, [{ _id: 9999, emailKey: 'buyer3@example.com' }], {}, t);
      // Committed after the transaction began: invisible to it.
      await e.insert(ns, [{ _id: 9998, emailKey: 'buyer3@example.com' }], {});
      const seen = e.find(ns, { filter }, t);
      expect(seen.some((d) => d._id === 9999)).toBe(true);
      expect(seen.some((d) => d._id === 9998)).toBe(false);
      e.abortTransaction(t);
    }
    const t1 = indexed.beginTransaction();
    const t2 = scanned.beginTransaction();
    await indexed.delete(ns, [{ q: { emailKey: 'buyer3@example.com' }, limit: 0 }], {}, t1);
    await scanned.delete(ns, [{ q: { emailKey: 'buyer3@example.com' }, limit: 0 }], {}, t2);
    expectSame(indexed.find(ns, { filter }, t1), scanned.find(ns, { filter }, t2));
    expect(indexed.lastQueryStats().indexUnion).toEqual(['emailKey_1', '_id_']);
  });
});
