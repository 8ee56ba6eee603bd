// Databases, collections and indexes: list/create/drop/modify.
import { Query } from 'mingo';
import { Long, type Document } from 'bson';
import type { IndexSpec } from '../../engine/types.js';
import type { CommandHandler } from '../context.js';
import { commandError, ErrorCodes } from '../errors.js';
import {
  assertWritable,
  collectionNs,
  commandOptions,
  isPlainObject,
  optionalBoolean,
  optionalDocument,
  requiredArray,
  typeName,
  validateCollectionName,
  validateDbName,
} from './args.js';

const listDatabases: CommandHandler = (ctx) => {
  const filter = optionalDocument(ctx, 'filter');
  const nameOnly = optionalBoolean(ctx, 'nameOnly') ?? false;
  let databases: Document[] = ctx.state.engine.listDatabases().map((db) => ({ ...db }));
  if (filter) {
    const query = new Query(filter);
    databases = databases.filter((db) => query.test(db));
  }
  if (nameOnly) return { databases: databases.map((db) => ({ name: db.name })), ok: 1 };
  const totalSize = databases.reduce((sum, db) => sum + Number(db.sizeOnDisk ?? 0), 0);
  return { databases, totalSize, totalSizeMb: Math.floor(totalSize / 1048576), ok: 1 };
};

const listCollections: CommandHandler = (ctx) => {
  validateDbName(ctx.db);
  const filter = optionalDocument(ctx, 'filter');
  const nameOnly = optionalBoolean(ctx, 'nameOnly') ?? false;
  const collections = ctx.state.engine.listCollections(ctx.db, filter, ctx.txn);
  const docs: Document[] = nameOnly
    ? collections.map((info) => ({ name: info.name, type: info.type }))
    : collections.map((info) => ({ ...info }));
  const cursor = optionalDocument(ctx, 'cursor');
  const batchSize = cursor?.batchSize === undefined ? undefined : Number(cursor.batchSize);
  const ns = `${ctx.db}.$cmd.listCollections`;
  const { batch, id } = ctx.state.cursors.open(ns, docs, { batchSize, sessionKey: ctx.session?.key });
  return { cursor: { id, ns, firstBatch: batch }, ok: 1 };
};

const create: CommandHandler = async (ctx) => {
  const ns = collectionNs(ctx);
  assertWritable(ns);
  const options = commandOptions(ctx);
  if (options.viewOn !== undefined || options.pipeline !== undefined) {
    throw commandError(
      ErrorCodes.CommandNotSupported,
      'views are not supported by the embedded MongoDB server (@shop/embedded-mongo)',
    );
  }
  if (options.timeseries !== undefined) {
    throw commandError(
      ErrorCodes.CommandNotSupported,
      'time series collections are not supported by the embedded MongoDB server (@shop/embedded-mongo)',
    );
  }
  await ctx.state.engine.createCollection(ns, options);
  return { ok: 1 };
};

const drop: CommandHandler = async (ctx) => {
  const ns = collectionNs(ctx);
  let nIndexesWas = 0;
  try {
    nIndexesWas = ctx.state.engine.listIndexes(ns).length;
  } catch {
    // A missing collection has no indexes; dropping it still succeeds (MongoDB 7.0 behaviour).
  }
  await ctx.state.engine.dropCollection(ns);
  ctx.state.cursors.killNamespace(`${ns.db}.${ns.coll}`);
  return { nIndexesWas, ns: `${ns.db}.${ns.coll}`, ok: 1 };
};

const dropDatabase: CommandHandler = async (ctx) => {
  validateDbName(ctx.db);
  await ctx.state.engine.dropDatabase(ctx.db);
  ctx.state.cursors.killNamespace(`${ctx.db}.`, true);
  return { dropped: ctx.db, ok: 1 };
};

const collMod: CommandHandler = async (ctx) => {
  const ns = collectionNs(ctx);
  const result = await ctx.state.engine.collMod(ns, commandOptions(ctx));
  return { ...result, ok: 1 };
};

const createIndexes: CommandHandler = async (ctx) => {
  const ns = collectionNs(ctx);
  assertWritable(ns);
  const indexes = requiredArray(ctx, 'indexes');
  if (indexes.length === 0) throw commandError(ErrorCodes.BadValue, 'Must specify at least one index to create');
  const specs = indexes.map((spec, index) => {
    if (!isPlainObject(spec)) {
      throw commandError(
        ErrorCodes.TypeMismatch,
        `BSON field 'createIndexes.indexes.${index}' is the wrong type '${typeName(spec)}', expected type 'object'`,
      );
    }
    if (!isPlainObject(spec.key) || Object.keys(spec.key).length === 0) {
      throw commandError(
        ErrorCodes.BadValue,
        `Error in specification ${JSON.stringify(spec)} :: caused by :: The 'key' field must be a non-empty object`,
      );
    }
    if (typeof spec.name !== 'string' || spec.name.length === 0) {
      throw commandError(
        ErrorCodes.BadValue,
        `Error in specification { key: ${JSON.stringify(spec.key)} } :: caused by :: The 'name' field is a required property of an index specification`,
      );
    }
    for (const [field, kind] of Object.entries(spec.key)) {
      if (kind === 'text' || kind === '2d' || kind === '2dsphere' || kind === 'geoHaystack') {
        throw commandError(
          ErrorCodes.CommandNotSupported,
          `${kind} indexes (on '${field}') are not supported by the embedded MongoDB server (@shop/embedded-mongo)`,
        );
      }
    }
    return spec as IndexSpec;
  });
  const result = await ctx.state.engine.createIndexes(ns, specs);
  return { ...result, ok: 1 };
};

const listIndexes: CommandHandler = (ctx) => {
  const ns = collectionNs(ctx);
  const specs = ctx.state.engine.listIndexes(ns);
  const cursor = optionalDocument(ctx, 'cursor');
  const batchSize = cursor?.batchSize === undefined ? undefined : Number(cursor.batchSize);
  const name = `${ns.db}.${ns.coll}`;
  const { batch, id } = ctx.state.cursors.open(
    name,
    specs.map((spec) => ({ ...spec })),
    { batchSize, sessionKey: ctx.session?.key },
  );
  return { cursor: { id, ns: name, firstBatch: batch }, ok: 1 };
};

const dropIndexes: CommandHandler = async (ctx) => {
  const ns = collectionNs(ctx);
  const index = ctx.body.index;
  if (typeof index !== 'string' && !Array.isArray(index) && !isPlainObject(index)) {
    throw commandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'dropIndexes.index' is the wrong type '${typeName(index)}', expected types '[string, object, array]'`,
    );
  }
  const result = await ctx.state.engine.dropIndexes(ns, index as string | string[] | Document);
  return { ...result, ok: 1 };
};

/** renameCollection: copies documents and indexes into the target, then drops the source. */
const renameCollection: CommandHandler = async (ctx) => {
  const splitNs = (value: unknown, field: string) => {
    if (typeof value !== 'string' || !value.includes('.')) {
      throw commandError(ErrorCodes.InvalidNamespace, `Invalid ${field} namespace: ${String(value)}`);
    }
    const dot = value.indexOf('.');
    const db = value.slice(0, dot);
    validateDbName(db);
    return { db, coll: validateCollectionName(db, value.slice(dot + 1), 'renameCollection') };
  };
  const source = splitNs(ctx.body.renameCollection, 'source');
  const target = splitNs(ctx.body.to, 'target');
  assertWritable(source);
  assertWritable(target);
  const { engine } = ctx.state;
  const exists = (db: string, coll: string) => engine.listCollections(db, { name: coll }).length > 0;
  if (!exists(source.db, source.coll))
    throw commandError(ErrorCodes.NamespaceNotFound, 'Source collection does not exist');
  if (source.db === target.db && source.coll === target.coll) {
    throw commandError(ErrorCodes.IllegalOperation, "Can't rename a collection to itself");
  }
  if (exists(target.db, target.coll)) {
    if (!(optionalBoolean(ctx, 'dropTarget') ?? false))
      throw commandError(ErrorCodes.NamespaceExists, 'target namespace exists');
    await engine.dropCollection(target);
  }
  const options = engine.listCollections(source.db, { name: source.coll })[0]?.options ?? {};
  await engine.createCollection(target, options);
  const specs = engine.listIndexes(source).filter((spec) => spec.name !== '_id_');
  if (specs.length > 0) await engine.createIndexes(target, specs);
  const docs = engine.find(source, {});
  if (docs.length > 0) {
    const result = await engine.insert(target, docs, { ordered: true });
    if (result.writeErrors.length > 0) {
      await engine.dropCollection(target);
      throw commandError(
        result.writeErrors[0].code,
        `renameCollection failed while copying: ${result.writeErrors[0].errmsg}`,
      );
    }
  }
  await engine.dropCollection(source);
  ctx.state.cursors.killNamespace(`${source.db}.${source.coll}`);
  return { ok: 1 };
};

const dbStats: CommandHandler = (ctx) => {
  validateDbName(ctx.db);
  const { engine } = ctx.state;
  const collections = engine.listCollections(ctx.db);
  let objects = 0;
  let indexes = 0;
  for (const info of collections) {
    if (info.type !== 'collection') continue;
    const ns = { db: ctx.db, coll: info.name };
    objects += engine.count(ns, {}, {});
    indexes += engine.listIndexes(ns).length;
  }
  const sizeOnDisk = engine.listDatabases().find((db) => db.name === ctx.db)?.sizeOnDisk ?? 0;
  return {
    db: ctx.db,
    collections: collections.filter((info) => info.type === 'collection').length,
    views: collections.filter((info) => info.type === 'view').length,
    objects: Long.fromNumber(objects),
    avgObjSize: objects > 0 ? sizeOnDisk / objects : 0,
    dataSize: sizeOnDisk,
    storageSize: sizeOnDisk,
    indexes,
    indexSize: 0,
    totalSize: sizeOnDisk,
    scaleFactor: 1,
    fsUsedSize: 0,
    fsTotalSize: 0,
    ok: 1,
  };
};

/** validate: the engine keeps documents and indexes consistent by construction, so this reports counts. */
const validate: CommandHandler = (ctx) => {
  const ns = collectionNs(ctx);
  const { engine } = ctx.state;
  const specs = engine.listIndexes(ns);
  const nrecords = engine.count(ns, {}, {});
  return {
    ns: `${ns.db}.${ns.coll}`,
    uuid: engine.listCollections(ns.db, { name: ns.coll })[0]?.info.uuid,
    nInvalidDocuments: 0,
    nNonCompliantDocuments: 0,
    nrecords,
    nIndexes: specs.length,
    valid: true,
    repaired: false,
    warnings: [],
    errors: [],
    extraIndexEntries: [],
    missingIndexEntries: [],
    corruptRecords: [],
    ok: 1,
  };
};

export const ddlCommands: Record<string, CommandHandler> = {
  listDatabases,
  listCollections,
  create,
  drop,
  dropDatabase,
  collMod,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
  renameCollection,
  dbStats,
  dbstats: dbStats,
  validate,
};
