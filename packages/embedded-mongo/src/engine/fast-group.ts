// The aggregation fast path for `[$match?, $group, ...]` (the engine's fastGroup plans which documents to
// visit): which pipelines it takes, and the one loop that groups them. Same values, types and group order as
// mingo; a document whose shape mingo decides itself (an array or a non-document on a path) sends the whole
// pipeline back to mingo.
import { Long, type Document } from 'bson';
import { asDouble, wouldBecomeInt32 } from './bson-codec.js';
import {
  canonicalKey,
  compareValues,
  currentCollator,
  getField,
  isNumeric,
  isPlainObject,
  numericAdd,
  numericMul,
  setField,
} from './bson-values.js';
import { averageOf } from './mingo-context.js';
import type { Matcher } from './query.js';

/** Marks a document the fast path leaves to mingo (an array or a non-document on a path). */
const BAIL = Symbol('bail');

const fieldPathOf = (e: unknown): string[] | undefined =>
  typeof e === 'string' && e.length > 1 && e.startsWith('$') && !e.startsWith('$$') ? e.slice(1).split('.') : undefined;

/** A field path's value as mingo's `$a.b` gives it, or BAIL where mingo would map over an array. */
const pathValue = (doc: Document, segs: string[]): unknown => {
  // The stored document itself is a plain object: only subdocuments on the way need checking.
  let v: unknown = getField(doc, segs[0]);
  for (let i = 1; i < segs.length; i++) {
    if (v === null || v === undefined) return undefined;
    if (typeof v !== 'object' || Array.isArray(v) || !isPlainObject(v)) return BAIL;
    v = getField(v, segs[i]);
  }
  return Array.isArray(v) ? BAIL : v;
};

/** $expr anywhere in a filter (it may read pipeline variables: left to the mingo path). */
const mentionsExpr = (v: unknown): boolean => {
  if (Array.isArray(v)) return v.some(mentionsExpr);
  if (!isPlainObject(v)) return false;
  return Object.keys(v).some((k) => k === '$expr' || mentionsExpr(v[k]));
};

export type GroupId =
  | { kind: 'const'; value: unknown; of: (d: Document) => unknown }
  | { kind: 'path'; of: (d: Document) => unknown }
  | { kind: 'object'; of: (d: Document) => unknown; keyOf: (d: Document) => string | typeof BAIL };
const compileGroupId = (e: unknown): GroupId | undefined => {
  if (e === null || typeof e === 'number' || typeof e === 'boolean' || (typeof e === 'string' && !e.startsWith('$'))) {
    return { kind: 'const', value: e, of: () => e };
  }
  const segs = fieldPathOf(e);
  if (segs)
    return {
      kind: 'path',
      of: (d) => {
        const v = pathValue(d, segs);
        return v === undefined ? null : v;
      },
    };
  if (isPlainObject(e) && Object.keys(e).length > 0) {
    const parts = Object.keys(e).map((k) => [k, fieldPathOf(e[k])] as const);
    if (parts.some(([k, p]) => !p || k.startsWith('$') || k.includes('.'))) return undefined;
    return {
      kind: 'object',
      keyOf: (d) => {
        let k = '';
        for (const [, p] of parts) {
          const v = pathValue(d, p!);
          if (v === BAIL || v === undefined) return BAIL;
          const c = canonicalKey(v);
          k += `${c.length}:${c}`;
        }
        return k;
      },
      of: (d) => {
        const o: Document = {};
        for (const [k, p] of parts) {
          const v = pathValue(d, p!);
          // mingo's handling of a missing member is its own; leave such documents to it.
          if (v === BAIL || v === undefined) return BAIL;
          setField(o, k, v);
        }
        return o;
      },
    };
  }
  return undefined;
};

/**
 * A $sum as numericAdd computes it from 0, one value at a time, with the common case kept in a plain
 * number: ints stay int until int32 overflows (then a Long, as mongod), anything with a double is a
 * double. Long and Decimal128 values (and an overflow) switch to numericAdd for exact arithmetic.
 */
class RunningSum {
  private num = 0;
  private isDouble = false;
  /** Set once the sum left plain numbers: the exact value numericAdd keeps. */
  private exact: unknown = undefined;

  /** Adds a value if it is a number; false (and nothing added) for anything else. */
  add(v: unknown): boolean {
    if (this.exact === undefined) {
      if (typeof v === 'number') {
        if (!this.isDouble && wouldBecomeInt32(v)) {
          const r = this.num + v;
          if (r > 2147483647 || r < -2147483648) this.exact = Long.fromNumber(r);
          else this.num = r;
        } else {
          this.isDouble = true;
          this.num += v;
        }
        return true;
      }
      const t = (v as { _bsontype?: string } | null)?._bsontype;
      if (t === 'Double' || t === 'Int32') {
        const x = (v as { value: number }).value;
        if (t === 'Double') {
          this.isDouble = true;
          this.num += x;
          return true;
        }
        return this.add(x);
      }
      if (!isNumeric(v)) return false;
      this.exact = this.value();
    } else if (!isNumeric(v)) return false;
    this.exact = numericAdd(this.exact, v);
    return true;
  }

  value(): unknown {
    if (this.exact !== undefined) return this.exact;
    return this.isDouble ? asDouble(this.num) : this.num;
  }
}

export interface FastAcc {
  name: string;
  kind: 'count' | 'sumConst' | 'sum' | 'avg' | 'min' | 'max';
  value?: unknown;
  segs?: string[];
  init: unknown;
}
const compileAccumulator = (name: string, a: unknown): FastAcc | undefined => {
  if (name.startsWith('$') || name.includes('.') || !isPlainObject(a) || Object.keys(a).length !== 1) return undefined;
  const op = Object.keys(a)[0];
  const arg = a[op];
  const segs = fieldPathOf(arg);
  switch (op) {
    case '$count':
      return isPlainObject(arg) && Object.keys(arg).length === 0 ? { name, kind: 'count', init: 0 } : undefined;
    case '$sum':
      if (isNumeric(arg)) return { name, kind: 'sumConst', value: arg, init: 0 };
      return segs ? { name, kind: 'sum', segs, init: 0 } : undefined;
    case '$avg':
      return segs ? { name, kind: 'avg', segs, init: 0 } : undefined;
    case '$min':
      return segs ? { name, kind: 'min', segs, init: null } : undefined;
    case '$max':
      return segs ? { name, kind: 'max', segs, init: null } : undefined;
    default:
      return undefined;
  }
};

/** A pipeline the fast path takes: its leading $match (or {}), the $group's key and accumulators. */
export interface FastGroupSpec {
  match: Document;
  idSpec: GroupId;
  accs: FastAcc[];
  /** The stages after $group, run through mingo on the groups. */
  rest: Document[];
}

/**
 * `[$match?, $group, ...]` where the group key is null, a constant, a field path or an object of field
 * paths, and every accumulator is $sum (of a number or a field path), $count, $avg, $min or $max; else
 * undefined (mingo runs it).
 */
export const fastGroupSpec = (body: Document[]): FastGroupSpec | undefined => {
  let at = 0;
  let match: Document = {};
  if (body[0] && '$match' in body[0]) {
    match = body[0].$match;
    if (!isPlainObject(match) || mentionsExpr(match)) return undefined;
    at = 1;
  }
  const stage = body[at];
  if (!stage || !('$group' in stage)) return undefined;
  const spec = stage.$group;
  if (!isPlainObject(spec) || !('_id' in spec)) return undefined;
  const idSpec = compileGroupId(spec._id);
  if (!idSpec) return undefined;
  const accs: FastAcc[] = [];
  for (const name of Object.keys(spec)) {
    if (name === '_id') continue;
    const a = compileAccumulator(name, spec[name]);
    if (!a) return undefined;
    accs.push(a);
  }
  return { match, idSpec, accs, rest: body.slice(at + 1) };
};

/** Counting only (a constant key, $count and $sum of constants): the group's size is all it needs. */
export const countsOnly = ({ idSpec, accs }: FastGroupSpec): boolean =>
  idSpec.kind === 'const' && accs.every((a) => a.kind === 'count' || a.kind === 'sumConst');

/** The group of a counting-only spec (countsOnly) over `n` matching documents (none when n is 0). */
export const countedGroups = ({ idSpec, accs }: FastGroupSpec, n: number): Document[] => {
  if (n === 0 || idSpec.kind !== 'const') return [];
  const o: Document = { _id: idSpec.value };
  for (const a of accs) setField(o, a.name, a.kind === 'count' ? n : numericMul(a.value, n));
  return [o];
};

/** Groups the documents `matches` keeps, in first-seen order; undefined where mingo must decide. */
export const groupDocuments = (
  docs: readonly Document[],
  matches: Matcher,
  { idSpec, accs }: FastGroupSpec,
): Document[] | undefined => {
  interface G {
    id: unknown;
    n: number;
    state: unknown[];
    counts: number[];
  }
  // Groups in first-seen order; looked up by the key's own string when it is one (no collation), else by
  // its canonical key (1, 1.0 and Long(1) are one group).
  const groups: G[] = [];
  const byString = new Map<string, G>();
  const byKey = new Map<string, G>();
  const binary = currentCollator() === null;
  const newGroup = (id: unknown): G => {
    const g: G = {
      id,
      n: 0,
      state: accs.map((a) => (a.kind === 'sum' || a.kind === 'avg' ? new RunningSum() : a.init)),
      counts: accs.map(() => 0),
    };
    groups.push(g);
    return g;
  };
  for (const doc of docs) {
    if (!matches(doc)) continue;
    let g: G | undefined;
    if (idSpec.kind === 'const') g = groups[0] ?? newGroup(idSpec.value);
    else if (idSpec.kind === 'path') {
      const id = idSpec.of(doc);
      if (id === BAIL) return undefined;
      if (binary && typeof id === 'string') {
        g = byString.get(id);
        if (!g) {
          const k = canonicalKey(id);
          g = byKey.get(k) ?? newGroup(id);
          byKey.set(k, g);
          byString.set(id, g);
        }
      } else {
        const k = canonicalKey(id);
        g = byKey.get(k);
        if (!g) {
          g = newGroup(id);
          byKey.set(k, g);
        }
      }
    } else {
      // An object of field paths: the members' canonical keys joined say the same as the object's.
      const k = idSpec.keyOf(doc);
      if (k === BAIL) return undefined;
      g = byKey.get(k);
      if (!g) {
        g = newGroup(idSpec.of(doc));
        byKey.set(k, g);
      }
    }
    g.n++;
    for (let i = 0; i < accs.length; i++) {
      const a = accs[i];
      if (a.kind === 'count' || a.kind === 'sumConst') continue;
      const v = pathValue(doc, a.segs!);
      if (v === BAIL) return undefined;
      if (a.kind === 'sum' || a.kind === 'avg') {
        if (v !== null && v !== undefined && (g.state[i] as RunningSum).add(v)) g.counts[i]++;
      } else if (v !== null && v !== undefined) {
        const best = g.state[i];
        if (best === null || compareValues(v, best) * (a.kind === 'max' ? 1 : -1) > 0) g.state[i] = v;
      }
    }
  }
  const out: Document[] = [];
  for (const g of groups) {
    const o: Document = { _id: g.id };
    accs.forEach((a, i) => {
      if (a.kind === 'count') setField(o, a.name, g.n);
      else if (a.kind === 'sumConst') setField(o, a.name, numericMul(a.value, g.n));
      else if (a.kind === 'avg')
        setField(o, a.name, g.counts[i] === 0 ? null : averageOf((g.state[i] as RunningSum).value(), g.counts[i]));
      else if (a.kind === 'sum') setField(o, a.name, (g.state[i] as RunningSum).value());
      else setField(o, a.name, g.state[i]);
    });
    out.push(o);
  }
  return out;
};
