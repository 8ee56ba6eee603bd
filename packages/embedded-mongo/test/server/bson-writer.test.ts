// The reply writer (src/server/bson-writer.ts) must write exactly the bytes js-bson's serialize writes, for
// every value it takes on, and leave everything else to js-bson (same bytes, same refusals).
import { describe, expect, it } from 'vitest';
import {
  Binary,
  BSON,
  BSONRegExp,
  BSONSymbol,
  Code,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  UUID,
  type Document,
} from 'bson';
import { encodeWithPrefix, tryEncodeWithPrefix } from '../../src/server/bson-writer.js';
import { encodeOpMsg, encodeOpReply, OP_MSG } from '../../src/server/wire.js';

const jsBson = (doc: Document) => Buffer.from(BSON.serialize(doc, { checkKeys: false, ignoreUndefined: true }));

/** Documents of every value the writer takes on itself. */
const handled: Document[] = [
  {},
  { a: 1, b: -1, c: 0, d: -0, e: 2147483647, f: 2147483648, g: -2147483648, h: -2147483649, i: 1.5, j: NaN },
  { k: Infinity, l: -Infinity, m: Number.MAX_SAFE_INTEGER, n: 2 ** 60, o: 1e-300 },
  { s: '', t: 'plain', u: 'é ü ß 漢字 🙂', v: 'a\0b', w: 'x'.repeat(47), x: 'y'.repeat(48), y: 'é'.repeat(100) },
  { lone: '\ud800 and \udc00', pair: '\ud83d\ude00', long: `${'z'.repeat(60)}\ud800` },
  { 'é key': 1, '🙂': 2, ['k'.repeat(300)]: 3, $db: 'x', 'a.b': 4, '': 5 },
  { t: true, f: false, nil: null, gone: undefined, arr: [1, undefined, null, 'x', [2, [3]], { a: undefined }] },
  { d: new Date(0), e: new Date(-1), f: new Date(1_764_000_000_123), g: new Date(-8.64e15), h: new Date(8.64e15) },
  {
    oid: new ObjectId('6b06aba58ebfea45fca4f467'),
    long: Long.fromNumber(-5),
    big: Long.fromString('9223372036854775807'),
    ts: new Timestamp({ t: 1_764_000_000, i: 7 }),
    dbl: new Double(1),
    negDbl: new Double(-0),
    i32: new Int32(-7),
    dec: Decimal128.fromString('1234.5600'),
  },
  {
    bin: new Binary(Buffer.from([1, 2, 3])),
    empty: new Binary(Buffer.alloc(0)),
    uuid: new UUID('5b6b8e2a-3f64-4c2e-9d1f-0a1b2c3d4e5f'),
    md5: new Binary(Buffer.alloc(16, 7), 5),
    user: new Binary(Buffer.alloc(40, 9), 128),
  },
  // Field names are data.
  Object.defineProperty({ a: 1 }, '__proto__', { value: { polluted: 1 }, enumerable: true }),
  { constructor: 'c', toString: 's', hasOwnProperty: 1, toBSON: 'not a function', valueOf: [1] },
  Object.assign(Object.create(null) as Document, { nullProto: { x: 1 } }),
  // A reply as the server sends one.
  {
    cursor: {
      firstBatch: [{ _id: new ObjectId(), n: 1, at: new Date(), tags: ['a'], sub: { x: 1.25 } }],
      id: Long.ZERO,
      ns: 'shop.orders',
    },
    ok: 1,
    $clusterTime: {
      clusterTime: new Timestamp({ t: 1, i: 2 }),
      signature: { hash: new Binary(Buffer.alloc(20)), keyId: Long.ZERO },
    },
    operationTime: new Timestamp({ t: 1, i: 2 }),
  },
];

const deep = (n: number): Document => (n === 0 ? { leaf: 1 } : { d: deep(n - 1), a: [deep(0)] });

/** Values the writer leaves to js-bson. */
const leftToJsBson: Document[] = [
  { re: /a+b/gi },
  { re: new BSONRegExp('a', 'i') },
  { code: new Code('x'), scope: new Code('y', { a: 1 }) },
  { ref: new DBRef('coll', new ObjectId('6b06aba58ebfea45fca4f467'), 'db') },
  { min: new MinKey(), max: new MaxKey() },
  { sym: new BSONSymbol('s') },
  { old: new Binary(Buffer.from([1, 2]), 2) },
  { buf: Buffer.from([1, 2, 3]) },
  { map: new Map([['a', 1]]) },
  { big: 5n },
  { custom: { toBSON: () => ({ x: 1 }) } },
  { bad: new Date(NaN) },
  { nested: [{ re: /x/ }] },
  {
    instance: new (class Money {
      amount = 5;
    })(),
  },
];

const fail = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('reply writer', () => {
  it('writes the bytes js-bson writes for every value it takes on', () => {
    for (const doc of [...handled, deep(60)]) {
      const mine = tryEncodeWithPrefix(0, doc);
      expect(mine, JSON.stringify(Object.keys(doc))).toBeDefined();
      expect(mine!.equals(jsBson(doc))).toBe(true);
    }
  });

  it('leaves other values to js-bson, with its bytes or its refusal', () => {
    for (const doc of leftToJsBson) {
      expect(tryEncodeWithPrefix(0, doc)).toBeUndefined();
      const theirs = fail(() => jsBson(doc));
      if (theirs === undefined) expect(encodeWithPrefix(0, doc).equals(jsBson(doc))).toBe(true);
      else expect(fail(() => encodeWithPrefix(0, doc))).toBe(theirs);
    }
    // A key with a NUL and a circular structure: refused as js-bson refuses them.
    for (const doc of [
      { 'a\0b': 1 },
      (() => {
        const o: Document = { a: 1 };
        o.self = o;
        return o;
      })(),
    ]) {
      expect(tryEncodeWithPrefix(0, doc)).toBeUndefined();
      const theirs = fail(() => jsBson(doc));
      expect(theirs).toBeDefined();
      expect(fail(() => encodeWithPrefix(0, doc))).toBe(theirs);
    }
  });

  it('grows past its first buffer and starts clean after a document it left to js-bson', () => {
    const big = { rows: Array.from({ length: 3000 }, (_, i) => ({ i, s: 'x'.repeat(40 + (i % 7)), at: new Date(i) })) };
    expect(tryEncodeWithPrefix(0, big)!.equals(jsBson(big))).toBe(true);
    // Half-written when it gave up: the next document is whole anyway.
    expect(tryEncodeWithPrefix(0, { a: 'x'.repeat(100), z: /re/ })).toBeUndefined();
    expect(tryEncodeWithPrefix(0, { b: 2 })!.equals(jsBson({ b: 2 }))).toBe(true);
  });

  it('leaves a reply over js-bson’s 17 MB buffer to js-bson, which refuses it', () => {
    const huge = { s: 'x'.repeat(18 * 1024 * 1024) };
    expect(tryEncodeWithPrefix(0, huge)).toBeUndefined();
    expect(fail(() => encodeWithPrefix(0, huge))).toBe(fail(() => jsBson(huge)));
  });

  it('frames OP_MSG and OP_REPLY around the document', () => {
    const doc = handled.at(-1)!;
    const body = jsBson(doc);
    const msg = encodeOpMsg(11, 7, doc, 2);
    expect(msg.length).toBe(21 + body.length);
    expect([msg.readInt32LE(0), msg.readInt32LE(4), msg.readInt32LE(8), msg.readInt32LE(12)]).toEqual([
      msg.length,
      11,
      7,
      OP_MSG,
    ]);
    expect([msg.readUInt32LE(16), msg[20]]).toEqual([2, 0]);
    expect(msg.subarray(21).equals(body)).toBe(true);
    const reply = encodeOpReply(12, 8, { ok: 1, re: /x/ });
    const replyBody = jsBson({ ok: 1, re: /x/ });
    expect(reply.length).toBe(36 + replyBody.length);
    expect([reply.readInt32LE(0), reply.readInt32LE(12), reply.readInt32LE(32)]).toEqual([reply.length, 1, 1]);
    expect(reply.subarray(36).equals(replyBody)).toBe(true);
  });
});
