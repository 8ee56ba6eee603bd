// Reads and writes: find/getMore/killCursors, insert/update/delete/findAndModify, aggregate, count,
// distinct and explain. Arguments are validated here; query semantics belong to the engine.
import { Long, type Document } from 'bson';
import type { DeleteStatement, Ns, UpdateStatement, WriteError } from '../../engine/types.js';
import { MongoCommandError } from '../../engine/types.js';
import type { CommandContext, CommandHandler } from '../context.js';
import { codeName, commandError, ErrorCodes } from '../errors.js';
import { MAX_WRITE_BATCH_SIZE } from '../wire.js';
import { SERVER_VERSION } from './admin.js';
import {
  assertSupportedPipeline,
  assertSupportedQuery,
  assertWritable,
  LIMIT_SUFFIX,
  collectionNs,
  isPlainObject,
  optionalBoolean,
  optionalDocument,
  optionalInteger,
  requiredArray,
  toLong,
  toNumber,
  typeName,
  validateCollectionName,
  validateDbName,
} from './args.js';

const nsString = (ns: Ns) => `${ns.db}.${ns.coll}`;

function hintOf(ctx: CommandContext, source: Document = ctx.body): Document | string | undefined {
  const hint = source.hint;
  if (hint === undefined || hint === null) return undefined;
  if (typeof hint === 'string' || isPlainObject(hint)) return hint;
  throw commandError(ErrorCodes.FailedToParse, `hint must be either a string or nested object, got ${typeName(hint)}`);
}

function nonNegative(ctx: CommandContext, field: string, source: Document = ctx.body): number | undefined {
  const value = optionalInteger(ctx, field, source);
  if (value !== undefined && value < 0) {
    throw commandError(51024, `BSON field '${field}' value must be >= 0, actual value '${value}'`);
  }
  return value;
}

function cursorBatchSize(ctx: CommandContext): number | undefined {
  const cursor = optionalDocument(ctx, 'cursor');
  if (!cursor) return undefined;
  const batchSize = optionalInteger(ctx, 'batchSize', cursor);
  if (batchSize !== undefined && batchSize < 0) {
    throw commandError(51024, `BSON field 'batchSize' value must be >= 0, actual value '${batchSize}'`);
  }
  return batchSize;
}

function cursorReply(ns: string, batch: Document[], id: Long, key: 'firstBatch' | 'nextBatch'): Document {
  return { cursor: { [key]: batch, id, ns }, ok: 1 };
}

const find: CommandHandler = (ctx) => {
  const ns = collectionNs(ctx);
  if (optionalBoolean(ctx, 'tailable')) {
    throw commandError(
      ErrorCodes.BadValue,
      'tailable cursors are not supported by the embedded MongoDB server (@shop/embedded-mongo)',
    );
  }
  // Options that would change the result's shape or range: refused rather than silently ignored.
  for (const option of ['min', 'max', 'returnKey', 'showRecordId'] as const) {
    const value = ctx.body[option];
    if (value !== undefined && value !== null && value !== false) {
      throw commandError(ErrorCodes.BadValue, `find option '${option}' ${LIMIT_SUFFIX}`);
    }
  }
  const filter = optionalDocument(ctx, 'filter') ?? {};
  assertSupportedQuery(filter);
  const sort = optionalDocument(ctx, 'sort');
  const projection = optionalDocument(ctx, 'projection');
  const skip = nonNegative(ctx, 'skip');
  let limit = optionalInteger(ctx, 'limit');
  let singleBatch = optionalBoolean(ctx, 'singleBatch') ?? false;
  // A negative limit (legacy shells) means "one batch of at most |limit| documents".
  if (limit !== undefined && limit < 0) {
    limit = -limit;
    singleBatch = true;
  }
  const batchSize = nonNegative(ctx, 'batchSize');
  const collation = optionalDocument(ctx, 'collation');
  ctx.state.opcounters.query++;
  const docs = ctx.state.engine.find(
    ns,
    {
      filter,
      sort,
      projection,
      skip: skip || undefined,
      limit: limit || undefined,
      hint: hintOf(ctx),
      collation,
    },
    ctx.txn,
  );
  const { batch, id } = ctx.state.cursors.open(nsString(ns), docs, {
    batchSize,
    singleBatch,
    sessionKey: ctx.session?.key,
  });
  return cursorReply(nsString(ns), batch, id, 'firstBatch');
};

/** Cursors also live on the pseudo-collections of database-level commands ($cmd.listCollections...). */
function cursorCollection(ctx: CommandContext, coll: unknown): string {
  validateDbName(ctx.db);
  if (typeof coll === 'string' && /^\$cmd\.(listCollections|aggregate)$/.test(coll)) return coll;
  return validateCollectionName(ctx.db, coll, ctx.name);
}

const getMore: CommandHandler = (ctx) => {
  const id = toLong(ctx.body.getMore);
  if (!id)
    throw commandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'getMore.getMore' is the wrong type '${typeName(ctx.body.getMore)}', expected type 'long'`,
    );
  const coll = cursorCollection(ctx, ctx.body.collection);
  const batchSize = nonNegative(ctx, 'batchSize');
  ctx.state.opcounters.getmore++;
  const ns = `${ctx.db}.${coll}`;
  const { batch, id: next } = ctx.state.cursors.getMore(id, ns, batchSize, ctx.session?.key);
  return cursorReply(ns, batch, next, 'nextBatch');
};

const killCursors: CommandHandler = (ctx) => {
  const ns = { db: ctx.db, coll: cursorCollection(ctx, ctx.body.killCursors) };
  const ids = requiredArray(ctx, 'cursors').map((value) => {
    const id = toLong(value);
    if (!id)
      throw commandError(
        ErrorCodes.TypeMismatch,
        `BSON field 'killCursors.cursors' has an element of type '${typeName(value)}', expected type 'long'`,
      );
    return id;
  });
  return { ...ctx.state.cursors.kill(nsString(ns), ids), ok: 1 };
};

function writeBatch(ctx: CommandContext, field: string): Document[] {
  const items = requiredArray(ctx, field);
  if (items.length === 0 || items.length > MAX_WRITE_BATCH_SIZE) {
    throw commandError(
      ErrorCodes.InvalidLength,
      `Write batch sizes must be between 1 and ${MAX_WRITE_BATCH_SIZE}. Got ${items.length} operations.`,
    );
  }
  items.forEach((item, index) => {
    if (!isPlainObject(item)) {
      throw commandError(
        ErrorCodes.TypeMismatch,
        `BSON field '${ctx.name}.${field}.${index}' is the wrong type '${typeName(item)}', expected type 'object'`,
      );
    }
  });
  return items as Document[];
}

/**
 * Inside a transaction mongod fails the whole command on the first write error (and the transaction is
 * aborted) instead of answering ok:1 with writeErrors.
 */
function failTransactionOnWriteError(ctx: CommandContext, writeErrors: WriteError[]): void {
  if (!ctx.txn || writeErrors.length === 0) return;
  const { index: _index, code, codeName: name, errmsg, ...extra } = writeErrors[0];
  void _index;
  throw new MongoCommandError(code, name ?? codeName(code), errmsg, extra);
}

function writeErrorsField(writeErrors: WriteError[]): Document {
  if (writeErrors.length === 0) return {};
  return { writeErrors: writeErrors.map((error) => ({ ...error, codeName: error.codeName ?? codeName(error.code) })) };
}

const insert: CommandHandler = async (ctx) => {
  const ns = collectionNs(ctx);
  assertWritable(ns);
  const documents = writeBatch(ctx, 'documents');
  const ordered = optionalBoolean(ctx, 'ordered') ?? true;
  const bypassDocumentValidation = optionalBoolean(ctx, 'bypassDocumentValidation') ?? false;
  const result = await ctx.state.engine.insert(ns, documents, { ordered, bypassDocumentValidation }, ctx.txn);
  ctx.state.opcounters.insert += result.n;
  failTransactionOnWriteError(ctx, result.writeErrors);
  return { n: result.n, ...writeErrorsField(result.writeErrors), ok: 1 };
};

const update: CommandHandler = async (ctx) => {
  const ns = collectionNs(ctx);
  assertWritable(ns);
  const statements: UpdateStatement[] = writeBatch(ctx, 'updates').map((stmt, index) => {
    const at = `updates.${index}`;
    const q = stmt.q;
    const u = stmt.u;
    if (!isPlainObject(q))
      throw commandError(
        ErrorCodes.TypeMismatch,
        `BSON field 'update.${at}.q' is the wrong type '${typeName(q)}', expected type 'object'`,
      );
    if (!isPlainObject(u) && !Array.isArray(u)) {
      throw commandError(
        ErrorCodes.FailedToParse,
        `Update argument must be either an object or an array, got ${typeName(u)}`,
      );
    }
    assertSupportedQuery(q);
    if (Array.isArray(u)) assertSupportedPipeline(u);
    if (stmt.arrayFilters !== undefined && !Array.isArray(stmt.arrayFilters)) {
      throw commandError(
        ErrorCodes.TypeMismatch,
        `BSON field 'update.${at}.arrayFilters' is the wrong type '${typeName(stmt.arrayFilters)}', expected type 'array'`,
      );
    }
    return {
      q,
      u: u as Document | Document[],
      upsert: Boolean(stmt.upsert),
      multi: Boolean(stmt.multi),
      arrayFilters: stmt.arrayFilters as Document[] | undefined,
      hint: hintOf(ctx, stmt),
      collation: isPlainObject(stmt.collation) ? stmt.collation : undefined,
    };
  });
  const ordered = optionalBoolean(ctx, 'ordered') ?? true;
  const bypassDocumentValidation = optionalBoolean(ctx, 'bypassDocumentValidation') ?? false;
  const result = await ctx.state.engine.update(ns, statements, { ordered, bypassDocumentValidation }, ctx.txn);
  ctx.state.opcounters.update += statements.length;
  failTransactionOnWriteError(ctx, result.writeErrors);
  const reply: Document = { n: result.n, nModified: result.nModified };
  if (result.upserted.length > 0) reply.upserted = result.upserted;
  return { ...reply, ...writeErrorsField(result.writeErrors), ok: 1 };
};

const remove: CommandHandler = async (ctx) => {
  const ns = collectionNs(ctx);
  assertWritable(ns);
  const statements: DeleteStatement[] = writeBatch(ctx, 'deletes').map((stmt, index) => {
    if (!isPlainObject(stmt.q)) {
      throw commandError(
        ErrorCodes.TypeMismatch,
        `BSON field 'delete.deletes.${index}.q' is the wrong type '${typeName(stmt.q)}', expected type 'object'`,
      );
    }
    assertSupportedQuery(stmt.q);
    const limit = toNumber(stmt.limit ?? 0);
    if (limit !== 0 && limit !== 1)
      throw commandError(
        ErrorCodes.FailedToParse,
        `The limit field in delete objects must be 0 or 1. Got ${String(stmt.limit)}`,
      );
    return {
      q: stmt.q,
      limit,
      hint: hintOf(ctx, stmt),
      collation: isPlainObject(stmt.collation) ? stmt.collation : undefined,
    };
  });
  const ordered = optionalBoolean(ctx, 'ordered') ?? true;
  const result = await ctx.state.engine.delete(ns, statements, { ordered }, ctx.txn);
  ctx.state.opcounters.delete += result.n;
  failTransactionOnWriteError(ctx, result.writeErrors);
  return { n: result.n, ...writeErrorsField(result.writeErrors), ok: 1 };
};

const findAndModify: CommandHandler = async (ctx) => {
  const ns = collectionNs(ctx);
  assertWritable(ns);
  const query = optionalDocument(ctx, 'query') ?? {};
  assertSupportedQuery(query);
  const removeDoc = optionalBoolean(ctx, 'remove') ?? false;
  const returnNew = optionalBoolean(ctx, 'new') ?? false;
  const upsert = optionalBoolean(ctx, 'upsert') ?? false;
  const updateSpec = ctx.body.update;
  if (updateSpec !== undefined && updateSpec !== null && !isPlainObject(updateSpec) && !Array.isArray(updateSpec)) {
    throw commandError(
      ErrorCodes.FailedToParse,
      `Update argument must be either an object or an array, got ${typeName(updateSpec)}`,
    );
  }
  const hasUpdate = updateSpec !== undefined && updateSpec !== null;
  if (removeDoc && hasUpdate)
    throw commandError(ErrorCodes.FailedToParse, 'Cannot specify both an update and remove=true');
  if (!removeDoc && !hasUpdate)
    throw commandError(ErrorCodes.FailedToParse, 'Either an update or remove=true must be specified');
  if (removeDoc && upsert)
    throw commandError(ErrorCodes.FailedToParse, 'Cannot specify both upsert=true and remove=true');
  if (removeDoc && returnNew) {
    throw commandError(
      ErrorCodes.FailedToParse,
      "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
    );
  }
  if (Array.isArray(updateSpec)) assertSupportedPipeline(updateSpec);
  const arrayFilters = ctx.body.arrayFilters;
  if (arrayFilters !== undefined && !Array.isArray(arrayFilters)) {
    throw commandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'findAndModify.arrayFilters' is the wrong type '${typeName(arrayFilters)}', expected type 'array'`,
    );
  }
  const result = await ctx.state.engine.findAndModify(
    ns,
    {
      bypassDocumentValidation: optionalBoolean(ctx, 'bypassDocumentValidation') ?? false,
      collation: optionalDocument(ctx, 'collation'),
      query,
      sort: optionalDocument(ctx, 'sort'),
      update: hasUpdate ? (updateSpec as Document | Document[]) : undefined,
      remove: removeDoc,
      new: returnNew,
      upsert,
      fields: optionalDocument(ctx, 'fields'),
      arrayFilters: arrayFilters as Document[] | undefined,
    },
    ctx.txn,
  );
  if (removeDoc) ctx.state.opcounters.delete++;
  else ctx.state.opcounters.update++;
  return { lastErrorObject: result.lastErrorObject, value: result.value, ok: 1 };
};

/** `aggregate: <coll>` or `aggregate: 1` (database-level, e.g. $documents). */
function aggregateTarget(ctx: CommandContext): { coll: string | null; ns: string } {
  validateDbName(ctx.db);
  const target = ctx.body.aggregate;
  if (target === 1 || (typeof target === 'number' && target === 1))
    return { coll: null, ns: `${ctx.db}.$cmd.aggregate` };
  if (typeof target !== 'string') {
    throw commandError(
      ErrorCodes.InvalidNamespace,
      `Invalid database/collection name: aggregate must be a collection name or 1, got ${typeName(target)}`,
    );
  }
  const coll = validateCollectionName(ctx.db, target, 'aggregate');
  return { coll, ns: `${ctx.db}.${coll}` };
}

function pipelineOf(ctx: CommandContext): Document[] {
  const pipeline = requiredArray(ctx, 'pipeline');
  pipeline.forEach((stage, index) => {
    if (!isPlainObject(stage)) {
      throw commandError(
        ErrorCodes.TypeMismatch,
        `Each element of the 'pipeline' array must be an object, element ${index} is a ${typeName(stage)}`,
      );
    }
    if (Object.keys(stage).length !== 1)
      throw commandError(40323, 'A pipeline stage specification object must contain exactly one field.');
  });
  assertSupportedPipeline(pipeline);
  return pipeline as Document[];
}

const WRITE_STAGES = new Set(['$out', '$merge']);

const aggregate: CommandHandler = async (ctx) => {
  const { coll, ns } = aggregateTarget(ctx);
  const pipeline = pipelineOf(ctx);
  const explain = optionalBoolean(ctx, 'explain') ?? false;
  if (explain) return explainReply(ctx, ns, ctx.body, { stages: pipeline });
  if (ctx.body.cursor === undefined) {
    throw commandError(
      ErrorCodes.FailedToParse,
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  }
  const batchSize = cursorBatchSize(ctx);
  const options: Document = {};
  for (const key of ['allowDiskUse', 'collation', 'hint', 'let', 'bypassDocumentValidation', 'maxTimeMS']) {
    if (ctx.body[key] !== undefined) options[key] = ctx.body[key];
  }
  ctx.state.opcounters.command++;
  const docs = await ctx.state.engine.aggregate(ctx.db, coll, pipeline, options, ctx.txn);
  const writes = pipeline.some((stage) => WRITE_STAGES.has(Object.keys(stage)[0]));
  const { batch, id } = ctx.state.cursors.open(ns, writes ? [] : docs, { batchSize, sessionKey: ctx.session?.key });
  return cursorReply(ns, batch, id, 'firstBatch');
};

const count: CommandHandler = (ctx) => {
  const ns = collectionNs(ctx);
  const query = optionalDocument(ctx, 'query') ?? {};
  assertSupportedQuery(query);
  const skip = nonNegative(ctx, 'skip');
  let limit = optionalInteger(ctx, 'limit');
  if (limit !== undefined && limit < 0) limit = -limit; // count treats a negative limit as its absolute value
  ctx.state.opcounters.command++;
  const collation = optionalDocument(ctx, 'collation');
  const n = ctx.state.engine.count(
    ns,
    query,
    { skip: skip || undefined, limit: limit || undefined, ...(collation ? { collation } : {}) },
    ctx.txn,
  );
  return { n, ok: 1 };
};

const distinct: CommandHandler = (ctx) => {
  const ns = collectionNs(ctx);
  const key = ctx.body.key;
  if (typeof key !== 'string') {
    throw commandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'distinct.key' is the wrong type '${typeName(key)}', expected type 'string'`,
    );
  }
  const query = optionalDocument(ctx, 'query') ?? {};
  assertSupportedQuery(query);
  ctx.state.opcounters.command++;
  const collation = optionalDocument(ctx, 'collation');
  return { values: ctx.state.engine.distinct(ns, key, query, ctx.txn, collation ? { collation } : undefined), ok: 1 };
};

/** A plain explain: the plan is "scan with the engine's own index choice"; no execution statistics. */
function explainReply(ctx: CommandContext, ns: string, command: Document, planner: Document = {}): Document {
  const filter = command.filter ?? command.query ?? command.q ?? {};
  return {
    explainVersion: '1',
    queryPlanner: {
      namespace: ns,
      indexFilterSet: false,
      parsedQuery: filter,
      winningPlan: { stage: 'EMBEDDED_ENGINE', filter },
      rejectedPlans: [],
      ...planner,
    },
    command,
    serverInfo: {
      host: ctx.state.options.host,
      port: ctx.state.options.port,
      version: SERVER_VERSION,
      gitVersion: 'embedded-mongo',
    },
    ok: 1,
  };
}

const EXPLAINABLE = new Set([
  'find',
  'aggregate',
  'count',
  'distinct',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
]);

const explain: CommandHandler = (ctx) => {
  const inner = optionalDocument(ctx, 'explain');
  if (!inner) throw commandError(ErrorCodes.FailedToParse, 'explain command requires a nested object');
  const innerName = Object.keys(inner)[0];
  if (!innerName || !EXPLAINABLE.has(innerName)) {
    throw commandError(ErrorCodes.CommandNotFound, `Explain failed due to unknown command: ${innerName ?? '<empty>'}`);
  }
  const target = inner[innerName];
  const ns =
    typeof target === 'string'
      ? `${ctx.db}.${validateCollectionName(ctx.db, target, innerName)}`
      : `${ctx.db}.$cmd.aggregate`;
  const innerCtx: CommandContext = { ...ctx, name: innerName, body: inner };
  if (innerName === 'aggregate') return explainReply(innerCtx, ns, inner, { stages: pipelineOf(innerCtx) });
  assertSupportedQuery(inner);
  return explainReply(innerCtx, ns, inner);
};

export const crudCommands: Record<string, CommandHandler> = {
  find,
  getMore,
  killCursors,
  insert,
  update,
  delete: remove,
  findAndModify,
  findandmodify: findAndModify,
  aggregate,
  count,
  distinct,
  explain,
};

/** Commands that modify data: they advance the replica set's optime and can be retryable writes. */
export const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);
