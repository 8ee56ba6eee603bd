import { describe, expect, test } from 'vitest';
import { ObjectId } from 'bson';
import { freshEngine, ns, rejection } from './helpers.js';
import { compileProjection } from '../../src/engine/projection.js';

const docs = [
  {
    _id: 1,
    name: 'Challenge coin',
    price: 12,
    tags: ['coin', 'gold'],
    stock: { qty: 5, loc: 'A' },
    sizes: [
      { s: 'M', n: 2 },
      { s: 'L', n: 0 },
    ],
  },
  { _id: 2, name: 'Patch', price: 4, tags: ['patch'], stock: { qty: 0, loc: 'B' }, sizes: [] },
  {
    _id: 3,
    name: 'Tactical shirt',
    price: 25,
    tags: ['shirt', 'black'],
    stock: { qty: 12, loc: 'A' },
    sizes: [
      { s: 'M', n: 5 },
      { s: 'XL', n: 1 },
    ],
  },
  { _id: 4, name: 'Gift card', price: null },
  { _id: 5, name: 'Sticker', tags: [] },
];
const setup = async () => {
  const e = freshEngine();
  await e.insert(ns, docs, {});
  return e;
};
const ids = (e: Awaited<ReturnType<typeof setup>>, filter: object, extra: object = {}) =>
  e.find(ns, { filter, ...extra }).map((d) => d._id);

describe('query operators', () => {
  test('comparison, $in/$nin, $ne, $exists and null semantics', async () => {
    const e = await setup();
    expect(ids(e, { price: { $gte: 5, $lt: 30 } })).toEqual([1, 3]);
    expect(ids(e, { price: { $in: [4, 25] } })).toEqual([2, 3]);
    expect(ids(e, { price: { $nin: [4, 25] } })).toEqual([1, 4, 5]);
    expect(ids(e, { price: null })).toEqual([4, 5]);
    expect(ids(e, { price: { $exists: false } })).toEqual([5]);
    expect(ids(e, { price: { $ne: null } })).toEqual([1, 2, 3]);
    expect(ids(e, { price: { $type: 'null' } })).toEqual([4]);
  });

  test('arrays: implicit element match, $all, $size, $elemMatch, dotted paths through arrays, indexes', async () => {
    const e = await setup();
    expect(ids(e, { tags: 'gold' })).toEqual([1]);
    expect(ids(e, { tags: ['patch'] })).toEqual([2]);
    expect(ids(e, { tags: { $all: ['shirt', 'black'] } })).toEqual([3]);
    expect(ids(e, { tags: { $size: 0 } })).toEqual([5]);
    expect(ids(e, { 'sizes.s': 'XL' })).toEqual([3]);
    expect(ids(e, { sizes: { $elemMatch: { s: 'M', n: { $gt: 3 } } } })).toEqual([3]);
    expect(ids(e, { 'sizes.s': 'M', 'sizes.n': 0 })).toEqual([1]);
    expect(ids(e, { 'tags.1': 'gold' })).toEqual([1]);
    expect(ids(e, { 'stock.loc': 'A', 'stock.qty': { $gt: 6 } })).toEqual([3]);
    expect(ids(e, { price: { $elemMatch: { $gt: 1 } } })).toEqual([]);
  });

  test('logical operators, $not, $regex, $mod, $expr, $comment', async () => {
    const e = await setup();
    expect(ids(e, { $or: [{ price: 4 }, { name: /^Tact/ }] })).toEqual([2, 3]);
    expect(ids(e, { $nor: [{ price: { $exists: true } }] })).toEqual([5]);
    expect(ids(e, { $and: [{ price: { $gt: 1 } }, { price: { $lt: 20 } }] })).toEqual([1, 2]);
    expect(ids(e, { price: { $not: { $gt: 10 } } })).toEqual([2, 4, 5]);
    expect(ids(e, { name: { $regex: 'shirt', $options: 'i' } })).toEqual([3]);
    expect(ids(e, { name: { $not: /coin/ } })).toEqual([2, 3, 4, 5]);
    expect(ids(e, { price: { $mod: [4, 0] } })).toEqual([1, 2]);
    expect(ids(e, { $expr: { $gt: ['$stock.qty', 4] } })).toEqual([1, 3]);
    expect(ids(e, { price: 4, $comment: 'why' })).toEqual([2]);
  });

  test('unsupported operators answer a clear BadValue', async () => {
    const e = await setup();
    for (const filter of [
      { $where: 'this.a > 1' },
      { $text: { $search: 'coin' } },
      { loc: { $near: [0, 0] } },
      { loc: { $geoWithin: {} } },
    ]) {
      const err = await rejection(() => e.find(ns, { filter }));
      expect(err.code).toBe(2);
      expect(err.message).toMatch(/not supported by the embedded MongoDB server/);
    }
    expect((await rejection(() => e.find(ns, { filter: { $bogus: 1 } }))).code).toBe(2);
    expect((await rejection(() => e.find(ns, { filter: { a: { $bogus: 1 } } }))).code).toBe(2);
  });
});

describe('find options', () => {
  test('sort (stable, dotted, arrays by min/max), skip, limit', async () => {
    const e = await setup();
    expect(ids(e, {}, { sort: { price: -1 } })).toEqual([3, 1, 2, 4, 5]);
    expect(ids(e, {}, { sort: { 'stock.loc': 1, price: -1 } })).toEqual([4, 5, 3, 1, 2]);
    expect(ids(e, {}, { sort: { tags: 1 } })).toEqual([4, 5, 3, 1, 2]);
    expect(ids(e, {}, { sort: { tags: -1 } })).toEqual([3, 2, 1, 4, 5]);
    expect(ids(e, {}, { sort: { price: 1 }, skip: 1, limit: 2 })).toEqual([5, 2]);
    expect((await rejection(() => e.find(ns, { sort: { price: 2 } }))).code).toBe(15975);
  });

  test('projection: inclusion, exclusion, _id rules, nested, $slice, $elemMatch, positional', async () => {
    const e = await setup();
    const get = (projection: object, filter: object = { _id: 1 }) => e.find(ns, { filter, projection })[0];
    expect(get({ name: 1 })).toEqual({ _id: 1, name: 'Challenge coin' });
    expect(get({ name: 1, _id: 0 })).toEqual({ name: 'Challenge coin' });
    expect(get({ 'stock.qty': 1 })).toEqual({ _id: 1, stock: { qty: 5 } });
    expect(get({ 'sizes.s': 1 })).toEqual({ _id: 1, sizes: [{ s: 'M' }, { s: 'L' }] });
    expect(Object.keys(get({ sizes: 0, stock: 0, tags: 0 }))).toEqual(['_id', 'name', 'price']);
    expect(get({ tags: { $slice: 1 }, name: 1 })).toEqual({ _id: 1, name: 'Challenge coin', tags: ['coin'] });
    expect(get({ tags: { $slice: -1 } }).tags).toEqual(['gold']);
    expect(get({ tags: { $slice: [1, 1] } }).stock).toEqual({ qty: 5, loc: 'A' });
    expect(get({ sizes: { $elemMatch: { n: 0 } } })).toEqual({ _id: 1, sizes: [{ s: 'L', n: 0 }] });
    expect(get({ 'sizes.$': 1 }, { 'sizes.s': 'XL' })).toEqual({ _id: 3, sizes: [{ s: 'XL', n: 1 }] });
    expect(get({ label: { $concat: ['$name', '!'] } })).toEqual({ _id: 1, label: 'Challenge coin!' });
    expect((await rejection(() => e.find(ns, { projection: { name: 1, price: 0 } }))).code).toBe(31254);
  });

  test('projection: a plain include/exclude spec is compiled once and answers as before, errors stay errors', async () => {
    const e = await setup();
    const get = (projection: object) => e.find(ns, { filter: { _id: 1 }, projection })[0];
    // Equal specs share one compiled projector (a new spec object each query, as from the wire).
    expect(compileProjection({ name: 1, price: 1 })).toBe(compileProjection({ name: 1, price: 1 }));
    expect(compileProjection({ name: 1 })).not.toBe(compileProjection({ name: 0 }));
    expect(compileProjection({ name: 1, price: true })).toBe(compileProjection({ name: 2, price: 1 }));
    // A frozen spec (one the server's command decoder shares) is compiled once whatever it holds.
    const sliced = Object.freeze({ tags: Object.freeze({ $slice: 1 }) });
    expect(compileProjection(sliced)).toBe(compileProjection(sliced));
    expect(compileProjection({ tags: { $slice: 1 } })).not.toBe(compileProjection({ tags: { $slice: 1 } }));
    expect(get(sliced)).toEqual(get({ tags: { $slice: 1 } }));
    // A spec that starts like a known one, or extends it, or differs in one flag, is its own projection.
    for (let round = 0; round < 2; round++) {
      expect(get({ name: 1 })).toEqual({ _id: 1, name: 'Challenge coin' });
      expect(get({ name: 1, price: 1, _id: 0 })).toEqual({ name: 'Challenge coin', price: 12 });
      expect(get({ name: 1, price: 1, _id: 1 })).toEqual({ _id: 1, name: 'Challenge coin', price: 12 });
      expect(get({ name: 1, price: 1 })).toEqual({ _id: 1, name: 'Challenge coin', price: 12 });
      expect(Object.keys(get({ sizes: 0, stock: 0 }))).toEqual(['_id', 'name', 'price', 'tags']);
      expect(Object.keys(get({ sizes: 0, stock: 0, _id: 0 }))).toEqual(['name', 'price', 'tags']);
    }
    for (let round = 0; round < 2; round++) {
      expect(get({ name: 1, price: 1 })).toEqual({ _id: 1, name: 'Challenge coin', price: 12 });
      expect(get({ name: true, _id: false })).toEqual({ name: 'Challenge coin' });
      expect(Object.keys(get({ sizes: 0, stock: 0, tags: 0 }))).toEqual(['_id', 'name', 'price']);
      expect((await rejection(() => e.find(ns, { projection: { name: 1, price: 0 } }))).code).toBe(31254);
      expect((await rejection(() => e.find(ns, { projection: { stock: 1, 'stock.qty': 1 } }))).code).toBe(31249);
    }
  });

  test('count with skip/limit and distinct unwinding arrays', async () => {
    const e = await setup();
    expect(e.count(ns, {}, {})).toBe(5);
    expect(e.count(ns, { price: { $gt: 1 } }, { skip: 1 })).toBe(2);
    expect(e.count(ns, {}, { skip: 1, limit: 2 })).toBe(2);
    expect(e.distinct(ns, 'tags', {}, undefined)).toEqual(['black', 'coin', 'gold', 'patch', 'shirt']);
    expect(e.distinct(ns, 'stock.loc', { price: { $gt: 10 } })).toEqual(['A']);
    expect(e.count({ db: 'none', coll: 'x' }, {}, {})).toBe(0);
  });

  test('ObjectId _ids are generated first in the document and found again', async () => {
    const e = freshEngine();
    await e.insert(ns, [{ name: 'x' }], {});
    const [d] = e.find(ns, {});
    expect(Object.keys(d)).toEqual(['_id', 'name']);
    expect(d._id).toBeInstanceOf(ObjectId);
    expect(e.find(ns, { filter: { _id: d._id } })).toHaveLength(1);
  });
});
