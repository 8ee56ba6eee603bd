// The seams inside @shop/embedded-mongo: the server (wire protocol, commands, sessions) talks to the engine
// (collections, queries, indexes, transactions) only through `Engine`, and the engine hands every
// acknowledged change to the durability layer as `JournalOp`s before the server replies.
import type { Document, Long } from 'bson';

/** A MongoDB server error, answered as `{ ok: 0, errmsg, code, codeName, ...extra }`. */
export class MongoCommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly extra: Document = {},
    readonly errorLabels: string[] = [],
  ) {
    super(message);
  }
}

/** One failed statement of a write command (insert/update/delete), as MongoDB reports it in writeErrors. */
export interface WriteError {
  index: number;
  code: number;
  codeName?: string;
  errmsg: string;
  keyPattern?: Document;
  keyValue?: Document;
  errInfo?: Document;
}

export interface IndexSpec {
  v?: number;
  key: Document;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
  [option: string]: unknown;
}

export interface CollectionInfo {
  name: string;
  type: 'collection' | 'view';
  options: Document;
  info: { readOnly: boolean; uuid?: unknown };
  idIndex?: Document;
}

export interface FindOptions {
  filter?: Document;
  sort?: Document;
  projection?: Document;
  skip?: number;
  limit?: number;
  hint?: Document | string;
  collation?: Document;
}

export interface WriteOptions {
  ordered?: boolean;
  /** Skips the collection's validator (mongod's bypassDocumentValidation). */
  bypassDocumentValidation?: boolean;
}
export interface InsertResult {
  n: number;
  writeErrors: WriteError[];
}
export interface UpdateStatement {
  q: Document;
  u: Document | Document[];
  upsert?: boolean;
  multi?: boolean;
  arrayFilters?: Document[];
  hint?: Document | string;
  collation?: Document;
}
export interface UpdateResult {
  n: number;
  nModified: number;
  upserted: { index: number; _id: unknown }[];
  writeErrors: WriteError[];
}
export interface DeleteStatement {
  q: Document;
  limit: 0 | 1;
  hint?: Document | string;
  collation?: Document;
}
export interface DeleteResult {
  n: number;
  writeErrors: WriteError[];
}
export interface FindAndModifyArgs {
  /** Skips the collection's validator (mongod's bypassDocumentValidation). */
  bypassDocumentValidation?: boolean;
  collation?: Document;
  query?: Document;
  sort?: Document;
  update?: Document | Document[];
  remove?: boolean;
  new?: boolean;
  upsert?: boolean;
  fields?: Document;
  arrayFilters?: Document[];
}
export interface FindAndModifyResult {
  value: Document | null;
  lastErrorObject: { n: number; updatedExisting?: boolean; upserted?: unknown };
}

/** Namespace: database and collection name. */
export interface Ns {
  db: string;
  coll: string;
}

/**
 * A multi-document transaction's handle. Reads inside it see its own uncommitted writes; other readers
 * do not until commit. A write that conflicts with a concurrent committed write fails with WriteConflict
 * (code 112) and the TransientTransactionError label.
 */
export interface Txn {
  readonly id: number;
}

export interface Engine {
  listDatabases(): { name: string; sizeOnDisk: number; empty: boolean }[];
  dropDatabase(db: string): Promise<void>;
  listCollections(db: string, filter?: Document, txn?: Txn): CollectionInfo[];
  createCollection(ns: Ns, options?: Document): Promise<void>;
  dropCollection(ns: Ns): Promise<boolean>;
  collMod(ns: Ns, options: Document): Promise<Document>;
  createIndexes(
    ns: Ns,
    specs: IndexSpec[],
  ): Promise<{
    numIndexesBefore: number;
    numIndexesAfter: number;
    createdCollectionAutomatically: boolean;
    note?: string;
  }>;
  listIndexes(ns: Ns): IndexSpec[];
  dropIndexes(ns: Ns, index: string | string[] | Document): Promise<{ nIndexesWas: number }>;

  /** Matching documents in order; the server pages them into cursors. */
  find(ns: Ns, options: FindOptions, txn?: Txn): Document[];
  count(ns: Ns, filter: Document, options: { skip?: number; limit?: number; collation?: Document }, txn?: Txn): number;
  distinct(ns: Ns, key: string, filter: Document, txn?: Txn, options?: { collation?: Document }): unknown[];
  /** coll null = a database-level aggregate ({aggregate: 1}). $out/$merge write through the engine. */
  aggregate(db: string, coll: string | null, pipeline: Document[], options: Document, txn?: Txn): Promise<Document[]>;

  insert(ns: Ns, docs: Document[], options: WriteOptions, txn?: Txn): Promise<InsertResult>;
  update(ns: Ns, updates: UpdateStatement[], options: WriteOptions, txn?: Txn): Promise<UpdateResult>;
  delete(ns: Ns, deletes: DeleteStatement[], options: { ordered?: boolean }, txn?: Txn): Promise<DeleteResult>;
  findAndModify(ns: Ns, args: FindAndModifyArgs, txn?: Txn): Promise<FindAndModifyResult>;

  beginTransaction(): Txn;
  commitTransaction(txn: Txn): Promise<void>;
  abortTransaction(txn: Txn): void;

  /** Starts background work (TTL sweep, journal compaction); stop() ends it and closes the journal. */
  stop(): Promise<void>;
}

/**
 * What the durability layer records. Documents are whole (a put replaces the stored document with that _id).
 * One `append` call is one atomic record: a write command's effects or a transaction's commit.
 */
export type JournalOp =
  | { op: 'createCollection'; db: string; coll: string; options: Document }
  | { op: 'dropCollection'; db: string; coll: string }
  | { op: 'dropDatabase'; db: string }
  | { op: 'collMod'; db: string; coll: string; options: Document }
  | { op: 'createIndex'; db: string; coll: string; spec: IndexSpec }
  | { op: 'dropIndex'; db: string; coll: string; name: string }
  | { op: 'put'; db: string; coll: string; doc: Document }
  | { op: 'delete'; db: string; coll: string; id: unknown };

/** The durability layer as the engine sees it (implemented in src/durability/). */
export interface Journal {
  /** Resolves once the ops are on disk (fsync, group commit allowed). Rejects if the disk write fails. */
  append(ops: JournalOp[]): Promise<void>;
  /**
   * Writes a snapshot of the whole state and drops the journal records it covers. `dump` is called
   * synchronously at a consistent point and returns ops that rebuild the state (createCollection,
   * createIndex, put...). Stored documents are never mutated in place, so the dump may share references.
   */
  compact(dump: () => Iterable<JournalOp>): Promise<void>;
  close(): Promise<void>;
  /**
   * (durability) True once enough was journaled since the last snapshot (64 MB or 1M records) that compact() is
   * worth calling. Optional so an in-memory engine can pass no journal at all.
   */
  shouldCompact?(): boolean;
  /**
   * (durability) Register the engine's dump once; the journal then compacts by itself in the background when due,
   * calling `dump` between two event-loop turns. This needs the engine to apply a change in memory and call
   * append() in the same synchronous step (no await in between), replying only after append() resolves.
   */
  setCompactionSource?(dump: (() => Iterable<JournalOp>) | null): void;
}

/** Opens (or creates) the data directory and returns the ops to replay: snapshot first, then journal. */
export type OpenJournal = (dbPath: string) => Promise<{ journal: Journal; replay: Iterable<JournalOp> }>;

export type CursorId = Long;
