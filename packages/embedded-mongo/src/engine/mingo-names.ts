// Field names that are also names of Object.prototype (`__proto__`, `constructor`, `toString`...) or
// `prototype` are ordinary data in MongoDB. mingo refuses `__proto__` in paths and walks into inherited
// properties when it builds nested fields, so across the mingo boundary such names are renamed to a private
// form: in the documents handed to mingo, in the pipeline or expression, and back in what mingo returns.
// Names without any of them pass through untouched (same objects), so ordinary pipelines pay only a scan.
import type { Document } from 'bson';
import { isPlainObject, setField } from './bson-values.js';

const RESERVED = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);
/** Two private-use characters: no shop field starts with them, and mingo treats them as plain text. */
const MARK = '\uE000\uE001';

const encodeName = (name: string): string => (RESERVED.has(name) ? MARK + name : name);
const decodeName = (name: string): string =>
  name.startsWith(MARK) && RESERVED.has(name.slice(MARK.length)) ? name.slice(MARK.length) : name;

/** A dotted path with each reserved segment renamed. */
export const encodePath = (path: string): string => {
  if (!path.includes('.')) return encodeName(path);
  const segs = path.split('.');
  return segs.some((s) => RESERVED.has(s)) ? segs.map(encodeName).join('.') : path;
};

const isContainer = (v: unknown): v is Document | unknown[] => Array.isArray(v) || isPlainObject(v);

/** Whether a value holds a field name passing `test` at any depth (no allocation). */
const hasKey = (v: unknown, test: (k: string) => boolean, depth = 0): boolean => {
  if (depth > 200) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++)
      if (typeof v[i] === 'object' && v[i] !== null && hasKey(v[i], test, depth + 1)) return true;
    return false;
  }
  if (!isPlainObject(v)) return false;
  for (const k of Object.keys(v)) {
    if (test(k)) return true;
    const x = v[k];
    if (typeof x === 'object' && x !== null && hasKey(x, test, depth + 1)) return true;
  }
  return false;
};
const isReserved = (k: string) => RESERVED.has(k);
const isMarked = (k: string) => k.startsWith(MARK);

/** Data (documents, literal values): keys renamed at every depth; strings are values and stay as they are. */
export const encodeData = <T>(v: T): T => {
  if (!isContainer(v) || !hasKey(v, isReserved)) return v;
  return renameKeys(v, encodeName) as T;
};

const renameKeys = (v: unknown, rename: (k: string) => string): unknown => {
  if (Array.isArray(v)) return v.map((x) => renameKeys(x, rename));
  if (!isPlainObject(v)) return v;
  const out: Document = {};
  for (const k of Object.keys(v)) setField(out, rename(k), renameKeys(v[k], rename));
  return out;
};

/** What mingo returned, with the reserved names given back as real fields. */
export const decodeData = <T>(v: T): T => {
  if (!isContainer(v) || !hasKey(v, isMarked)) return v;
  return renameKeys(v, decodeName) as T;
};

/** `$a.b` field paths and `$$var.a.b` variable paths inside an expression. */
const encodeFieldPathString = (s: string): string => {
  if (s.startsWith('$$')) {
    const dot = s.indexOf('.');
    return dot < 0 ? s : s.slice(0, dot + 1) + encodePath(s.slice(dot + 1));
  }
  return s.startsWith('$') ? `$${encodePath(s.slice(1))}` : s;
};

const encodeNames = (v: unknown): unknown =>
  typeof v === 'string'
    ? encodePath(v)
    : Array.isArray(v)
      ? v.map((x) => (typeof x === 'string' ? encodePath(x) : x))
      : v;

/** Options of stages and operators whose plain string values name fields. */
const NAME_OPTIONS: Record<string, string[]> = {
  $lookup: ['localField', 'foreignField', 'as'],
  $graphLookup: ['connectFromField', 'connectToField', 'as', 'depthField'],
  $unwind: ['includeArrayIndex'],
  $getField: ['field'],
  $setField: ['field'],
  $unsetField: ['field'],
  $densify: ['field'],
  $fill: ['partitionByFields'],
  $setWindowFields: [],
};

/** A query filter ($match, $elemMatch...): keys are paths or data; string values are literals. */
const encodeFilter = (f: unknown): unknown => {
  if (Array.isArray(f)) return f.map(encodeFilter);
  if (!isPlainObject(f)) return f;
  const out: Document = {};
  for (const k of Object.keys(f)) {
    const v = f[k];
    if (k === '$expr') setField(out, k, encodeExpression(v));
    else setField(out, k.startsWith('$') ? k : encodePath(k), encodeFilter(v));
  }
  return out;
};

/** An aggregation expression, stage or pipeline (the same rules hold for all of them). */
export const encodeExpression = (e: unknown): unknown => {
  if (typeof e === 'string') return encodeFieldPathString(e);
  if (Array.isArray(e)) return e.map(encodeExpression);
  if (!isPlainObject(e)) return e;
  const out: Document = {};
  for (const k of Object.keys(e)) {
    const v = e[k];
    if (!k.startsWith('$')) {
      setField(out, encodePath(k), encodeExpression(v));
      continue;
    }
    switch (k) {
      case '$literal':
      case '$documents':
        setField(out, k, encodeData(v));
        continue;
      case '$match':
      case '$elemMatch':
        setField(out, k, encodeFilter(v));
        continue;
      case '$unset':
      case '$count':
        setField(out, k, encodeNames(v));
        continue;
      case '$getField':
      case '$unsetField':
        if (typeof v === 'string') {
          setField(out, k, encodeName(v));
          continue;
        }
        break;
    }
    let value = encodeExpression(v);
    const names = NAME_OPTIONS[k];
    if (names && isPlainObject(v) && isPlainObject(value)) {
      for (const n of names) if (n in v) setField(value, n, encodeNames(v[n]));
      // `field` of $getField may be a literal string only.
      if ((k === '$getField' || k === '$setField' || k === '$unsetField') && typeof v.field === 'string')
        setField(value, 'field', encodeName(v.field));
    }
    if (k === '$lookup' && isPlainObject(v) && isPlainObject(value) && isPlainObject(v.let)) {
      value = { ...value, let: encodeExpression(v.let) };
    }
    setField(out, k, value);
  }
  return out;
};

/** Whether an expression or pipeline names a reserved field anywhere (in a key or a path string). */
export const mentionsReserved = (e: unknown, depth = 0): boolean => {
  if (depth > 200) return false;
  if (typeof e === 'string') return e.split(/[.$]/).some((s) => RESERVED.has(s));
  if (Array.isArray(e)) return e.some((x) => mentionsReserved(x, depth + 1));
  if (!isPlainObject(e)) return false;
  return Object.keys(e).some((k) => k.split('.').some((s) => RESERVED.has(s)) || mentionsReserved(e[k], depth + 1));
};
