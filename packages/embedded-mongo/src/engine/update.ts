// Update operators, replacements and pipeline updates with MongoDB's validation and error codes. An update
// never mutates the stored document: it works on a copy and returns the new document.
import { ObjectId, Timestamp, Long, type Document } from 'bson';
import {
  bsonTypeOf,
  cloneDoc,
  sharedDate,
  compareValues,
  formatValue,
  getField,
  hasField,
  isNumeric,
  isPlainObject,
  numberOf,
  numericAdd,
  numericMul,
  setField,
  valuesEqual,
} from './bson-values.js';
import {
  badValue,
  conflictingUpdate,
  dollarPrefixed,
  failedToParse,
  immutableField,
  pathNotViable,
  typeMismatch,
} from './errors.js';
import { compileFilter, type Matcher } from './query.js';
import { runPipeline } from './mingo-context.js';
import { MongoCommandError } from './types.js';

const OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$rename',
  '$setOnInsert',
  '$min',
  '$max',
  '$currentDate',
  '$push',
  '$addToSet',
  '$pull',
  '$pullAll',
  '$pop',
  '$bit',
]);
const PIPELINE_STAGES = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);

export interface ApplyContext {
  /** Array index matched by the query, for the positional `$`. */
  pos?: number;
  /** True when the update creates a document through an upsert ($setOnInsert applies). */
  inserting: boolean;
  now: Date;
}

interface Op {
  op: string;
  path: string;
  segs: string[];
  arg: unknown;
  /** A `$`-prefixed field name on the path: storable only when the update inserts (an upsert), as in MongoDB 5+. */
  dollarField?: string;
}

export type CompiledUpdate =
  | { kind: 'replacement'; doc: Document }
  | { kind: 'operators'; ops: Op[]; filters: Map<string, Matcher> }
  | { kind: 'pipeline'; pipeline: Document[] };

const comparePathSegments = (a: string[], b: string[]): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i],
      y = b[i];
    if (x === y) continue;
    const nx = /^\d+$/.test(x),
      ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
};

const isPrefix = (a: string[], b: string[]) => a.length <= b.length && a.every((s, i) => s === b[i]);

/** Parses and validates an update (`u`) once, before any document is touched. */
export const compileUpdate = (u: Document | Document[], arrayFilters?: Document[]): CompiledUpdate => {
  if (Array.isArray(u)) {
    for (const stage of u) {
      const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (!name || !PIPELINE_STAGES.has(name)) {
        throw new MongoCommandError(
          72,
          'InvalidOptions',
          `${name ?? 'stage'} is not allowed to be used within an update`,
        );
      }
    }
    if (arrayFilters?.length) throw failedToParse('arrayFilters may not be specified for pipeline-style updates');
    return { kind: 'pipeline', pipeline: u };
  }
  if (!isPlainObject(u)) throw failedToParse('Update document must be an object or an array of pipeline stages');
  const keys = Object.keys(u);
  if (keys.length === 0 || !keys[0].startsWith('$')) {
    checkReplacement(u);
    if (arrayFilters?.length) throw failedToParse('arrayFilters may not be specified for replacement-style updates');
    return { kind: 'replacement', doc: u };
  }
  const ops: Op[] = [];
  for (const op of keys) {
    if (!OPERATORS.has(op)) {
      throw failedToParse(
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    const fields = u[op];
    if (!isPlainObject(fields)) {
      throw failedToParse(
        `Modifiers operate on fields but we found type ${bsonTypeOf(fields)} instead. For example: {$mod: {<field>: ...}} not {${op}: ${formatValue(fields)}}`,
      );
    }
    for (const path of Object.keys(fields)) {
      const dollarField = validatePath(path, op);
      const arg = fields[path];
      ops.push({ op, path, segs: path.split('.'), arg, ...(dollarField ? { dollarField } : {}) });
      if (op === '$rename') {
        if (typeof arg !== 'string')
          throw badValue(`The 'to' field for $rename must be a string: ${path}: ${formatValue(arg)}`);
        if (arg === path) throw badValue(`The source and target field for $rename must differ: ${path}: "${arg}"`);
        if (validatePath(arg, op) || validatePath(path, op))
          throw dollarPrefixed(`The dollar ($) prefixed field in '${arg}' is not valid for storage.`);
        if (isPrefix(path.split('.'), arg.split('.')) || isPrefix(arg.split('.'), path.split('.'))) {
          throw badValue(`The source and target field for $rename must not be on the same path: ${path}: "${arg}"`);
        }
        if (path.includes('$') || arg.includes('$')) throw badValue('$rename may not use positional operators');
      }
      validateArgument(op, path, arg);
    }
  }
  // Two operators may not touch the same path or a path and its prefix.
  const touched: { segs: string[]; path: string }[] = [];
  for (const o of ops) {
    touched.push({ segs: o.segs, path: o.path });
    if (o.op === '$rename') touched.push({ segs: String(o.arg).split('.'), path: String(o.arg) });
  }
  const sorted = [...touched].sort((a, b) => comparePathSegments(a.segs, b.segs));
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1],
      cur = sorted[i];
    if (isPrefix(prev.segs, cur.segs)) {
      throw conflictingUpdate(`Updating the path '${cur.path}' would create a conflict at '${prev.path}'`);
    }
  }
  // MongoDB (5.0+) applies field updates in lexicographic path order, which decides the order of new fields.
  ops.sort((a, b) => comparePathSegments(a.segs, b.segs));
  const filters = compileArrayFilters(arrayFilters ?? [], ops, u);
  return { kind: 'operators', ops, filters };
};

/** Validates an update path; answers its `$`-prefixed field name (not a positional element) if it has one. */
const validatePath = (path: string, op: string): string | undefined => {
  if (path === '') throw new MongoCommandError(56, 'EmptyFieldName', 'An empty update path is not valid.');
  const segs = path.split('.');
  if (segs.some((s) => s === ''))
    throw new MongoCommandError(
      56,
      'EmptyFieldName',
      `The update path '${path}' contains an empty field name, which is not allowed.`,
    );
  if (segs.filter((s) => s === '$').length > 1)
    throw badValue(`Too many positional (i.e. '$') elements found in path '${path}'`);
  void op;
  return segs.find((s) => s.startsWith('$') && s !== '$' && !/^\$\[[a-z][a-zA-Z0-9]*\]$/.test(s) && s !== '$[]');
};

const validateArgument = (op: string, path: string, arg: unknown) => {
  switch (op) {
    case '$inc':
    case '$mul':
      if (!isNumeric(arg)) {
        throw typeMismatch(
          `Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${path}: ${formatValue(arg)}}`,
        );
      }
      break;
    case '$pop':
      if (!isNumeric(arg) || (numberOf(arg) !== 1 && numberOf(arg) !== -1))
        throw failedToParse(`$pop expects 1 or -1, found: ${formatValue(arg)}`);
      break;
    case '$pullAll':
      if (!Array.isArray(arg)) throw badValue(`$pullAll requires an array argument but was given a ${bsonTypeOf(arg)}`);
      break;
    case '$currentDate':
      if (!(
        arg === true ||
        arg === false ||
        (isPlainObject(arg) && (arg.$type === 'date' || arg.$type === 'timestamp'))
      )) {
        throw badValue(
          `${formatValue(arg)} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`,
        );
      }
      break;
    case '$bit':
      if (!isPlainObject(arg) || Object.keys(arg).length === 0)
        throw badValue(
          `The $bit modifier is not compatible with a ${bsonTypeOf(arg)}. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}`,
        );
      for (const k of Object.keys(arg)) {
        if (!['and', 'or', 'xor'].includes(k))
          throw badValue(
            `The $bit modifier only supports 'and', 'or', and 'xor', not '${k}' which is an unknown operator: {${k}: ${formatValue(arg[k])}}`,
          );
        const t = bsonTypeOf(arg[k]);
        if (t !== 'int' && t !== 'long')
          throw badValue(
            `The $bit modifier field must be an Integer(32/64 bit); a '${t}' is not supported here: {${k}: ${formatValue(arg[k])}}`,
          );
      }
      break;
    case '$push':
    case '$addToSet':
      if (isPlainObject(arg) && '$each' in arg) {
        if (!Array.isArray(arg.$each))
          throw badValue(
            `The argument to $each in ${op} must be an array but it was of type: ${bsonTypeOf(arg.$each)}`,
          );
        for (const k of Object.keys(arg)) {
          if (op === '$addToSet' && k !== '$each')
            throw badValue(`Found unexpected fields after $each in $addToSet: ${formatValue(arg)}`);
          if (!['$each', '$slice', '$sort', '$position'].includes(k))
            throw badValue(`Unrecognized clause in $push: ${k}`);
        }
        if ('$slice' in arg && (!isNumeric(arg.$slice) || !Number.isInteger(numberOf(arg.$slice))))
          throw badValue('The value for $slice must be an integer value but was given type: ' + bsonTypeOf(arg.$slice));
        if ('$position' in arg && (!isNumeric(arg.$position) || !Number.isInteger(numberOf(arg.$position))))
          throw badValue('The value for $position must be an integer value, not of type: ' + bsonTypeOf(arg.$position));
        if ('$sort' in arg) {
          const s = arg.$sort;
          const okDir = (d: unknown) => isNumeric(d) && (numberOf(d) === 1 || numberOf(d) === -1);
          if (!(okDir(s) || (isPlainObject(s) && Object.keys(s).length > 0 && Object.values(s).every(okDir)))) {
            throw badValue(
              'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
            );
          }
        }
      }
      break;
  }
};

const checkReplacement = (doc: Document) => {
  for (const k of Object.keys(doc)) {
    if (k.startsWith('$')) {
      throw dollarPrefixed(
        `The dollar ($) prefixed field '${k}' in '${k}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
      );
    }
  }
};

const compileArrayFilters = (arrayFilters: Document[], ops: Op[], u: Document): Map<string, Matcher> => {
  const filters = new Map<string, Matcher>();
  for (const f of arrayFilters) {
    if (!isPlainObject(f)) throw failedToParse('arrayFilters entries must be objects');
    const idents = new Set(
      Object.keys(f)
        .filter((k) => !k.startsWith('$'))
        .map((k) => k.split('.')[0]),
    );
    if (idents.size !== 1)
      throw failedToParse(
        `Error parsing array filter :: caused by :: Expected a single top-level field name, found ${idents.size === 0 ? 'none' : `'${[...idents].join("' and '")}'`}`,
      );
    const ident = [...idents][0];
    if (!/^[a-z][a-zA-Z0-9]*$/.test(ident))
      throw badValue(
        `Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '${ident}'`,
      );
    if (filters.has(ident))
      throw failedToParse(`Found multiple array filters with the same top-level field name ${ident}`);
    filters.set(ident, compileFilter(f));
  }
  const used = new Set<string>();
  for (const o of ops) {
    for (const s of o.segs) {
      const m = /^\$\[([a-zA-Z0-9]+)\]$/.exec(s);
      if (!m) continue;
      if (!filters.has(m[1])) throw badValue(`No array filter found for identifier '${m[1]}' in path '${o.path}'`);
      used.add(m[1]);
    }
  }
  for (const ident of filters.keys()) {
    if (!used.has(ident))
      throw failedToParse(`The array filter for identifier '${ident}' was not used in the update ${formatValue(u)}`);
  }
  return filters;
};

// ---------- application ----------

type Container = Document | unknown[];
type Leaf = (container: Container, key: string) => void;

const describe = (v: unknown) => formatValue(v);
const idOf = (doc: Document) => `{_id: ${formatValue(doc._id)}}`;

/** Walks `segs` from `root`, expanding `$`, `$[]` and `$[ident]`, and calls `leaf` on the final containers. */
const walk = (
  root: Document,
  op: Op,
  create: boolean,
  ctx: ApplyContext,
  filters: Map<string, Matcher>,
  leaf: Leaf,
) => {
  const segs = op.segs;
  const step = (container: Container, i: number): void => {
    let seg = segs[i];
    if (seg === '$') {
      if (ctx.pos === undefined)
        throw badValue('The positional operator did not find the match needed from the query.');
      seg = String(ctx.pos);
    }
    const all = seg === '$[]';
    const ident = /^\$\[([a-zA-Z0-9]+)\]$/.exec(seg)?.[1];
    if (all || ident) {
      if (!Array.isArray(container)) {
        if (!create) return;
        throw badValue(`Cannot apply array updates to non-array element ${segs[i - 1] ?? ''}: ${describe(container)}`);
      }
      const filter = ident ? filters.get(ident)! : undefined;
      for (let j = 0; j < container.length; j++) {
        if (filter && !filter({ [ident!]: container[j] })) continue;
        if (i === segs.length - 1) leaf(container, String(j));
        else descend(container, String(j), i);
      }
      return;
    }
    if (i === segs.length - 1) {
      if (Array.isArray(container) && !/^\d+$/.test(seg)) {
        if (!create) return;
        throw pathNotViable(`Cannot create field '${seg}' in element {${segs[i - 1] ?? ''}: ${describe(container)}}`);
      }
      leaf(container, seg);
      return;
    }
    descend(container, seg, i);
  };
  const descend = (container: Container, seg: string, i: number) => {
    if (Array.isArray(container)) {
      if (!/^\d+$/.test(seg)) {
        if (!create) return;
        throw pathNotViable(`Cannot create field '${seg}' in element {${segs[i - 1] ?? ''}: ${describe(container)}}`);
      }
      const idx = Number(seg);
      let child = container[idx];
      if (child === undefined) {
        if (!create) return;
        while (container.length < idx) container.push(null);
        child = {};
        container[idx] = child;
      }
      if (!isPlainObject(child) && !Array.isArray(child)) {
        if (!create) return;
        throw pathNotViable(`Cannot create field '${segs[i + 1]}' in element {${seg}: ${describe(child)}}`);
      }
      step(child as Container, i + 1);
      return;
    }
    let child = getField(container, seg);
    if (child === undefined) {
      if (!create) return;
      child = {};
      setField(container, seg, child);
    }
    if (!isPlainObject(child) && !Array.isArray(child)) {
      if (!create) return;
      throw pathNotViable(`Cannot create field '${segs[i + 1]}' in element {${seg}: ${describe(child)}}`);
    }
    step(child as Container, i + 1);
  };
  step(root, 0);
};

const getAt = (c: Container, key: string): unknown => (Array.isArray(c) ? c[Number(key)] : getField(c, key));
const has = (c: Container, key: string): boolean => (Array.isArray(c) ? Number(key) < c.length : hasField(c, key));
const setAt = (c: Container, key: string, v: unknown) => {
  if (Array.isArray(c)) {
    const idx = Number(key);
    while (c.length < idx) c.push(null);
    c[idx] = v;
  } else setField(c, key, v);
};

const pushSort =
  (spec: unknown) =>
  (a: unknown, b: unknown): number => {
    if (isNumeric(spec)) return compareValues(a, b) * numberOf(spec);
    for (const [field, dir] of Object.entries(spec as Document)) {
      const va = isPlainObject(a) ? getDotted(a, field) : undefined;
      const vb = isPlainObject(b) ? getDotted(b, field) : undefined;
      const c = compareValues(va ?? null, vb ?? null);
      if (c) return c * numberOf(dir);
    }
    return 0;
  };
const getDotted = (d: unknown, path: string): unknown => {
  let v = d;
  for (const s of path.split('.'))
    v = isPlainObject(v) ? getField(v, s) : Array.isArray(v) && /^\d+$/.test(s) ? v[Number(s)] : undefined;
  return v;
};

const mustBeArray = (doc: Document, op: Op, cur: unknown) => {
  if (!Array.isArray(cur)) {
    throw badValue(
      `The field '${op.path}' must be an array but is of type ${bsonTypeOf(cur)} in document ${idOf(doc)}`,
    );
  }
};

const pullMatcher = (arg: unknown): ((el: unknown) => boolean) => {
  if (isPlainObject(arg)) {
    const keys = Object.keys(arg);
    if (keys.length > 0 && keys[0].startsWith('$') && !['$and', '$or', '$nor', '$expr'].includes(keys[0])) {
      const m = compileFilter({ v: arg });
      return (el) => m({ v: el });
    }
    const m = compileFilter(arg);
    return (el) => isPlainObject(el) && m(el);
  }
  if (bsonTypeOf(arg) === 'regex') {
    const m = compileFilter({ v: arg });
    return (el) => typeof el === 'string' && m({ v: el });
  }
  return (el) => valuesEqual(el, arg);
};

const applyOp = (doc: Document, op: Op, ctx: ApplyContext, filters: Map<string, Matcher>) => {
  const arg = op.arg;
  if (op.dollarField !== undefined && !ctx.inserting) {
    throw dollarPrefixed(`The dollar ($) prefixed field '${op.dollarField}' in '${op.path}' is not valid for storage.`);
  }
  switch (op.op) {
    case '$set':
      walk(doc, op, true, ctx, filters, (c, k) => setAt(c, k, cloneDoc(arg)));
      return;
    case '$setOnInsert':
      if (ctx.inserting) walk(doc, op, true, ctx, filters, (c, k) => setAt(c, k, cloneDoc(arg)));
      return;
    case '$unset':
      walk(doc, op, false, ctx, filters, (c, k) => {
        if (!has(c, k)) return;
        if (Array.isArray(c)) c[Number(k)] = null;
        else delete c[k];
      });
      return;
    case '$inc':
    case '$mul':
      walk(doc, op, true, ctx, filters, (c, k) => {
        const cur = getAt(c, k);
        if (cur === undefined) {
          setAt(c, k, op.op === '$inc' ? arg : numericMul(arg, 0));
          return;
        }
        if (!isNumeric(cur)) {
          throw typeMismatch(
            `Cannot apply ${op.op} to a value of non-numeric type. ${idOf(doc)} has the field '${k}' of non-numeric type ${bsonTypeOf(cur)}`,
          );
        }
        setAt(c, k, op.op === '$inc' ? numericAdd(cur, arg) : numericMul(cur, arg));
      });
      return;
    case '$min':
    case '$max':
      walk(doc, op, true, ctx, filters, (c, k) => {
        const cur = getAt(c, k);
        const cmp = cur === undefined ? 0 : compareValues(arg, cur);
        if (cur === undefined || (op.op === '$min' ? cmp < 0 : cmp > 0)) setAt(c, k, cloneDoc(arg));
      });
      return;
    case '$currentDate':
      walk(doc, op, true, ctx, filters, (c, k) => {
        const ts = isPlainObject(arg) && arg.$type === 'timestamp';
        setAt(c, k, ts ? new Timestamp({ t: Math.floor(ctx.now.getTime() / 1000), i: 1 }) : sharedDate(ctx.now));
      });
      return;
    case '$push':
      walk(doc, op, true, ctx, filters, (c, k) => {
        const cur = getAt(c, k);
        if (cur !== undefined) mustBeArray(doc, op, cur);
        const arr = [...((cur as unknown[] | undefined) ?? [])];
        const each = isPlainObject(arg) && '$each' in arg;
        const items = (each ? (arg.$each as unknown[]) : [arg]).map(cloneDoc);
        let position = each && arg.$position !== undefined ? numberOf(arg.$position) : arr.length;
        if (position < 0) position = Math.max(0, arr.length + position);
        arr.splice(Math.min(position, arr.length), 0, ...items);
        let out = arr;
        if (each && arg.$sort !== undefined) {
          if (!isNumeric(arg.$sort) && out.some((x) => !isPlainObject(x))) {
            // MongoDB sorts non-documents with field specs as missing fields; keep them (stable) in place.
          }
          out = out
            .map((v, i) => ({ v, i }))
            .sort((a, b) => pushSort(arg.$sort)(a.v, b.v) || a.i - b.i)
            .map((x) => x.v);
        }
        if (each && arg.$slice !== undefined) {
          const n = numberOf(arg.$slice);
          out = n >= 0 ? out.slice(0, n) : out.slice(Math.max(0, out.length + n));
        }
        setAt(c, k, out);
      });
      return;
    case '$addToSet':
      walk(doc, op, true, ctx, filters, (c, k) => {
        const cur = getAt(c, k);
        if (cur !== undefined) mustBeArray(doc, op, cur);
        const arr = [...((cur as unknown[] | undefined) ?? [])];
        const items = isPlainObject(arg) && '$each' in arg ? (arg.$each as unknown[]) : [arg];
        for (const it of items) if (!arr.some((x) => valuesEqual(x, it))) arr.push(cloneDoc(it));
        setAt(c, k, arr);
      });
      return;
    case '$pop':
      walk(doc, op, false, ctx, filters, (c, k) => {
        const cur = getAt(c, k);
        if (cur === undefined) return;
        if (!Array.isArray(cur))
          throw typeMismatch(`Path '${op.path}' contains an element of non-array type '${bsonTypeOf(cur)}'`);
        setAt(c, k, numberOf(arg) === 1 ? cur.slice(0, -1) : cur.slice(1));
      });
      return;
    case '$pull':
    case '$pullAll': {
      const test =
        op.op === '$pull' ? pullMatcher(arg) : (el: unknown) => (arg as unknown[]).some((x) => valuesEqual(el, x));
      walk(doc, op, false, ctx, filters, (c, k) => {
        const cur = getAt(c, k);
        if (cur === undefined) return;
        if (!Array.isArray(cur)) throw badValue(`Cannot apply ${op.op} to a non-array value`);
        setAt(
          c,
          k,
          cur.filter((el) => !test(el)),
        );
      });
      return;
    }
    case '$rename': {
      const source = op.segs;
      let parent: unknown = doc;
      for (let i = 0; i < source.length - 1; i++) {
        parent = isPlainObject(parent) ? getField(parent, source[i]) : undefined;
        if (Array.isArray(parent))
          throw badValue(
            `The source field cannot be an array element, '${op.path}' in doc with _id: ${formatValue(doc._id)} has an array field called '${source[i]}'`,
          );
      }
      if (!isPlainObject(parent) || !hasField(parent, source[source.length - 1])) return;
      const value = parent[source[source.length - 1]];
      const target = String(arg).split('.');
      let tparent: unknown = doc;
      for (let i = 0; i < target.length - 1; i++) {
        const next: unknown = isPlainObject(tparent) ? getField(tparent, target[i]) : undefined;
        if (Array.isArray(next))
          throw badValue(
            `The destination field cannot be an array element, '${String(arg)}' in doc with _id: ${formatValue(doc._id)} has an array field called '${target[i]}'`,
          );
        tparent = next;
      }
      delete parent[source[source.length - 1]];
      walk(doc, { ...op, segs: target, path: String(arg) }, true, ctx, filters, (c, k) => setAt(c, k, value));
      return;
    }
    case '$bit':
      walk(doc, op, true, ctx, filters, (c, k) => {
        const cur = getAt(c, k) ?? 0;
        const t = bsonTypeOf(cur);
        if (t !== 'int' && t !== 'long') {
          throw badValue(
            `Cannot apply $bit to a value of non-integral type.${idOf(doc)} has the field ${k} of non-integer type ${t}`,
          );
        }
        let x = t === 'long' ? (cur as Long).toBigInt() : BigInt(numberOf(cur));
        let long = t === 'long';
        for (const [how, v] of Object.entries(arg as Document)) {
          const y = bsonTypeOf(v) === 'long' ? (v as Long).toBigInt() : BigInt(numberOf(v));
          if (bsonTypeOf(v) === 'long') long = true;
          x = how === 'and' ? x & y : how === 'or' ? x | y : x ^ y;
        }
        setAt(c, k, long ? Long.fromBigInt(BigInt.asIntN(64, x)) : Number(BigInt.asIntN(32, x)));
      });
      return;
  }
};

/** Applies a compiled update to a copy of `doc` and returns the new document. Never mutates `doc`. */
export const applyUpdate = (doc: Document, update: CompiledUpdate, ctx: ApplyContext): Document => {
  if (update.kind === 'replacement') return applyReplacement(doc, update.doc);
  if (update.kind === 'pipeline') {
    const [out] = runPipeline([doc], update.pipeline);
    if (!out) throw badValue('pipeline update produced no document');
    if (doc._id !== undefined && (out._id === undefined || !valuesEqual(out._id, doc._id))) {
      throw immutableField(
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(out._id)}`,
      );
    }
    return withIdFirst(out);
  }
  const next = cloneDoc(doc);
  for (const op of update.ops) applyOp(next, op, ctx, update.filters);
  if (doc._id !== undefined && (next._id === undefined || !valuesEqual(next._id, doc._id))) {
    throw immutableField("Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  return next;
};

export const applyReplacement = (doc: Document, replacement: Document): Document => {
  if (replacement._id !== undefined && doc._id !== undefined && !valuesEqual(replacement._id, doc._id)) {
    throw immutableField(
      `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(replacement._id)}`,
    );
  }
  const out: Document = {};
  if (doc._id !== undefined) out._id = doc._id;
  for (const k of Object.keys(replacement)) if (k !== '_id') setField(out, k, cloneDoc(replacement[k]));
  return out;
};

export const withIdFirst = (doc: Document): Document => {
  const keys = Object.keys(doc);
  if (keys[0] === '_id' || !('_id' in doc)) return doc;
  const out: Document = { _id: doc._id };
  for (const k of keys) if (k !== '_id') setField(out, k, doc[k]);
  return out;
};

/**
 * The document an upsert inserts: the query's equality fields (dotted paths made nested), then the update
 * with $setOnInsert applied, then a generated ObjectId if no _id came from either.
 */
export const buildUpsertDocument = (
  equalities: Map<string, unknown>,
  update: CompiledUpdate,
  ctx: ApplyContext,
): Document => {
  let seed: Document = {};
  if (update.kind !== 'replacement') {
    const paths = [...equalities.keys()].sort();
    for (const path of paths) {
      if (path.split('.').some((s) => s.startsWith('$'))) continue;
      if (paths.some((p) => p !== path && path.startsWith(`${p}.`))) continue;
      const segs = path.split('.');
      let cur: Document = seed;
      let ok = true;
      for (let i = 0; i < segs.length - 1; i++) {
        const next = getField(cur, segs[i]);
        if (next === undefined) {
          const child: Document = {};
          setField(cur, segs[i], child);
          cur = child;
        } else if (isPlainObject(next)) cur = next;
        else {
          ok = false;
          break;
        }
      }
      if (ok) setField(cur, segs[segs.length - 1], cloneDoc(equalities.get(path)));
    }
  } else if (equalities.has('_id')) seed = { _id: equalities.get('_id') };
  let doc: Document;
  if (update.kind === 'replacement') {
    doc = { ...(seed._id !== undefined ? { _id: seed._id } : {}), ...cloneDoc(update.doc) };
    if (seed._id !== undefined && update.doc._id !== undefined && !valuesEqual(seed._id, update.doc._id)) {
      throw immutableField(
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(update.doc._id)}`,
      );
    }
  } else if (update.kind === 'pipeline') {
    const [out] = runPipeline([seed], update.pipeline);
    doc = out ?? {};
  } else {
    const next = cloneDoc(seed);
    for (const op of update.ops) applyOp(next, op, ctx, update.filters);
    if (seed._id !== undefined && !valuesEqual(seed._id, next._id)) {
      throw immutableField("Performing an update on the path '_id' would modify the immutable field '_id'");
    }
    doc = next;
  }
  if (doc._id === undefined) doc = { _id: new ObjectId(), ...doc };
  return withIdFirst(doc);
};
