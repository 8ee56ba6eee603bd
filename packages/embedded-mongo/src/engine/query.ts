// Query predicates with MongoDB's semantics: implicit array traversal, BSON type bracketing for range
// operators, null matching missing fields, and the array position a match came from (for the positional
// `$` in updates and projections). mingo is used only to evaluate `$expr` aggregation expressions.
import type { Document } from 'bson';
import {
  TYPE_ALIASES,
  TYPE_NUMBERS,
  bsonTypeOf,
  type BsonTypeName,
  compareValues,
  getField,
  isNumeric,
  isPlainObject,
  numberOf,
  typeRank,
} from './bson-values.js';
import { badValue, notSupported } from './errors.js';
import { MongoCommandError } from './types.js';
import { evalExpression } from './mingo-context.js';
import { compileSchema } from './json-schema.js';

/** Per-evaluation state: the first array index that satisfied a predicate (MongoDB's positional match). */
export interface MatchState {
  pos?: number;
}
export type Matcher = (doc: Document, state?: MatchState) => boolean;

interface Candidate {
  value: unknown;
  pos: number | undefined;
}

const isIndexSegment = (s: string) => /^\d+$/.test(s);

/** The values a dotted path reaches, walking through arrays of subdocuments the way MongoDB does. */
export const collectPath = (root: unknown, segs: string[]): Candidate[] => {
  // Fast path (every query on every document goes through here): no array on the way gives one value.
  let v: unknown = root;
  for (let i = 0; i < segs.length; i++) {
    if (Array.isArray(v)) return walkPath(root, segs);
    if (!isPlainObject(v)) return [{ value: undefined, pos: undefined }];
    v = getField(v, segs[i]);
  }
  return [{ value: v, pos: undefined }];
};

const walkPath = (root: unknown, segs: string[]): Candidate[] => {
  const out: Candidate[] = [];
  const walk = (v: unknown, i: number, pos: number | undefined): void => {
    if (i === segs.length) {
      out.push({ value: v, pos });
      return;
    }
    const seg = segs[i];
    if (Array.isArray(v)) {
      const before = out.length;
      if (isIndexSegment(seg)) {
        const idx = Number(seg);
        if (idx < v.length) walk(v[idx], i + 1, pos);
      }
      v.forEach((el, j) => {
        if (isPlainObject(el)) walk(el, i, pos ?? j);
      });
      if (out.length === before) out.push({ value: undefined, pos });
      return;
    }
    if (isPlainObject(v)) {
      walk(getField(v, seg), i + 1, pos);
      return;
    }
    out.push({ value: undefined, pos });
  };
  walk(root, 0, undefined);
  return out;
};

/** Plain dotted-path lookup without array expansion (first value only), used for sort keys of scalars. */
export const getPath = (root: unknown, path: string): unknown => {
  let v: unknown = root;
  for (const seg of path.split('.')) {
    if (Array.isArray(v) && isIndexSegment(seg)) v = v[Number(seg)];
    else if (isPlainObject(v)) v = getField(v, seg);
    else return undefined;
  }
  return v;
};

type ValueTest = (v: unknown) => boolean;

const isRegex = (v: unknown) => bsonTypeOf(v) === 'regex';
/** A pattern JavaScript cannot compile answers mongod's "Regular expression is invalid" (51091). */
const compileRegExp = (pattern: string, flags: string): RegExp => {
  try {
    return new RegExp(pattern, flags);
  } catch (err) {
    throw new MongoCommandError(
      51091,
      'Location51091',
      `Regular expression is invalid: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
    );
  }
};
const toRegExp = (v: unknown, extraOptions = ''): RegExp => {
  if (v instanceof RegExp) return extraOptions ? compileRegExp(v.source, mergeFlags(v.flags, extraOptions)) : v;
  if (typeof v === 'string') return compileRegExp(v, mergeFlags('', extraOptions));
  const r = v as { pattern: string; options: string };
  return compileRegExp(r.pattern, mergeFlags('', r.options + extraOptions));
};
const mergeFlags = (flags: string, options: string) => {
  const set = new Set(flags.split(''));
  for (const o of options) {
    if (o === 'i' || o === 'm' || o === 's') set.add(o);
    else if (o === 'x' || o === 'u' || o === 'g' || o === 'l') {
      /* x (extended) has no JS flag; ignored */
    } else throw badValue(`invalid flag in regex options: ${o}`);
  }
  return [...set].filter((f) => 'gimsuy'.includes(f)).join('');
};

const regexTest =
  (re: RegExp): ValueTest =>
  (v) => {
    if (typeof v === 'string') {
      re.lastIndex = 0;
      return re.test(v);
    }
    if (isRegex(v)) return compareValues(v, re) === 0;
    return false;
  };

/** Equality as a query sees it: null also matches missing; regexes in $in match strings. */
const equalsTest = (q: unknown): ValueTest => {
  if (q === null || q === undefined) return (v) => v === null || v === undefined;
  const rank = typeRank(q);
  return (v) => typeRank(v) === rank && compareValues(v, q) === 0;
};

const rangeTest = (op: string, q: unknown): ValueTest => {
  const rank = typeRank(q);
  const ok = (c: number) => (op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0);
  if (rank === 1)
    return (v) =>
      op === '$gt' || op === '$gte' ? op === '$gte' || typeRank(v) !== 1 : op === '$lte' && typeRank(v) === 1;
  if (rank === 14)
    return (v) =>
      op === '$lt' || op === '$lte' ? op === '$lte' || typeRank(v) !== 14 : op === '$gte' && typeRank(v) === 14;
  if (rank === 2) return (v) => (op === '$gte' || op === '$lte') && (v === null || v === undefined);
  return (v) => typeRank(v) === rank && ok(compareValues(v, q));
};

const typeTest = (spec: unknown): ValueTest => {
  const specs = Array.isArray(spec) ? spec : [spec];
  const names = new Set<string>();
  for (const s of specs) {
    let name: string | undefined;
    if (typeof s === 'string') name = s;
    else if (isNumeric(s)) name = TYPE_NUMBERS[numberOf(s)];
    const aliases = name === undefined ? undefined : (getField(TYPE_ALIASES, name) as BsonTypeName[] | undefined);
    if (!aliases) throw badValue(`Unknown type name alias: ${String(s)}`);
    for (const t of aliases) names.add(t);
  }
  return (v) => {
    if (v === undefined) return false;
    return names.has(bsonTypeOf(v));
  };
};

/** Binary data as one little-endian number: bit 0 is the lowest bit of the first byte, as MongoDB reads it. */
const binaryBits = (v: unknown): bigint => {
  const b = v as { buffer?: Uint8Array; position?: number };
  const bytes = ArrayBuffer.isView(v)
    ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength)
    : b.buffer!.subarray(0, b.position ?? b.buffer!.length);
  let x = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(bytes[i]);
  return x;
};

const bitsTest = (op: string, mask: unknown): ValueTest => {
  let m: bigint;
  if (Array.isArray(mask)) {
    m = mask.reduce((acc: bigint, p) => {
      if (!isNumeric(p) || !Number.isInteger(numberOf(p)) || numberOf(p) < 0)
        throw badValue(`bit positions must be non-negative integers but received: ${String(p)}`);
      return acc | (1n << BigInt(numberOf(p)));
    }, 0n);
  } else if (isNumeric(mask)) {
    const n = numberOf(mask);
    if (!Number.isInteger(n) || n < 0)
      throw badValue(
        `${op} takes a non-negative integral number, an Array, or a BinData but received: ${String(mask)}`,
      );
    m = BigInt(n);
  } else if (bsonTypeOf(mask) === 'binData') m = binaryBits(mask);
  else throw badValue(`${op} takes an Array, a number, or a BinData but received: ${String(mask)}`);
  return (v) => {
    let x: bigint;
    if (bsonTypeOf(v) === 'binData') x = binaryBits(v);
    else {
      if (!isNumeric(v)) return false;
      const n = numberOf(v);
      if (!Number.isInteger(n)) return false;
      // Negative numbers are two's complement, sign-extended past 64 bits (bit positions beyond are set).
      x = BigInt(n);
      if (x < 0n)
        x = BigInt.asUintN(64, x) | (((1n << BigInt(Math.max(64, m.toString(2).length))) - 1n) ^ ((1n << 64n) - 1n));
    }
    switch (op) {
      case '$bitsAllSet':
        return (x & m) === m;
      case '$bitsAnySet':
        return (x & m) !== 0n;
      case '$bitsAllClear':
        return (x & m) === 0n;
      default:
        return (x & m) !== m;
    }
  };
};

const GEO = new Set([
  '$near',
  '$nearSphere',
  '$geoWithin',
  '$geoIntersects',
  '$within',
  '$box',
  '$center',
  '$centerSphere',
  '$polygon',
  '$geometry',
  '$maxDistance',
  '$minDistance',
]);

/** A predicate over one field's candidates. Returns true/false and updates state.pos on array matches. */
type FieldTest = (cands: Candidate[], state: MatchState) => boolean;

/** Applies a value test to each candidate and, for array candidates, to each element. */
const anyValue =
  (test: ValueTest, wholeArrayToo = true): FieldTest =>
  (cands, state) => {
    for (const c of cands) {
      if (Array.isArray(c.value)) {
        if (wholeArrayToo && test(c.value)) {
          if (c.pos !== undefined) state.pos = c.pos;
          return true;
        }
        const arr = c.value;
        for (let j = 0; j < arr.length; j++)
          if (test(arr[j])) {
            state.pos = c.pos ?? j;
            return true;
          }
      } else if (test(c.value)) {
        if (c.pos !== undefined) state.pos = c.pos;
        return true;
      }
    }
    return false;
  };

/** DBRef's fields (`{$ref, $id, $db}`) are field names in queries, not operators. */
const DBREF_KEYS = new Set(['$ref', '$id', '$db']);
const isOperatorName = (k: string) => k.startsWith('$') && !DBREF_KEYS.has(k);

const isOperatorObject = (v: unknown): v is Document => {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && isOperatorName(keys[0]);
};

/**
 * An `$elemMatch` argument made only of operators (`{$gte: 80, $lt: 85}`, `{$in: [...]}`) tests the elements
 * themselves; one with field names (or $and/$or/$nor/$expr) tests subdocuments.
 */
export const isOperatorOnly = (arg: Document): boolean => {
  const keys = Object.keys(arg);
  return (
    keys.length > 0 &&
    keys.every((k) => isOperatorName(k) && !['$and', '$or', '$nor', '$expr', '$where', '$text', '$comment'].includes(k))
  );
};

const compileOperator = (op: string, arg: unknown, allOps: Document, path: string): FieldTest => {
  switch (op) {
    case '$eq':
      return isRegex(arg) ? anyValue((v) => isRegex(v) && compareValues(v, arg) === 0) : anyValue(equalsTest(arg));
    case '$ne': {
      const t = compileOperator('$eq', arg, allOps, path);
      return (c, s) => !t(c, { ...s });
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      if (isRegex(arg)) throw badValue(`Can't have RegEx as arg to predicate over field '${path}'.`);
      return anyValue(rangeTest(op, arg));
    case '$in':
    case '$nin': {
      if (!Array.isArray(arg)) throw badValue(`${op} needs an array`);
      const tests = arg.map((x) => {
        if (isOperatorObject(x) && !('$regex' in x)) throw badValue('cannot nest $ under $in');
        return isRegex(x) ? regexTest(toRegExp(x)) : equalsTest(x);
      });
      const t = anyValue((v) => {
        for (let i = 0; i < tests.length; i++) if (tests[i](v)) return true;
        return false;
      });
      if (op === '$in') return t;
      return (c, s) => !t(c, { ...s });
    }
    case '$exists': {
      const want = !(arg === false || arg === 0 || arg === null);
      if (!want) return (cands) => !cands.some((c) => c.value !== undefined);
      // The array element the field exists in is the positional match (`{'items.sku': {$exists: true}}`).
      return (cands, state) => {
        const hit = cands.find((c) => c.value !== undefined);
        if (!hit) return false;
        if (hit.pos !== undefined) state.pos = hit.pos;
        return true;
      };
    }
    case '$type': {
      const t = typeTest(arg);
      return anyValue(t);
    }
    case '$regex': {
      const options = typeof allOps.$options === 'string' ? allOps.$options : '';
      if (typeof arg !== 'string' && !isRegex(arg)) throw badValue('$regex has to be a string');
      return anyValue(regexTest(toRegExp(arg, options)), false);
    }
    case '$options':
      if (!('$regex' in allOps)) throw badValue('$options needs a $regex');
      return () => true;
    case '$not': {
      if (isRegex(arg)) {
        const t = anyValue(regexTest(toRegExp(arg)), false);
        return (c, s) => !t(c, { ...s });
      }
      if (!isPlainObject(arg) || !isOperatorObject(arg)) throw badValue('$not needs a regex or a document');
      const t = compileField(path, arg);
      return (c, s) => !t(c, { ...s });
    }
    case '$size': {
      if (!isNumeric(arg) || !Number.isInteger(numberOf(arg)) || numberOf(arg) < 0)
        throw badValue('$size needs a non-negative integer');
      const n = numberOf(arg);
      return (cands) => cands.some((c) => Array.isArray(c.value) && c.value.length === n);
    }
    case '$all': {
      if (!Array.isArray(arg)) throw badValue('$all needs an array');
      if (arg.length === 0) return () => false;
      const parts = arg.map((x) => {
        if (isPlainObject(x) && '$elemMatch' in x) return compileOperator('$elemMatch', x.$elemMatch, x, path);
        if (isOperatorObject(x)) throw badValue('no $ expressions in $all');
        return isRegex(x) ? anyValue(regexTest(toRegExp(x)), false) : anyValue(equalsTest(x));
      });
      return (c, s) => parts.every((p) => p(c, s));
    }
    case '$elemMatch': {
      if (!isPlainObject(arg)) throw badValue('$elemMatch needs an Object');
      const test: ValueTest = isOperatorOnly(arg)
        ? ((): ValueTest => {
            const f = compileField('', arg);
            return (v) => f([{ value: v, pos: undefined }], {});
          })()
        : ((): ValueTest => {
            const m = compileFilter(arg);
            return (v) => isPlainObject(v) && m(v);
          })();
      return (cands, state) => {
        for (const c of cands) {
          if (!Array.isArray(c.value)) continue;
          for (let j = 0; j < c.value.length; j++)
            if (test(c.value[j])) {
              state.pos = c.pos ?? j;
              return true;
            }
        }
        return false;
      };
    }
    case '$mod': {
      if (!Array.isArray(arg) || arg.length !== 2)
        throw badValue('malformed mod, needs to be an array of [divisor, remainder]');
      if (!isNumeric(arg[0]) || !isNumeric(arg[1]))
        throw badValue('malformed mod, divisor and remainder must be numbers');
      const d = Math.trunc(numberOf(arg[0])),
        r = Math.trunc(numberOf(arg[1]));
      if (d === 0) throw badValue('divisor cannot be 0');
      return anyValue((v) => isNumeric(v) && Number.isFinite(numberOf(v)) && Math.trunc(numberOf(v)) % d === r, false);
    }
    case '$bitsAllSet':
    case '$bitsAnySet':
    case '$bitsAllClear':
    case '$bitsAnyClear':
      return anyValue(bitsTest(op, arg), false);
    case '$comment':
      return () => true;
    case '$where':
      throw notSupported('$where');
    case '$text':
      throw notSupported('$text');
    default:
      if (GEO.has(op)) throw notSupported(`${op} (geospatial queries)`);
      throw badValue(`unknown operator: ${op}`);
  }
};

const compileField = (path: string, cond: unknown): FieldTest => {
  const segs = path === '' ? [] : path.split('.');
  let test: FieldTest;
  if (isOperatorObject(cond)) {
    const parts = Object.keys(cond).map((op) => compileOperator(op, cond[op], cond, path));
    test =
      parts.length === 1
        ? parts[0]
        : (cands, state) => {
            for (let i = 0; i < parts.length; i++) if (!parts[i](cands, state)) return false;
            return true;
          };
  } else if (isRegex(cond)) test = anyValue(regexTest(toRegExp(cond)), false);
  else test = anyValue(equalsTest(cond));
  if (segs.length === 0) return test;
  return test;
};

const truthy = (v: unknown) => !(v === false || v === null || v === undefined || (isNumeric(v) && numberOf(v) === 0));

/** Compiles a MongoDB filter document into a predicate. Throws BadValue on malformed filters. */
export const compileFilter = (filter: Document | undefined | null, exprOptions?: Record<string, unknown>): Matcher => {
  if (filter === undefined || filter === null) return () => true;
  if (!isPlainObject(filter)) throw badValue('filter must be an object');
  const parts: Matcher[] = [];
  for (const key of Object.keys(filter)) {
    const cond = filter[key];
    if (isOperatorName(key)) {
      switch (key) {
        case '$and':
        case '$or':
        case '$nor': {
          if (!Array.isArray(cond) || cond.length === 0) throw badValue(`${key} must be a nonempty array`);
          const subs = cond.map((c) => {
            if (!isPlainObject(c)) throw badValue(`${key} argument's entries must be objects`);
            return compileFilter(c, exprOptions);
          });
          // Plain loops: a closure per document per call shows in profiles of 100,000-document scans.
          if (key === '$and')
            parts.push((d, s) => {
              for (let i = 0; i < subs.length; i++) if (!subs[i](d, s)) return false;
              return true;
            });
          else if (key === '$or')
            parts.push((d, s) => {
              for (let i = 0; i < subs.length; i++) if (subs[i](d, s)) return true;
              return false;
            });
          else
            parts.push((d) => {
              for (let i = 0; i < subs.length; i++) if (subs[i](d, {})) return false;
              return true;
            });
          break;
        }
        case '$expr':
          parts.push((d) => truthy(evalExpression(d, cond, exprOptions)));
          break;
        case '$comment':
          break;
        case '$alwaysTrue':
          break;
        case '$alwaysFalse':
          parts.push(() => false);
          break;
        case '$where':
          throw notSupported('$where');
        case '$text':
          throw notSupported('$text');
        case '$jsonSchema': {
          const t = compileSchema(cond);
          parts.push((d) => t(d));
          break;
        }
        default:
          throw badValue(
            `unknown top level operator: ${key}. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.`,
          );
      }
      continue;
    }
    const segs = key.split('.');
    const t = compileField(key, cond);
    parts.push((d, s) => t(collectPath(d, segs), s ?? {}));
  }
  if (parts.length === 1) return parts[0];
  if (parts.length === 0) return () => true;
  return (d, s) => {
    const st = s ?? {};
    for (let i = 0; i < parts.length; i++) if (!parts[i](d, st)) return false;
    return true;
  };
};

/**
 * Equality fields a query pins down (`{a: 1}`, `{a: {$eq: 1}}`, `$and` of those). Used to seed upserts and
 * to pick an index. Returns path -> value.
 */
export const equalityFields = (filter: Document | undefined): Map<string, unknown> => {
  const out = new Map<string, unknown>();
  const visit = (f: Document) => {
    for (const key of Object.keys(f)) {
      const v = f[key];
      if (key === '$and' && Array.isArray(v)) {
        v.forEach((x) => isPlainObject(x) && visit(x));
        continue;
      }
      if (key.startsWith('$')) continue;
      if (isOperatorObject(v)) {
        if ('$eq' in v) out.set(key, v.$eq);
        else if (Array.isArray(v.$in) && v.$in.length === 1 && !isRegex(v.$in[0])) out.set(key, v.$in[0]);
      } else if (!isRegex(v)) out.set(key, v);
    }
  };
  if (filter) visit(filter);
  return out;
};
