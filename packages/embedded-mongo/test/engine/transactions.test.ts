import { describe, expect, test } from 'vitest';
import type { JournalOp } from '../../src/engine/index.js';
import { freshEngine, ns, rejection } from './helpers.js';

const recordingJournal = () => {
  const appends: JournalOp[][] = [];
  return {
    appends,
    journal: {
      append: async (ops: JournalOp[]) => {
        appends.push(ops);
      },
      compact: async () => {},
      close: async () => {},
    },
  };
};

describe('transactions', () => {
  test('reads see a snapshot plus own writes; commit applies atomically as one journal append', async () => {
    const { appends, journal } = recordingJournal();
    const e = freshEngine({ journal });
    await e.insert(ns, [{ _id: 1, n: 1 }], {});
    const t = e.beginTransaction();
    await e.update(ns, [{ q: { _id: 1 }, u: { $inc: { n: 1 } } }], {}, t);
    await e.insert(ns, [{ _id: 2 }], {}, t);
    await e.insert({ db: ns.db, coll: 'outbox' }, [{ _id: 'evt', type: 'order.created' }], {}, t);
    expect(e.find(ns, {}, t)).toEqual([{ _id: 1, n: 2 }, { _id: 2 }]);
    expect(e.find(ns, {})).toEqual([{ _id: 1, n: 1 }]);
    // a concurrent committed insert elsewhere is invisible to the transaction's snapshot
    await e.insert(ns, [{ _id: 3 }], {});
    expect(e.find(ns, {}, t).map((d) => d._id)).toEqual([1, 2]);
    const before = appends.length;
    await e.commitTransaction(t);
    expect(appends.length).toBe(before + 1);
    expect(appends.at(-1)!.filter((o) => o.op === 'put')).toHaveLength(3);
    expect(e.find(ns, {}).map((d) => d._id)).toEqual([1, 3, 2]);
    expect(e.find({ db: ns.db, coll: 'outbox' }, {})).toHaveLength(1);
  });

  test("a command's later statements see its earlier ones (a bulk write updating one document twice)", async () => {
    const e = freshEngine();
    await e.insert(
      ns,
      [
        { _id: 1, n: 0 },
        { _id: 2, n: 0 },
      ],
      {},
    );
    // The transaction's first write to the collection: two increments of one document, then two $sets.
    const t = e.beginTransaction();
    await e.update(
      ns,
      [
        { q: { _id: 1 }, u: { $inc: { n: 1 } } },
        { q: { _id: 1 }, u: { $inc: { n: 1 } } },
        { q: { _id: 1 }, u: { $set: { a: 1 } } },
        { q: { _id: 1 }, u: { $set: { b: 1 } } },
      ],
      {},
      t,
    );
    await e.commitTransaction(t);
    expect(e.find(ns, { filter: { _id: 1 } })).toEqual([{ _id: 1, n: 2, a: 1, b: 1 }]);

    // Another record changed by a committed write after the transaction began (read through a copy).
    const u = e.beginTransaction();
    await e.update(ns, [{ q: { _id: 2 }, u: { $set: { other: true } } }], {});
    await e.update(
      ns,
      [
        { q: { _id: 1 }, u: { $inc: { n: 1 } } },
        { q: { _id: 1 }, u: { $inc: { n: 1 } } },
      ],
      {},
      u,
    );
    await e.commitTransaction(u);
    expect(e.find(ns, { filter: { _id: 1 } })).toEqual([{ _id: 1, n: 4, a: 1, b: 1 }]);
  });

  test('abort discards everything', async () => {
    const e = freshEngine();
    await e.insert(ns, [{ _id: 1 }], {});
    const t = e.beginTransaction();
    await e.delete(ns, [{ q: {}, limit: 0 }], {}, t);
    expect(e.count(ns, {}, {}, t)).toBe(0);
    e.abortTransaction(t);
    expect(e.count(ns, {}, {})).toBe(1);
    expect((await rejection(e.commitTransaction(t))).code).toBe(251);
  });

  test('write conflicts: concurrent committed change and two transactions on one document', async () => {
    const e = freshEngine();
    await e.insert(
      ns,
      [
        { _id: 1, n: 0 },
        { _id: 2, n: 0 },
      ],
      {},
    );
    const t1 = e.beginTransaction();
    await e.update(ns, [{ q: { _id: 1 }, u: { $inc: { n: 1 } } }], {}, t1);
    const t2 = e.beginTransaction();
    const err = await rejection(e.update(ns, [{ q: { _id: 1 }, u: { $inc: { n: 1 } } }], {}, t2));
    expect(err).toMatchObject({ code: 112, codeName: 'WriteConflict', errorLabels: ['TransientTransactionError'] });
    // a committed write after the transaction began
    const t3 = e.beginTransaction();
    await e.update(ns, [{ q: { _id: 2 }, u: { $inc: { n: 5 } } }], {});
    expect((await rejection(e.update(ns, [{ q: { _id: 2 }, u: { $inc: { n: 1 } } }], {}, t3))).code).toBe(112);
    // non-transactional write to a document a transaction already wrote makes the commit fail
    const t4 = e.beginTransaction();
    await e.insert(ns, [{ _id: 10 }], {}, t4);
    await e.update(ns, [{ q: { _id: 2 }, u: { $set: { x: 1 } } }], {}, t4);
    await e.update(ns, [{ q: { _id: 2 }, u: { $set: { x: 2 } } }], {});
    const c = await rejection(e.commitTransaction(t4));
    expect(c.code).toBe(112);
    expect(e.count(ns, { _id: 10 }, {})).toBe(0);
    await e.commitTransaction(t1);
    expect(e.find(ns, { filter: { _id: 1 } })[0].n).toBe(1);
  });

  test('unique indexes are checked against committed data plus own writes', async () => {
    const e = freshEngine();
    await e.createIndexes(ns, [{ key: { email: 1 }, name: 'email_1', unique: true }]);
    await e.insert(ns, [{ _id: 1, email: 'a' }], {});
    const t = e.beginTransaction();
    expect((await e.insert(ns, [{ _id: 2, email: 'a' }], {}, t)).writeErrors[0].code).toBe(11000);
    await e.insert(ns, [{ _id: 3, email: 'b' }], {}, t);
    expect((await e.insert(ns, [{ _id: 4, email: 'b' }], {}, t)).writeErrors[0].code).toBe(11000);
    // moving the value away from a committed document frees it inside the transaction
    await e.update(ns, [{ q: { _id: 1 }, u: { $set: { email: 'c' } } }], {}, t);
    expect((await e.insert(ns, [{ _id: 5, email: 'a' }], {}, t)).writeErrors).toEqual([]);
    await e.commitTransaction(t);
    expect(e.find(ns, { sort: { _id: 1 } }).map((d) => d.email)).toEqual(['c', 'b', 'a']);
  });

  test('a failed journal append leaves no trace of the write', async () => {
    let fail = false;
    const journal = {
      append: async () => {
        if (fail) throw new Error('disk full');
      },
      compact: async () => {},
      close: async () => {},
    };
    const e = freshEngine({ journal });
    await e.insert(ns, [{ _id: 1, n: 1 }], {});
    fail = true;
    await rejection(e.insert(ns, [{ _id: 2 }], {}));
    await rejection(e.update(ns, [{ q: { _id: 1 }, u: { $set: { n: 2 } } }], {}));
    const t = e.beginTransaction();
    await e.insert(ns, [{ _id: 3 }], {}, t);
    await rejection(e.commitTransaction(t));
    expect(e.find(ns, {})).toEqual([{ _id: 1, n: 1 }]);
  });

  test('reads inside a transaction that has written still use indexes', async () => {
    const e = freshEngine();
    await e.insert(
      ns,
      Array.from({ length: 1000 }, (_, i) => ({ _id: i, sku: `s${i}` })),
      {},
    );
    await e.createIndexes(ns, [{ key: { sku: 1 }, name: 'sku_1' }]);
    const t = e.beginTransaction();
    await e.update(ns, [{ q: { _id: 5 }, u: { $set: { sku: 's-five' } } }], {}, t);
    expect(e.find(ns, { filter: { _id: 7 } }, t)).toEqual([{ _id: 7, sku: 's7' }]);
    expect(e.lastQueryStats().docsExamined).toBeLessThanOrEqual(2);
    expect(e.find(ns, { filter: { sku: 's5' } }, t)).toEqual([]);
    expect(e.find(ns, { filter: { sku: 's-five' } }, t)).toEqual([{ _id: 5, sku: 's-five' }]);
    expect(e.find(ns, { filter: { sku: 's5' } })).toEqual([{ _id: 5, sku: 's5' }]);
    await e.commitTransaction(t);
    expect(e.find(ns, { filter: { sku: 's-five' } })).toEqual([{ _id: 5, sku: 's-five' }]);
  });
  test('after concurrent commits a transaction still reads its snapshot, through the indexes', async () => {
    const e = freshEngine();
    await e.insert(
      ns,
      Array.from({ length: 1000 }, (_, i) => ({ _id: i, sku: `s${i}` })),
      {},
    );
    await e.createIndexes(ns, [{ key: { sku: 1 }, name: 'sku_1' }]);
    const t = e.beginTransaction();
    // Others commit an update, a delete and an insert after the transaction started.
    await e.update(ns, [{ q: { _id: 5 }, u: { $set: { sku: 's-five' } } }], {});
    await e.delete(ns, [{ q: { _id: 6 }, limit: 1 }], {});
    await e.insert(ns, [{ _id: 1000, sku: 's1000' }], {});
    expect(e.find(ns, { filter: { sku: 's5' } }, t)).toEqual([{ _id: 5, sku: 's5' }]);
    expect(e.find(ns, { filter: { sku: 's-five' } }, t)).toEqual([]);
    expect(e.find(ns, { filter: { _id: 6 } }, t)).toEqual([{ _id: 6, sku: 's6' }]);
    expect(e.find(ns, { filter: { sku: 's1000' } }, t)).toEqual([]);
    expect(e.find(ns, { filter: { sku: 's7' } }, t)).toEqual([{ _id: 7, sku: 's7' }]);
    // Not a scan of the collection: the index narrows it to the document and the few changed since.
    expect(e.lastQueryStats().docsExamined).toBeLessThanOrEqual(5);
    expect(e.find(ns, {}, t)).toHaveLength(1000);
    // Writing a record another commit changed since the start is a write conflict, as in MongoDB.
    expect(await rejection(e.update(ns, [{ q: { _id: 5 }, u: { $set: { sku: 'mine' } } }], {}, t))).toMatchObject({
      code: 112,
    });
    e.abortTransaction(t);
    expect(e.find(ns, { filter: { _id: 5 } })).toEqual([{ _id: 5, sku: 's-five' }]);
  });
});
