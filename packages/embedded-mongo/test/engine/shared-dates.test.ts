// Stored documents that hold the same time share one Date (sharedDate in src/engine/bson-values.ts): a Date
// is 96 bytes of heap, and most stored times repeat another document's. Sharing is safe only while nothing
// changes a stored Date in place, so every path that reads, compares, updates, aggregates or journals dates
// must give each document its own value, as it did when each held its own copy.
import { describe, expect, test } from 'vitest';
import { BSON, type Document } from 'bson';
import { createEngine, type JournalOp } from '../../src/engine/index.js';
import { freshEngine, ns } from './helpers.js';

const T = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
const SECOND = 1_000;
const bytes = (docs: Document[]) => docs.map((d) => Buffer.from(BSON.serialize(d)).toString('hex'));

/** 30 documents over three times, each time also in a nested field and an array. */
const docs = () =>
  Array.from({ length: 30 }, (_, i) => ({
    _id: i,
    at: new Date(T + (i % 3) * SECOND),
    seen: new Date(T),
    nested: { when: new Date(T), list: [new Date(T), new Date(T + SECOND)] },
  }));

describe('shared stored dates', () => {
  test('documents holding the same time share one stored Date, never the caller’s', async () => {
    const e = freshEngine();
    const given = docs();
    await e.insert(ns, given, {});
    const [a, b, , d] = e.find(ns, { sort: { _id: 1 } });
    expect(a.seen).toBe(b.seen);
    expect(a.seen).toBe(a.nested.when);
    expect(a.nested.list[1]).toBe(b.at);
    expect(a.at).toBe(d.at);
    expect(a.seen).not.toBe(given[0].seen);
    given[0].seen.setTime(0);
    expect(e.find(ns, { filter: { _id: 0 } })[0].seen.getTime()).toBe(T);
  });

  test('each document keeps its own time through updates, queries, aggregation and the journal', async () => {
    const appends: JournalOp[][] = [];
    const e = freshEngine({
      journal: { append: async (ops) => void appends.push(ops), compact: async () => {}, close: async () => {} },
    });
    await e.createIndexes(ns, [{ key: { at: 1 }, name: 'at_1' }]);
    await e.insert(ns, docs(), {});
    // What each document should hold afterwards, written out independently of the engine.
    const expected = docs().map((d) => structuredClone(d)) as Document[];
    const before = Date.now();
    await e.update(ns, [{ q: { _id: 0 }, u: { $set: { at: new Date(T + 5 * SECOND) } } }], {});
    expected[0].at = new Date(T + 5 * SECOND);
    await e.update(ns, [{ q: { _id: 1 }, u: { $currentDate: { seen: true } } }], {});
    await e.update(ns, [{ q: { _id: 2 }, u: { $min: { at: new Date(T - SECOND) } } }], {});
    expected[2].at = new Date(T - SECOND);
    await e.update(ns, [{ q: { _id: 3 }, u: { $max: { at: new Date(T + 9 * SECOND) } } }], {});
    expected[3].at = new Date(T + 9 * SECOND);
    await e.update(ns, [{ q: { _id: 4 }, u: { $max: { at: new Date(T - 9 * SECOND) } } }], {});
    await e.update(ns, [{ q: { _id: 5 }, u: { $set: { 'nested.list.0': new Date(T + 3 * SECOND) } } }], {});
    expected[5].nested.list[0] = new Date(T + 3 * SECOND);
    const modified = await e.findAndModify(ns, {
      query: { _id: 6 },
      update: { $set: { at: new Date(T + 7 * SECOND) } },
      new: true,
    });
    expected[6].at = new Date(T + 7 * SECOND);
    expect(bytes([modified.value!])).toEqual(bytes([expected[6]]));
    await e.update(ns, [{ q: { _id: 7 }, u: { _id: 7, at: new Date(T), seen: new Date(T + SECOND) } }], {});
    expected[7] = { _id: 7, at: new Date(T), seen: new Date(T + SECOND) };
    await e.update(
      ns,
      [{ q: { _id: 30 }, u: { $setOnInsert: { at: new Date(T), seen: new Date(T) } }, upsert: true }],
      {},
    );
    expected[30] = { _id: 30, at: new Date(T), seen: new Date(T) };
    await e.update(ns, [{ q: { at: new Date(T + 2 * SECOND) }, u: { $inc: { n: 1 } }, multi: true }], {});
    for (const d of expected) if (d._id % 3 === 2 && d._id !== 2) d.n = 1;

    const stored = e.find(ns, { sort: { _id: 1 } });
    const seen1 = stored[1].seen as Date;
    expect(seen1.getTime()).toBeGreaterThanOrEqual(before);
    expected[1].seen = new Date(seen1.getTime());
    expect(bytes(stored)).toEqual(bytes(expected));

    // Index range, sort and distinct over the shared dates.
    const inRange = e.find(ns, { filter: { at: { $gte: new Date(T + 5 * SECOND), $lt: new Date(T + 10 * SECOND) } } });
    expect(e.lastQueryStats().indexUsed).toBe('at_1');
    const wanted = expected.filter((d) => d.at.getTime() >= T + 5 * SECOND && d.at.getTime() < T + 10 * SECOND);
    expect(inRange.map((d) => d._id).sort((x, y) => x - y)).toEqual(wanted.map((d) => d._id));
    const sorted = e.find(ns, { sort: { at: -1, _id: 1 }, projection: { at: 1 } });
    expect(bytes(sorted)).toEqual(
      bytes(
        [...expected]
          .sort((x, y) => y.at.getTime() - x.at.getTime() || x._id - y._id)
          .map((d) => ({ _id: d._id, at: d.at })),
      ),
    );
    expect(e.distinct(ns, 'at', {}).map((v) => (v as Date).getTime())).toEqual(
      [...new Set(expected.map((d) => d.at.getTime()))].sort((x, y) => x - y),
    );

    // mingo's date operators work on their own copies: the stored dates are unchanged after them.
    const projected = await e.aggregate(
      ns.db,
      ns.coll,
      [
        { $sort: { _id: 1 } },
        {
          $project: {
            plus: { $dateAdd: { startDate: '$at', unit: 'month', amount: 1 } },
            trunc: { $dateTrunc: { date: '$at', unit: 'hour' } },
            minutes: { $dateDiff: { startDate: '$seen', endDate: '$at', unit: 'minute' } },
            local: { $dateToParts: { date: '$at', timezone: '+05:30' } },
          },
        },
      ],
      {},
    );
    projected.forEach((p, i) => {
      const at = expected[i].at.getTime();
      const plus = new Date(at);
      plus.setUTCMonth(plus.getUTCMonth() + 1);
      expect(p.plus.getTime()).toBe(plus.getTime());
      expect(p.trunc.getTime()).toBe(at - (at % (3600 * SECOND)));
      expect(p.local.hour).toBe(new Date(at + 5.5 * 3600 * SECOND).getUTCHours());
    });
    const grouped = await e.aggregate(ns.db, ns.coll, [{ $group: { _id: '$at', n: { $sum: 1 } } }], {});
    expect(grouped.reduce((sum, g) => sum + g.n, 0)).toBe(expected.length);
    expect(bytes(e.find(ns, { sort: { _id: 1 } }))).toEqual(bytes(expected));

    // The journal replays the same documents.
    const replica = createEngine({ replay: appends.flat() });
    expect(bytes(replica.find(ns, { sort: { _id: 1 } }))).toEqual(bytes(expected));
    await Promise.all([e.stop(), replica.stop()]);
  });

  test('a stored Date an in-process caller changed in place is not shared with later documents', async () => {
    const e = freshEngine();
    await e.insert(ns, [{ _id: 1, at: new Date(T) }], {});
    (e.find(ns, { filter: { _id: 1 } })[0].at as Date).setTime(0);
    await e.insert(ns, [{ _id: 2, at: new Date(T) }], {});
    expect(e.find(ns, { filter: { _id: 2 } })[0].at.getTime()).toBe(T);
  });

  test('dates read back as stored while the sharing table fills and starts over', async () => {
    const e = freshEngine();
    const n = 20_000; // more distinct times than the table holds (16,384)
    for (let i = 0; i < n; i += 1_000) {
      const batch = Array.from({ length: 1_000 }, (_, j) => ({
        _id: i + j,
        at: new Date(T + i + j),
        day: new Date(T),
      }));
      await e.insert(ns, batch, {});
    }
    await e.update(ns, [{ q: {}, u: { $set: { later: new Date(T + 1) } }, multi: true }], {});
    e.find(ns, { sort: { _id: 1 } }).forEach((d, i) => {
      expect(d.at.getTime()).toBe(T + i);
      expect(d.day.getTime()).toBe(T);
      expect(d.later.getTime()).toBe(T + 1);
    });
  });
});
