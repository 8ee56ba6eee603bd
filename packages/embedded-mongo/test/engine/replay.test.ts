import { describe, expect, test } from 'vitest';
import { Decimal128, ObjectId } from 'bson';
import { createEngine, type JournalOp } from '../../src/engine/index.js';
import { freshEngine, ns } from './helpers.js';

const recording = () => {
  const appends: JournalOp[][] = [];
  const compacts: JournalOp[][] = [];
  return {
    appends,
    compacts,
    journal: {
      append: async (ops: JournalOp[]) => {
        appends.push(ops);
      },
      compact: async (dump: () => Iterable<JournalOp>) => {
        compacts.push([...dump()]);
      },
      close: async () => {},
    },
  };
};

const state = (e: ReturnType<typeof createEngine>) => ({
  dbs: e
    .listDatabases()
    .map((d) => d.name)
    .sort(),
  colls: e
    .listCollections(ns.db)
    .map((c) => c.name)
    .sort(),
  docs: e.find(ns, {}),
  other: e.find({ db: ns.db, coll: 'other' }, {}),
  indexes: e.listIndexes(ns),
});

describe('journal and replay', () => {
  test('each write command is one append, made before the promise resolves', async () => {
    const { appends, journal } = recording();
    const e = freshEngine({ journal });
    await e.insert(ns, [{ _id: 1 }, { _id: 2 }], {});
    expect(appends).toHaveLength(1);
    expect(appends[0].map((o) => o.op)).toEqual(['createCollection', 'put', 'put']);
    await e.update(ns, [{ q: {}, u: { $set: { a: 1 } }, multi: true }], {});
    expect(appends).toHaveLength(2);
    await e.update(ns, [{ q: { _id: 99 }, u: { $set: { a: 1 } } }], {});
    expect(appends).toHaveLength(2); // nothing changed, nothing journaled
    await e.delete(ns, [{ q: { _id: 1 }, limit: 1 }], {});
    expect(appends[2]).toEqual([{ op: 'delete', db: ns.db, coll: ns.coll, id: 1 }]);
  });

  test('replaying the journal rebuilds identical state and indexes without journaling again', async () => {
    const { appends, journal } = recording();
    const e = freshEngine({ journal });
    await e.createIndexes(ns, [
      { key: { sku: 1 }, name: 'sku_1', unique: true },
      { key: { at: 1 }, name: 'at_1', expireAfterSeconds: 3600 },
    ]);
    await e.insert(
      ns,
      [
        { _id: new ObjectId(), sku: 'a', price: Decimal128.fromString('1.10') },
        { _id: 'b', sku: 'b' },
        { _id: 3, sku: 'c' },
      ],
      {},
    );
    await e.update(ns, [{ q: { sku: 'b' }, u: { $set: { price: 2 } } }], {});
    await e.delete(ns, [{ q: { _id: 3 }, limit: 1 }], {});
    await e.insert({ db: ns.db, coll: 'other' }, [{ _id: 1 }], {});
    await e.createIndexes({ db: ns.db, coll: 'other' }, [{ key: { x: 1 }, name: 'x_1' }]);
    await e.dropIndexes({ db: ns.db, coll: 'other' }, 'x_1');
    await e.collMod(ns, { index: { name: 'at_1', expireAfterSeconds: 60 } });
    const t = e.beginTransaction();
    await e.insert(ns, [{ _id: 'txn', sku: 'd' }], {}, t);
    await e.commitTransaction(t);
    await e.insert({ db: 'gone', coll: 'x' }, [{ _id: 1 }], {});
    await e.dropDatabase('gone');

    const seen: JournalOp[][] = [];
    const replica = createEngine({
      replay: appends.flat(),
      journal: {
        append: async (ops) => {
          seen.push(ops);
        },
        compact: async () => {},
        close: async () => {},
      },
    });
    expect(state(replica)).toEqual(state(e));
    expect(seen).toEqual([]);
    // the rebuilt unique index is enforced and used
    expect((await replica.insert(ns, [{ sku: 'a' }], {})).writeErrors[0].code).toBe(11000);
    replica.find(ns, { filter: { sku: 'b' } });
    expect(replica.lastQueryStats()).toEqual({ docsExamined: 1, indexUsed: 'sku_1' });

    // a dump rebuilds the same state too
    const fromDump = createEngine({ replay: [...e.dumpState()] });
    expect(state(fromDump)).toEqual(state(e));
    await Promise.all([e.stop(), replica.stop(), fromDump.stop()]);
  });

  test('the engine asks the journal to compact after enough ops, with a dump of the state', async () => {
    const { compacts, journal } = recording();
    const e = freshEngine({ journal, compactEveryOps: 10 });
    for (let i = 0; i < 12; i++) await e.insert(ns, [{ _id: i }], {});
    await new Promise((r) => setTimeout(r, 10));
    expect(compacts.length).toBeGreaterThanOrEqual(1);
    expect(compacts[0].filter((o) => o.op === 'put').length).toBeGreaterThanOrEqual(9);
    expect(compacts[0][0]).toMatchObject({ op: 'createCollection', db: ns.db, coll: ns.coll });
    await e.stop();
  });
});

describe('compaction with a self-compacting journal', () => {
  test('hands its dump to setCompactionSource and withdraws it on stop', async () => {
    let source: (() => Iterable<JournalOp>) | null = null;
    const journal = {
      append: async () => {},
      compact: async () => {},
      close: async () => {},
      setCompactionSource: (dump: (() => Iterable<JournalOp>) | null) => {
        source = dump;
      },
    };
    const e = freshEngine({ journal });
    await e.insert(ns, [{ _id: 1 }], {});
    expect([...source!()].map((o) => o.op)).toEqual(['createCollection', 'put']);
    await e.stop();
    expect(source).toBeNull();
  });
});
