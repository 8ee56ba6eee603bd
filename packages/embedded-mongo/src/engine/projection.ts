// Find projections: inclusion/exclusion with MongoDB's `_id` rules, `$slice`, `$elemMatch`, the positional
// `a.$`, and computed fields (aggregation expressions, evaluated by mingo).
import type { Document } from 'bson';
import { hasField, isNumeric, isPlainObject, numberOf, setField } from './bson-values.js';
import { badValue, notSupported } from './errors.js';
import { evalExpression } from './mingo-context.js';
import { compileFilter, isOperatorOnly } from './query.js';
import { MongoCommandError } from './types.js';

type Node =
  | { kind: 'include' }
  | { kind: 'exclude' }
  | { kind: 'computed'; expr: unknown }
  | { kind: 'slice'; skip: number; limit: number | undefined }
  | { kind: 'elemMatch'; test: (v: unknown) => boolean }
  | { kind: 'positional' }
  | { kind: 'tree'; children: Map<string, Node> };

export type Projector = (doc: Document, pos?: number) => Document;

const isFlag = (v: unknown) => isNumeric(v) || typeof v === 'boolean';
const truthyFlag = (v: unknown) => (typeof v === 'boolean' ? v : numberOf(v) !== 0);

/**
 * Compiled projections of plain include/exclude specs: a service sends the same projection with every query
 * (the orders service's tracking read: 24 fields), and compiling it was about 5% of the server's CPU on that
 * read (issue 20). The projector keeps nothing between calls, so one serves all. Looked up by the spec's
 * first field, then compared field by field: building and hashing a string key of all 24 fields per query
 * cost more than the comparison.
 */
interface FlagProjection {
  paths: string[];
  included: boolean[];
  project: Projector;
}
const flagProjections = new Map<string, FlagProjection[]>();
let flagProjectionCount = 0;
const FLAG_PROJECTIONS_KEPT = 256;

/** Whether `v` is a plain in/out flag (a number or boolean), and if so whether it includes. */
const flagOf = (v: unknown): boolean | undefined =>
  typeof v === 'number' ? v !== 0 : typeof v === 'boolean' ? v : undefined;

/** The cached projector of a spec with the same fields, in the same order, each in or out alike. */
const knownFlagProjection = (spec: Document, first: string): Projector | undefined => {
  const candidates = flagProjections.get(first);
  if (!candidates) return undefined;
  next: for (const c of candidates) {
    let i = 0;
    for (const path in spec) {
      if (i === c.paths.length || path !== c.paths[i] || flagOf(spec[path]) !== c.included[i]) continue next;
      i++;
    }
    if (i === c.paths.length) return c.project;
  }
  return undefined;
};

/** Keeps a projector for a spec whose values are all plain flags (others are not cached). */
const rememberFlagProjection = (spec: Document, first: string, project: Projector) => {
  const paths: string[] = [];
  const included: boolean[] = [];
  for (const path in spec) {
    const flag = flagOf(spec[path]);
    if (flag === undefined) return;
    paths.push(path);
    included.push(flag);
  }
  // A bound, not an LRU: a workload with more distinct projections than this starts over.
  if (flagProjectionCount >= FLAG_PROJECTIONS_KEPT) {
    flagProjections.clear();
    flagProjectionCount = 0;
  }
  const list = flagProjections.get(first);
  if (list) list.push({ paths, included, project });
  else flagProjections.set(first, [{ paths, included, project }]);
  flagProjectionCount++;
};

/**
 * Projectors of frozen specs by identity: the server's command decoder shares one frozen copy of a
 * projection clients repeat (src/server/command-decoder.ts), and a frozen spec cannot change under its key.
 */
const byFrozenSpec = new WeakMap<Document, Projector>();

export const compileProjection = (spec: Document | undefined | null): Projector => {
  if (!spec || !isPlainObject(spec)) return (d) => d;
  const frozen = Object.isFrozen(spec);
  if (frozen) {
    const same = byFrozenSpec.get(spec);
    if (same) return same;
  }
  const project = compileUnfrozen(spec);
  if (frozen) byFrozenSpec.set(spec, project);
  return project;
};

const compileUnfrozen = (spec: Document): Projector => {
  let first: string | undefined;
  for (const path in spec) {
    first = path;
    break;
  }
  // No own field (for...in lists own fields before inherited ones): the whole document, as for `{}`.
  if (first === undefined || !Object.hasOwn(spec, first)) return (d) => d;
  const known = knownFlagProjection(spec, first);
  if (known) return known;
  const project = compileSpec(spec);
  rememberFlagProjection(spec, first, project);
  return project;
};

const compileSpec = (spec: Document): Projector => {
  spec = flattenNested(spec);
  const root = new Map<string, Node>();
  let inclusion = false;
  let exclusion = false;
  let idSetting: Node | undefined;
  for (const path of Object.keys(spec)) {
    const v = spec[path];
    let node: Node;
    let key = path;
    if (path.endsWith('.$')) {
      key = path.slice(0, -2);
      node = { kind: 'positional' };
    } else if (isFlag(v)) node = { kind: truthyFlag(v) ? 'include' : 'exclude' };
    else if (isPlainObject(v) && '$slice' in v) {
      const s = v.$slice;
      if (Array.isArray(s)) {
        if (s.length !== 2 || !isNumeric(s[0]) || !isNumeric(s[1]))
          throw badValue('$slice array argument must be of form [skip, limit]');
        if (numberOf(s[1]) <= 0) throw badValue(`$slice limit must be positive`);
        node = { kind: 'slice', skip: numberOf(s[0]), limit: numberOf(s[1]) };
      } else if (isNumeric(s)) node = { kind: 'slice', skip: numberOf(s), limit: undefined };
      else throw badValue('$slice only supports numbers and [skip, limit] arrays');
    } else if (isPlainObject(v) && '$elemMatch' in v) {
      if (path.includes('.')) throw badValue('Cannot use $elemMatch projection on a nested field.');
      const arg = v.$elemMatch as Document;
      if (!isPlainObject(arg)) throw badValue('elemMatch: Invalid argument, object required.');
      // `{$in: [...]}`-style conditions apply to the elements themselves (arrays of plain values).
      if (isOperatorOnly(arg)) {
        const m = compileFilter({ v: arg });
        node = { kind: 'elemMatch', test: (el) => m({ v: el }) };
      } else {
        const m = compileFilter(arg);
        node = { kind: 'elemMatch', test: (el) => isPlainObject(el) && m(el) };
      }
    } else if (isPlainObject(v) && '$meta' in v) throw notSupported(`{$meta: "${String(v.$meta)}"} projections`);
    else node = { kind: 'computed', expr: v };

    if (key === '_id') {
      idSetting = node;
      if (node.kind === 'computed' || node.kind === 'include') continue;
      if (node.kind === 'exclude') continue;
    }
    if (
      node.kind === 'include' ||
      node.kind === 'computed' ||
      node.kind === 'elemMatch' ||
      node.kind === 'positional'
    ) {
      if (exclusion)
        throw new MongoCommandError(
          31253,
          'Location31253',
          `Cannot do inclusion on field ${path} in exclusion projection`,
        );
      inclusion = true;
    } else if (node.kind === 'exclude') {
      if (inclusion)
        throw new MongoCommandError(
          31254,
          'Location31254',
          `Cannot do exclusion on field ${path} in inclusion projection`,
        );
      exclusion = true;
    }
    insert(root, key.split('.'), node, path);
  }
  if (!inclusion && !exclusion && idSetting?.kind === 'include') inclusion = true;
  const idNode = idSetting ?? { kind: 'include' };
  return (doc, pos) => {
    const out = inclusion ? include(doc, root, doc, pos) : exclude(doc, root, doc, pos);
    if (idNode.kind === 'exclude') {
      delete out._id;
      return out;
    }
    if (idNode.kind === 'computed') return { _id: evalExpression(doc, idNode.expr), ...withoutId(out) };
    if (doc._id !== undefined) return { _id: doc._id, ...withoutId(out) };
    return out;
  };
};

/**
 * `{account: {amount: 1}}` projects `account.amount` (MongoDB 4.4+): an embedded document of field names
 * (no `$` operator) is a nested projection, flattened here into dotted paths in the order given.
 */
const flattenNested = (spec: Document): Document => {
  const nested = (v: unknown): v is Document =>
    isPlainObject(v) && Object.keys(v).length > 0 && !Object.keys(v).some((k) => k.startsWith('$'));
  if (!Object.keys(spec).some((k) => nested(spec[k]))) return spec;
  const out: Document = {};
  const add = (prefix: string, v: unknown) => {
    if (!nested(v)) {
      setField(out, prefix, v);
      return;
    }
    for (const k of Object.keys(v)) add(`${prefix}.${k}`, v[k]);
  };
  for (const k of Object.keys(spec)) add(k, spec[k]);
  return out;
};

const withoutId = (d: Document) => {
  const { _id, ...rest } = d;
  void _id;
  return rest;
};

const insert = (tree: Map<string, Node>, segs: string[], node: Node, path: string) => {
  const [head, ...rest] = segs;
  if (rest.length === 0) {
    if (tree.has(head)) throw new MongoCommandError(31250, 'Location31250', `Path collision at ${path}`);
    tree.set(head, node);
    return;
  }
  let child = tree.get(head);
  if (!child) {
    child = { kind: 'tree', children: new Map() };
    tree.set(head, child);
  }
  if (child.kind !== 'tree')
    throw new MongoCommandError(
      31249,
      'Location31249',
      `Path collision at ${path} remaining portion ${rest.join('.')}`,
    );
  insert(child.children, rest, node, path);
};

const slice = (v: unknown, n: Extract<Node, { kind: 'slice' }>): unknown => {
  if (!Array.isArray(v)) return v;
  if (n.limit === undefined) return n.skip >= 0 ? v.slice(0, n.skip) : v.slice(Math.max(0, v.length + n.skip));
  const start = n.skip >= 0 ? n.skip : Math.max(0, v.length + n.skip);
  return v.slice(start, start + n.limit);
};

const include = (value: Document, tree: Map<string, Node>, root: Document, pos: number | undefined): Document => {
  const out: Document = {};
  for (const k of Object.keys(value)) {
    const node = tree.get(k);
    if (!node) continue;
    const v = value[k];
    switch (node.kind) {
      case 'include':
        setField(out, k, v);
        break;
      case 'slice':
        setField(out, k, slice(v, node));
        break;
      case 'elemMatch': {
        if (!Array.isArray(v)) break;
        const el = v.find(node.test);
        if (el !== undefined) setField(out, k, [el]);
        break;
      }
      case 'positional':
        if (Array.isArray(v)) {
          if (pos === undefined)
            throw badValue(
              "Executor error during find command :: caused by :: positional operator '.$' requires corresponding field in query specifier",
            );
          if (pos < v.length) setField(out, k, [v[pos]]);
        }
        break;
      case 'tree':
        if (Array.isArray(v)) setField(out, k, includeArray(v, node.children, root, pos));
        else if (isPlainObject(v)) setField(out, k, include(v, node.children, root, pos));
        break;
      case 'computed':
        break;
    }
  }
  for (const [k, node] of tree) {
    if (node.kind === 'computed') setField(out, k, evalExpression(root, node.expr));
    else if (node.kind === 'tree' && !hasField(value, k) && hasComputed(node.children))
      setField(out, k, include({}, node.children, root, pos));
  }
  return out;
};

const hasComputed = (tree: Map<string, Node>): boolean =>
  [...tree.values()].some((n) => n.kind === 'computed' || (n.kind === 'tree' && hasComputed(n.children)));

const includeArray = (arr: unknown[], tree: Map<string, Node>, root: Document, pos: number | undefined): unknown[] =>
  arr.flatMap((el) =>
    isPlainObject(el) ? [include(el, tree, root, pos)] : Array.isArray(el) ? [includeArray(el, tree, root, pos)] : [],
  );

const exclude = (value: Document, tree: Map<string, Node>, root: Document, pos: number | undefined): Document => {
  const out: Document = {};
  for (const k of Object.keys(value)) {
    const node = tree.get(k);
    const v = value[k];
    if (!node) {
      setField(out, k, v);
      continue;
    }
    switch (node.kind) {
      case 'exclude':
        break;
      case 'slice':
        setField(out, k, slice(v, node));
        break;
      case 'tree':
        if (Array.isArray(v))
          setField(
            out,
            k,
            v.map((el) => (isPlainObject(el) ? exclude(el, node.children, root, pos) : el)),
          );
        else if (isPlainObject(v)) setField(out, k, exclude(v, node.children, root, pos));
        else setField(out, k, v);
        break;
      default:
        setField(out, k, v);
    }
  }
  return out;
};
