// The command decoder (src/server/command-decoder.ts) must answer what decoding the whole body answers,
// field for field and in order, while sharing one frozen copy of the subdocuments clients repeat.
import { describe, expect, it } from 'vitest';
import { Binary, BSON, Double, Long, ObjectId, Timestamp, UUID, type Document } from 'bson';
import { decodeCommand } from '../../src/server/command-decoder.js';
import { decodeDocument } from '../../src/engine/bson-codec.js';

const bytes = (doc: Document) => Buffer.from(BSON.serialize(doc, { checkKeys: false, ignoreUndefined: true }));
const clusterTime = () => ({
  clusterTime: new Timestamp({ t: 1_764_000_000, i: 3 }),
  signature: { hash: new Binary(Buffer.alloc(20)), keyId: Long.ZERO },
});
const projection = Object.fromEntries(
  'orderNumber emailKey status createdAt statusHistory'.split(' ').map((f) => [f, 1]),
);
const lsid = { id: new UUID('5b6b8e2a-3f64-4c2e-9d1f-0a1b2c3d4e5f') };

const trackingFind = (orderNumber: string): Document => ({
  find: 'orders',
  filter: { orderNumber },
  projection,
  limit: 1,
  singleBatch: true,
  lsid,
  $clusterTime: clusterTime(),
  $db: 'shop_orders',
});

const commands: Document[] = [
  trackingFind('CC-1'),
  {
    find: 'c',
    filter: { a: new Double(1), b: 2.5 },
    sort: { at: -1, _id: new Double(1) },
    projection: { x: 0 },
    $db: 'd',
  },
  { insert: 'c', ordered: true, lsid, txnNumber: Long.fromNumber(7), $clusterTime: clusterTime(), $db: 'd' },
  {
    update: 'c',
    updates: [{ q: { a: 1 }, u: { $set: { b: 1 } } }],
    writeConcern: { w: 'majority', j: true },
    $db: 'd',
  },
  { find: 'c', readConcern: { level: 'snapshot', atClusterTime: new Timestamp({ t: 5, i: 1 }) }, $db: 'd' },
  // Field names are data: a projection of __proto__ stays a field, not the object's prototype.
  { find: 'c', projection: JSON.parse('{"__proto__": 1, "constructor": 1}') as Document, $db: 'd' },
  { find: 'c', projection: { é: 1, 'a.b': 1 }, sort: {}, $db: 'd' },
];

/** Subdocuments left to the full decode: a DBRef-like one, dates (mutable), too large, not a document. */
const unshared: Document[] = [
  { find: 'c', projection: { $ref: 'x', $id: new ObjectId('6b06aba58ebfea45fca4f467') }, $db: 'd' },
  { find: 'c', readConcern: { level: 'local', at: new Date(0) }, $db: 'd' },
  { find: 'c', projection: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`field${i}`, 1])), $db: 'd' },
  { find: 'c', sort: [['a', 1]], projection: 'x', $db: 'd' },
  { find: 'c', $db: 'd' },
];

describe('command decoder', () => {
  it('answers what decoding the whole body answers, fields in the same order', () => {
    for (const command of [...commands, ...unshared]) {
      const b = bytes(command);
      for (let round = 0; round < 2; round++) {
        const mine = decodeCommand(b);
        const whole = decodeDocument(b);
        expect(mine).toEqual(whole);
        expect(Object.keys(mine)).toEqual(Object.keys(whole));
        expect(bytes(mine).equals(b)).toBe(true);
      }
    }
    expect(Object.getPrototypeOf(decodeCommand(bytes(commands[5])).projection)).toBe(Object.prototype);
  });

  it('shares one frozen copy of a repeated subdocument, and only of equal bytes', () => {
    const a = decodeCommand(bytes(trackingFind('CC-1')));
    const b = decodeCommand(bytes(trackingFind('CC-2')));
    expect(b.projection).toBe(a.projection);
    expect(b.lsid).toBe(a.lsid);
    expect(b.$clusterTime).toBe(a.$clusterTime);
    expect(Object.isFrozen(a.projection)).toBe(true);
    expect(Object.isFrozen(a.$clusterTime.signature)).toBe(true);
    expect(() => {
      'use strict';
      (a.projection as Document).orderNumber = 0;
    }).toThrow(TypeError);
    // The command itself and its other fields are the command's own.
    expect(b.filter).not.toBe(a.filter);
    expect(Object.isFrozen(b)).toBe(false);
    const other = decodeCommand(bytes({ ...trackingFind('CC-1'), projection: { ...projection, status: 0 } }));
    expect(other.projection).not.toBe(a.projection);
    expect(other.projection.status).toBe(0);
  });

  it('leaves unusual subdocuments and bodies to the whole decode', () => {
    for (const command of unshared) {
      const b = bytes(command);
      const first = decodeCommand(b);
      const again = decodeCommand(b);
      if (first.projection !== undefined && typeof first.projection === 'object')
        expect(again.projection).not.toBe(first.projection);
      if (first.readConcern !== undefined) expect(Object.isFrozen(again.readConcern)).toBe(false);
    }
    // A field named twice: the whole decode's answer (the last value, in the first place).
    const twice = Buffer.concat([
      bytes({ find: 'c', projection: { a: 1 } }).subarray(0, -1),
      bytes({ projection: { b: 1 }, $db: 'd' }).subarray(4),
    ]);
    twice.writeInt32LE(twice.length, 0);
    expect(decodeCommand(twice)).toEqual(decodeDocument(twice));
    expect(Object.keys(decodeCommand(twice))).toEqual(Object.keys(decodeDocument(twice)));
  });

  it('refuses malformed bodies as the whole decode does', () => {
    const good = bytes(trackingFind('CC-9'));
    const cases = [good.subarray(0, good.length - 3), Buffer.from(good).fill(0xff, 30, 34), Buffer.alloc(5, 0)];
    for (const b of cases) {
      let theirs: string | undefined;
      try {
        decodeDocument(b);
      } catch (error) {
        theirs = (error as Error).message;
      }
      let mine: string | undefined;
      try {
        decodeCommand(b);
      } catch (error) {
        mine = (error as Error).message;
      }
      expect(mine).toBe(theirs);
    }
  });
});
