// mingo runs the aggregation pipeline and expression language. This module builds its operator context
// with the operators replaced that mingo gets wrong for BSON: $match (our matcher), $sort, $group and
// $sortByCount (canonical BSON keys, MongoDB ordering), $lookup (BSON equality across ObjectId/Decimal),
// numeric accumulators and arithmetic with Decimal128/Long, and expression comparisons in BSON order.
import { Aggregator } from 'mingo/aggregator';
import { Context, evalExpr } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import { Decimal128, Long, ObjectId, type Document } from 'bson';
import { asDouble } from './bson-codec.js';
import {
  bsonTypeOf,
  canonicalKey,
  cloneDoc,
  compareValues,
  decToDecimal128,
  isNumeric,
  isPlainObject,
  numberOf,
  numericAdd,
  numericMul,
  parseDecimalString,
  toDec,
  typeRank,
} from './bson-values.js';
import { badValue, notSupported } from './errors.js';
import { collectPath, compileFilter } from './query.js';
import { decodeData, encodeData, encodeExpression, mentionsReserved } from './mingo-names.js';
import { parseSort, sortDocs } from './sort.js';
import { MongoCommandError } from './types.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyFn = (...args: any[]) => any;
type LazyIter = {
  transform(f: (arr: any[]) => unknown): LazyIter;
  filter(f: (d: any) => boolean): LazyIter;
  map(f: (d: any) => unknown): LazyIter;
};
type Opts = Record<string, any>;

/**
 * Whole-number doubles are stored as bson `Double` wrappers (see bson-codec.ts), which mingo's own operators
 * would treat as objects. They get the document with those wrappers turned into numbers (copy on write, so a
 * document without any is passed through untouched). Field paths evaluated by stages keep the wrappers, so a
 * double projected or grouped as is stays a double; a value computed by mingo comes back as a plain number.
 */
/** Whether a value holds a bson Double anywhere (no allocation: most documents have none). */
const hasDouble = (v: unknown, depth = 0): boolean => {
  if (depth > 100) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== null && typeof x === 'object' && hasDouble(x, depth + 1)) return true;
    }
    return false;
  }
  const t = (v as { _bsontype?: string })._bsontype;
  if (t !== undefined) return t === 'Double';
  if (v instanceof Date || v instanceof RegExp || ArrayBuffer.isView(v)) return false;
  for (const k in v as Document) {
    const x = (v as Document)[k];
    if (x !== null && typeof x === 'object' && hasDouble(x, depth + 1)) return true;
  }
  return false;
};

const unwrapDoubles = (v: unknown): unknown => {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(unwrapDoubles);
  const t = (v as { _bsontype?: string })._bsontype;
  if (t === 'Double') return (v as { value: number }).value;
  if (t !== undefined || !isPlainObject(v)) return v;
  const out: Document = {};
  for (const k of Object.keys(v)) out[k] = unwrapDoubles(v[k]);
  return out;
};

const plainNumbers = (v: unknown): unknown =>
  v !== null && typeof v === 'object' && hasDouble(v) ? unwrapDoubles(v) : v;

/** mingo resolves `$field` paths against the options' root document, so that one is swapped too. */
const withPlainRoot = (obj: unknown, plainObj: unknown, options: Opts): Opts => {
  const local = (options as { local?: { root?: unknown } })?.local;
  if (!local || local.root === undefined || local.root === null) return options;
  const root = local.root === obj ? plainObj : plainNumbers(local.root);
  if (root === local.root) return options;
  const Ctor = options.constructor as unknown as { init(o: Opts): { update(l: Opts): Opts } };
  return Ctor.init(options).update({ root });
};
const withPlainDoc =
  (fn: AnyFn): AnyFn =>
  (obj, args, options) => {
    const plain = plainNumbers(obj);
    return fn(plain, args, withPlainRoot(obj, plain, options));
  };
const withPlainDocs =
  (fn: AnyFn): AnyFn =>
  (coll: unknown[], args, options) => {
    const plain = coll.map(plainNumbers);
    // Accumulators evaluate their expression per document, each as its own root.
    return fn(plain, args, options);
  };
const mapValues = (ops: Record<string, AnyFn>, f: (fn: AnyFn, name: string) => AnyFn): Record<string, AnyFn> =>
  Object.fromEntries(Object.entries(ops).map(([name, fn]) => [name, f(fn, name)]));

const KEEPS_VALUES = new Set(['$push', '$first', '$last', '$mergeObjects']);
const acc = mapValues(accumulatorOperators as unknown as Record<string, AnyFn>, (fn, name) =>
  KEEPS_VALUES.has(name) ? fn : withPlainDocs(fn),
);
const expr = mapValues(expressionOperators as unknown as Record<string, AnyFn>, (fn) => withPlainDoc(fn));
const isDoubleWrapper = (x: unknown) => (x as { _bsontype?: string } | null)?._bsontype === 'Double';

const evalArgs = (obj: unknown, args: unknown, options: Opts): unknown[] => {
  const v = evalExpr(obj, args, options as any);
  return Array.isArray(v) ? v : [v];
};

const compareOp =
  (test: (c: number) => boolean): AnyFn =>
  (obj, args, options) => {
    const [a, b] = evalArgs(obj, args, options);
    return test(compareValues(a ?? null, b ?? null));
  };

const hasBigNumber = (xs: unknown[]) =>
  xs.some((x) => {
    const t = bsonTypeOf(x);
    return t === 'decimal' || t === 'long';
  });
/** Results of our arithmetic stay plain numbers inside a pipeline, where mingo's operators may consume them. */
const plainResult = (v: unknown): unknown => (isDoubleWrapper(v) ? (v as { value: number }).value : v);

const $add: AnyFn = (obj, args, options) => {
  const xs = evalArgs(obj, args, options);
  if (!hasBigNumber(xs)) return expr.$add(obj, args, options);
  if (xs.some((x) => x === null || x === undefined)) return null;
  return plainResult(xs.reduce((s, x) => numericAdd(s, x), 0));
};
const $multiply: AnyFn = (obj, args, options) => {
  const xs = evalArgs(obj, args, options);
  if (!hasBigNumber(xs)) return expr.$multiply(obj, args, options);
  if (xs.some((x) => x === null || x === undefined)) return null;
  return plainResult(xs.reduce((s, x) => numericMul(s, x), 1));
};
const $subtract: AnyFn = (obj, args, options) => {
  const xs = evalArgs(obj, args, options);
  if (!hasBigNumber(xs)) return expr.$subtract(obj, args, options);
  if (xs.some((x) => x === null || x === undefined)) return null;
  return plainResult(numericAdd(xs[0], numericMul(xs[1], -1)));
};

const evalOne = (obj: unknown, args: unknown, options: Opts): unknown => {
  const v = evalExpr(obj, args, options as any);
  return Array.isArray(args) && args.length === 1 && Array.isArray(v) ? v[0] : v;
};

const decDivide = (a: unknown, b: unknown): Decimal128 => {
  const x = toDec(a),
    y = toDec(b);
  if (y.coef === 0n && !y.special) throw new MongoCommandError(2, 'BadValue', "can't $divide by zero");
  const scaled = (BigInt(x.sign * y.sign) * x.coef * 10n ** 40n) / y.coef;
  let coef = scaled < 0n ? -scaled : scaled;
  let exp = x.exp - y.exp - 40;
  while (exp < x.exp - y.exp && coef % 10n === 0n) {
    coef /= 10n;
    exp++;
  }
  return decToDecimal128({ sign: scaled < 0n ? -1 : 1, coef, exp });
};

const $divide: AnyFn = (obj, args, options) => {
  const xs = evalArgs(obj, args, options);
  if (xs.some((x) => x === null || x === undefined)) return null;
  if (xs.length !== 2 || !xs.every(isNumeric))
    throw new MongoCommandError(16609, 'Location16609', '$divide only supports numeric types');
  if (xs.some((x) => bsonTypeOf(x) === 'decimal')) return decDivide(xs[0], xs[1]);
  if (numberOf(xs[1]) === 0) throw new MongoCommandError(2, 'BadValue', "can't $divide by zero");
  return numberOf(xs[0]) / numberOf(xs[1]);
};

/** $type in aggregation answers MongoDB's type names ("objectId", "decimal", "missing"...). */
const $type: AnyFn = (obj, args, options) => {
  const t = bsonTypeOf(evalOne(obj, args, options));
  return t === 'undefined' ? 'missing' : t;
};

const $toString: AnyFn = (obj, args, options) => {
  const v = evalOne(obj, args, options);
  switch (bsonTypeOf(v)) {
    case 'missing':
    case 'null':
    case 'undefined':
      return null;
    case 'objectId':
      return (v as ObjectId).toHexString();
    case 'decimal':
    case 'long':
      return String(v);
    case 'date':
      return (v as Date).toISOString();
    case 'bool':
      return v ? 'true' : 'false';
    case 'int':
    case 'double':
      return String(numberOf(v));
    case 'string':
      return v;
    case 'binData':
      return (v as { toString(enc: string): string }).toString('base64');
    default:
      throw new MongoCommandError(
        241,
        'ConversionFailure',
        `Unsupported conversion from ${bsonTypeOf(v)} to string in $convert with no onError value`,
      );
  }
};

/** A value as it appears in a conversion error (objects as JSON rather than [object Object]). */
const shown = (v: unknown): string => (typeof v === 'object' && v !== null ? (JSON.stringify(v) ?? '') : String(v));

const $toObjectId: AnyFn = (obj, args, options) => {
  const v = evalOne(obj, args, options);
  if (v === null || v === undefined) return null;
  if (bsonTypeOf(v) === 'objectId') return v;
  if (typeof v === 'string' && /^[0-9a-fA-F]{24}$/.test(v)) return new ObjectId(v);
  throw new MongoCommandError(
    241,
    'ConversionFailure',
    `Failed to parse objectId '${shown(v)}' in $convert with no onError value: Invalid string length for parsing to OID, expected 24 but found ${shown(v).length}`,
  );
};

const $toDecimal: AnyFn = (obj, args, options) => {
  const v = evalOne(obj, args, options);
  if (v === null || v === undefined) return null;
  if (bsonTypeOf(v) === 'decimal') return v;
  if (typeof v === 'boolean') return Decimal128.fromString(v ? '1' : '0');
  if (v instanceof Date) return Decimal128.fromString(String(v.getTime()));
  try {
    return isNumeric(v) ? decToDecimal128(toDec(v)) : decToDecimal128(parseDecimalString(shown(v)));
  } catch {
    throw new MongoCommandError(
      241,
      'ConversionFailure',
      `Failed to parse number '${shown(v)}' in $convert with no onError value`,
    );
  }
};

const $toLong: AnyFn = (obj, args, options) => {
  const v = evalOne(obj, args, options);
  if (v === null || v === undefined) return null;
  if (bsonTypeOf(v) === 'long') return v;
  if (v instanceof Date) return Long.fromNumber(v.getTime());
  if (typeof v === 'boolean') return Long.fromNumber(v ? 1 : 0);
  const n = typeof v === 'string' ? Number(v.trim()) : numberOf(v);
  if (!Number.isFinite(n) || (typeof v === 'string' && !/^\s*[+-]?\d+\s*$/.test(v)))
    throw new MongoCommandError(
      241,
      'ConversionFailure',
      `Failed to parse number '${shown(v)}' in $convert with no onError value`,
    );
  return Long.fromNumber(Math.trunc(n));
};

const $toDate: AnyFn = (obj, args, options) => {
  const v = evalOne(obj, args, options);
  if (bsonTypeOf(v) === 'objectId') return (v as ObjectId).getTimestamp();
  if (bsonTypeOf(v) === 'long' || bsonTypeOf(v) === 'decimal') return new Date(numberOf(v));
  return expr.$toDate(obj, args, options);
};

const values = (coll: unknown[], e: unknown, options: Opts): unknown[] => acc.$push(coll, e, options) as unknown[];

const sumOf = (xs: unknown[]): unknown => {
  let s: unknown = 0;
  for (const x of xs) if (isNumeric(x)) s = numericAdd(s, x);
  return s;
};
const $sum: AnyFn = (coll: unknown[], e, options) => {
  if (isNumeric(e)) return numericMul(e, coll.length);
  return sumOf(values(coll, e, options).flatMap((v) => (Array.isArray(v) && coll.length === 1 ? v : [v])));
};
const $avg: AnyFn = (coll: unknown[], e, options) => {
  const xs = values(coll, e, options).filter(isNumeric);
  if (xs.length === 0) return null;
  return averageOf(sumOf(xs), xs.length);
};
/** $avg's result from the sum of n numbers (exact for Decimal128). Shared with the engine's $group fast path. */
export const averageOf = (s: unknown, n: number): unknown => {
  if (bsonTypeOf(s) === 'decimal') {
    const d = toDec(s);
    const scaled = (BigInt(d.sign) * d.coef * 10n ** 40n) / BigInt(n);
    // Keep the quotient exact but drop trailing zeros down to the dividend's exponent, as IEEE decimal does.
    let coef = scaled < 0n ? -scaled : scaled;
    let exp = d.exp - 40;
    while (exp < d.exp && coef % 10n === 0n) {
      coef /= 10n;
      exp++;
    }
    return decToDecimal128({ sign: scaled < 0n ? -1 : 1, coef, exp });
  }
  // An average is a double in MongoDB, even of integers ($avg of [1, 3] is 2.0).
  return asDouble(numberOf(s) / n);
};
/** $addToSet with MongoDB's equality (1 and 1.0 are one value), in first-seen order. */
const $addToSet: AnyFn = (coll: unknown[], e, options) => {
  const seen = new Map<string, unknown>();
  for (const v of values(coll, e, options)) {
    if (v === undefined) continue;
    const k = canonicalKey(v);
    if (!seen.has(k)) seen.set(k, v);
  }
  return [...seen.values()];
};

const extreme =
  (dir: 1 | -1): AnyFn =>
  (coll: unknown[], e, options) => {
    let best: unknown = null;
    for (const v of values(coll, e, options)) {
      if (v === null || v === undefined) continue;
      if (best === null || compareValues(v, best) * dir > 0) best = v;
    }
    return best;
  };

/** $group with BSON-canonical keys (ObjectId, Date, 1 vs 1.0) and first-seen group order. */
const $group = (coll: LazyIter, spec: Document, options: Opts): LazyIter => {
  if (!isPlainObject(spec) || !('_id' in spec))
    throw new MongoCommandError(15955, 'Location15955', 'a group specification must include an _id');
  const fields = Object.keys(spec).filter((k) => k !== '_id');
  for (const f of fields) {
    const a = spec[f];
    if (!isPlainObject(a) || Object.keys(a).length !== 1)
      throw new MongoCommandError(40234, 'Location40234', `The field '${f}' must be an accumulator object`);
    const op = Object.keys(a)[0];
    if (!options.context.getOperator('accumulator', op))
      throw new MongoCommandError(15952, 'Location15952', `unknown group operator '${op}'`);
  }
  return coll.transform((items: Document[]) => {
    const groups = new Map<string, { id: unknown; docs: Document[] }>();
    for (const d of items) {
      let id = evalExpr(d, spec._id, options as any);
      if (id === undefined) id = null;
      const k = canonicalKey(id);
      let g = groups.get(k);
      if (!g) {
        g = { id, docs: [] };
        groups.set(k, g);
      }
      g.docs.push(d);
    }
    const out: Document[] = [];
    for (const g of groups.values()) {
      const o: Document = { _id: g.id };
      for (const f of fields) {
        const a = spec[f] as Document;
        const op = Object.keys(a)[0];
        const fn = options.context.getOperator('accumulator', op) as AnyFn;
        o[f] = fn(g.docs, a[op], options);
      }
      out.push(o);
    }
    return Lazy(out);
  });
};

/** $bucket with BSON comparisons; a value equal to a boundary opens that boundary's bucket. */
const $bucket = (coll: LazyIter, spec: Document, options: Opts): LazyIter => {
  const bounds = spec.boundaries as unknown[];
  if (!Array.isArray(bounds) || bounds.length < 2)
    throw new MongoCommandError(40192, 'Location40192', "The $bucket 'boundaries' field must have at least 2 values");
  for (let i = 1; i < bounds.length; i++) {
    if (typeRank(bounds[i]) !== typeRank(bounds[0]) || compareValues(bounds[i], bounds[i - 1]) <= 0) {
      throw new MongoCommandError(
        40194,
        'Location40194',
        "The 'boundaries' option to $bucket must be sorted in ascending order and of one type",
      );
    }
  }
  const hasDefault = 'default' in spec;
  const output = (spec.output as Document | undefined) ?? { count: { $sum: 1 } };
  return coll.transform((items: Document[]) => {
    const groups: Document[][] = bounds.slice(0, -1).map(() => []);
    const other: Document[] = [];
    for (const d of items) {
      const key = evalExpr(d, spec.groupBy, options as any);
      let placed = false;
      if (typeRank(key) === typeRank(bounds[0])) {
        for (let i = 0; i < bounds.length - 1; i++) {
          if (compareValues(key, bounds[i]) >= 0 && compareValues(key, bounds[i + 1]) < 0) {
            groups[i].push(d);
            placed = true;
            break;
          }
        }
      }
      if (!placed) {
        if (!hasDefault)
          throw new MongoCommandError(
            40066,
            'Location40066',
            '$switch could not find a matching branch for an input, and no default was specified.',
          );
        other.push(d);
      }
    }
    const out: Document[] = [];
    groups.forEach((g, i) => {
      if (g.length) out.push({ _id: bounds[i], ...accumulate(g, output, options) });
    });
    if (other.length) out.push({ _id: spec.default, ...accumulate(other, output, options) });
    return Lazy(out);
  });
};

const accumulate = (docs: Document[], spec: Document, options: Opts): Document => {
  const o: Document = {};
  for (const f of Object.keys(spec)) {
    const a = spec[f] as Document;
    const op = Object.keys(a)[0];
    const fn = options.context.getOperator('accumulator', op) as AnyFn | null;
    if (!fn) throw new MongoCommandError(15952, 'Location15952', `unknown group operator '${op}'`);
    o[f] = fn(docs, a[op], options);
  }
  return o;
};

const $sort = (coll: LazyIter, spec: Document): LazyIter => {
  const keys = parseSort(spec);
  if (keys.length === 0)
    throw new MongoCommandError(15976, 'Location15976', '$sort stage must have at least one sort key');
  return coll.transform((arr: Document[]) => Lazy(sortDocs(arr, keys)));
};

const $match = (coll: LazyIter, filter: Document, options: Opts): LazyIter => {
  const m = compileFilter(filter, options);
  return coll.filter((d) => m(d));
};

const $sortByCount = (coll: LazyIter, e: unknown, options: Opts): LazyIter =>
  $sort($group(coll, { _id: e, count: { $sum: 1 } }, options), { count: -1 });

/** $lookup against a collection of the same database, with BSON equality on local/foreign fields. */
const $lookup = (coll: LazyIter, spec: Document, options: Opts): LazyIter => {
  const { from, localField, foreignField, as } = spec;
  if (typeof as !== 'string') throw new MongoCommandError(40321, 'Location40321', "$lookup requires an 'as' field");
  // Inside a pipeline, the resolver already hands out documents with reserved field names encoded.
  const resolver = options.collectionResolver as ((name: string) => Document[]) | undefined;
  const foreign: Document[] = typeof from === 'string' && resolver ? resolver(from) : [];
  const pipeline = spec.pipeline as Document[] | undefined;
  let byKey: Map<string, Document[]> | undefined;
  if (localField !== undefined && foreignField !== undefined) {
    byKey = new Map();
    const fsegs = String(foreignField).split('.');
    for (const fd of foreign) {
      const keys = new Set<string>();
      for (const c of collectPath(fd, fsegs)) {
        if (Array.isArray(c.value)) {
          c.value.forEach((x) => keys.add(canonicalKey(x)));
          if (c.value.length === 0) keys.add('z');
        } else keys.add(canonicalKey(c.value === undefined ? null : c.value));
      }
      for (const k of keys) {
        const l = byKey.get(k) ?? [];
        l.push(fd);
        byKey.set(k, l);
      }
    }
  }
  const lsegs = localField !== undefined ? String(localField).split('.') : [];
  return coll.map((doc: Document) => {
    let candidates = foreign;
    if (byKey) {
      const seen = new Set<Document>();
      const keys = new Set<string>();
      for (const c of collectPath(doc, lsegs)) {
        if (Array.isArray(c.value)) c.value.forEach((x) => keys.add(canonicalKey(x)));
        else keys.add(canonicalKey(c.value === undefined ? null : c.value));
      }
      for (const k of keys) for (const fd of byKey.get(k) ?? []) seen.add(fd);
      candidates = foreign.filter((fd) => seen.has(fd));
    }
    if (pipeline) {
      const vars: Document = {};
      for (const [name, e] of Object.entries((spec.let as Document | undefined) ?? {}))
        vars[name] = evalExpr(doc, e, options as any);
      candidates = runMingo(candidates, pipeline, {
        collectionResolver: resolver,
        variables: { ...(options.variables ?? {}), ...vars },
      });
    }
    return { ...doc, [as]: candidates.map(cloneDoc) };
  });
};

const unsupportedStage =
  (name: string): AnyFn =>
  () => {
    throw notSupported(`The ${name} stage`);
  };

const isFlag = (v: unknown) => typeof v === 'boolean' || isNumeric(v);

/**
 * $project through mingo, with mongod's field order: `_id` first, then the kept fields in the order of the
 * input document, then computed fields (mingo puts `_id` last and computed fields first).
 */
const $project = (coll: LazyIter, spec: Document, options: Opts): LazyIter => {
  const computed = new Set(
    Object.keys(spec)
      .filter((k) => !isFlag(spec[k]))
      .map((k) => k.split('.')[0]),
  );
  return coll.transform((input: Document[]) => {
    const out = (
      (pipelineOperators as any).$project(Lazy(input), spec, options) as { collect(): Document[] }
    ).collect();
    return Lazy(
      out.map((d, i) => {
        const source = input[i];
        if (!isPlainObject(d) || !isPlainObject(source)) return d;
        const keys = Object.keys(d);
        if (keys.length < 2) return d;
        const order: string[] = '_id' in d ? ['_id'] : [];
        for (const k of Object.keys(source)) if (k !== '_id' && k in d && !computed.has(k)) order.push(k);
        if (order.length < keys.length) {
          const seen = new Set(order);
          for (const k of keys) if (!seen.has(k)) order.push(k);
        }
        if (order.every((k, j) => k === keys[j])) return d;
        const o: Document = {};
        for (const k of order) o[k] = d[k];
        return o;
      }),
    );
  });
};

/**
 * mingo implements some stages ($setWindowFields) with $function over its own JS functions. Those run;
 * server-side JavaScript sent by a client (a string or BSON Code body) is refused.
 */
const $function: AnyFn = (obj, e, options) => {
  const fn = evalExpr(obj, e, options) as { body?: unknown; args?: unknown[] } | undefined;
  if (typeof fn?.body !== 'function') throw notSupported('$function (server-side JavaScript)');
  return (fn.body as AnyFn)(...(fn.args ?? []));
};

let context: Context | undefined;
const getContext = (): Context => {
  context ??= Context.init({
    accumulator: { ...(acc as any), $sum, $avg, $min: extreme(-1), $max: extreme(1), $addToSet },
    expression: {
      ...(expr as any),
      $eq: compareOp((c) => c === 0),
      $ne: compareOp((c) => c !== 0),
      $gt: compareOp((c) => c > 0),
      $gte: compareOp((c) => c >= 0),
      $lt: compareOp((c) => c < 0),
      $lte: compareOp((c) => c <= 0),
      $cmp: (obj: unknown, args: unknown, options: Opts) => {
        const [a, b] = evalArgs(obj, args, options);
        return compareValues(a ?? null, b ?? null);
      },
      $add,
      $multiply,
      $subtract,
      $divide,
      $type,
      $toString,
      $toObjectId,
      $toDecimal,
      $toLong,
      $toDate,
      $function,
    },
    pipeline: {
      ...(pipelineOperators as any),
      $match,
      $sort,
      $group,
      $sortByCount,
      $lookup,
      $bucket,
      $project,
      $__copy: (coll: LazyIter) => coll.map((d: Document) => cloneDoc(d)),
      $geoNear: unsupportedStage('$geoNear'),
      $search: unsupportedStage('$search'),
      $graphLookup: (pipelineOperators as any).$graphLookup,
    },
    projection: projectionOperators,
    query: queryOperators,
    window: windowOperators,
  });
  return context;
};

export interface PipelineOptions {
  collectionResolver?: (name: string) => Document[];
  variables?: Document;
}

const baseOptions = (o: PipelineOptions = {}): Opts => ({
  context: getContext(),
  idKey: '_id',
  useStrictMode: true,
  scriptEnabled: false,
  collectionResolver: o.collectionResolver,
  variables: o.variables,
});

const encodedExpressions = new WeakMap<object, unknown>();
const encodedExpression = (e: unknown): unknown => {
  if (e === null || typeof e !== 'object') return mentionsReserved(e) ? encodeExpression(e) : e;
  let out = encodedExpressions.get(e);
  if (out === undefined) {
    out = mentionsReserved(e) ? encodeExpression(e) : e;
    encodedExpressions.set(e, out);
  }
  return out;
};

/**
 * Evaluates an aggregation expression against a document (used by $expr and computed projections). Options
 * come from a running pipeline, whose documents and expressions are already encoded (see mingo-names.ts).
 */
export const evalExpression = (doc: unknown, e: unknown, options?: Opts): unknown => {
  try {
    if (options) return evalExpr(doc, e, options as any);
    return decodeData(evalExpr(encodeData(doc) as any, encodedExpression(e) as any, baseOptions() as any));
  } catch (err) {
    throw toCommandError(err);
  }
};

export const unrecognizedStage = (name: string) =>
  new MongoCommandError(40324, 'Location40324', `Unrecognized pipeline stage name: '${name}'`);

/** Whether mingo (with our replacements) runs a stage of this name. */
export const isKnownStage = (name: string): boolean => !!getContext().getOperator('pipeline' as any, name);

/** Turns mingo's plain errors into BadValue answers with mingo's message. */
export const toCommandError = (err: unknown): unknown => {
  if (err instanceof MongoCommandError) return err;
  if (err instanceof Error) {
    const message = err.message.replace(/^mingo: /, '');
    const stage = /^unregistered pipeline operator (\S+?)\.?$/.exec(message);
    if (stage) return unrecognizedStage(stage[1]);
    const op = /^accumulator '(\S+)' is not registered\.?$/.exec(message);
    if (op) return new MongoCommandError(168, 'InvalidPipelineOperator', `Unrecognized expression '${op[1]}'`);
    return badValue(message);
  }
  return err;
};

/**
 * Stages known not to modify their input documents. mingo's $addFields/$project/$unwind write into nested
 * objects of their input, and stored documents are shared and immutable, so the pipeline copies documents
 * just before the first stage outside this set.
 */
const NON_MUTATING = new Set(['$match', '$sort', '$limit', '$skip', '$count', '$sample', '$documents']);

/**
 * Runs a pipeline over documents. Reserved field names (`__proto__`, `constructor`...) are renamed on the
 * way in and given back on the way out, so mingo only ever sees ordinary names.
 */
export const runPipeline = (docs: Document[], pipeline: Document[], o: PipelineOptions = {}): Document[] => {
  const stages = mentionsReserved(pipeline) ? (encodeExpression(pipeline) as Document[]) : pipeline;
  // Only when something was renamed can mingo's answer hold renamed fields (most pipelines skip the decode).
  let renamed = stages !== pipeline;
  const encode = <T>(v: T): T => {
    const e = encodeData(v);
    if (e !== v) renamed = true;
    return e;
  };
  const resolver = o.collectionResolver;
  const out = runMingo(docs.map(encode), stages, {
    collectionResolver: resolver && ((name: string) => resolver(name).map(encode)),
    variables: o.variables === undefined ? undefined : encode(o.variables),
  });
  return renamed ? out.map(decodeData) : out;
};

const runMingo = (docs: Document[], pipeline: Document[], o: PipelineOptions = {}): Document[] => {
  const firstMutating = pipeline.findIndex((st) => !NON_MUTATING.has(Object.keys(st)[0] ?? ''));
  const stages =
    firstMutating < 0
      ? pipeline
      : [...pipeline.slice(0, firstMutating), { $__copy: true }, ...pipeline.slice(firstMutating)];
  try {
    return new Aggregator(stages as any, baseOptions(o) as any).run(docs);
  } catch (err) {
    throw toCommandError(err);
  }
};
