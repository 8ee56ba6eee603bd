import { describe, expect, test } from 'vitest';
import { Binary, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID, BSONRegExp } from 'bson';
import { canonicalKey, compareValues } from '../../src/engine/bson-values.js';
import { freshEngine, ns } from './helpers.js';

describe('BSON comparison order', () => {
  const ordered = [
    new MinKey(),
    null,
    1,
    'a',
    { a: 1 },
    [1, 2],
    new Binary(Buffer.from([1])),
    new ObjectId('000000000000000000000001'),
    false,
    true,
    new Date(0),
    new Timestamp({ t: 1, i: 1 }),
    /x/,
    new MaxKey(),
  ];

  test('types sort MinKey < null < numbers < string < object < array < binData < ObjectId < bool < date < timestamp < regex < MaxKey', () => {
    for (let i = 0; i < ordered.length; i++) {
      for (let j = 0; j < ordered.length; j++) {
        expect(Math.sign(compareValues(ordered[i], ordered[j])), `${i} vs ${j}`).toBe(Math.sign(i - j));
      }
    }
  });

  test('numbers compare by value across int, double, long and decimal', () => {
    expect(compareValues(1, Long.fromNumber(1))).toBe(0);
    expect(compareValues(new Int32(1), new Double(1.0))).toBe(0);
    expect(compareValues(Decimal128.fromString('1.00'), 1)).toBe(0);
    expect(compareValues(Decimal128.fromString('0.3'), 0.2)).toBe(1);
    expect(compareValues(Long.fromString('9007199254740993'), Long.fromString('9007199254740992'))).toBe(1);
    expect(compareValues(NaN, -Infinity)).toBe(-1);
  });

  test('canonical keys treat 1, 1.0, Long(1) and Decimal128("1.0") as one _id', () => {
    const k = canonicalKey(1);
    expect(canonicalKey(new Double(1))).toBe(k);
    expect(canonicalKey(Long.fromNumber(1))).toBe(k);
    expect(canonicalKey(Decimal128.fromString('1.0'))).toBe(k);
    expect(canonicalKey('1')).not.toBe(k);
    const u = new UUID();
    expect(canonicalKey(new UUID(u.toHexString()))).toBe(canonicalKey(u));
    expect(canonicalKey({ a: 1, b: 2 })).not.toBe(canonicalKey({ b: 2, a: 1 }));
  });

  test('find sorts mixed types in BSON order and ranges respect type brackets', async () => {
    const e = freshEngine();
    const values = [
      new MaxKey(),
      /re/,
      new Date(5),
      true,
      new ObjectId(),
      new Binary(Buffer.from('x')),
      [0],
      { z: 1 },
      'str',
      3,
      null,
      new MinKey(),
    ];
    await e.insert(
      ns,
      values.map((v, i) => ({ _id: i, v })),
      {},
    );
    const sorted = e.find(ns, { sort: { v: 1 } }).map((d) => d._id);
    // arrays sort by their smallest element ([0] sorts with numbers, before 3)
    expect(sorted).toEqual([11, 10, 6, 9, 8, 7, 5, 4, 3, 2, 1, 0]);
    expect(e.find(ns, { filter: { v: { $gt: 0 } } }).map((d) => d._id)).toEqual([9]);
    expect(e.find(ns, { filter: { v: { $lt: 'zzz' } } }).map((d) => d._id)).toEqual([8]);
    expect(e.find(ns, { filter: { v: { $gte: new Date(0) } } }).map((d) => d._id)).toEqual([2]);
  });

  test('ObjectId, Date, Binary/UUID and Decimal128 equality and ordering in queries', async () => {
    const e = freshEngine();
    const a = new ObjectId('64b000000000000000000001'),
      b = new ObjectId('64b000000000000000000002');
    const u = new UUID();
    await e.insert(
      ns,
      [
        { _id: a, at: new Date('2024-01-01'), price: Decimal128.fromString('10.50'), key: u },
        { _id: b, at: new Date('2024-06-01'), price: Decimal128.fromString('2.25'), key: new UUID() },
      ],
      {},
    );
    expect(e.find(ns, { filter: { _id: new ObjectId(a.toHexString()) } })).toHaveLength(1);
    expect(e.find(ns, { filter: { _id: { $gt: a } } })[0]._id).toEqual(b);
    expect(e.find(ns, { filter: { at: { $lt: new Date('2024-03-01') } } })[0]._id).toEqual(a);
    expect(e.find(ns, { filter: { price: { $gt: 3 } } })[0]._id).toEqual(a);
    expect(e.find(ns, { filter: { price: 2.25 } })[0]._id).toEqual(b);
    expect(e.find(ns, { filter: { key: new UUID(u.toHexString()) } })[0]._id).toEqual(a);
    expect(e.find(ns, { sort: { price: 1 } }).map((d) => d._id)).toEqual([b, a]);
  });

  test('$type with names, numbers and "number"', async () => {
    const e = freshEngine();
    await e.insert(
      ns,
      [
        { _id: 1, v: 'x' },
        { _id: 2, v: 2 },
        { _id: 3, v: 2.5 },
        { _id: 4, v: Long.fromNumber(5) },
        { _id: 5, v: Decimal128.fromString('1') },
        { _id: 6, v: null },
        { _id: 7, v: new ObjectId() },
        { _id: 8, v: [1] },
        { _id: 9, v: new Date() },
        { _id: 10, v: true },
        { _id: 11 },
      ],
      {},
    );
    const ids = (t: unknown) => e.find(ns, { filter: { v: { $type: t } } }).map((d) => d._id);
    expect(ids('string')).toEqual([1]);
    expect(ids(2)).toEqual([1]);
    expect(ids('int')).toEqual([2, 8]);
    expect(ids('double')).toEqual([3]);
    expect(ids('long')).toEqual([4]);
    expect(ids('decimal')).toEqual([5]);
    expect(ids('number')).toEqual([2, 3, 4, 5, 8]);
    expect(ids('null')).toEqual([6]);
    expect(ids(7)).toEqual([7]);
    expect(ids('array')).toEqual([8]);
    expect(ids('date')).toEqual([9]);
    expect(ids('bool')).toEqual([10]);
    expect(ids(['string', 'bool'])).toEqual([1, 10]);
  });

  test('regex values compare as BSONRegExp too', () => {
    expect(compareValues(/a/i, new BSONRegExp('a', 'i'))).toBe(0);
  });
});
