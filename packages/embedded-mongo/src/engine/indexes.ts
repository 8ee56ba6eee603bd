// Secondary indexes. Each index keeps a hash of the leading field's value (equality lookups and single-field
// unique checks, O(1)), a unique compound index also a hash of full key tuples (its unique checks), and a sorted
// array of leading values built lazily for range scans.
// Hash maps make inserts O(1); the sorted array is rebuilt only when a range query follows writes.
import type { Document } from 'bson';
import {
  canonicalKey,
  getField,
  collatorFor,
  compareValues,
  isNumeric,
  isPlainObject,
  numberOf,
  formatValue,
  typeRank,
  withCollator,
  type Collator,
} from './bson-values.js';
import { collectPath, compileFilter, type Matcher } from './query.js';
import type { IndexSpec } from './types.js';
import { MongoCommandError } from './types.js';
import { notSupported } from './errors.js';

export interface IndexField {
  path: string;
  segs: string[];
  dir: number;
}

export const validateKeyPattern = (key: unknown): IndexField[] => {
  if (!isPlainObject(key) || Object.keys(key).length === 0) {
    throw new MongoCommandError(67, 'CannotCreateIndex', 'Index keys cannot be an empty object.');
  }
  return Object.keys(key).map((path) => {
    const d = key[path];
    if (typeof d === 'string') {
      if (['text', '2d', '2dsphere', 'geoHaystack'].includes(d)) throw notSupported(`'${d}' indexes`);
      if (d === 'hashed') return { path, segs: path.split('.'), dir: 1 };
      throw new MongoCommandError(67, 'CannotCreateIndex', `Unknown index plugin '${d}'`);
    }
    if (!isNumeric(d) || numberOf(d) === 0 || Number.isNaN(numberOf(d))) {
      throw new MongoCommandError(
        67,
        'CannotCreateIndex',
        `Values in the index key pattern can't be 0 or NaN: ${path}: ${formatValue(d)}`,
      );
    }
    if (path === '' || path.split('.').some((s) => s === '' || s.startsWith('$'))) {
      throw new MongoCommandError(67, 'CannotCreateIndex', `Index key contains an illegal field name: '${path}'`);
    }
    return { path, segs: path.split('.'), dir: numberOf(d) > 0 ? 1 : -1 };
  });
};

export const defaultIndexName = (key: Document): string =>
  Object.keys(key)
    .map((k) => `${k}_${String(key[k])}`)
    .join('_');

const tuples = (lists: unknown[][]): unknown[][] =>
  lists.reduce<unknown[][]>((acc, list) => acc.flatMap((t) => list.map((v) => [...t, v])), [[]]);

export class Index {
  readonly fields: IndexField[];
  readonly partial: Matcher | undefined;
  /**
   * Full key tuple -> ids, kept only for a unique compound index: only its duplicate-key check reads it (queries
   * narrow by the leading field). For the security request logs' {ip, timestamp} and {riskLevel, timestamp}
   * indexes it held a key string and ids per distinct tuple that nothing read.
   */
  private readonly byFull: Map<string, Ids> | undefined;
  /** leading value -> ids */
  private readonly byFirst = new Map<string, { v: unknown; ids: Ids }>();
  /** Entries (leading value, id) in BSON order: built on the first range scan or ordered walk, then kept up to date. */
  private sorted: { v: unknown; id: string }[] | undefined;
  /** Documents whose keys came from an array (multikey): while any exist, the index cannot give a sort order. */
  private multikeyDocs = 0;
  /** Set by keys(): whether the last document's keys went through arrays. */
  private lastMultikey = false;

  /** The index's collation: its keys compare (and collide, when unique) under it, whatever the query uses. */
  readonly collator: Collator | null;

  constructor(public spec: IndexSpec) {
    this.fields = validateKeyPattern(spec.key);
    this.partial = spec.partialFilterExpression ? compileFilter(spec.partialFilterExpression) : undefined;
    this.collator = collatorFor(spec.collation);
    // collMod changes only expireAfterSeconds and hidden: whether an index is unique is fixed at its creation.
    this.byFull = spec.unique === true && this.fields.length > 1 ? new Map() : undefined;
  }

  /** Key strings of a document's key tuples, as this index compares them. */
  keyStrings(doc: Document): string[] {
    return withCollator(this.collator, () => this.keys(doc).map(tupleKey));
  }

  get name(): string {
    return this.spec.name;
  }
  get unique(): boolean {
    return this.spec.unique === true;
  }

  /** Key tuples for a document, or [] when a sparse/partial index leaves the document out. */
  keys(doc: Document): unknown[][] {
    this.lastMultikey = false;
    if (this.partial && !this.partial(doc)) return [];
    // Fast path: no arrays on the way to any key field (the common case) gives exactly one key tuple.
    const simple: unknown[] = [];
    let allMissing = true;
    for (const f of this.fields) {
      let v: unknown = doc;
      for (const seg of f.segs) {
        if (
          v === null ||
          typeof v !== 'object' ||
          Array.isArray(v) ||
          v instanceof Date ||
          (v as { _bsontype?: string })._bsontype !== undefined
        ) {
          v = Array.isArray(v) ? ARRAY : undefined;
          break;
        }
        v = getField(v, seg);
      }
      if (v === ARRAY || Array.isArray(v)) return this.multiKeys(doc);
      if (v !== undefined) allMissing = false;
      simple.push(v === undefined ? null : v);
    }
    if (this.spec.sparse && allMissing) return [];
    return [simple];
  }

  private multiKeys(doc: Document): unknown[][] {
    this.lastMultikey = true;
    let allMissing = true;
    const lists = this.fields.map((f) => {
      const vals: unknown[] = [];
      for (const c of collectPath(doc, f.segs)) {
        if (Array.isArray(c.value)) {
          if (c.value.length === 0) vals.push(undefined);
          else vals.push(...c.value);
          allMissing = false;
        } else {
          if (c.value !== undefined) allMissing = false;
          vals.push(c.value);
        }
      }
      return dedupe(vals.map((v) => (v === undefined ? null : v)));
    });
    if (this.spec.sparse && allMissing) return [];
    return tuples(lists);
  }

  add(id: string, doc: Document): void {
    return withCollator(this.collator, () => {
      const keys = this.keys(doc);
      for (const k of keys) {
        const fk = canonicalKey(k[0]);
        let e = this.byFirst.get(fk);
        if (!e) {
          e = { v: k[0], ids: id };
          this.byFirst.set(fk, e);
        } else e.ids = withId(e.ids, id);
        if (this.byFull) {
          const tk = tupleKey(k);
          this.byFull.set(tk, withId(this.byFull.get(tk), id));
        }
      }
      if (this.lastMultikey) {
        this.multikeyDocs++;
        this.sorted = undefined;
        return;
      }
      // One key: keep the sorted entries (a write between two dashboard reads must not cost a full re-sort).
      if (this.sorted && keys.length === 1) {
        const v = keys[0][0];
        this.sorted.splice(this.upperBound(v), 0, { v, id });
      }
    });
  }

  remove(id: string, doc: Document): void {
    return withCollator(this.collator, () => {
      const keys = this.keys(doc);
      if (this.lastMultikey) {
        this.multikeyDocs--;
        this.sorted = undefined;
      } else if (this.sorted && keys.length === 1) {
        const s = this.sorted;
        const v = keys[0][0];
        let i = this.lowerBound(v);
        while (i < s.length && s[i].id !== id && compareValues(s[i].v, v) === 0) i++;
        if (i < s.length && s[i].id === id) s.splice(i, 1);
        else this.sorted = undefined;
      }
      for (const k of keys) {
        const fk = canonicalKey(k[0]);
        const e = this.byFirst.get(fk);
        if (e) {
          const rest = withoutId(e.ids, id);
          if (rest === undefined) this.byFirst.delete(fk);
          else e.ids = rest;
        }
        if (this.byFull) {
          const tk = tupleKey(k);
          const rest = withoutId(this.byFull.get(tk), id);
          if (rest === undefined) this.byFull.delete(tk);
          else this.byFull.set(tk, rest);
        }
      }
    });
  }

  clear(): void {
    this.byFull?.clear();
    this.byFirst.clear();
    this.sorted = undefined;
    this.multikeyDocs = 0;
  }

  /**
   * Whether walking this index gives every document of the collection in the order of its leading field:
   * not when it leaves documents out (sparse, partial), not when a document has several keys (multikey:
   * MongoDB sorts an array by its smallest or largest element, which one walk cannot give both), not hidden.
   */
  get ordersWholeCollection(): boolean {
    return this.multikeyDocs === 0 && !this.partial && this.spec.sparse !== true && this.spec.hidden !== true;
  }

  /** (leading value, id) entries in BSON order under the index's collation; equal values are adjacent. */
  entries(): readonly { v: unknown; id: string }[] {
    return withCollator(this.collator, () => this.sortedEntries());
  }

  private sortedEntries(): { v: unknown; id: string }[] {
    if (!this.sorted) {
      const arr: { v: unknown; id: string }[] = [];
      for (const entry of this.byFirst.values()) {
        if (typeof entry.ids === 'string') arr.push({ v: entry.v, id: entry.ids });
        else for (const id of entry.ids) arr.push({ v: entry.v, id });
      }
      arr.sort((a, b) => compareValues(a.v, b.v));
      this.sorted = arr;
    }
    return this.sorted;
  }

  /** First position whose value is not below v (callers hold the collator). */
  private lowerBound(v: unknown): number {
    const s = this.sorted!;
    let lo = 0,
      hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareValues(s[mid].v, v) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First position whose value is above v. */
  private upperBound(v: unknown): number {
    const s = this.sorted!;
    let lo = 0,
      hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareValues(s[mid].v, v) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The positions [from, to) of entries whose leading value lies in the bounds, within the bounds' BSON type
   * bracket (as a range query matches only values of its own type).
   */
  rangePositions(
    lower: { v: unknown; inclusive: boolean } | undefined,
    upper: { v: unknown; inclusive: boolean } | undefined,
  ): [number, number] {
    return withCollator(this.collator, () => {
      const s = this.sortedEntries();
      const rank = typeRank((lower ?? upper)!.v);
      let lo = 0,
        hi = s.length;
      // binary search: first entry at or above the lower bound (or the start of the type bracket)
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const e = s[mid];
        const r = typeRank(e.v);
        const below =
          r < rank ||
          (r === rank &&
            lower !== undefined &&
            (lower.inclusive ? compareValues(e.v, lower.v) < 0 : compareValues(e.v, lower.v) <= 0));
        if (below) lo = mid + 1;
        else hi = mid;
      }
      const from = lo;
      hi = s.length;
      // first entry past the upper bound (or past the type bracket)
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const e = s[mid];
        const r = typeRank(e.v);
        let within = r === rank;
        if (r < rank) within = true;
        else if (r === rank && upper) {
          const c = compareValues(e.v, upper.v);
          within = upper.inclusive ? c <= 0 : c < 0;
        }
        if (within) lo = mid + 1;
        else hi = mid;
      }
      return [from, lo];
    });
  }

  /** For a unique index: the key tuple of `doc` that another document already holds, if any. */
  conflict(doc: Document, id: string, ignore?: (otherId: string) => boolean): unknown[] | undefined {
    return withCollator(this.collator, () => {
      if (!this.unique) return undefined;
      for (const k of this.keys(doc)) {
        const ids = this.byFull ? this.byFull.get(tupleKey(k)) : this.byFirst.get(canonicalKey(k[0]))?.ids;
        if (ids === undefined) continue;
        for (const other of typeof ids === 'string' ? [ids] : ids)
          if (other !== id && !(ignore && ignore(other))) return k;
      }
      return undefined;
    });
  }

  idsEqual(value: unknown): Iterable<string> {
    return withCollator(this.collator, () => {
      const ids = this.byFirst.get(canonicalKey(value))?.ids;
      return ids === undefined ? [] : typeof ids === 'string' ? [ids] : ids;
    });
  }

  /** Ids whose leading key lies in the given bounds (same BSON type bracket as the bounds). */
  idsInRange(
    lower: { v: unknown; inclusive: boolean } | undefined,
    upper: { v: unknown; inclusive: boolean } | undefined,
  ): string[] {
    const [from, to] = this.rangePositions(lower, upper);
    return this.idsAt(from, to);
  }

  /** Ids at the positions [from, to) of the ordered entries (from rangePositions). */
  idsAt(from: number, to: number): string[] {
    const s = this.sorted!;
    const out: string[] = [];
    for (let i = from; i < to; i++) out.push(s[i].id);
    return out;
  }

  /** A duplicate-key error as mongod reports it. */
  duplicateError(ns: string, k: unknown[]): { errmsg: string; keyPattern: Document; keyValue: Document } {
    const keyValue: Document = {};
    this.fields.forEach((f, i) => {
      keyValue[f.path] = k[i];
    });
    const shown = this.fields.map((f, i) => `${f.path}: ${formatValue(k[i])}`).join(', ');
    return {
      errmsg: `E11000 duplicate key error collection: ${ns} index: ${this.name} dup key: { ${shown} }`,
      keyPattern: this.spec.key,
      keyValue,
    };
  }
}

const ARRAY = Symbol('array');
const tupleKey = (k: unknown[]) => (k.length === 1 ? canonicalKey(k[0]) : k.map(canonicalKey).join('\u0000'));
const dedupe = (vals: unknown[]) => {
  const seen = new Set<string>();
  return vals.filter((v) => {
    const c = canonicalKey(v);
    if (seen.has(c)) return false;
    seen.add(c);
    return true;
  });
};
/**
 * One id is kept as a plain string (keeps 100k-entry indexes light), a few as an array of exactly their
 * length, a Set only past SMALL_IDS. A Set of a few ids costs ~330 bytes, an array of nine ~120: after the bench's load the security
 * request logs' timestamp indexes (several logs per millisecond) held 31,000 such Sets, 10 MiB. An array is
 * replaced, never changed in place, so a reader holding one (idsEqual) keeps what it read.
 */
type Ids = string | readonly string[] | Set<string>;
const SMALL_IDS = 32;
const withId = (ids: Ids | undefined, id: string): Ids => {
  if (ids === undefined || ids === id) return id;
  if (typeof ids === 'string') return [ids, id];
  if (ids instanceof Set) return ids.add(id);
  if (ids.includes(id)) return ids;
  // concat allocates exactly the ids it holds; a spread copy's backing store has room for ~26 more (~150
  // bytes per key: 4 MiB over the request logs' timestamp indexes after the bench's load).
  return ids.length < SMALL_IDS ? ids.concat(id) : new Set([...ids, id]);
};
const withoutId = (ids: Ids | undefined, id: string): Ids | undefined => {
  if (ids === undefined || ids === id) return undefined;
  if (typeof ids === 'string') return ids;
  if (ids instanceof Set) {
    ids.delete(id);
    if (ids.size === 1) return ids.values().next().value;
    return ids.size === 0 ? undefined : ids;
  }
  const at = ids.indexOf(id);
  if (at < 0) return ids;
  return ids.length === 2 ? ids[1 - at] : ids.slice(0, at).concat(ids.slice(at + 1));
};
