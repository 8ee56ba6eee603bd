// BSON-aware value semantics that mingo does not provide: MongoDB's cross-type comparison order, numeric
// equality across int/double/long/decimal, canonical keys (for _id maps, $group, unique indexes) and exact
// Decimal128/Long arithmetic. Values are recognised by `_bsontype`, never `instanceof`, because the driver
// and the server may each load their own copy of the bson package.
import { Decimal128, Long, ObjectId, type Document } from 'bson';
import { asDouble } from './bson-codec.js';
import { BoundedTable } from './bounded-table.js';

export type BsonTypeName =
  | 'minKey'
  | 'null'
  | 'undefined'
  | 'double'
  | 'int'
  | 'long'
  | 'decimal'
  | 'string'
  | 'symbol'
  | 'object'
  | 'array'
  | 'binData'
  | 'objectId'
  | 'bool'
  | 'date'
  | 'timestamp'
  | 'regex'
  | 'javascript'
  | 'maxKey';

export const bsonTypeOf = (v: unknown): BsonTypeName | 'missing' => {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 && !Object.is(v, -0) ? 'int' : 'double';
    case 'bigint':
      return 'long';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'function':
      return 'javascript';
    case 'symbol':
      return 'symbol';
  }
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (v instanceof RegExp) return 'regex';
  if (ArrayBuffer.isView(v)) return 'binData';
  switch ((v as { _bsontype?: string })._bsontype) {
    case 'ObjectId':
    case 'ObjectID':
      return 'objectId';
    case 'Decimal128':
      return 'decimal';
    case 'Long':
      return 'long';
    case 'Int32':
      return 'int';
    case 'Double':
      return 'double';
    case 'Binary':
      return 'binData';
    case 'Timestamp':
      return 'timestamp';
    case 'BSONRegExp':
      return 'regex';
    case 'MinKey':
      return 'minKey';
    case 'MaxKey':
      return 'maxKey';
    case 'Code':
      return 'javascript';
    case 'BSONSymbol':
      return 'symbol';
  }
  return 'object';
};

/** MongoDB's canonical type order for comparison and sorting. Numbers share one rank. */
const RANK: Record<string, number> = {
  minKey: 1,
  missing: 2,
  undefined: 2,
  null: 2,
  double: 3,
  int: 3,
  long: 3,
  decimal: 3,
  string: 4,
  symbol: 4,
  object: 5,
  array: 6,
  binData: 7,
  objectId: 8,
  bool: 9,
  date: 10,
  timestamp: 11,
  regex: 12,
  javascript: 13,
  maxKey: 14,
};
export const typeRank = (v: unknown): number => RANK[bsonTypeOf(v)] ?? 5;
export const isNumeric = (v: unknown): boolean => typeRank(v) === 3;

/** The `$type` aliases and numbers MongoDB accepts. */
export const TYPE_ALIASES: Record<string, BsonTypeName[]> = {
  double: ['double'],
  string: ['string'],
  object: ['object'],
  array: ['array'],
  binData: ['binData'],
  undefined: ['undefined'],
  objectId: ['objectId'],
  bool: ['bool'],
  date: ['date'],
  null: ['null'],
  regex: ['regex'],
  javascript: ['javascript'],
  symbol: ['symbol'],
  int: ['int'],
  timestamp: ['timestamp'],
  long: ['long'],
  decimal: ['decimal'],
  minKey: ['minKey'],
  maxKey: ['maxKey'],
  number: ['double', 'int', 'long', 'decimal'],
};
export const TYPE_NUMBERS: Record<number, string> = {
  1: 'double',
  2: 'string',
  3: 'object',
  4: 'array',
  5: 'binData',
  6: 'undefined',
  7: 'objectId',
  8: 'bool',
  9: 'date',
  10: 'null',
  11: 'regex',
  13: 'javascript',
  14: 'symbol',
  16: 'int',
  17: 'timestamp',
  18: 'long',
  19: 'decimal',
  [-1]: 'minKey',
  127: 'maxKey',
};

// ---------- exact decimal arithmetic (coefficient * 10^exponent as BigInt) ----------

export interface Dec {
  sign: 1 | -1;
  coef: bigint;
  exp: number;
  special?: 'NaN' | 'Infinity' | '-Infinity';
}

export const parseDecimalString = (s: string): Dec => {
  const t = s.trim();
  if (/^[+-]?nan$/i.test(t)) return { sign: 1, coef: 0n, exp: 0, special: 'NaN' };
  if (/^\+?inf(inity)?$/i.test(t)) return { sign: 1, coef: 0n, exp: 0, special: 'Infinity' };
  if (/^-inf(inity)?$/i.test(t)) return { sign: -1, coef: 0n, exp: 0, special: '-Infinity' };
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(t);
  if (!m) throw new Error(`not a number: ${s}`);
  const frac = m[3] ?? '';
  const digits = (m[2] ?? '') + frac;
  return {
    sign: m[1] === '-' ? -1 : 1,
    coef: BigInt(digits === '' ? '0' : digits),
    exp: Number(m[4] ?? 0) - frac.length,
  };
};

export const toDec = (v: unknown): Dec => {
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return { sign: 1, coef: 0n, exp: 0, special: 'NaN' };
    if (!Number.isFinite(v))
      return { sign: v > 0 ? 1 : -1, coef: 0n, exp: 0, special: v > 0 ? 'Infinity' : '-Infinity' };
    return parseDecimalString(String(v));
  }
  if (typeof v === 'bigint') return { sign: v < 0n ? -1 : 1, coef: v < 0n ? -v : v, exp: 0 };
  const t = (v as { _bsontype?: string })?._bsontype;
  if (t === 'Long') return toDec((v as Long).toBigInt());
  if (t === 'Int32' || t === 'Double') return toDec((v as { value: number }).value);
  if (t === 'Decimal128') return parseDecimalString((v as Decimal128).toString());
  throw new Error('not numeric');
};

const decToNumberish = (d: Dec): number => {
  if (d.special === 'NaN') return NaN;
  if (d.special) return d.special === 'Infinity' ? Infinity : -Infinity;
  return d.sign * Number(`${d.coef}e${d.exp}`);
};

export const decToString = (d: Dec): string => {
  if (d.special) return d.special;
  const digits = d.coef.toString();
  let body: string;
  if (d.exp >= 0) body = d.coef === 0n ? '0' : digits + '0'.repeat(d.exp);
  else {
    const point = digits.length + d.exp;
    body = point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${'0'.repeat(-point)}${digits}`;
  }
  return (d.sign < 0 && d.coef !== 0n ? '-' : '') + body;
};

export const decToDecimal128 = (d: Dec): Decimal128 => Decimal128.fromStringWithRounding(decToString(d));

const align = (a: Dec, b: Dec): [bigint, bigint, number] => {
  const exp = Math.min(a.exp, b.exp);
  const x = BigInt(a.sign) * a.coef * 10n ** BigInt(a.exp - exp);
  const y = BigInt(b.sign) * b.coef * 10n ** BigInt(b.exp - exp);
  return [x, y, exp];
};
const fromSigned = (n: bigint, exp: number): Dec => ({ sign: n < 0n ? -1 : 1, coef: n < 0n ? -n : n, exp });

export const decAdd = (a: Dec, b: Dec): Dec => {
  if (a.special || b.special) return toDec(decToNumberish(a) + decToNumberish(b));
  const [x, y, exp] = align(a, b);
  return fromSigned(x + y, exp);
};
export const decMul = (a: Dec, b: Dec): Dec => {
  if (a.special || b.special) return toDec(decToNumberish(a) * decToNumberish(b));
  return fromSigned(BigInt(a.sign * b.sign) * a.coef * b.coef, a.exp + b.exp);
};
export const decCompare = (a: Dec, b: Dec): number => {
  // NaN sorts below every other number and equals itself, as in MongoDB.
  const rank = (d: Dec) => (d.special === 'NaN' ? 0 : d.special === '-Infinity' ? 1 : d.special === 'Infinity' ? 3 : 2);
  const ra = rank(a),
    rb = rank(b);
  if (ra !== rb || ra !== 2) return Math.sign(ra - rb);
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
};

const numberOf = (v: unknown): number => {
  if (typeof v === 'number') return v;
  const t = (v as { _bsontype?: string })?._bsontype;
  if (t === 'Int32' || t === 'Double') return (v as { value: number }).value;
  if (t === 'Long') return (v as Long).toNumber();
  if (typeof v === 'bigint') return Number(v);
  return decToNumberish(toDec(v));
};

const compareNumbers = (a: unknown, b: unknown): number => {
  const ta = (a as { _bsontype?: string })?._bsontype;
  const tb = (b as { _bsontype?: string })?._bsontype;
  if (
    ta !== 'Decimal128' &&
    tb !== 'Decimal128' &&
    ta !== 'Long' &&
    tb !== 'Long' &&
    typeof a !== 'bigint' &&
    typeof b !== 'bigint'
  ) {
    const x = numberOf(a),
      y = numberOf(b);
    if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1;
    if (Number.isNaN(y)) return 1;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return decCompare(toDec(a), toDec(b));
};

/** Numeric result type promotion as MongoDB does for $inc/$mul/$sum: decimal > double > long > int. */
export const numericAdd = (a: unknown, b: unknown): unknown => combine(a, b, decAdd, (x, y) => x + y);
export const numericMul = (a: unknown, b: unknown): unknown => combine(a, b, decMul, (x, y) => x * y);

const combine = (
  a: unknown,
  b: unknown,
  decOp: (x: Dec, y: Dec) => Dec,
  numOp: (x: number, y: number) => number,
): unknown => {
  const ta = bsonTypeOf(a),
    tb = bsonTypeOf(b);
  if (ta === 'decimal' || tb === 'decimal') return decToDecimal128(decOp(toDec(a), toDec(b)));
  if (ta === 'long' || tb === 'long') {
    if (ta === 'double' || tb === 'double') return asDouble(numOp(numberOf(a), numberOf(b)));
    const r = decOp(toDec(a), toDec(b));
    const big =
      r.sign * Number(r.coef) >= -9.2e18 && r.sign * Number(r.coef) <= 9.2e18 ? BigInt(r.sign) * r.coef : null;
    return big === null ? decToNumberish(r) : Long.fromBigInt(big);
  }
  const r = numOp(numberOf(a), numberOf(b));
  // int32 arithmetic that overflows becomes a 64-bit long, as in mongod.
  if (
    ta === 'int' &&
    tb === 'int' &&
    Number.isInteger(r) &&
    (r > 2147483647 || r < -2147483648) &&
    Math.abs(r) <= Number.MAX_SAFE_INTEGER
  ) {
    return Long.fromNumber(r);
  }
  // Anything with a double in it is a double, even when the result is a whole number (1.5 + 0.5 -> 2.0).
  return ta === 'double' || tb === 'double' ? asDouble(r) : r;
};

// ---------- collation ----------

/** How strings compare and group under a collation; null is MongoDB's "simple" binary comparison. */
export interface Collator {
  compare(a: string, b: string): number;
  /** Equal exactly for strings that compare equal. */
  key(s: string): string;
}

const collators = new Map<string, Collator | null>();

/**
 * A collator for a MongoDB collation document (`{locale, strength, numericOrdering, caseFirst, caseLevel}`).
 * ICU's rules are approximated with Intl.Collator: strength 1 ignores case and accents, 2 ignores case, 3 and
 * above compare every difference.
 */
export const collatorFor = (collation: unknown): Collator | null => {
  if (!collation || typeof collation !== 'object') return null;
  const c = collation as Document;
  if (c.locale === undefined || c.locale === 'simple') return null;
  const id = JSON.stringify([c.locale, c.strength, c.numericOrdering, c.caseFirst, c.caseLevel]);
  const cached = collators.get(id);
  if (cached !== undefined) return cached;
  const strength = c.strength === undefined ? 3 : numberOf(c.strength);
  const numeric = c.numericOrdering === true;
  let locale = String(c.locale).replace(/@.*$/, '').replace(/_/g, '-');
  try {
    Intl.getCanonicalLocales(locale);
  } catch {
    locale = 'en';
  }
  const sensitivity =
    strength <= 1
      ? c.caseLevel === true
        ? 'case'
        : 'base'
      : strength === 2
        ? c.caseLevel === true
          ? 'variant'
          : 'accent'
        : 'variant';
  const intl = new Intl.Collator(locale, {
    sensitivity,
    numeric,
    usage: 'sort',
    caseFirst: c.caseFirst === 'upper' ? 'upper' : c.caseFirst === 'lower' ? 'lower' : 'false',
  });
  const fold = (s: string) => {
    let k = s.normalize('NFC');
    if (sensitivity === 'base' || sensitivity === 'accent') k = k.toLocaleLowerCase(locale);
    if (sensitivity === 'base' || sensitivity === 'case') k = k.normalize('NFD').replace(/\p{M}/gu, '');
    if (numeric) k = k.replace(/\d+/g, (d) => d.replace(/^0+(?=\d)/, ''));
    return k;
  };
  const collator: Collator = {
    compare: (a, b) => {
      const r = intl.compare(a, b);
      return r < 0 ? -1 : r > 0 ? 1 : 0;
    },
    key: fold,
  };
  collators.set(id, collator);
  return collator;
};

let activeCollator: Collator | null = null;

/** Runs `fn` with string comparisons (compareValues, canonicalKey) under `collator`. Synchronous code only. */
export const withCollator = <T>(collator: Collator | null, fn: () => T): T => {
  if (collator === activeCollator) return fn();
  const previous = activeCollator;
  activeCollator = collator;
  try {
    return fn();
  } finally {
    activeCollator = previous;
  }
};

/** The collator string comparisons currently use (null: binary). */
export const currentCollator = (): Collator | null => activeCollator;

// ---------- comparison ----------

const bytesOf = (v: unknown): Uint8Array => {
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const b = v as { buffer: Uint8Array; position?: number; id?: Uint8Array };
  if ((v as { _bsontype?: string })._bsontype === 'ObjectId') return (v as ObjectId).id;
  return b.position !== undefined ? b.buffer.subarray(0, b.position) : b.buffer;
};
const compareBytes = (a: Uint8Array, b: Uint8Array): number => {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
};
const cmp = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);

/** Total order over BSON values as MongoDB compares them (arrays element by element, objects pairwise). */
export const compareValues = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  const ra = typeRank(a),
    rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 1:
    case 2:
    case 14:
      return 0;
    case 3:
      return compareNumbers(a, b);
    case 4:
      return activeCollator ? activeCollator.compare(String(a), String(b)) : cmp(String(a), String(b));
    case 5:
      return compareObjects(a as Document, b as Document);
    case 6: {
      const x = a as unknown[],
        y = b as unknown[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = compareValues(x[i], y[i]);
        if (c) return c;
      }
      return cmp(x.length, y.length);
    }
    case 7: {
      const x = bytesOf(a),
        y = bytesOf(b);
      if (x.length !== y.length) return cmp(x.length, y.length);
      const sa = (a as { sub_type?: number }).sub_type ?? 0,
        sb = (b as { sub_type?: number }).sub_type ?? 0;
      if (sa !== sb) return cmp(sa, sb);
      return compareBytes(x, y);
    }
    case 8:
      return compareBytes(bytesOf(a), bytesOf(b));
    case 9:
      return cmp(Number(a), Number(b));
    case 10:
      return cmp((a as Date).getTime(), (b as Date).getTime());
    case 11: {
      const x = a as { t: number; i: number },
        y = b as { t: number; i: number };
      return cmp(x.t, y.t) || cmp(x.i, y.i);
    }
    case 12: {
      const [pa, fa] = regexParts(a),
        [pb, fb] = regexParts(b);
      return cmp(pa, pb) || cmp(fa, fb);
    }
    default:
      return cmp(String(a), String(b));
  }
};

const regexParts = (v: unknown): [string, string] =>
  v instanceof RegExp ? [v.source, v.flags] : [(v as { pattern: string }).pattern, (v as { options: string }).options];

const compareObjects = (a: Document, b: Document): number => {
  const ka = Object.keys(a).filter((k) => a[k] !== undefined),
    kb = Object.keys(b).filter((k) => b[k] !== undefined);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const va = a[ka[i]],
      vb = b[kb[i]];
    const r = cmp(typeRank(va), typeRank(vb)) || cmp(ka[i], kb[i]) || compareValues(va, vb);
    if (r) return r;
  }
  return cmp(ka.length, kb.length);
};

export const valuesEqual = (a: unknown, b: unknown): boolean => compareValues(a, b) === 0;

/** Same value, same BSON types and same field order: what an update must leave alone to count as a no-op. */
export const identical = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  const ta = bsonTypeOf(a);
  if (ta !== bsonTypeOf(b)) return false;
  if (ta === 'array') {
    const x = a as unknown[],
      y = b as unknown[];
    return x.length === y.length && x.every((v, i) => identical(v, y[i]));
  }
  if (ta === 'object') {
    const ka = Object.keys(a as Document).filter((k) => (a as Document)[k] !== undefined);
    const kb = Object.keys(b as Document).filter((k) => (b as Document)[k] !== undefined);
    return (
      ka.length === kb.length && ka.every((k, i) => k === kb[i] && identical((a as Document)[k], (b as Document)[k]))
    );
  }
  if (ta === 'decimal') return String(a) === String(b);
  if (ta === 'string') return a === b;
  return (
    compareValues(a, b) === 0 && (ta !== 'double' || Object.is(numberOf(a), numberOf(b)) || Number.isNaN(numberOf(a)))
  );
};

// ---------- canonical keys ----------

const numericKey = (v: unknown): string => {
  const t = bsonTypeOf(v);
  if (
    t === 'int' ||
    (t === 'double' && Number.isFinite(numberOf(v)) && Number.isInteger(numberOf(v)) && Math.abs(numberOf(v)) < 2 ** 53)
  ) {
    const n = numberOf(v);
    return `n${n === 0 ? 0 : n}`;
  }
  if (t === 'double') return Number.isNaN(numberOf(v)) ? 'nNaN' : `n${numberOf(v)}`;
  const d = toDec(v);
  if (d.special) return `n${d.special}`;
  // Normalise to the shortest coefficient so 1, 1.0, Long(1) and Decimal128("1.00") share a key.
  let { coef, exp } = d;
  if (coef === 0n) return 'n0';
  while (coef % 10n === 0n) {
    coef /= 10n;
    exp++;
  }
  const norm = decToString({ sign: d.sign, coef, exp });
  const asNumber = Number(norm);
  return Number.isSafeInteger(asNumber) || String(asNumber) === norm ? `n${asNumber}` : `n${norm}`;
};

/** canonicalKey with binary string comparison, whatever collation is active (record ids, storage keys). */
export const binaryKey = (v: unknown): string => {
  if (activeCollator === null) return canonicalKey(v);
  const previous = activeCollator;
  activeCollator = null;
  try {
    return canonicalKey(v);
  } finally {
    activeCollator = previous;
  }
};

/** A string that is equal for two values exactly when MongoDB considers them equal. */
export const canonicalKey = (v: unknown): string => {
  // fast paths for the common _id and index key types
  if (typeof v === 'string') return activeCollator ? `s${activeCollator.key(v)}` : `s${v}`;
  if (typeof v === 'number' && Number.isFinite(v)) return `n${v === 0 ? 0 : v}`;
  if ((v as { _bsontype?: string } | null)?._bsontype === 'ObjectId') return `o${(v as ObjectId).toHexString()}`;
  switch (typeRank(v)) {
    case 1:
      return 'm';
    case 2:
      return 'z';
    case 3:
      return numericKey(v);
    case 4:
      return activeCollator ? `s${activeCollator.key(String(v))}` : `s${String(v)}`;
    case 5: {
      const o = v as Document;
      let s = '{';
      for (const k of Object.keys(o)) if (o[k] !== undefined) s += `${JSON.stringify(k)}:${canonicalKey(o[k])},`;
      return `${s}}`;
    }
    case 6:
      return `[${(v as unknown[]).map(canonicalKey).join(',')}]`;
    case 7:
      return `x${(v as { sub_type?: number }).sub_type ?? 0}:${Buffer.from(bytesOf(v)).toString('base64')}`;
    case 8:
      return `o${Buffer.from(bytesOf(v)).toString('hex')}`;
    case 9:
      return v ? 'T' : 'F';
    case 10:
      return `d${(v as Date).getTime()}`;
    case 11:
      return `t${(v as { t: number }).t}:${(v as { i: number }).i}`;
    case 12: {
      const [p, f] = regexParts(v);
      return `r/${p}/${f}`;
    }
    case 14:
      return 'M';
    default:
      return `?${String(v)}`;
  }
};

// ---------- fields as data ----------
// Field names are data: `__proto__`, `constructor` or `toString` in a document are fields like any other, never
// Object.prototype's machinery. Reads see own properties only, and `__proto__` is defined as an own property
// (a plain assignment would replace the object's prototype instead of storing the field).

/** A document's own field (undefined when missing, whatever Object.prototype has under that name). */
export const getField = (o: object, k: string): unknown =>
  Object.hasOwn(o, k) ? (o as Document)[k] : k.charCodeAt(0) === 36 ? dbRefField(o, k) : undefined;

/** A decoded DBRef keeps `$ref`/`$id`/`$db` as collection/oid/db; queries name them as stored. */
const dbRefField = (o: object, k: string): unknown => {
  if ((o as { _bsontype?: string })._bsontype !== 'DBRef') return undefined;
  const ref = o as { collection: string; oid: unknown; db?: string; fields?: Document };
  if (k === '$ref') return ref.collection;
  if (k === '$id') return ref.oid;
  if (k === '$db') return ref.db || undefined;
  return ref.fields && Object.hasOwn(ref.fields, k) ? ref.fields[k] : undefined;
};

/** Whether a document has the field as its own. */
export const hasField = (o: object, k: string): boolean => Object.hasOwn(o, k);

/**
 * Stores a field; `__proto__` becomes a real field rather than changing the object's prototype.
 * A new field is added with Reflect.set, not `o[k] = v`: V8 turns an object whose fields were added by computed
 * names into a dictionary once it has more than 16 (a 26-field stored email: ~1.5 KiB of hash table instead of
 * ~0.2 KiB of slots in a shape shared by every document of the same fields), and Reflect.set adds a field as
 * `o.name = v` would (fast up to 128 fields). Same semantics: both are an ordinary [[Set]].
 */
export const setField = (o: object, k: string, v: unknown): void => {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else if (Object.hasOwn(o, k)) (o as Document)[k] = v;
  else Reflect.set(o, k, v);
};

// ---------- cloning and display ----------

/** Longest string value stored documents share (a status, an address, an event type; not a body or a token). */
const SHARED_STRING_MAX_LENGTH = 32;
/** Distinct values the sharing table holds; when full it starts over (earlier documents keep their copies). */
const sharedStrings = new BoundedTable<string, string>(16_384);

/**
 * One copy of a short string value for every stored document that holds it. Each decoded document brings its
 * own copy of `'127.0.0.1'`, `'POST'` or `'pending_quote'` (24 to 56 bytes each): after the bench's quote load
 * such repeats were 23 MiB of the database's 197 MiB heap. Strings are values, so nothing can tell the copies
 * apart.
 */
export const sharedString = (s: string): string => {
  if (s.length > SHARED_STRING_MAX_LENGTH) return s;
  return sharedStrings.get(s) ?? sharedStrings.keep(s, s);
};

/** Distinct times the date sharing table holds; when full it starts over, like the strings' table. */
const sharedDates = new BoundedTable<number, Date>(16_384);

/**
 * One Date for every stored document that holds the same time. A Date costs 96 bytes (V8 keeps its computed
 * year, month, day... beside the time): after the bench's quote load 235,000 of them were 21.5 MiB of the
 * database's heap, and most repeat a time another document holds (an order's createdAt, updatedAt and
 * submittedDate, the same times in the customers' and the outbox's copies, request logs of one millisecond).
 * Never the caller's own Date (they may change it); and a shared Date someone changed in place anyway (only
 * an in-process caller of the engine could: the server and mingo never do) is not handed out again.
 */
export const sharedDate = (d: Date): Date => {
  const time = d.getTime();
  const known = sharedDates.get(time);
  if (known !== undefined && Object.is(known.getTime(), time)) return known;
  return sharedDates.keep(time, new Date(time));
};

/**
 * Deep copy of plain objects and arrays; BSON values are immutable and shared, short strings and dates too
 * (sharedString, sharedDate): stored documents are never changed in place, only replaced.
 */
export const cloneDoc = <T>(v: T): T => {
  if (typeof v === 'string') return sharedString(v) as T;
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(cloneDoc) as T;
  if (v instanceof Date) return sharedDate(v) as T;
  // A DBRef is an immutable BSON value like the others (copying its properties would lose what it is).
  if (!isPlainObject(v) || (v as { _bsontype?: unknown })._bsontype !== undefined) return v;
  // A spread copy keeps fast fields (see setField; it also defines a stored `__proto__` as an own field), then
  // the nested values are replaced by their copies.
  const out: Document = { ...(v as Document) };
  for (const k of Object.keys(out)) {
    const x = out[k];
    if ((x !== null && typeof x === 'object') || typeof x === 'string') setField(out, k, cloneDoc(x));
  }
  return out as T;
};

export const isPlainObject = (v: unknown): v is Document => {
  if (v === null || typeof v !== 'object') return false;
  // Fast answer for the common case (every decoded document and subdocument), checked on every path step.
  const proto = Object.getPrototypeOf(v);
  if ((proto === Object.prototype || proto === null) && (v as { _bsontype?: unknown })._bsontype === undefined)
    return true;
  return !Array.isArray(v) && bsonTypeOf(v) === 'object';
};

/** Renders a value as mongod does in error messages: `{ name: "x" }`, `ObjectId('...')`. */
export const formatValue = (v: unknown): string => {
  switch (bsonTypeOf(v)) {
    case 'missing':
    case 'undefined':
      return 'undefined';
    case 'null':
      return 'null';
    case 'string':
      return JSON.stringify(v);
    case 'objectId':
      return `ObjectId('${(v as ObjectId).toHexString()}')`;
    case 'date':
      return `new Date(${(v as Date).getTime()})`;
    case 'decimal':
      return `Decimal128("${String(v)}")`;
    case 'long':
      return String(typeof v === 'bigint' ? v : (v as Long).toString());
    case 'int':
    case 'double':
      return String(numberOf(v));
    case 'bool':
      return String(v);
    case 'array':
      return `[ ${(v as unknown[]).map(formatValue).join(', ')} ]`;
    case 'object': {
      const o = v as Document;
      const keys = Object.keys(o);
      return keys.length ? `{ ${keys.map((k) => `${k}: ${formatValue(o[k])}`).join(', ')} }` : '{}';
    }
    case 'binData': {
      const b = v as { sub_type?: number };
      return `BinData(${b.sub_type ?? 0}, ${Buffer.from(bytesOf(v)).toString('hex').toUpperCase()})`;
    }
    case 'regex': {
      const [p, f] = regexParts(v);
      return `/${p}/${f}`;
    }
    default:
      return String(v);
  }
};

export { numberOf };
