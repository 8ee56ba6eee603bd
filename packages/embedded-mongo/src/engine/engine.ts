// The storage engine: databases of collections of immutable documents keyed by canonical _id, secondary
// indexes, write commands with MongoDB's result shapes, snapshot transactions, TTL expiry and journaling.
//
// Every write runs synchronously against memory (so validation always sees the latest state), then hands
// its JournalOps to the journal in one append; if the append fails the change is rolled back before the
// promise rejects, so no caller ever sees a write the journal refused.
import { BSON, ObjectId, UUID, type Document } from 'bson';
import {
  binaryKey,
  bsonTypeOf,
  setField,
  canonicalKey,
  cloneDoc,
  collatorFor,
  compareValues,
  currentCollator,
  formatValue,
  identical,
  withCollator,
  isNumeric,
  isPlainObject,
  numberOf,
  typeRank,
  valuesEqual,
} from './bson-values.js';
import {
  badValue,
  failedToParse,
  indexNotFound,
  invalidNamespace,
  namespaceExists,
  namespaceNotFound,
  noSuchTransaction,
  notSupported,
  writeConflict,
} from './errors.js';
import { countedGroups, countsOnly, fastGroupSpec, groupDocuments } from './fast-group.js';
import { Index, defaultIndexName, validateKeyPattern } from './indexes.js';
import { isKnownStage, runPipeline, toCommandError, unrecognizedStage } from './mingo-context.js';
import { compileProjection } from './projection.js';
import { collectPath, compileFilter, equalityFields, type Matcher, type MatchState } from './query.js';
import { parseSort, sortBy, type SortKey } from './sort.js';
import {
  type CollectionInfo,
  type DeleteResult,
  type DeleteStatement,
  type Engine,
  type FindAndModifyArgs,
  type FindAndModifyResult,
  type FindOptions,
  type IndexSpec,
  type InsertResult,
  type Journal,
  type JournalOp,
  MongoCommandError,
  type Ns,
  type Txn,
  type UpdateResult,
  type UpdateStatement,
  type WriteError,
  type WriteOptions,
} from './types.js';
import { applyUpdate, buildUpsertDocument, compileUpdate, withIdFirst, type CompiledUpdate } from './update.js';

export interface CreateEngineOptions {
  journal?: Journal;
  replay?: Iterable<JournalOp>;
  /** How often expired TTL documents are removed (mongod: 60 s). */
  ttlSweepMs?: number;
  /**
   * Also compact after this many journaled ops (0: only when the journal's shouldCompact() says so). Without
   * it, a journal with setCompactionSource() (src/durability) gets the dump and decides itself (64 MB or 1M
   * records since the last snapshot), one with only shouldCompact() is compacted when that answers true, and
   * any other journal is compacted every 50,000 ops.
   */
  compactEveryOps?: number;
}

/** What the last read examined: lets tests prove a query used an index instead of scanning. */
export interface QueryStats {
  docsExamined: number;
  indexUsed: string | null;
  /** Set when a fast path answered: an ordered index walk, the $group loop, or a count from an index alone. */
  fastPath?: 'index-order' | 'group' | 'count';
  /** Set when a `$or`'s branches were answered by an index union: each branch's index, in branch order. */
  indexUnion?: string[];
}

export interface EmbeddedEngine extends Engine {
  /** Ops that rebuild the whole current state (createCollection, createIndex, put). */
  dumpState(): Iterable<JournalOp>;
  /** Statistics of the most recent find/count/distinct/aggregate/update/delete plan. */
  lastQueryStats(): QueryStats;
  /** Runs one TTL sweep now (the background timer calls the same function). */
  sweepExpired(): Promise<number>;
}

interface Rec {
  doc: Document;
  seq: number;
  ver: number;
}

interface Coll {
  db: string;
  name: string;
  options: Document;
  uuid: UUID;
  records: Map<string, Rec>;
  indexes: Map<string, Index>;
}

interface TxnState {
  id: number;
  startVer: number;
  active: boolean;
  /** Copies of collections taken just before a concurrent drop or create changed them (null: did not exist). */
  snapshots: Map<string, Map<string, Rec> | null>;
  /**
   * Records as they were when this transaction started, kept only for the keys a concurrent commit changed
   * since (null: the record did not exist). Copying whole collections instead cost a copy of every
   * collection per open transaction per commit, which made concurrent transactions slow down as data grew.
   */
  before: Map<string, Map<string, Rec | null>>;
  /** Buffered writes: ns -> key -> new document (null = deleted), in write order. */
  writes: Map<string, Map<string, Document | null>>;
  locked: Set<string>;
}

/** MongoDB's BSON document size limit (16 MiB), for stored documents. */
const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };
const nsKey = (ns: Ns) => `${ns.db}.${ns.coll}`;
const splitNs = (key: string): Ns => {
  const i = key.indexOf('.');
  return { db: key.slice(0, i), coll: key.slice(i + 1) };
};
const lockKey = (ns: string, key: string) => `${ns}\u0000${key}`;

const checkDbName = (db: string) => {
  if (typeof db !== 'string' || db === '' || /[/\\. "$\0]/.test(db) || db.length > 63)
    throw invalidNamespace(`Invalid database name: '${db}'`);
};
const checkCollName = (db: string, coll: string) => {
  if (typeof coll !== 'string' || coll === '' || coll.includes('$') || coll.includes('\0') || coll.startsWith('.')) {
    throw invalidNamespace(`Invalid collection name: ${db}.${coll}`);
  }
};

/** Records are keyed by their _id compared binary, whatever collation a command runs under. */
const idKeyOf = (doc: Document) => binaryKey(doc._id);
const toWriteError = (index: number, err: unknown): WriteError => {
  if (err instanceof MongoCommandError) {
    return { index, code: err.code, codeName: err.codeName, errmsg: err.message, ...(err.extra as object) };
  }
  const e = toCommandError(err) as MongoCommandError;
  return { index, code: e.code ?? 2, codeName: e.codeName ?? 'BadValue', errmsg: e.message };
};

/** Collected effects of one write command: journal ops plus how to undo them. */
class Batch {
  ops: JournalOp[] = [];
  undo: (() => void)[] = [];
}

export const createEngine = (options: CreateEngineOptions = {}): EmbeddedEngine => {
  const journal = options.journal;
  const dbs = new Map<string, Map<string, Coll>>();
  let version = 0;
  let seq = 0;
  let txnIds = 0;
  const txns = new Map<number, TxnState>();
  const locks = new Map<string, number>();
  /** Deletions seen while transactions are open: lockKey -> version of the delete. */
  const tombstones = new Map<string, number>();
  let stats: QueryStats = { docsExamined: 0, indexUsed: null };
  let opsSinceCompact = 0;
  let compacting: Promise<void> | undefined;
  let replaying = false;
  let stopped = false;

  // ---------- catalog ----------

  const getColl = (ns: Ns): Coll | undefined => dbs.get(ns.db)?.get(ns.coll);

  const newColl = (db: string, name: string, collOptions: Document): Coll => ({
    db,
    name,
    options: collOptions,
    uuid: new UUID(),
    records: new Map(),
    indexes: new Map(),
  });

  const attachColl = (c: Coll, batch?: Batch) => {
    let colls = dbs.get(c.db);
    const createdDb = !colls;
    if (!colls) {
      colls = new Map();
      dbs.set(c.db, colls);
    }
    colls.set(c.name, c);
    batch?.ops.push({ op: 'createCollection', db: c.db, coll: c.name, options: c.options });
    batch?.undo.push(() => {
      colls.delete(c.name);
      if (createdDb && colls.size === 0) dbs.delete(c.db);
    });
  };

  const ensureColl = (ns: Ns, batch?: Batch): Coll => {
    const existing = getColl(ns);
    if (existing) return existing;
    checkDbName(ns.db);
    checkCollName(ns.db, ns.coll);
    const c = newColl(ns.db, ns.coll, {});
    preserveForTxns(nsKey(ns), undefined);
    attachColl(c, batch);
    return c;
  };

  // ---------- transaction snapshots ----------

  /** Before a committed change to one record, give open transactions its current version (once each). */
  const preserveRecordForTxns = (ns: string, key: string, prev: Rec | undefined) => {
    if (txns.size === 0) return;
    for (const t of txns.values()) {
      if (t.snapshots.has(ns)) continue;
      let kept = t.before.get(ns);
      if (!kept) t.before.set(ns, (kept = new Map()));
      if (!kept.has(key)) kept.set(key, prev ?? null);
    }
  };

  /** Before a committed drop or create of a collection, give open transactions a copy of its current contents. */
  const preserveForTxns = (ns: string, coll: Coll | undefined) => {
    if (txns.size === 0) return;
    for (const t of txns.values()) {
      if (!t.snapshots.has(ns)) t.snapshots.set(ns, coll ? new Map(coll.records) : null);
    }
  };

  // ---------- low-level record changes (committed state) ----------

  const putRecord = (c: Coll, key: string, doc: Document, batch: Batch | undefined) => {
    const prev = c.records.get(key);
    preserveRecordForTxns(`${c.db}.${c.name}`, key, prev);
    for (const ix of c.indexes.values()) {
      if (prev) ix.remove(key, prev.doc);
      ix.add(key, doc);
    }
    const rec: Rec = { doc, seq: prev ? prev.seq : ++seq, ver: ++version };
    c.records.set(key, rec);
    if (!batch) return;
    batch.ops.push({ op: 'put', db: c.db, coll: c.name, doc });
    batch.undo.push(() => {
      for (const ix of c.indexes.values()) {
        ix.remove(key, doc);
        if (prev) ix.add(key, prev.doc);
      }
      if (prev) c.records.set(key, prev);
      else c.records.delete(key);
    });
  };

  const deleteRecord = (c: Coll, key: string, batch: Batch | undefined) => {
    const prev = c.records.get(key);
    if (!prev) return;
    preserveRecordForTxns(`${c.db}.${c.name}`, key, prev);
    for (const ix of c.indexes.values()) ix.remove(key, prev.doc);
    c.records.delete(key);
    const ver = ++version;
    if (txns.size > 0) tombstones.set(lockKey(`${c.db}.${c.name}`, key), ver);
    if (!batch) return;
    batch.ops.push({ op: 'delete', db: c.db, coll: c.name, id: prev.doc._id });
    batch.undo.push(() => {
      // Re-inserting keeps the record's original natural-order position only approximately (at the end).
      c.records.set(key, prev);
      for (const ix of c.indexes.values()) ix.add(key, prev.doc);
    });
  };

  /** Journals a batch; on failure undoes it and rethrows. Resolves once the journal has it on disk. */
  const commitBatch = async (batch: Batch): Promise<void> => {
    if (batch.ops.length === 0 || !journal || replaying) return;
    try {
      await journal.append(batch.ops);
    } catch (err) {
      for (let i = batch.undo.length - 1; i >= 0; i--) batch.undo[i]();
      throw new MongoCommandError(
        8,
        'UnknownError',
        `the write could not be made durable and was rolled back: ${(err as Error).message}`,
      );
    }
    opsSinceCompact += batch.ops.length;
    maybeCompact();
  };

  /** The durable journal (src/durability) decides by itself when to compact, given a dump source. */
  const selfCompacting = journal;

  const maybeCompact = () => {
    if (!journal || compacting || stopped) return;
    const explicit = options.compactEveryOps !== undefined;
    // The durable journal compacts by itself when it has grown enough (given the dump source set below).
    if (!explicit && typeof selfCompacting?.setCompactionSource === 'function') return;
    const hasSizeTrigger = typeof selfCompacting?.shouldCompact === 'function';
    const every = options.compactEveryOps ?? (hasSizeTrigger ? 0 : 50_000);
    const dueByOps = every > 0 && opsSinceCompact >= every;
    // Size matters too: a few thousand large documents can grow a journal far more than many small ones.
    const dueBySize = hasSizeTrigger && selfCompacting.shouldCompact!();
    if (!dueByOps && !dueBySize) return;
    opsSinceCompact = 0;
    compacting = journal
      .compact(() => dumpState())
      .catch(() => undefined)
      .finally(() => {
        compacting = undefined;
      });
  };

  // ---------- views (committed state or a transaction's snapshot + own writes) ----------

  interface View {
    ns: string;
    coll: Coll | undefined;
    /** Present when the live collection (and its indexes) is exactly what this reader sees. */
    live: boolean;
    get(key: string): Document | undefined;
    all(): Document[];
    ordered(keys: Iterable<string>): Document[];
    exists: boolean;
    /** A transaction's own writes over the live collection (no snapshot): indexes still serve the base. */
    overlay?: Map<string, Document | null>;
  }

  const viewOf = (ns: Ns, txn?: Txn): View => {
    const key = nsKey(ns);
    const coll = getColl(ns);
    const t = txn ? txnState(txn) : undefined;
    const snap = t?.snapshots.get(key);
    const own = t?.writes.get(key);
    const kept = snap === undefined ? t?.before.get(key) : undefined;
    // The records others changed since this transaction started, as it saw them, under its own writes.
    let overlay = own;
    if (kept && kept.size > 0) {
      overlay = new Map();
      for (const [k, r] of kept) overlay.set(k, r ? r.doc : null);
      if (own) for (const [k, d] of own) overlay.set(k, d);
    }
    if (!t || (snap === undefined && !overlay)) {
      // Live view: looks the collection up on every call so it sees a collection created mid-command.
      const cur = () => getColl(ns);
      return {
        ns: key,
        coll,
        live: true,
        exists: !!coll,
        get: (k) => cur()?.records.get(k)?.doc,
        all: () => {
          const c = cur();
          return c ? Array.from(c.records.values(), (r) => r.doc) : [];
        },
        ordered: (keys) => {
          const c = cur();
          if (!c) return [];
          const recs: Rec[] = [];
          const n = Array.isArray(keys) ? keys.length : keys instanceof Set ? keys.size : -1;
          if (n > c.records.size / 4) {
            // Many keys (a wide range): one pass over the collection in its order beats sorting them all.
            const wanted = keys instanceof Set ? keys : new Set(keys);
            for (const [k, r] of c.records) if (wanted.has(k)) recs.push(r);
          } else {
            for (const k of keys) {
              const r = c.records.get(k);
              if (r) recs.push(r);
            }
          }
          let inOrder = true;
          for (let i = 1; i < recs.length && inOrder; i++) if (recs[i - 1].seq > recs[i].seq) inOrder = false;
          if (!inOrder) recs.sort((a, b) => a.seq - b.seq);
          return recs.map((r) => r.doc);
        },
      };
    }
    const base: Map<string, Rec> | undefined = snap === undefined ? coll?.records : (snap ?? undefined);
    const get = (k: string): Document | undefined => {
      if (overlay?.has(k)) return overlay.get(k) ?? undefined;
      return base?.get(k)?.doc;
    };
    const all = (): Document[] => {
      const out: Document[] = [];
      if (base)
        for (const [k, r] of base) {
          const d = overlay?.has(k) ? overlay.get(k) : r.doc;
          if (d) out.push(d);
        }
      if (overlay) for (const [k, d] of overlay) if (d && !base?.has(k)) out.push(d);
      return out;
    };
    return {
      ns: key,
      coll,
      live: false,
      exists: !!base || !!overlay,
      get,
      all,
      overlay: snap === undefined ? overlay : undefined,
      ordered: (keys) => {
        const set = new Set(keys);
        return all().filter((d) => set.has(idKeyOf(d)));
      },
    };
  };

  // ---------- query planning ----------

  interface Plan {
    docs: Document[];
    index: string | null;
    /** The index of each `$or` branch, when an index union answered (see orUnionIds). */
    union?: string[];
  }

  /** Record keys an index (or a union of indexes) gives as a filter's candidates, and what gave them. */
  interface CandidateIds {
    ids: Set<string> | string[];
    index: string;
    union?: string[];
  }

  const idCandidates = (cond: unknown): unknown[] | undefined => {
    if (isPlainObject(cond)) {
      const keys = Object.keys(cond);
      if (keys.length === 1 && keys[0] === '$eq') return [cond.$eq];
      if (
        keys.length === 1 &&
        keys[0] === '$in' &&
        Array.isArray(cond.$in) &&
        cond.$in.every((v) => typeRank(v) !== 12 && !isPlainObject(v) && !Array.isArray(v))
      )
        return cond.$in;
      if (keys.length > 0 && keys[0].startsWith('$')) return undefined;
      return [cond];
    }
    if (typeRank(cond) === 12 || Array.isArray(cond) || cond === null || cond === undefined) return undefined;
    return [cond];
  };

  /** Conditions on top-level fields (including inside a top-level $and) that an index could serve. */
  const fieldConditions = (filter: Document): [string, unknown][] => {
    const out: [string, unknown][] = [];
    for (const k of Object.keys(filter)) {
      if (k === '$and' && Array.isArray(filter.$and)) {
        for (const f of filter.$and) if (isPlainObject(f)) out.push(...fieldConditions(f));
        continue;
      }
      if (!k.startsWith('$')) out.push([k, filter[k]]);
    }
    return out;
  };

  const indexable = (v: unknown) =>
    v !== null && v !== undefined && typeRank(v) !== 12 && !Array.isArray(v) && typeRank(v) !== 1 && typeRank(v) !== 14;

  const plan = (view: View, filter: Document | undefined): Plan => {
    const f = filter ?? {};
    if (view.overlay && view.coll) {
      // Plan against the committed collection, then swap in this transaction's own versions.
      const overlay = view.overlay;
      const base = plan(viewOf({ db: view.coll.db, coll: view.coll.name }), f);
      if (base.index === null) return { docs: view.all(), index: null };
      const docs = base.docs.filter((d) => !overlay.has(idKeyOf(d)));
      for (const d of overlay.values()) if (d) docs.push(d);
      return { docs, index: base.index, ...(base.union ? { union: base.union } : {}) };
    }
    const ids = planIds(view, f);
    if (!ids) return { docs: view.all(), index: null };
    return { docs: view.ordered(ids.ids), index: ids.index, ...(ids.union ? { union: ids.union } : {}) };
  };

  /** Range bounds of a `{$gt/$gte/$lt/$lte}` condition an index can serve (one BSON type), else undefined. */
  const rangeOf = (cond: unknown) => {
    if (!isPlainObject(cond)) return undefined;
    const ops = Object.keys(cond);
    if (ops.length === 0 || !ops.every((o) => ['$gt', '$gte', '$lt', '$lte'].includes(o))) return undefined;
    const vals = ops.map((o) => cond[o]);
    if (!vals.every(indexable) || !vals.every((v) => typeRank(v) === typeRank(vals[0]))) return undefined;
    let lower: { v: unknown; inclusive: boolean } | undefined;
    let upper: { v: unknown; inclusive: boolean } | undefined;
    for (const o of ops) {
      const v = cond[o];
      if (o === '$gt' || o === '$gte') {
        if (!lower || compareValues(v, lower.v) > 0) lower = { v, inclusive: o === '$gte' };
      } else if (!upper || compareValues(v, upper.v) < 0) upper = { v, inclusive: o === '$lte' };
    }
    return { lower, upper };
  };

  /** The candidate record keys an index gives for a filter on the live collection (null: scan everything). */
  const planIds = (view: View, f: Document): CandidateIds | null => fieldIds(view, f) ?? orUnionIds(view, f);

  /** The `$or` arrays of a filter: its own and those inside a top-level `$and` (each alone narrows the filter). */
  const orClauses = (f: Document): unknown[][] => {
    const out: unknown[][] = [];
    if (Array.isArray(f.$or)) out.push(f.$or);
    if (Array.isArray(f.$and)) for (const a of f.$and) if (isPlainObject(a)) out.push(...orClauses(a));
    return out;
  };

  /**
   * An index union for a `$or` whose every branch an index narrows (as mongod's OR plan): each branch's
   * candidates, merged by record key (a document two branches find is read once). The caller applies the
   * whole filter to the candidates, so a branch's candidates only need to hold its matches. Null when some
   * branch needs a scan: then so does the `$or`.
   */
  const orUnionIds = (view: View, f: Document): CandidateIds | null => {
    if (!view.live || !view.coll || !isPlainObject(f)) return null;
    for (const branches of orClauses(f)) {
      if (branches.length === 0 || !branches.every(isPlainObject)) continue;
      const keys = new Set<string>();
      const names: string[] = [];
      let all = true;
      for (const branch of branches) {
        const own = planIds(view, branch);
        if (!own) {
          all = false;
          break;
        }
        for (const k of own.ids) keys.add(k);
        names.push(...(own.union ?? [own.index]));
      }
      if (all) return { ids: keys, index: [...new Set(names)].join(','), union: names };
    }
    return null;
  };

  const fieldIds = (view: View, f: Document): CandidateIds | null => {
    if (view.live && view.coll && isPlainObject(f)) {
      const conds = fieldConditions(f);
      const collator = currentCollator();
      const idCond = collator === null ? conds.find(([k]) => k === '_id') : undefined;
      if (idCond) {
        const ids = idCandidates(idCond[1]);
        if (ids && ids.every(indexable)) return { ids: new Set(ids.map(binaryKey)), index: '_id_' };
      }
      for (const [path, cond] of conds) {
        for (const ix of view.coll.indexes.values()) {
          if (ix.fields[0].path !== path || ix.partial) continue;
          // An index may serve a query only when its key equality is no finer than the query's: the same
          // collation, or a binary query (candidates are filtered again by the full query afterwards).
          if (ix.collator !== collator && collator !== null) continue;
          const eq = idCandidates(cond);
          if (eq && eq.every(indexable)) {
            if (eq.length === 1) {
              // One value: the index's own id set, read only (copying 30,000 ids costs more than the query).
              const own = ix.idsEqual(eq[0]);
              return { ids: own instanceof Set ? own : [...own], index: ix.name };
            }
            const keys = new Set<string>();
            for (const v of eq) for (const id of ix.idsEqual(v) ?? []) keys.add(id);
            return { ids: keys, index: ix.name };
          }
          const range = ix.collator === collator ? rangeOf(cond) : undefined;
          if (range) {
            const [from, to] = ix.rangePositions(range.lower, range.upper);
            // A range over most of the collection: one pass with the filter beats collecting and ordering ids.
            if (to - from > view.coll.records.size / 2) continue;
            return { ids: ix.idsAt(from, to), index: ix.name };
          }
        }
      }
    }
    return null;
  };

  /**
   * find with a sort whose first key an index orders: walk the index in that order (either direction),
   * filter each document, sort each run of equal leading values by the remaining keys (ties keep natural
   * order, as the in-memory sort does) and stop once `need` documents matched. Undefined when no index
   * fits, or when another index narrows the filter so much that sorting its few candidates is cheaper.
   */
  const walkSortIndex = (
    view: View,
    filter: Document | undefined,
    keys: SortKey[],
    need: number,
  ): { doc: Document; pos: number | undefined }[] | undefined => {
    const coll = view.coll;
    if (!view.live || view.overlay || !coll || keys[0].path === '$natural') return undefined;
    const f = filter ?? {};
    if (!isPlainObject(f)) return undefined;
    const collator = currentCollator();
    let ix: Index | undefined;
    for (const cand of coll.indexes.values()) {
      if (cand.fields[0].path === keys[0].path && cand.collator === collator && cand.ordersWholeCollection) {
        ix = cand;
        break;
      }
    }
    if (!ix) return undefined;
    const m = compileFilter(f);
    const narrowed = planIds(view, f);
    const candidates = narrowed
      ? Array.isArray(narrowed.ids)
        ? narrowed.ids.length
        : narrowed.ids.size
      : coll.records.size;
    // A range condition on the sorted field itself limits the walk to that range.
    const range = fieldConditions(f)
      .map(([k, c]) => (k === keys[0].path ? rangeOf(c) : undefined))
      .find((r) => r !== undefined);
    const narrowedElsewhere = narrowed !== null && !(narrowed.index === ix.name && range);
    // Another index (or an equality on this one) leaves few candidates, or all are wanted anyway: sorting
    // those candidates beats walking.
    if (narrowedElsewhere && (need === Infinity || candidates <= Math.max(1000, 2 * need))) return undefined;
    const entries = ix.entries();
    let from = 0;
    let to = entries.length;
    if (range) [from, to] = ix.rangePositions(range.lower, range.upper);
    // Walking costs at most a few times what sorting the narrowed candidates would; beyond that, give up.
    const budget = narrowedElsewhere ? Math.max(2000, 3 * candidates) : Infinity;
    const dir = keys[0].dir;
    const rest = keys.slice(1);
    const out: { doc: Document; pos: number | undefined }[] = [];
    let examined = 0;
    let i = dir === 1 ? from : to - 1;
    const inside = (j: number) => j >= from && j < to;
    while (inside(i) && out.length < need) {
      const v = entries[i].v;
      let run: { doc: Document; pos: number | undefined; seq: number }[] = [];
      let j = i;
      do {
        const rec = coll.records.get(entries[j].id);
        examined++;
        if (rec) {
          const st: MatchState = {};
          if (m(rec.doc, st)) run.push({ doc: rec.doc, pos: st.pos, seq: rec.seq });
        }
        j += dir;
      } while (inside(j) && compareValues(entries[j].v, v) === 0);
      i = j;
      if (run.length > 1) {
        run.sort((a, b) => a.seq - b.seq);
        if (rest.length) run = sortBy(run, rest, (x) => x.doc);
      }
      for (const r of run) out.push({ doc: r.doc, pos: r.pos });
      if (examined > budget) return undefined;
    }
    stats = { docsExamined: examined, indexUsed: ix.name, fastPath: 'index-order' };
    return out;
  };

  /**
   * The number of documents a filter matches when an index answers it exactly, without looking at any
   * document: the empty filter, or one equality on a plain value of an index's leading field (or _id).
   */
  const exactCount = (view: View, filter: Document | undefined): number | undefined => {
    const coll = view.coll;
    if (!view.live || view.overlay) return undefined;
    if (!coll) return 0;
    const f = filter ?? {};
    if (!isPlainObject(f)) return undefined;
    const fields = Object.keys(f);
    if (fields.length === 0) {
      stats = { docsExamined: 0, indexUsed: null, fastPath: 'count' };
      return coll.records.size;
    }
    if (fields.length !== 1 || fields[0].startsWith('$')) return undefined;
    const path = fields[0];
    let value = f[path];
    if (isPlainObject(value)) {
      if (Object.keys(value).length !== 1 || !('$eq' in value)) return undefined;
      value = value.$eq;
    }
    const t = bsonTypeOf(value);
    if (
      !['string', 'int', 'double', 'bool', 'date', 'objectId'].includes(t) ||
      (typeof value === 'number' && !Number.isFinite(value))
    )
      return undefined;
    const collator = currentCollator();
    if (path === '_id') {
      if (collator !== null) return undefined;
      stats = { docsExamined: 0, indexUsed: '_id_', fastPath: 'count' };
      return coll.records.has(binaryKey(value)) ? 1 : 0;
    }
    for (const ix of coll.indexes.values()) {
      if (ix.fields[0].path !== path || ix.partial || ix.collator !== collator) continue;
      let n = 0;
      for (const _ of ix.idsEqual(value)) n++;
      stats = { docsExamined: 0, indexUsed: ix.name, fastPath: 'count' };
      return n;
    }
    return undefined;
  };

  /**
   * Checks a hint and answers what it decides for a find without a sort: the hinted index's key order (and,
   * for a sparse or partial index, only the documents it holds), or `$natural` order.
   */
  const hintCheck = (view: View, hint: FindOptions['hint']): { keys: SortKey[]; index?: Index } | undefined => {
    if (hint === undefined || hint === null || !view.coll) return undefined;
    const byKey = (key: Document, index?: Index) =>
      Object.values(key).every((d) => d === 1 || d === -1) ? { keys: parseSort(key), index } : undefined;
    if (typeof hint === 'string') {
      if (hint === '_id_') return byKey({ _id: 1 });
      const ix = view.coll.indexes.get(hint);
      if (ix) return byKey(ix.spec.key, ix);
    } else if (isPlainObject(hint)) {
      if (Object.keys(hint).length === 0) return undefined;
      if ('$natural' in hint) return { keys: parseSort({ $natural: numberOf(hint.$natural) < 0 ? -1 : 1 }) };
      if (valuesEqual(hint, { _id: 1 })) return byKey({ _id: 1 });
      for (const ix of view.coll.indexes.values()) if (valuesEqual(ix.spec.key, hint)) return byKey(ix.spec.key, ix);
    }
    throw badValue('hint provided does not correspond to an existing index');
  };

  /** Matching documents (with their positional match index), in natural order. */
  const matchDocs = (view: View, filter: Document | undefined): { doc: Document; pos: number | undefined }[] => {
    const m: Matcher = compileFilter(filter ?? {});
    const p = plan(view, filter);
    stats = { docsExamined: p.docs.length, indexUsed: p.index, ...(p.union ? { indexUnion: p.union } : {}) };
    const out: { doc: Document; pos: number | undefined }[] = [];
    for (const doc of p.docs) {
      const s: MatchState = {};
      if (m(doc, s)) out.push({ doc, pos: s.pos });
    }
    return out;
  };

  const nonNegative = (name: string, v: unknown): number => {
    if (v === undefined || v === null) return 0;
    if (!isNumeric(v) || numberOf(v) < 0)
      throw badValue(`${name} value must be non-negative, but received: ${formatValue(v)}`);
    return Math.trunc(numberOf(v));
  };

  /** The collation a command runs under: its own, else the collection's default (none: binary). */
  const collationOf = (ns: Ns, explicit: unknown) => collatorFor(explicit ?? getColl(ns)?.options.collation);

  const find = (ns: Ns, o: FindOptions, txn?: Txn): Document[] =>
    withCollator(collationOf(ns, o.collation), () => {
      const view = viewOf(ns, txn);
      const hinted = hintCheck(view, o.hint);
      const keys = parseSort(o.sort);
      const project = compileProjection(o.projection);
      const skip = nonNegative('skip', o.skip);
      const limitRaw = o.limit === undefined || o.limit === null ? 0 : Math.abs(Math.trunc(numberOf(o.limit)));
      const walked = keys.length
        ? walkSortIndex(view, o.filter, keys, limitRaw ? skip + limitRaw : Infinity)
        : undefined;
      let matched = walked ?? matchDocs(view, o.filter);
      if (keys.length && !walked) matched = sortBy(matched, keys, (x) => x.doc);
      // Without a sort, the hinted index's scan decides the order (ties: natural order, as record ids do).
      if (!keys.length && hinted) {
        const ix = hinted.index;
        if (ix && (ix.spec.sparse || ix.spec.partialFilterExpression))
          matched = matched.filter((x) => ix.keys(x.doc).length > 0);
        matched = sortBy(matched, hinted.keys, (x) => x.doc);
      }
      const page = matched.slice(skip, limitRaw ? skip + limitRaw : undefined);
      return page.map((x) => project(x.doc, x.pos));
    });

  // ---------- transactions ----------

  const txnState = (txn: Txn): TxnState => {
    const t = txns.get(txn.id);
    if (!t || !t.active) throw noSuchTransaction(`Transaction ${txn.id} has been aborted or committed.`);
    return t;
  };

  const endTxn = (t: TxnState) => {
    t.active = false;
    txns.delete(t.id);
    for (const k of t.locked) if (locks.get(k) === t.id) locks.delete(k);
    if (txns.size === 0) tombstones.clear();
  };

  // ---------- write targets: committed state directly, or a transaction's buffer ----------

  interface Target {
    view: View;
    /** Validates and writes `doc` under `key`; `inserting` means the key must be new. */
    put(key: string, doc: Document, inserting: boolean): void;
    del(key: string): void;
  }

  const uniqueIndexes = (c: Coll | undefined) => (c ? [...c.indexes.values()].filter((ix) => ix.unique) : []);

  const duplicateIdError = (ns: string, id: unknown) =>
    new MongoCommandError(
      11000,
      'DuplicateKey',
      `E11000 duplicate key error collection: ${ns} index: _id_ dup key: { _id: ${formatValue(id)} }`,
      {
        keyPattern: { _id: 1 },
        keyValue: { _id: id },
      },
    );

  const duplicateError = (ix: Index, ns: string, k: unknown[]) => {
    const d = ix.duplicateError(ns, k);
    return new MongoCommandError(11000, 'DuplicateKey', d.errmsg, { keyPattern: d.keyPattern, keyValue: d.keyValue });
  };

  // ---------- document validation (collection validator, validationLevel, validationAction) ----------

  const validators = new WeakMap<Document, Matcher | null>();
  const validatorOf = (c: Coll): Matcher | null => {
    let m = validators.get(c.options);
    if (m === undefined) {
      const v = c.options.validator;
      m = isPlainObject(v) && Object.keys(v).length > 0 ? compileFilter(v) : null;
      validators.set(c.options, m);
    }
    return m;
  };

  const validate = (c: Coll | undefined, doc: Document, prev: Document | undefined, bypass: boolean) => {
    if (!c || bypass) return;
    const test = validatorOf(c);
    if (!test) return;
    const level = c.options.validationLevel ?? 'strict';
    if (level === 'off') return;
    // moderate: documents that already broke the rules may be updated without meeting them
    if (level === 'moderate' && prev !== undefined && !test(prev)) return;
    if (test(doc)) return;
    if ((c.options.validationAction ?? 'error') === 'warn') return;
    const validator = c.options.validator as Document;
    throw new MongoCommandError(121, 'DocumentValidationFailure', 'Document failed validation', {
      errInfo: {
        failingDocumentId: doc._id,
        details: {
          operatorName: Object.keys(validator).length === 1 ? Object.keys(validator)[0] : '$and',
          specifiedAs: validator,
        },
      },
    });
  };

  const directTarget = (ns: Ns, batch: Batch, bypass = false): Target => {
    const key = nsKey(ns);
    const view = viewOf(ns);
    return {
      view,
      put(k, doc, inserting) {
        const c = ensureColl(ns, batch);
        view.coll = c;
        view.exists = true;
        if (inserting && c.records.has(k)) throw duplicateIdError(key, doc._id);
        validate(c, doc, inserting ? undefined : c.records.get(k)?.doc, bypass);
        for (const ix of uniqueIndexes(c)) {
          const dup = ix.conflict(doc, k);
          if (dup) throw duplicateError(ix, key, dup);
        }
        putRecord(c, k, doc, batch);
      },
      del(k) {
        const c = getColl(ns);
        if (c) deleteRecord(c, k, batch);
      },
    };
  };

  const txnTarget = (ns: Ns, txn: Txn, bypass = false): Target => {
    const t = txnState(txn);
    const key = nsKey(ns);
    const claim = (k: string) => {
      const lk = lockKey(key, k);
      const holder = locks.get(lk);
      if (holder !== undefined && holder !== t.id) throw writeConflict();
      const rec = getColl(ns)?.records.get(k);
      if ((rec && rec.ver > t.startVer) || (tombstones.get(lk) ?? 0) > t.startVer) throw writeConflict();
      locks.set(lk, t.id);
      t.locked.add(lk);
    };
    const target: Target = {
      view: viewOf(ns, txn),
      put(k, doc, inserting) {
        checkDbName(ns.db);
        checkCollName(ns.db, ns.coll);
        const view = target.view;
        if (inserting && view.get(k) !== undefined) throw duplicateIdError(key, doc._id);
        const overlay = t.writes.get(key);
        const c = getColl(ns);
        validate(c, doc, inserting ? undefined : view.get(k), bypass);
        for (const ix of uniqueIndexes(c)) {
          // committed holders that this transaction has not rewritten, then this transaction's own writes
          const dup = ix.conflict(doc, k, (other) => overlay?.has(other) === true);
          if (dup) throw duplicateError(ix, key, dup);
          if (overlay) {
            const mine = new Set(ix.keyStrings(doc));
            for (const [ok, od] of overlay) {
              if (ok === k || !od) continue;
              const theirs = ix.keyStrings(od);
              const at = theirs.findIndex((t) => mine.has(t));
              if (at >= 0) throw duplicateError(ix, key, ix.keys(od)[at]);
            }
          }
        }
        claim(k);
        write(k, doc);
      },
      del(k) {
        claim(k);
        write(k, null);
      },
    };
    /**
     * Buffers one write where the rest of this command reads: the next statement of the same command (a
     * bulk write's second update of one document) must see it. A view made before this transaction's first
     * write to the collection read committed records (or its snapshot) only, and one over records others
     * changed reads a copy of the writes: reading through either lost the earlier statement's change.
     */
    const write = (k: string, doc: Document | null) => {
      let w = t.writes.get(key);
      if (!w) {
        w = new Map();
        t.writes.set(key, w);
      }
      w.set(k, doc);
      const view = target.view;
      if (view.overlay === w) return;
      if (view.overlay) view.overlay.set(k, doc);
      else target.view = viewOf(ns, txn);
    };
    return target;
  };

  const targetFor = (ns: Ns, batch: Batch, txn?: Txn, bypass = false): Target =>
    txn ? txnTarget(ns, txn, bypass) : directTarget(ns, batch, bypass);

  /** Serialises nothing: every write runs synchronously up to its journal append. */
  const prepareInsertDoc = (raw: unknown): Document => {
    if (!isPlainObject(raw)) throw badValue('document to insert must be an object');
    let doc = raw._id === undefined ? { _id: new ObjectId(), ...raw } : withIdFirst(raw);
    const idType = typeRank(doc._id);
    if (Array.isArray(doc._id)) throw badValue("The '_id' value cannot be of type array");
    if (idType === 12) throw badValue("The '_id' value cannot be of type regex");
    if (isPlainObject(doc._id) && Object.keys(doc._id).some((k) => k.startsWith('$'))) {
      throw new MongoCommandError(
        52,
        'DollarPrefixedFieldName',
        `_id fields may not contain '$'-prefixed fields: ${Object.keys(doc._id).find((k) => k.startsWith('$'))} is not valid for storage.`,
      );
    }
    doc = cloneDoc(doc);
    checkSize(
      doc,
      10334,
      'BSONObjectTooLarge',
      (n) => `object to insert too large. size in bytes: ${n}, max size: ${MAX_DOCUMENT_BYTES}`,
    );
    return doc;
  };

  /** MongoDB's 16 MiB document limit, with the code the refusing operation answers. */
  const checkSize = (doc: Document, code: number, codeName: string, message: (n: number) => string) => {
    const n = BSON.calculateObjectSize(doc);
    if (n > MAX_DOCUMENT_BYTES) throw new MongoCommandError(code, codeName, message(n));
  };
  const checkUpdatedSize = (doc: Document) =>
    checkSize(
      doc,
      17419,
      'Location17419',
      () => `Resulting document after update is larger than ${MAX_DOCUMENT_BYTES}`,
    );
  const checkUpsertSize = (doc: Document) =>
    checkSize(doc, 17420, 'Location17420', () => `Document to upsert is larger than ${MAX_DOCUMENT_BYTES}`);

  // ---------- write commands ----------

  const insert = async (ns: Ns, docs: Document[], o: WriteOptions, txn?: Txn): Promise<InsertResult> => {
    const batch = new Batch();
    const ordered = o.ordered !== false;
    const writeErrors: WriteError[] = [];
    let n = 0;
    const target = targetFor(ns, batch, txn, o.bypassDocumentValidation === true);
    if (!txn) ensureColl(ns, batch);
    for (let i = 0; i < docs.length; i++) {
      try {
        const doc = prepareInsertDoc(docs[i]);
        target.put(idKeyOf(doc), doc, true);
        n++;
      } catch (err) {
        if (txn && err instanceof MongoCommandError && err.code === 112) throw err;
        writeErrors.push(toWriteError(i, err));
        if (ordered) break;
      }
    }
    await commitBatch(batch);
    return { n, writeErrors };
  };

  const docsDiffer = (a: Document, b: Document) => !identical(a, b);

  const now = () => new Date();

  const updateOne = (
    target: Target,
    st: UpdateStatement,
    compiled: CompiledUpdate,
    result: UpdateResult,
    index: number,
  ) => {
    const matched = matchDocs(target.view, st.q);
    const chosen = st.multi ? matched : matched.slice(0, 1);
    const at = now();
    for (const { doc, pos } of chosen) {
      const next = applyUpdate(doc, compiled, { pos, inserting: false, now: at });
      result.n++;
      if (docsDiffer(doc, next)) {
        checkUpdatedSize(next);
        target.put(idKeyOf(doc), next, false);
        result.nModified++;
      }
    }
    if (chosen.length === 0 && st.upsert) {
      const doc = buildUpsertDocument(equalityFields(st.q), compiled, { inserting: true, now: at });
      checkUpsertSize(doc);
      prepareInsertDoc(doc);
      target.put(idKeyOf(doc), doc, true);
      result.n++;
      result.upserted.push({ index, _id: doc._id });
    }
  };

  const update = async (ns: Ns, updates: UpdateStatement[], o: WriteOptions, txn?: Txn): Promise<UpdateResult> => {
    const batch = new Batch();
    const ordered = o.ordered !== false;
    const result: UpdateResult = { n: 0, nModified: 0, upserted: [], writeErrors: [] };
    const target = targetFor(ns, batch, txn, o.bypassDocumentValidation === true);
    for (let i = 0; i < updates.length; i++) {
      const st = updates[i];
      try {
        if (!isPlainObject(st.q)) throw badValue('q must be an object');
        const compiled = compileUpdate(st.u, st.arrayFilters);
        if (st.multi && compiled.kind === 'replacement')
          throw failedToParse('multi update is not supported for replacement-style update');
        hintCheck(target.view, st.hint);
        withCollator(collationOf(ns, st.collation), () => updateOne(target, st, compiled, result, i));
      } catch (err) {
        if (txn && err instanceof MongoCommandError && err.code === 112) throw err;
        result.writeErrors.push(toWriteError(i, err));
        if (ordered) break;
      }
    }
    await commitBatch(batch);
    return result;
  };

  const del = async (
    ns: Ns,
    deletes: DeleteStatement[],
    o: { ordered?: boolean },
    txn?: Txn,
  ): Promise<DeleteResult> => {
    const batch = new Batch();
    const ordered = o.ordered !== false;
    let n = 0;
    const writeErrors: WriteError[] = [];
    const target = targetFor(ns, batch, txn);
    for (let i = 0; i < deletes.length; i++) {
      const st = deletes[i];
      try {
        if (!isPlainObject(st.q)) throw badValue('q must be an object');
        if (st.limit !== 0 && st.limit !== 1 && !(isNumeric(st.limit) && [0, 1].includes(numberOf(st.limit)))) {
          throw failedToParse(`The limit field in delete objects must be 0 or 1. Got ${formatValue(st.limit)}`);
        }
        hintCheck(target.view, st.hint);
        const matched = withCollator(collationOf(ns, st.collation), () => matchDocs(target.view, st.q));
        const chosen = numberOf(st.limit) === 1 ? matched.slice(0, 1) : matched;
        for (const { doc } of chosen) {
          target.del(idKeyOf(doc));
          n++;
        }
      } catch (err) {
        if (txn && err instanceof MongoCommandError && err.code === 112) throw err;
        writeErrors.push(toWriteError(i, err));
        if (ordered) break;
      }
    }
    await commitBatch(batch);
    return { n, writeErrors };
  };

  const findAndModify = async (ns: Ns, a: FindAndModifyArgs, txn?: Txn): Promise<FindAndModifyResult> => {
    if (a.remove && a.update !== undefined) throw failedToParse('Cannot specify both an update and remove=true');
    if (!a.remove && a.update === undefined) throw failedToParse('Either an update or remove=true must be specified');
    if (a.remove && a.upsert) throw failedToParse('Cannot specify both upsert=true and remove=true ');
    if (a.remove && a.new)
      throw failedToParse("Cannot specify both new=true and remove=true; 'remove' always returns the deleted document");
    const batch = new Batch();
    const target = targetFor(ns, batch, txn, a.bypassDocumentValidation === true);
    const result = withCollator(collationOf(ns, a.collation), () => findAndModifyIn(target, a));
    await commitBatch(batch);
    return result;
  };

  const findAndModifyIn = (target: Target, a: FindAndModifyArgs): FindAndModifyResult => {
    const project = compileProjection(a.fields);
    const compiled = a.update !== undefined ? compileUpdate(a.update, a.arrayFilters) : undefined;
    let matched = matchDocs(target.view, a.query ?? {});
    const keys = parseSort(a.sort);
    if (keys.length) matched = sortBy(matched, keys, (x) => x.doc);
    const first = matched[0];
    let result: FindAndModifyResult;
    if (a.remove) {
      if (first) target.del(idKeyOf(first.doc));
      result = { value: first ? project(first.doc, first.pos) : null, lastErrorObject: { n: first ? 1 : 0 } };
    } else if (first) {
      const next = applyUpdate(first.doc, compiled!, { pos: first.pos, inserting: false, now: now() });
      if (docsDiffer(first.doc, next)) {
        checkUpdatedSize(next);
        target.put(idKeyOf(first.doc), next, false);
      }
      result = {
        value: project(a.new ? next : first.doc, first.pos),
        lastErrorObject: { n: 1, updatedExisting: true },
      };
    } else if (a.upsert) {
      const doc = buildUpsertDocument(equalityFields(a.query ?? {}), compiled!, { inserting: true, now: now() });
      checkUpsertSize(doc);
      prepareInsertDoc(doc);
      target.put(idKeyOf(doc), doc, true);
      result = {
        value: a.new ? project(doc) : null,
        lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
      };
    } else {
      result = { value: null, lastErrorObject: { n: 0, updatedExisting: false } };
    }
    return result;
  };

  // ---------- indexes and collections ----------

  const INDEX_OPTIONS = ['unique', 'sparse', 'partialFilterExpression', 'expireAfterSeconds', 'collation', 'hidden'];
  const sameOptions = (a: IndexSpec, b: IndexSpec) =>
    INDEX_OPTIONS.every(
      (k) =>
        (a[k] === undefined || a[k] === false) === (b[k] === undefined || b[k] === false) &&
        (a[k] === undefined || b[k] === undefined || valuesEqual(a[k], b[k])),
    );

  const normaliseSpec = (raw: IndexSpec): IndexSpec => {
    if (!isPlainObject(raw)) throw failedToParse('index specification must be an object');
    validateKeyPattern(raw.key);
    const name = raw.name ?? defaultIndexName(raw.key);
    if (typeof name !== 'string' || name === '') throw badValue('index name must be a non-empty string');
    const spec: IndexSpec = { v: 2, key: raw.key, name };
    for (const [k, v] of Object.entries(raw)) {
      if (['v', 'key', 'name', 'ns', 'background'].includes(k)) continue;
      if (k === 'unique' || k === 'sparse' || k === 'hidden') {
        if (v) spec[k] = true;
        continue;
      }
      if (k === 'expireAfterSeconds') {
        if (!isNumeric(v) || numberOf(v) < 0)
          throw new MongoCommandError(
            67,
            'CannotCreateIndex',
            `TTL index 'expireAfterSeconds' option must be a non-negative number: ${formatValue(v)}`,
          );
        spec.expireAfterSeconds = numberOf(v);
        continue;
      }
      if (k === 'partialFilterExpression') {
        if (!isPlainObject(v)) throw badValue('partialFilterExpression must be an object');
        compileFilter(v);
      }
      if (['text', 'weights', 'default_language', 'language_override', '2dsphereIndexVersion'].includes(k))
        throw notSupported(`the index option '${k}'`);
      spec[k] = v;
    }
    if (spec.unique && spec.sparse === undefined) {
      /* unique, dense */
    }
    return spec;
  };

  const buildIndex = (c: Coll, spec: IndexSpec, enforce: boolean): Index => {
    const ix = new Index(spec);
    const ns = `${c.db}.${c.name}`;
    for (const [k, r] of c.records) {
      if (enforce && ix.unique) {
        const dup = ix.conflict(r.doc, k);
        if (dup) {
          const d = ix.duplicateError(ns, dup);
          throw new MongoCommandError(
            11000,
            'DuplicateKey',
            `Index build failed: ${c.uuid.toHexString()}: Collection ${ns} ( ${c.uuid.toHexString()} ) :: caused by :: ${d.errmsg}`,
            { keyPattern: d.keyPattern, keyValue: d.keyValue },
          );
        }
      }
      ix.add(k, r.doc);
    }
    return ix;
  };

  const createIndexes: Engine['createIndexes'] = async (ns, specs) => {
    if (!Array.isArray(specs) || specs.length === 0) throw badValue('Must specify at least one index to create');
    const batch = new Batch();
    const createdCollectionAutomatically = !getColl(ns);
    const c = ensureColl(ns, batch);
    const before = c.indexes.size + 1;
    const fresh: Index[] = [];
    // An index without its own collation takes the collection's default one, as in mongod.
    const normalised = specs
      .map(normaliseSpec)
      .map((spec) =>
        spec.collation === undefined && c.options.collation !== undefined && spec.name !== '_id_'
          ? { ...spec, collation: c.options.collation }
          : spec,
      );
    for (const spec of normalised) {
      if (spec.name === '_id_' || valuesEqual(spec.key, { _id: 1 })) {
        if (spec.name !== '_id_' || !valuesEqual(spec.key, { _id: 1 })) {
          throw new MongoCommandError(
            spec.name === '_id_' ? 86 : 85,
            spec.name === '_id_' ? 'IndexKeySpecsConflict' : 'IndexOptionsConflict',
            `Index already exists with a different name: _id_`,
          );
        }
        if (spec.unique === false || spec.sparse)
          throw new MongoCommandError(67, 'CannotCreateIndex', 'The _id index must be unique and not sparse');
        continue;
      }
      const byName = c.indexes.get(spec.name) ?? fresh.find((f) => f.name === spec.name);
      if (byName) {
        if (
          !valuesEqual(byName.spec.key, spec.key) ||
          Object.keys(byName.spec.key).join() !== Object.keys(spec.key).join()
        ) {
          throw new MongoCommandError(
            86,
            'IndexKeySpecsConflict',
            `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${formatValue(spec)}, existing index: ${formatValue(byName.spec)}`,
          );
        }
        if (!sameOptions(byName.spec, spec)) {
          throw new MongoCommandError(
            85,
            'IndexOptionsConflict',
            `An equivalent index already exists with the same name but different options. Requested index: ${formatValue(spec)}, existing index: ${formatValue(byName.spec)}`,
          );
        }
        continue;
      }
      for (const ix of [...c.indexes.values(), ...fresh]) {
        if (
          valuesEqual(ix.spec.key, spec.key) &&
          Object.keys(ix.spec.key).join() === Object.keys(spec.key).join() &&
          valuesEqual(ix.spec.partialFilterExpression ?? null, spec.partialFilterExpression ?? null)
        ) {
          if (sameOptions(ix.spec, spec))
            throw new MongoCommandError(
              85,
              'IndexOptionsConflict',
              `Index already exists with a different name: ${ix.name}`,
            );
          throw new MongoCommandError(
            85,
            'IndexOptionsConflict',
            `An existing index has the same key pattern but different options. Requested index: ${formatValue(spec)}, existing index: ${formatValue(ix.spec)}`,
          );
        }
      }
      fresh.push(buildIndex(c, spec, true));
    }
    for (const ix of fresh) {
      c.indexes.set(ix.name, ix);
      batch.ops.push({ op: 'createIndex', db: c.db, coll: c.name, spec: ix.spec });
      batch.undo.push(() => c.indexes.delete(ix.name));
    }
    await commitBatch(batch);
    const after = c.indexes.size + 1;
    return {
      numIndexesBefore: before,
      numIndexesAfter: after,
      createdCollectionAutomatically,
      ...(fresh.length === 0 ? { note: 'all indexes already exist' } : {}),
    };
  };

  const listIndexes = (ns: Ns): IndexSpec[] => {
    const c = getColl(ns);
    if (!c) throw namespaceNotFound(`ns does not exist: ${nsKey(ns)}`);
    return [{ ...ID_INDEX }, ...[...c.indexes.values()].map((ix) => ({ ...ix.spec }))];
  };

  const dropIndexes: Engine['dropIndexes'] = async (ns, index) => {
    const c = getColl(ns);
    if (!c) throw namespaceNotFound(`ns not found ${nsKey(ns)}`);
    const was = c.indexes.size + 1;
    let names: string[];
    if (index === '*') names = [...c.indexes.keys()];
    else if (typeof index === 'string') names = [index];
    else if (Array.isArray(index)) names = index.map(String);
    else if (isPlainObject(index)) {
      if (valuesEqual(index, { _id: 1 })) throw new MongoCommandError(72, 'InvalidOptions', 'cannot drop _id index');
      const found = [...c.indexes.values()].find((ix) => valuesEqual(ix.spec.key, index));
      if (!found) throw indexNotFound(`can't find index with key: ${formatValue(index)}`);
      names = [found.name];
    } else throw badValue('invalid index name spec');
    for (const n of names) {
      if (n === '_id_') throw new MongoCommandError(72, 'InvalidOptions', 'cannot drop _id index');
      if (!c.indexes.has(n)) throw indexNotFound(`index not found with name [${n}]`);
    }
    const batch = new Batch();
    for (const n of names) {
      const ix = c.indexes.get(n)!;
      c.indexes.delete(n);
      batch.ops.push({ op: 'dropIndex', db: c.db, coll: c.name, name: n });
      batch.undo.push(() => c.indexes.set(n, ix));
    }
    await commitBatch(batch);
    return { nIndexesWas: was };
  };

  const createCollection: Engine['createCollection'] = async (ns, collOptions = {}) => {
    checkDbName(ns.db);
    checkCollName(ns.db, ns.coll);
    if (getColl(ns)) throw namespaceExists(`Collection ${nsKey(ns)} already exists.`);
    if (collOptions.viewOn !== undefined) throw notSupported('Views (create with viewOn)');
    if (collOptions.capped === true && collOptions.size === undefined) {
      throw new MongoCommandError(72, 'InvalidOptions', "the 'size' field is required when 'capped' is true");
    }
    checkValidationOptions(collOptions);
    const stored: Document = {};
    for (const [k, v] of Object.entries(collOptions))
      if (!['writeConcern', 'lsid', 'txnNumber', '$db', 'autocommit', 'idIndex'].includes(k)) stored[k] = v;
    const batch = new Batch();
    preserveForTxns(nsKey(ns), undefined);
    attachColl(newColl(ns.db, ns.coll, stored), batch);
    await commitBatch(batch);
  };

  /** A validator that cannot compile, or an unknown level/action, is refused when set, not on the next write. */
  const checkValidationOptions = (o: Document) => {
    if (o.validator !== undefined) {
      if (!isPlainObject(o.validator)) throw new MongoCommandError(14, 'TypeMismatch', "'validator' must be an object");
      compileFilter(o.validator);
    }
    if (o.validationLevel !== undefined && !['off', 'strict', 'moderate'].includes(o.validationLevel)) {
      throw badValue(
        `Enumeration value '${String(o.validationLevel)}' for field 'validationLevel' is not a valid value.`,
      );
    }
    if (o.validationAction !== undefined && !['error', 'warn'].includes(o.validationAction)) {
      throw badValue(
        `Enumeration value '${String(o.validationAction)}' for field 'validationAction' is not a valid value.`,
      );
    }
  };

  const detachColl = (c: Coll, batch: Batch) => {
    const colls = dbs.get(c.db)!;
    const key = `${c.db}.${c.name}`;
    preserveForTxns(key, c);
    if (txns.size > 0) for (const [k] of c.records) tombstones.set(lockKey(key, k), ++version);
    colls.delete(c.name);
    if (colls.size === 0) dbs.delete(c.db);
    batch.undo.push(() => {
      let m = dbs.get(c.db);
      if (!m) {
        m = new Map();
        dbs.set(c.db, m);
      }
      m.set(c.name, c);
    });
  };

  const dropCollection: Engine['dropCollection'] = async (ns) => {
    const c = getColl(ns);
    if (!c) return false;
    const batch = new Batch();
    detachColl(c, batch);
    batch.ops.push({ op: 'dropCollection', db: ns.db, coll: ns.coll });
    await commitBatch(batch);
    return true;
  };

  const dropDatabase: Engine['dropDatabase'] = async (db) => {
    const colls = dbs.get(db);
    if (!colls) return;
    const batch = new Batch();
    for (const c of [...colls.values()]) detachColl(c, batch);
    batch.ops.push({ op: 'dropDatabase', db });
    await commitBatch(batch);
  };

  const applyCollMod = (c: Coll, mod: Document): Document => {
    const out: Document = {};
    for (const [k, v] of Object.entries(mod)) {
      if (k === 'index') {
        if (!isPlainObject(v)) throw badValue('collMod index must be an object');
        const ix =
          typeof v.name === 'string'
            ? c.indexes.get(v.name)
            : [...c.indexes.values()].find((i) => valuesEqual(i.spec.key, v.keyPattern));
        if (!ix)
          throw indexNotFound(`cannot find index ${formatValue(v.name ?? v.keyPattern)} for ns ${c.db}.${c.name}`);
        if (v.expireAfterSeconds !== undefined) {
          if (ix.spec.expireAfterSeconds === undefined) throw badValue('no expireAfterSeconds field to update');
          out.expireAfterSeconds_old = ix.spec.expireAfterSeconds;
          out.expireAfterSeconds_new = numberOf(v.expireAfterSeconds);
          ix.spec = { ...ix.spec, expireAfterSeconds: numberOf(v.expireAfterSeconds) };
        }
        if (v.hidden !== undefined) {
          out.hidden_old = ix.spec.hidden === true;
          out.hidden_new = v.hidden === true;
          ix.spec = { ...ix.spec, hidden: v.hidden === true || undefined };
          if (!ix.spec.hidden) delete ix.spec.hidden;
        }
      } else if (
        [
          'validator',
          'validationLevel',
          'validationAction',
          'changeStreamPreAndPostImages',
          'expireAfterSeconds',
        ].includes(k)
      ) {
        c.options = { ...c.options, [k]: v };
      } else if (['writeConcern', 'lsid', '$db', 'txnNumber'].includes(k)) {
        // command envelope fields the server may pass through
      } else throw new MongoCommandError(72, 'InvalidOptions', `${k} is not a valid collMod option`);
    }
    return out;
  };

  const collMod: Engine['collMod'] = async (ns, mod) => {
    const c = getColl(ns);
    if (!c) throw namespaceNotFound(`ns does not exist: ${nsKey(ns)}`);
    checkValidationOptions(mod);
    const before = { options: c.options, specs: new Map([...c.indexes].map(([n, ix]) => [n, ix.spec])) };
    const out = applyCollMod(c, mod);
    const batch = new Batch();
    batch.ops.push({ op: 'collMod', db: ns.db, coll: ns.coll, options: mod });
    batch.undo.push(() => {
      c.options = before.options;
      for (const [n, s] of before.specs) {
        const ix = c.indexes.get(n);
        if (ix) ix.spec = s;
      }
    });
    await commitBatch(batch);
    return out;
  };

  const collectionInfo = (c: Coll): CollectionInfo => ({
    name: c.name,
    type: 'collection',
    options: c.options,
    info: { readOnly: false, uuid: c.uuid },
    idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
  });

  const listCollections: Engine['listCollections'] = (db, filter, txn) => {
    const infos = [...(dbs.get(db)?.values() ?? [])].map(collectionInfo);
    if (txn) {
      const t = txnState(txn);
      for (const key of t.writes.keys()) {
        const [d, ...rest] = key.split('.');
        const name = rest.join('.');
        if (d === db && !infos.some((i) => i.name === name))
          infos.push({
            name,
            type: 'collection',
            options: {},
            info: { readOnly: false },
            idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
          });
      }
    }
    const m = compileFilter(filter ?? {});
    return infos.filter((i) => m(i as unknown as Document));
  };

  const listDatabases: Engine['listDatabases'] = () =>
    [...dbs.entries()].map(([name, colls]) => {
      let size = 0;
      for (const c of colls.values()) for (const r of c.records.values()) size += BSON.calculateObjectSize(r.doc);
      return { name, sizeOnDisk: size, empty: size === 0 };
    });

  // ---------- reads ----------

  const count: Engine['count'] = (ns, filter, o, txn) => {
    const total = withCollator(collationOf(ns, o.collation), () => {
      const view = viewOf(ns, txn);
      return exactCount(view, filter) ?? matchDocs(view, filter ?? {}).length;
    });
    const skip = nonNegative('skip', o.skip);
    const limit = o.limit ? Math.abs(numberOf(o.limit)) : 0;
    let n = Math.max(0, total - skip);
    if (limit) n = Math.min(n, limit);
    return n;
  };

  const distinct: Engine['distinct'] = (ns, key, filter, txn, o) =>
    withCollator(collationOf(ns, o?.collation), () => {
      if (typeof key !== 'string' || key === '') throw failedToParse('distinct key must be a non-empty string');
      const segs = key.split('.');
      const seen = new Map<string, unknown>();
      for (const { doc } of matchDocs(viewOf(ns, txn), filter ?? {})) {
        for (const c of collectPath(doc, segs)) {
          const vals = Array.isArray(c.value) ? c.value : [c.value];
          for (const v of vals)
            if (v !== undefined) {
              const k = canonicalKey(v);
              if (!seen.has(k)) seen.set(k, v);
            }
        }
      }
      return [...seen.values()].sort(compareValues);
    });

  const aggregate: Engine['aggregate'] = async (db, coll, pipeline, aggOptions, txn) => {
    if (!Array.isArray(pipeline)) throw failedToParse("'pipeline' option must be specified as an array");
    for (const stage of pipeline) {
      if (!isPlainObject(stage) || Object.keys(stage).length !== 1)
        throw new MongoCommandError(
          40323,
          'Location40323',
          'A pipeline stage specification object must contain exactly one field.',
        );
      const name = Object.keys(stage)[0];
      if (name === '$changeStream') throw notSupported('Change streams ($changeStream)');
      if (
        [
          '$currentOp',
          '$listSessions',
          '$listLocalSessions',
          '$collStats',
          '$indexStats',
          '$planCacheStats',
          '$search',
          '$searchMeta',
          '$geoNear',
        ].includes(name)
      )
        throw notSupported(`The ${name} stage`);
      if (name !== '$out' && name !== '$merge' && !isKnownStage(name)) throw unrecognizedStage(name);
      checkStageArgument(name, stage[name]);
    }
    const last = pipeline[pipeline.length - 1];
    const outStage = last && ('$out' in last || '$merge' in last) ? last : undefined;
    pipeline.slice(0, -1).forEach((s) => {
      if ('$out' in s || '$merge' in s)
        throw new MongoCommandError(
          40601,
          'Location40601',
          `${Object.keys(s)[0]} can only be the final stage in the pipeline`,
        );
    });
    const body = outStage ? pipeline.slice(0, -1) : pipeline;
    const resolver = (name: string) => viewOf({ db, coll: name }, txn).all();
    const collator =
      coll !== null ? collationOf({ db, coll }, aggOptions?.collation) : collatorFor(aggOptions?.collation);
    const results = withCollator(collator, () => {
      let input: Document[] = [];
      if (coll !== null) {
        const view = viewOf({ db, coll }, txn);
        const grouped = aggOptions?.let === undefined ? fastGroup(view, body) : undefined;
        if (grouped)
          return grouped.rest.length
            ? runPipeline(grouped.docs, grouped.rest, { collectionResolver: resolver })
            : grouped.docs;
        const first = body[0];
        if (
          first &&
          '$match' in first &&
          isPlainObject(first.$match) &&
          !JSON.stringify(Object.keys(first.$match)).includes('$expr')
        ) {
          const p = plan(view, first.$match);
          input = p.docs;
          stats = { docsExamined: input.length, indexUsed: p.index, ...(p.union ? { indexUnion: p.union } : {}) };
        } else {
          input = view.all();
          stats = { docsExamined: input.length, indexUsed: null };
        }
      } else if (!body[0] || !('$documents' in body[0])) {
        throw new MongoCommandError(
          73,
          'InvalidNamespace',
          '{aggregate: 1} is not valid for this pipeline: a database-level aggregate must start with $documents',
        );
      }
      return runPipeline(input, body, {
        collectionResolver: resolver,
        variables: isPlainObject(aggOptions?.let) ? aggOptions.let : undefined,
      });
    });
    return finishAggregate(db, outStage, results, aggOptions, txn);
  };

  /**
   * `[$match?, $group, ...]` that fast-group.ts takes (fastGroupSpec): one loop over the matching documents
   * instead of mingo's per-document expression evaluation and copies; here, which documents to visit.
   * undefined sends the whole pipeline back to mingo. The stages after $group run through mingo on the groups.
   */
  const fastGroup = (view: View, body: Document[]): { docs: Document[]; rest: Document[] } | undefined => {
    const spec = fastGroupSpec(body);
    if (!spec) return undefined;
    const { match, rest } = spec;
    // Counting only, over an index-answerable filter: the group's size without visiting documents.
    if (countsOnly(spec)) {
      const n = exactCount(view, match);
      if (n !== undefined) return { docs: countedGroups(spec, n), rest };
    }
    // An index narrows the documents to visit, unless its range covers much of the collection: then one
    // pass over everything with the filter is cheaper than collecting and ordering the index's ids.
    const narrowed = view.live && !view.overlay ? planIds(view, match) : null;
    const wide =
      narrowed !== null &&
      (Array.isArray(narrowed.ids) ? narrowed.ids.length : narrowed.ids.size) > (view.coll?.records.size ?? 0) / 4;
    const p: Plan =
      view.live && !view.overlay
        ? narrowed && !wide
          ? { docs: view.ordered(narrowed.ids), index: narrowed.index }
          : { docs: view.all(), index: null }
        : plan(view, match);
    const docs = groupDocuments(p.docs, compileFilter(match), spec);
    if (!docs) return undefined;
    stats = { docsExamined: p.docs.length, indexUsed: p.index, fastPath: 'group' };
    return { docs, rest };
  };

  const finishAggregate = async (
    db: string,
    outStage: Document | undefined,
    results: Document[],
    aggOptions: Document | undefined,
    txn?: Txn,
  ): Promise<Document[]> => {
    if (!outStage) return results;
    const bypass = aggOptions?.bypassDocumentValidation === true;
    if ('$out' in outStage) await writeOut(db, outStage.$out, results, txn, bypass);
    else await writeMerge(db, outStage.$merge, results, txn, bypass);
    return [];
  };

  /** The argument checks mongod makes before running a pipeline, where mingo would quietly do something else. */
  const checkStageArgument = (name: string, arg: unknown) => {
    if (name === '$unwind') {
      const path = isPlainObject(arg) ? arg.path : arg;
      if (typeof path !== 'string')
        throw new MongoCommandError(
          15981,
          'Location15981',
          `expected either a string or an object as specification for $unwind stage, got ${formatValue(arg)}`,
        );
      if (!path.startsWith('$'))
        throw new MongoCommandError(
          28818,
          'Location28818',
          `path option to $unwind stage should be prefixed with a '$': ${path}`,
        );
    }
    if (name === '$project' && isPlainObject(arg) && Object.keys(arg).length === 0) {
      throw new MongoCommandError(
        51272,
        'Location51272',
        'Invalid $project :: caused by :: projection specification must have at least one field',
      );
    }
    if (
      (name === '$limit' || name === '$skip') &&
      (!isNumeric(arg) ||
        !Number.isInteger(numberOf(arg)) ||
        numberOf(arg) < 0 ||
        (name === '$limit' && numberOf(arg) === 0))
    ) {
      throw new MongoCommandError(
        name === '$limit' ? 15958 : 15956,
        name === '$limit' ? 'Location15958' : 'Location15956',
        name === '$limit'
          ? `invalid argument to $limit stage: Expected a positive number in: $limit: ${formatValue(arg)}`
          : `invalid argument to $skip stage: Expected a non-negative number in: $skip: ${formatValue(arg)}`,
      );
    }
  };

  const targetNs = (db: string, spec: unknown, stage: string): Ns => {
    if (typeof spec === 'string') return { db, coll: spec };
    if (isPlainObject(spec) && typeof spec.coll === 'string')
      return { db: typeof spec.db === 'string' ? spec.db : db, coll: spec.coll };
    throw failedToParse(`${stage} requires a collection name or {db, coll}`);
  };

  const writeOut = async (db: string, spec: unknown, results: Document[], txn?: Txn, bypass = false) => {
    if (txn)
      throw new MongoCommandError(263, 'OperationNotSupportedInTransaction', '$out cannot be used in a transaction');
    const ns = targetNs(db, spec, '$out');
    const batch = new Batch();
    const c = ensureColl(ns, batch);
    // Validate the whole result first so a failing $out leaves the target untouched.
    const seen = new Set<string>();
    const prepared = results.map((r) => {
      const d = prepareInsertDoc(r);
      const k = idKeyOf(d);
      if (seen.has(k)) throw duplicateIdError(nsKey(ns), d._id);
      seen.add(k);
      return d;
    });
    for (const k of [...c.records.keys()]) deleteRecord(c, k, batch);
    const target = directTarget(ns, batch, bypass);
    try {
      for (const d of prepared) target.put(idKeyOf(d), d, true);
    } catch (err) {
      for (let i = batch.undo.length - 1; i >= 0; i--) batch.undo[i]();
      throw err;
    }
    await commitBatch(batch);
  };

  const writeMerge = async (db: string, spec: unknown, results: Document[], txn?: Txn, bypass = false) => {
    if (txn)
      throw new MongoCommandError(263, 'OperationNotSupportedInTransaction', '$merge cannot be used in a transaction');
    const s: Document = typeof spec === 'string' ? { into: spec } : isPlainObject(spec) ? spec : {};
    const ns = targetNs(db, s.into, '$merge');
    const on: string[] = s.on === undefined ? ['_id'] : Array.isArray(s.on) ? s.on.map(String) : [String(s.on)];
    const whenMatched = s.whenMatched ?? 'merge';
    const whenNotMatched = s.whenNotMatched ?? 'insert';
    const batch = new Batch();
    const target = directTarget(ns, batch, bypass);
    try {
      for (const r of results) {
        const q: Document = {};
        for (const f of on) setField(q, f, collectPath(r, f.split('.'))[0]?.value ?? null);
        const existing = matchDocs(target.view, q)[0]?.doc;
        if (existing) {
          if (whenMatched === 'fail') throw duplicateIdError(nsKey(ns), existing._id);
          if (whenMatched === 'keepExisting') continue;
          let next: Document;
          if (whenMatched === 'replace') next = { ...r, _id: existing._id };
          else if (whenMatched === 'merge') next = { ...existing, ...r, _id: existing._id };
          else if (Array.isArray(whenMatched)) {
            const out = runPipeline([existing], whenMatched as Document[], {
              variables: { new: r, ...(isPlainObject(s.let) ? s.let : {}) },
            })[0];
            next = { ...(out ?? existing), _id: existing._id };
          } else throw badValue(`unknown whenMatched mode: ${formatValue(whenMatched)}`);
          target.put(idKeyOf(existing), withIdFirst(next), false);
        } else {
          if (whenNotMatched === 'discard') continue;
          if (whenNotMatched === 'fail')
            throw new MongoCommandError(
              13113,
              'MergeStageNoMatchingDocument',
              '$merge could not find a matching document in the target collection for at least one document in the source collection',
            );
          const d = prepareInsertDoc(r);
          target.put(idKeyOf(d), d, true);
        }
      }
    } catch (err) {
      for (let i = batch.undo.length - 1; i >= 0; i--) batch.undo[i]();
      throw err;
    }
    await commitBatch(batch);
  };

  // ---------- transactions API ----------

  const beginTransaction = (): Txn => {
    const t: TxnState = {
      id: ++txnIds,
      startVer: version,
      active: true,
      snapshots: new Map(),
      before: new Map(),
      writes: new Map(),
      locked: new Set(),
    };
    txns.set(t.id, t);
    return { id: t.id };
  };

  const commitTransaction = async (txn: Txn): Promise<void> => {
    const t = txnState(txn);
    const batch = new Batch();
    try {
      // Validate everything against the committed state before changing anything.
      for (const [key, writes] of t.writes) {
        const [db, ...rest] = key.split('.');
        const ns = { db: db, coll: rest.join('.') };
        const c = getColl(ns);
        for (const k of writes.keys()) {
          const rec = c?.records.get(k);
          if ((rec && rec.ver > t.startVer) || (tombstones.get(lockKey(key, k)) ?? 0) > t.startVer)
            throw writeConflict();
        }
      }
      // Unique indexes: the final documents must not collide with committed documents this transaction
      // left untouched (collisions among its own writes were refused when they were made).
      for (const [key, writes] of t.writes) {
        const c = getColl(splitNs(key));
        for (const [k, d] of writes) {
          if (!d) continue;
          for (const ix of uniqueIndexes(c)) {
            const dup = ix.conflict(d, k, (other) => writes.has(other));
            if (dup) throw duplicateError(ix, key, dup);
          }
        }
      }
      endTxn(t);
      for (const [key, writes] of t.writes) {
        const ns = splitNs(key);
        const c = ensureColl(ns, batch);
        for (const [k, d] of writes) {
          if (d === null) deleteRecord(c, k, batch);
        }
        for (const [k, d] of writes) {
          if (d !== null) putRecord(c, k, d, batch);
        }
      }
    } catch (err) {
      for (let i = batch.undo.length - 1; i >= 0; i--) batch.undo[i]();
      endTxn(t);
      if (err instanceof MongoCommandError && err.code === 11000) {
        throw new MongoCommandError(err.code, err.codeName, err.message, err.extra, []);
      }
      throw err;
    }
    await commitBatch(batch);
  };

  const abortTransaction = (txn: Txn): void => {
    const t = txns.get(txn.id);
    if (t) endTxn(t);
  };

  // ---------- TTL ----------

  const sweepExpired = async (): Promise<number> => {
    const batch = new Batch();
    const nowMs = Date.now();
    let removed = 0;
    for (const colls of dbs.values()) {
      for (const c of colls.values()) {
        for (const ix of c.indexes.values()) {
          const secs = ix.spec.expireAfterSeconds;
          if (secs === undefined || ix.fields.length !== 1) continue;
          for (const [k, r] of [...c.records]) {
            if (ix.partial && !ix.partial(r.doc)) continue;
            let earliest: number | undefined;
            for (const cand of collectPath(r.doc, ix.fields[0].segs)) {
              const vals = Array.isArray(cand.value) ? cand.value : [cand.value];
              for (const v of vals)
                if (v instanceof Date && (earliest === undefined || v.getTime() < earliest)) earliest = v.getTime();
            }
            if (earliest !== undefined && earliest + secs * 1000 <= nowMs && c.records.has(k)) {
              deleteRecord(c, k, batch);
              removed++;
            }
          }
        }
      }
    }
    await commitBatch(batch);
    return removed;
  };

  // ---------- dump and replay ----------

  function* dumpState(): Iterable<JournalOp> {
    for (const [db, colls] of dbs) {
      for (const c of colls.values()) {
        yield { op: 'createCollection', db, coll: c.name, options: c.options };
        for (const ix of c.indexes.values()) yield { op: 'createIndex', db, coll: c.name, spec: ix.spec };
        for (const r of c.records.values()) yield { op: 'put', db, coll: c.name, doc: r.doc };
      }
    }
  }

  const replayOps = (ops: Iterable<JournalOp>) => {
    replaying = true;
    try {
      for (const op of ops) {
        const ns = 'coll' in op ? { db: op.db, coll: op.coll } : undefined;
        switch (op.op) {
          case 'createCollection': {
            const c = getColl(ns!);
            if (c) c.options = op.options ?? {};
            else attachColl(newColl(op.db, op.coll, op.options ?? {}));
            break;
          }
          case 'dropCollection': {
            const c = getColl(ns!);
            if (c) detachColl(c, new Batch());
            break;
          }
          case 'dropDatabase':
            dbs.delete(op.db);
            break;
          case 'collMod': {
            const c = getColl(ns!);
            if (c) applyCollMod(c, op.options);
            break;
          }
          case 'createIndex': {
            const c = ensureColl(ns!);
            if (!c.indexes.has(op.spec.name)) c.indexes.set(op.spec.name, buildIndex(c, op.spec, false));
            break;
          }
          case 'dropIndex':
            getColl(ns!)?.indexes.delete(op.name);
            break;
          case 'put':
            // Copied as an insert copies its document: the decoder's objects keep a dictionary per document
            // of more than 16 fields (see setField in bson-values.ts); the copy has the shared shape.
            putRecord(ensureColl(ns!), idKeyOf(op.doc), cloneDoc(op.doc), undefined);
            break;
          case 'delete': {
            const c = getColl(ns!);
            if (c) deleteRecord(c, binaryKey(op.id), undefined);
            break;
          }
        }
      }
    } finally {
      replaying = false;
    }
  };

  if (options.replay) replayOps(options.replay);
  if (typeof selfCompacting?.setCompactionSource === 'function') selfCompacting.setCompactionSource(() => dumpState());

  const sweepMs = options.ttlSweepMs ?? 60_000;
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping || stopped) return;
    sweeping = true;
    sweepExpired()
      .catch(() => undefined)
      .finally(() => {
        sweeping = false;
      });
  }, sweepMs);
  timer.unref();

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    if (compacting) await compacting;
    if (typeof selfCompacting?.setCompactionSource === 'function') selfCompacting.setCompactionSource(null);
    for (const t of [...txns.values()]) endTxn(t);
    await journal?.close();
  };

  return {
    listDatabases,
    dropDatabase,
    listCollections,
    createCollection,
    dropCollection,
    collMod,
    createIndexes,
    listIndexes,
    dropIndexes,
    find,
    count,
    distinct,
    aggregate,
    insert,
    update,
    delete: del,
    findAndModify,
    beginTransaction,
    commitTransaction,
    abortTransaction,
    stop,
    dumpState,
    lastQueryStats: () => ({ ...stats }),
    sweepExpired,
  };
};
