import { describe, expect, test } from 'vitest';
import { ObjectId } from 'bson';
import { freshEngine, ns, rejection } from './helpers.js';

describe('indexes', () => {
  test('duplicate key errors have the shape mongoose expects', async () => {
    const e = freshEngine();
    await e.createIndexes(ns, [{ key: { email: 1 }, name: 'email_1', unique: true }]);
    await e.insert(ns, [{ _id: 1, email: 'a@x.io' }], {});
    const r = await e.insert(ns, [{ _id: 2, email: 'a@x.io' }], {});
    expect(r.writeErrors[0]).toEqual({
      index: 0,
      code: 11000,
      codeName: 'DuplicateKey',
      errmsg: 'E11000 duplicate key error collection: shop_test.items index: email_1 dup key: { email: "a@x.io" }',
      keyPattern: { email: 1 },
      keyValue: { email: 'a@x.io' },
    });
    const oid = new ObjectId();
    await e.insert(ns, [{ _id: oid }], {});
    const r2 = await e.insert(ns, [{ _id: oid }], {});
    expect(r2.writeErrors[0].errmsg).toBe(
      `E11000 duplicate key error collection: shop_test.items index: _id_ dup key: { _id: ObjectId('${oid.toHexString()}') }`,
    );
    expect(r2.writeErrors[0].keyValue).toEqual({ _id: oid });
  });

  test('ordered inserts stop at the first error; unordered continue', async () => {
    const e = freshEngine();
    const docs = [{ _id: 1 }, { _id: 1 }, { _id: 2 }];
    expect(await e.insert(ns, docs, { ordered: true })).toMatchObject({ n: 1, writeErrors: [{ index: 1 }] });
    const e2 = freshEngine();
    expect(await e2.insert(ns, docs, { ordered: false })).toMatchObject({ n: 2, writeErrors: [{ index: 1 }] });
  });

  test('unique is enforced on update and upsert, compound uniqueness and missing-as-null', async () => {
    const e = freshEngine();
    await e.createIndexes(ns, [{ key: { a: 1, b: 1 }, name: 'a_1_b_1', unique: true }]);
    await e.insert(
      ns,
      [
        { _id: 1, a: 1, b: 1 },
        { _id: 2, a: 1, b: 2 },
        { _id: 3, a: 2 },
      ],
      {},
    );
    expect((await e.insert(ns, [{ _id: 4, a: 2 }], {})).writeErrors[0]).toMatchObject({
      code: 11000,
      keyValue: { a: 2, b: null },
    });
    const u = await e.update(ns, [{ q: { _id: 2 }, u: { $set: { b: 1 } } }], {});
    expect(u.writeErrors[0]).toMatchObject({ code: 11000, keyPattern: { a: 1, b: 1 }, keyValue: { a: 1, b: 1 } });
    const up = await e.update(ns, [{ q: { _id: 9 }, u: { $set: { a: 1, b: 2 } }, upsert: true }], {});
    expect(up.writeErrors[0].code).toBe(11000);
    expect(e.count(ns, {}, {})).toBe(3);
    // updating a document to its own key is fine
    expect((await e.update(ns, [{ q: { _id: 1 }, u: { $set: { c: 1 } } }], {})).nModified).toBe(1);
  });

  test('sparse and partial unique indexes skip documents they do not cover', async () => {
    const e = freshEngine();
    await e.createIndexes(ns, [
      { key: { sku: 1 }, name: 'sku_1', unique: true, sparse: true },
      { key: { code: 1 }, name: 'code_1', unique: true, partialFilterExpression: { active: true } },
    ]);
    const r = await e.insert(
      ns,
      [
        { _id: 1 },
        { _id: 2 },
        { _id: 3, code: 'X', active: false },
        { _id: 4, code: 'X', active: true },
        { _id: 5, code: 'X', active: true },
      ],
      { ordered: false },
    );
    expect(r.n).toBe(4);
    expect(r.writeErrors).toHaveLength(1);
    expect(r.writeErrors[0]).toMatchObject({ index: 4, code: 11000, keyValue: { code: 'X' } });
  });

  test('createIndexes: idempotent, name conflicts 86, option conflicts 85, unique build over duplicates 11000', async () => {
    const e = freshEngine();
    const r = await e.createIndexes(ns, [{ key: { a: 1 }, name: 'a_1' }]);
    expect(r).toMatchObject({ numIndexesBefore: 1, numIndexesAfter: 2, createdCollectionAutomatically: true });
    const again = await e.createIndexes(ns, [{ key: { a: 1 }, name: 'a_1' }]);
    expect(again).toMatchObject({ numIndexesBefore: 2, numIndexesAfter: 2, note: 'all indexes already exist' });
    expect((await rejection(e.createIndexes(ns, [{ key: { b: 1 }, name: 'a_1' }]))).code).toBe(86);
    expect((await rejection(e.createIndexes(ns, [{ key: { a: 1 }, name: 'a_1', unique: true }]))).code).toBe(85);
    expect((await rejection(e.createIndexes(ns, [{ key: { a: 1 }, name: 'other' }]))).code).toBe(85);
    await e.insert(ns, [{ b: 1 }, { b: 1 }], {});
    const err = await rejection(e.createIndexes(ns, [{ key: { b: 1 }, name: 'b_1', unique: true }]));
    expect(err.code).toBe(11000);
    expect(err.extra.keyValue).toEqual({ b: 1 });
    expect(e.listIndexes(ns).map((i) => i.name)).toEqual(['_id_', 'a_1']);
    expect(e.listIndexes(ns).every((i) => i.v === 2)).toBe(true);
  });

  test('dropIndexes by name, key and "*"; _id_ cannot be dropped', async () => {
    const e = freshEngine();
    await e.createIndexes(ns, [
      { key: { a: 1 }, name: 'a_1' },
      { key: { b: -1 }, name: 'b_-1' },
      { key: { c: 1 }, name: 'c_1' },
    ]);
    expect(await e.dropIndexes(ns, 'a_1')).toEqual({ nIndexesWas: 4 });
    await e.dropIndexes(ns, { b: -1 });
    expect((await rejection(e.dropIndexes(ns, 'nope'))).code).toBe(27);
    expect((await rejection(e.dropIndexes(ns, '_id_'))).code).toBe(72);
    await e.dropIndexes(ns, '*');
    expect(e.listIndexes(ns).map((i) => i.name)).toEqual(['_id_']);
  });

  test('an indexed find examines only matching documents (100,000 documents)', async () => {
    const e = freshEngine();
    const docs = Array.from({ length: 100_000 }, (_, i) => ({ _id: i, sku: `sku-${i}`, price: i % 1000 }));
    await e.insert(ns, docs, {});
    await e.createIndexes(ns, [
      { key: { sku: 1 }, name: 'sku_1', unique: true },
      { key: { price: 1, sku: 1 }, name: 'price_1_sku_1' },
    ]);
    expect(e.find(ns, { filter: { sku: 'sku-77777' }, limit: 1 })[0]._id).toBe(77777);
    expect(e.lastQueryStats()).toEqual({ docsExamined: 1, indexUsed: 'sku_1' });
    expect(e.find(ns, { filter: { price: { $gte: 10, $lt: 12 } } })).toHaveLength(200);
    expect(e.lastQueryStats()).toEqual({ docsExamined: 200, indexUsed: 'price_1_sku_1' });
    expect(e.find(ns, { filter: { _id: { $in: [5, 6] } } })).toHaveLength(2);
    expect(e.lastQueryStats()).toEqual({ docsExamined: 2, indexUsed: '_id_' });
    await e.update(ns, [{ q: { sku: 'sku-5' }, u: { $set: { price: 5000 } } }], {});
    expect(e.lastQueryStats().docsExamined).toBe(1);
    expect(e.find(ns, { filter: { price: { $gt: 4000 } } }).map((d) => d._id)).toEqual([5]);
    expect(e.lastQueryStats().docsExamined).toBe(1);
    e.find(ns, { filter: { name: 'unindexed' } });
    expect(e.lastQueryStats()).toEqual({ docsExamined: 100_000, indexUsed: null });
  });

  test('TTL: a background sweep removes expired documents and journals the deletes', async () => {
    const appended: unknown[][] = [];
    const journal = {
      append: async (ops: unknown[]) => {
        appended.push(ops);
      },
      compact: async () => {},
      close: async () => {},
    };
    const e = freshEngine({ ttlSweepMs: 20, journal: journal });
    await e.createIndexes(ns, [{ key: { expiresAt: 1 }, name: 'expiresAt_1', expireAfterSeconds: 0 }]);
    await e.insert(
      ns,
      [
        { _id: 'old', expiresAt: new Date(Date.now() - 60_000) },
        { _id: 'new', expiresAt: new Date(Date.now() + 3_600_000) },
        { _id: 'none' },
      ],
      {},
    );
    for (let i = 0; i < 100 && e.count(ns, {}, {}) === 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(e.find(ns, {}).map((d) => d._id)).toEqual(['new', 'none']);
    expect(appended.flat()).toContainEqual({ op: 'delete', db: ns.db, coll: ns.coll, id: 'old' });
    await e.stop();
  });
  test('keys shared by 1 to 40 documents (string, array, Set of ids) answer as a scan does through inserts, updates and deletes', async () => {
    const indexed = freshEngine();
    const scan = freshEngine();
    await indexed.createIndexes(ns, [
      { key: { at: -1 }, name: 'at_-1' },
      { key: { level: 1, at: -1 }, name: 'level_1_at_-1' },
    ]);
    // group g holds g + 1 documents: one id, two, a few, and past the 32 an array holds.
    const docs = [0, 1, 2, 7, 31, 32, 39].flatMap((g) =>
      Array.from({ length: g + 1 }, (_, i) => ({ _id: g * 100 + i, at: g, level: i % 2 ? 'low' : 'high' })),
    );
    for (const e of [indexed, scan]) {
      await e.insert(ns, docs, {});
      await e.update(ns, [{ q: { _id: { $in: [3100, 3205, 3930] } }, u: { $set: { at: 2 } }, multi: true }], {});
      await e.delete(ns, [{ q: { _id: { $in: [101, 700, 702, 3200, 3931] } }, limit: 0 }], {});
      await e.insert(ns, [{ _id: 3999, at: 39, level: 'low' }], {});
    }
    const queries = [
      ...[0, 1, 2, 7, 31, 32, 39].map((g) => ({ filter: { at: g } })),
      { filter: { at: { $in: [1, 2, 39] } } },
      { filter: { at: { $gte: 2, $lte: 31 } } },
      { filter: { level: 'low', at: 32 } },
      { filter: { level: 'high' }, sort: { at: -1, _id: 1 } },
      { filter: {}, sort: { at: -1, _id: 1 } },
    ];
    for (const q of queries) {
      const byIndex = indexed.find(ns, q);
      expect(byIndex.map((d) => d._id).sort()).toEqual(
        scan
          .find(ns, q)
          .map((d) => d._id)
          .sort(),
      );
      if ('sort' in q) expect(byIndex).toEqual(scan.find(ns, q));
    }
    expect(indexed.find(ns, { filter: { at: 39 } })).toHaveLength(39);
    expect(indexed.lastQueryStats().indexUsed).toBe('at_-1');
    expect(indexed.count(ns, { at: 32 }, {})).toBe(scan.count(ns, { at: 32 }, {}));
    expect(indexed.count(ns, { at: 2 }, {})).toBe(6);
  });
});
