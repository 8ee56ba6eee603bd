import { describe, expect, test } from 'vitest';
import { Decimal128, Long, ObjectId, Timestamp } from 'bson';
import { freshEngine, ns, rejection } from './helpers.js';

const setup = async (docs: object[]) => {
  const e = freshEngine();
  await e.insert(ns, docs, {});
  return e;
};
const one = (e: ReturnType<typeof freshEngine>, id: unknown) => e.find(ns, { filter: { _id: id } })[0];
const upd = (e: ReturnType<typeof freshEngine>, q: object, u: object | object[], extra: object = {}) =>
  e.update(ns, [{ q, u, ...extra }], {});

describe('update operators', () => {
  test('$set, $unset, $inc, $mul, $min, $max, $rename, $currentDate', async () => {
    const e = await setup([{ _id: 1, a: 1, b: 'x', n: 10, lo: 5, hi: 5, old: 'v', nested: { k: 1 } }]);
    const r = await upd(
      e,
      { _id: 1 },
      {
        $set: { 'nested.k': 2, 'deep.new.path': true },
        $unset: { b: '' },
        $inc: { a: 2 },
        $mul: { n: 3 },
        $min: { lo: 3 },
        $max: { hi: 4 },
        $rename: { old: 'renamed' },
        $currentDate: { at: true, ts: { $type: 'timestamp' } },
      },
    );
    expect(r).toMatchObject({ n: 1, nModified: 1, writeErrors: [] });
    const d = one(e, 1);
    expect(d).toMatchObject({
      a: 3,
      n: 30,
      lo: 3,
      hi: 5,
      renamed: 'v',
      nested: { k: 2 },
      deep: { new: { path: true } },
    });
    expect(d.b).toBeUndefined();
    expect(d.old).toBeUndefined();
    expect(d.at).toBeInstanceOf(Date);
    expect(d.ts._bsontype).toBe('Timestamp');
  });

  test('$inc and $mul keep Decimal128 and Long exact', async () => {
    const e = await setup([{ _id: 1, d: Decimal128.fromString('0.1'), l: Long.fromString('9007199254740993') }]);
    await upd(e, { _id: 1 }, { $inc: { d: Decimal128.fromString('0.2'), l: 1 } });
    let d = one(e, 1);
    expect(d.d.toString()).toBe('0.3');
    expect(d.l.toString()).toBe('9007199254740994');
    await upd(e, { _id: 1 }, { $mul: { d: 3 } });
    d = one(e, 1)!;
    expect(d.d.toString()).toBe('0.9');
    await upd(e, { _id: 1 }, { $inc: { fresh: Decimal128.fromString('1.5') } });
    expect(one(e, 1).fresh.toString()).toBe('1.5');
    await upd(e, { _id: 1 }, { $set: { i: 2147483647 } });
    await upd(e, { _id: 1 }, { $inc: { i: 1 } });
    expect(one(e, 1).i).toEqual(Long.fromNumber(2147483648));
  });

  test('$inc on a non-number and with a non-number are TypeMismatch (14)', async () => {
    const e = await setup([{ _id: 1, s: 'text' }]);
    const r = await upd(e, { _id: 1 }, { $inc: { s: 1 } });
    expect(r.writeErrors[0]).toMatchObject({ index: 0, code: 14 });
    const r2 = await upd(e, { _id: 1 }, { $inc: { n: 'x' } });
    expect(r2.writeErrors[0]).toMatchObject({ code: 14 });
  });

  test('validation: empty operator doc is a replacement, unknown operator (9), conflicts (40), $-prefixed replacement fields', async () => {
    const e = await setup([{ _id: 1, a: 1 }]);
    expect((await upd(e, { _id: 1 }, { $foo: { a: 1 } })).writeErrors[0]).toMatchObject({ code: 9 });
    expect((await upd(e, { _id: 1 }, { $set: { a: 1 }, $inc: { a: 1 } })).writeErrors[0]).toMatchObject({
      code: 40,
      errmsg: expect.stringContaining("would create a conflict at 'a'"),
    });
    expect((await upd(e, { _id: 1 }, { $set: { 'a.b': 1, a: 2 } })).writeErrors[0]).toMatchObject({ code: 40 });
    expect((await upd(e, { _id: 1 }, { a: 1, $set: { b: 1 } })).writeErrors[0].code).toBe(52);
    expect((await upd(e, { _id: 1 }, { $set: 5 })).writeErrors[0].code).toBe(9);
    expect(await upd(e, { _id: 1 }, {})).toMatchObject({ n: 1, nModified: 1 });
    expect(one(e, 1)).toEqual({ _id: 1 });
  });

  test('_id: setting it unchanged is allowed, changing it is ImmutableField (66)', async () => {
    const oid = new ObjectId();
    const e = await setup([{ _id: oid, a: 1 }]);
    expect(await upd(e, { _id: oid }, { $set: { _id: new ObjectId(oid.toHexString()), a: 2 } })).toMatchObject({
      n: 1,
      nModified: 1,
      writeErrors: [],
    });
    const r = await upd(e, { _id: oid }, { $set: { _id: new ObjectId() } });
    expect(r.writeErrors[0]).toMatchObject({ code: 66, codeName: 'ImmutableField' });
    const r2 = await upd(e, { _id: oid }, { _id: 5, a: 1 });
    expect(r2.writeErrors[0]).toMatchObject({ code: 66 });
    expect(one(e, oid).a).toBe(2);
  });

  test('nModified counts only changed documents; n counts matches', async () => {
    const e = await setup([
      { _id: 1, a: 1 },
      { _id: 2, a: 2 },
      { _id: 3, a: 1 },
    ]);
    const r = await upd(e, { a: { $gte: 1 } }, { $set: { a: 1 } }, { multi: true });
    expect(r).toMatchObject({ n: 3, nModified: 1 });
    const r2 = await upd(e, {}, { $set: { a: 1 } });
    expect(r2).toMatchObject({ n: 1, nModified: 0 });
  });

  test('new fields are added in lexicographic order as MongoDB 5+ does', async () => {
    const e = await setup([{ _id: 1 }]);
    await upd(e, { _id: 1 }, { $set: { b: 1, a: 1, c: 1 } });
    expect(Object.keys(one(e, 1))).toEqual(['_id', 'a', 'b', 'c']);
  });

  test('arrays: $push with $each/$slice/$sort/$position, $addToSet, $pull, $pullAll, $pop', async () => {
    const e = await setup([
      {
        _id: 1,
        xs: [3, 1],
        set: ['a'],
        scores: [{ s: 5 }, { s: 9 }, { s: 1 }],
        p: [1, 2, 3, 2, 4],
        q: [1, 2, 3],
        r: [1, 2, 3],
      },
    ]);
    await upd(e, { _id: 1 }, { $push: { xs: { $each: [5, 2], $sort: 1, $slice: 3 } } });
    expect(one(e, 1).xs).toEqual([1, 2, 3]);
    await upd(e, { _id: 1 }, { $push: { xs: { $each: [0], $position: 0 } } });
    expect(one(e, 1).xs).toEqual([0, 1, 2, 3]);
    await upd(e, { _id: 1 }, { $push: { scores: { $each: [{ s: 7 }], $sort: { s: -1 }, $slice: -2 } } });
    expect(one(e, 1).scores).toEqual([{ s: 5 }, { s: 1 }]);
    await upd(e, { _id: 1 }, { $addToSet: { set: { $each: ['a', 'b', 'b'] } } });
    expect(one(e, 1).set).toEqual(['a', 'b']);
    await upd(e, { _id: 1 }, { $pull: { p: { $gte: 3 } } });
    expect(one(e, 1).p).toEqual([1, 2, 2]);
    await upd(e, { _id: 1 }, { $pullAll: { p: [2] }, $pop: { q: 1, r: -1 } });
    expect(one(e, 1)).toMatchObject({ p: [1], q: [1, 2], r: [2, 3] });
    const bad = await upd(e, { _id: 1 }, { $push: { set: 1, p: 2 }, $set: { notArray: 1 } });
    expect(bad.nModified).toBe(1);
    const bad2 = await upd(e, { _id: 1 }, { $push: { notArray: 1 } });
    expect(bad2.writeErrors[0].code).toBe(2);
  });

  test('$pull with a query on subdocuments', async () => {
    const e = await setup([
      {
        _id: 1,
        items: [
          { sku: 'a', qty: 1 },
          { sku: 'b', qty: 0 },
          { sku: 'c', qty: 0 },
        ],
      },
    ]);
    await upd(e, { _id: 1 }, { $pull: { items: { qty: 0, sku: 'b' } } });
    expect(one(e, 1).items.map((i: { sku: string }) => i.sku)).toEqual(['a', 'c']);
  });

  test('positional $, $[] and $[ident] with arrayFilters', async () => {
    const e = await setup([
      {
        _id: 1,
        grades: [80, 85, 90],
        items: [
          { k: 'a', n: 1 },
          { k: 'b', n: 2 },
        ],
      },
    ]);
    await upd(e, { _id: 1, grades: 85 }, { $set: { 'grades.$': 86 } });
    expect(one(e, 1).grades).toEqual([80, 86, 90]);
    await upd(e, { _id: 1, 'items.k': 'b' }, { $inc: { 'items.$.n': 10 } });
    expect(one(e, 1).items[1].n).toBe(12);
    await upd(e, { _id: 1 }, { $inc: { 'grades.$[]': 1 } });
    expect(one(e, 1).grades).toEqual([81, 87, 91]);
    await upd(e, { _id: 1 }, { $set: { 'grades.$[g]': 100 } }, { arrayFilters: [{ g: { $gte: 87 } }] });
    expect(one(e, 1).grades).toEqual([81, 100, 100]);
    await upd(e, { _id: 1 }, { $set: { 'items.$[it].n': 0 } }, { arrayFilters: [{ 'it.k': 'a' }] });
    expect(one(e, 1).items).toEqual([
      { k: 'a', n: 0 },
      { k: 'b', n: 12 },
    ]);
    expect((await upd(e, { _id: 1 }, { $set: { 'grades.$': 1 } })).writeErrors[0].code).toBe(2);
    expect((await upd(e, { _id: 1 }, { $set: { 'grades.$[x]': 1 } })).writeErrors[0].code).toBe(2);
    expect((await upd(e, { _id: 1 }, { $set: { a: 1 } }, { arrayFilters: [{ x: 1 }] })).writeErrors[0].code).toBe(9);
  });

  test('$bit and $setOnInsert only applying on insert', async () => {
    const e = await setup([{ _id: 1, flags: 5 }]);
    await upd(e, { _id: 1 }, { $bit: { flags: { and: 4, or: 2 } }, $setOnInsert: { created: true } });
    expect(one(e, 1)).toEqual({ _id: 1, flags: 6 });
  });

  test('pipeline updates', async () => {
    const e = await setup([{ _id: 1, a: 2, b: 3 }]);
    await upd(e, { _id: 1 }, [{ $set: { sum: { $add: ['$a', '$b'] } } }, { $unset: 'b' }]);
    expect(one(e, 1)).toEqual({ _id: 1, a: 2, sum: 5 });
    expect((await upd(e, { _id: 1 }, [{ $match: {} }])).writeErrors[0].code).toBe(72);
  });

  test('upsert seeds from equality fields, $eq, $and and dotted paths, then applies $setOnInsert', async () => {
    const e = freshEngine();
    const r = await upd(
      e,
      { sku: 'coin-1', 'meta.kind': { $eq: 'coin' }, $and: [{ color: 'gold' }], qty: { $gt: 1 } },
      { $set: { price: 5 }, $setOnInsert: { created: true } },
      { upsert: true },
    );
    expect(r).toMatchObject({ n: 1, nModified: 0 });
    expect(r.upserted).toHaveLength(1);
    const d = e.find(ns, {})[0];
    expect(d._id).toBeInstanceOf(ObjectId);
    expect(d).toMatchObject({ sku: 'coin-1', meta: { kind: 'coin' }, color: 'gold', price: 5, created: true });
    expect(d.qty).toBeUndefined();
    expect(Object.keys(d)[0]).toBe('_id');
    const r2 = await upd(e, { _id: 7 }, { name: 'replaced' }, { upsert: true });
    expect(r2.upserted).toEqual([{ index: 0, _id: 7 }]);
    expect(one(e, 7)).toEqual({ _id: 7, name: 'replaced' });
    const r3 = await upd(
      e,
      { sku: 'coin-1' },
      { $set: { price: 6 }, $setOnInsert: { created: false } },
      { upsert: true },
    );
    expect(r3).toMatchObject({ n: 1, nModified: 1, upserted: [] });
    expect(e.find(ns, { filter: { sku: 'coin-1' } })[0].created).toBe(true);
  });

  test('ordered updates stop at the first error, unordered continue', async () => {
    const e = await setup([
      { _id: 1, s: 'x' },
      { _id: 2, n: 1 },
    ]);
    const stmts = [
      { q: { _id: 1 }, u: { $inc: { s: 1 } } },
      { q: { _id: 2 }, u: { $inc: { n: 1 } } },
    ];
    expect(await e.update(ns, stmts as never, { ordered: true })).toMatchObject({
      n: 0,
      nModified: 0,
      writeErrors: [{ index: 0 }],
    });
    expect(await e.update(ns, stmts as never, { ordered: false })).toMatchObject({
      n: 1,
      nModified: 1,
      writeErrors: [{ index: 0 }],
    });
  });

  test('stored documents are never mutated in place', async () => {
    const e = await setup([{ _id: 1, tags: ['a'], nested: { x: 1 } }]);
    const before = e.find(ns, {})[0];
    await upd(e, { _id: 1 }, { $push: { tags: 'b' }, $set: { 'nested.x': 2 } });
    expect(before).toEqual({ _id: 1, tags: ['a'], nested: { x: 1 } });
  });

  test('findAndModify: new/old, sort, remove, upsert, fields and validation', async () => {
    const e = await setup([
      { _id: 1, q: 1, v: 'a' },
      { _id: 2, q: 1, v: 'b' },
    ]);
    const r = await e.findAndModify(ns, {
      query: { q: 1 },
      sort: { _id: -1 },
      update: { $set: { v: 'z' } },
      new: true,
      fields: { v: 1, _id: 0 },
    });
    expect(r).toEqual({ value: { v: 'z' }, lastErrorObject: { n: 1, updatedExisting: true } });
    const r2 = await e.findAndModify(ns, { query: { q: 1 }, update: { $set: { v: 'y' } } });
    expect(r2.value).toEqual({ _id: 1, q: 1, v: 'a' });
    const r3 = await e.findAndModify(ns, {
      query: { _id: 9 },
      update: { $set: { v: 'new' } },
      upsert: true,
      new: true,
    });
    expect(r3).toEqual({ value: { _id: 9, v: 'new' }, lastErrorObject: { n: 1, updatedExisting: false, upserted: 9 } });
    const r4 = await e.findAndModify(ns, { query: { _id: 2 }, remove: true });
    expect(r4.value!._id).toBe(2);
    expect(e.count(ns, {}, {})).toBe(2);
    expect((await rejection(e.findAndModify(ns, { query: {} }))).code).toBe(9);
    expect((await rejection(e.findAndModify(ns, { query: { _id: 1 }, update: { $set: { _id: 3 } } }))).code).toBe(66);
  });

  test('timestamps made by $currentDate use the Timestamp type', async () => {
    const e = await setup([{ _id: 1 }]);
    await upd(e, { _id: 1 }, { $currentDate: { ts: { $type: 'timestamp' } } });
    expect(one(e, 1).ts).toBeInstanceOf(Timestamp);
  });
});
