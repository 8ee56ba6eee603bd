// The engine stores its own copy of every document it is given (cloneDoc in src/engine/bson-values.ts): a
// spread copy with fields added by Reflect.set, so that wide documents keep V8's shared shapes, and short
// string values shared between documents. The copy must be the caller's document field for field, in order,
// with nothing shared that the caller could still change.
import { describe, expect, test } from 'vitest';
import { BSON, type Document } from 'bson';
import { freshEngine, ns } from './helpers.js';

const bytes = (doc: Document) => Buffer.from(BSON.serialize(doc));

/** 40 fields (past the 16 after which V8 makes a dictionary of an object built by computed names). */
const wideDoc = (id: number): Document => {
  const doc: Document = JSON.parse('{"_id": 0, "__proto__": {"polluted": true}, "constructor": "c", "10": 1, "2": 2}');
  doc._id = id;
  for (let i = 0; i < 30; i++) doc[`field${i}`] = i % 3 === 0 ? `value ${i}` : i;
  doc.at = new Date('2026-01-02T03:04:05Z');
  doc.nested = { status: 'queued', tags: ['a', 'b'], when: new Date(0) };
  doc.html = '<p>'.padEnd(5_000, 'x');
  return doc;
};

describe('stored copies', () => {
  test('a wide document is stored field for field and in order, and later changes to it do not reach the store', async () => {
    const e = freshEngine();
    const doc = wideDoc(1);
    const before = bytes(doc);
    await e.insert(ns, [doc], {});
    (doc.at as Date).setTime(0);
    doc.nested.status = 'changed';
    doc.nested.tags.push('c');
    const [stored] = e.find(ns, { filter: { _id: 1 } });
    expect(bytes(stored).equals(before)).toBe(true);
    expect(Object.keys(stored)).toEqual(Object.keys(wideDoc(1)));
    expect(Object.hasOwn(stored, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  test('fields an update adds to a wide document come after the others (in name order, as mongod adds them)', async () => {
    const e = freshEngine();
    await e.insert(ns, [wideDoc(1)], {});
    const added = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`added${String(i).padStart(2, '0')}`, `v${i}`]),
    );
    await e.update(ns, [{ q: { _id: 1 }, u: { $set: { ...added, field0: 'changed' } } }], {});
    const [stored] = e.find(ns, { filter: { _id: 1 } });
    expect(Object.keys(stored)).toEqual([...Object.keys(wideDoc(1)), ...Object.keys(added)]);
    expect(stored.field0).toBe('changed');
    expect(stored.added19).toBe('v19');
    expect(stored.__proto__).toEqual({ polluted: true });
  });

  test('short string values read back as stored while the sharing table fills and starts over', async () => {
    const e = freshEngine();
    const n = 20_000; // more distinct short values than the table holds (16,384)
    for (let i = 0; i < n; i += 1_000) {
      const docs = Array.from({ length: 1_000 }, (_, j) => ({
        _id: i + j,
        ip: '127.0.0.1',
        tag: `tag-${i + j}`,
        list: ['POST', `p${i + j}`],
      }));
      await e.insert(ns, docs, {});
    }
    await e.update(ns, [{ q: {}, u: { $set: { status: 'sent' } }, multi: true }], {});
    const stored = e.find(ns, { sort: { _id: 1 } });
    expect(stored).toHaveLength(n);
    stored.forEach((doc, i) =>
      expect(doc).toEqual({ _id: i, ip: '127.0.0.1', tag: `tag-${i}`, list: ['POST', `p${i}`], status: 'sent' }),
    );
    expect(e.find(ns, { filter: { tag: 'tag-19999', ip: '127.0.0.1' } })).toHaveLength(1);
  });
});
