// Reading command arguments the way mongod validates them: namespaces, field types, and the features this
// server declares as not supported (answered with a clear error instead of a wrong result).
import type { Document } from 'bson';
import { Long } from 'bson';
import { setField } from '../../engine/bson-values.js';
import type { Ns } from '../../engine/types.js';
import type { CommandContext } from '../context.js';
import { commandError, ErrorCodes } from '../errors.js';

const BSON_TYPE_NAMES: Record<string, string> = {
  ObjectId: 'objectId',
  ObjectID: 'objectId',
  Decimal128: 'decimal',
  Long: 'long',
  Int32: 'int',
  Double: 'double',
  Binary: 'binData',
  Timestamp: 'timestamp',
  BSONRegExp: 'regex',
  MinKey: 'minKey',
  MaxKey: 'maxKey',
  Code: 'javascript',
};

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (value instanceof RegExp) return 'regex';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'double';
    case 'bigint':
      return 'long';
  }
  const bsontype = (value as { _bsontype?: string })._bsontype;
  return (bsontype && BSON_TYPE_NAMES[bsontype]) || 'object';
}

function wrongType(ctx: CommandContext, field: string, value: unknown, expected: string) {
  return commandError(
    ErrorCodes.TypeMismatch,
    `BSON field '${ctx.name}.${field}' is the wrong type '${typeName(value)}', expected type '${expected}'`,
  );
}

export function isPlainObject(value: unknown): value is Document {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof RegExp) &&
    (value as { _bsontype?: string })._bsontype === undefined
  );
}

export function optionalDocument(
  ctx: CommandContext,
  field: string,
  source: Document = ctx.body,
): Document | undefined {
  const value = source[field];
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw wrongType(ctx, field, value, 'object');
  return value;
}

export function requiredDocument(ctx: CommandContext, field: string, source: Document = ctx.body): Document {
  const value = optionalDocument(ctx, field, source);
  if (value === undefined)
    throw commandError(40414, `BSON field '${ctx.name}.${field}' is missing but a required field`);
  return value;
}

export function requiredArray(ctx: CommandContext, field: string): unknown[] {
  const value = ctx.body[field];
  if (value === undefined)
    throw commandError(40414, `BSON field '${ctx.name}.${field}' is missing but a required field`);
  if (!Array.isArray(value)) throw wrongType(ctx, field, value, 'array');
  return value;
}

/** A numeric field (int, long or double holding an integer); undefined when absent. */
export function optionalInteger(ctx: CommandContext, field: string, source: Document = ctx.body): number | undefined {
  const value = source[field];
  if (value === undefined || value === null) return undefined;
  const n = toNumber(value);
  if (n === undefined) throw wrongType(ctx, field, value, 'long');
  return Math.trunc(n);
}

export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  const bsontype = (value as { _bsontype?: string } | null)?._bsontype;
  if (bsontype === 'Long' || bsontype === 'Int32' || bsontype === 'Double' || bsontype === 'Decimal128') {
    return Number((value as { toString(): string }).toString());
  }
  return undefined;
}

export function optionalBoolean(ctx: CommandContext, field: string, source: Document = ctx.body): boolean | undefined {
  const value = source[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  // mongod accepts numbers for boolean options (e.g. `new: 1` from older shells).
  const n = toNumber(value);
  if (n !== undefined) return n !== 0;
  throw wrongType(ctx, field, value, 'bool');
}

export function toLong(value: unknown): Long | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return Long.fromNumber(value);
  if (typeof value === 'bigint') return Long.fromBigInt(value);
  const v = value as { _bsontype?: string; low?: number; high?: number };
  if (v?._bsontype === 'Long' && typeof v.low === 'number' && typeof v.high === 'number')
    return Long.fromBits(v.low, v.high);
  return undefined;
}

// Database names: mongod's rules for names that can exist on disk.
const INVALID_DB_CHARS = /[/\\. "$*<>:|?\0]/;

export function validateDbName(db: string): void {
  if (typeof db !== 'string' || db.length === 0)
    throw commandError(ErrorCodes.InvalidNamespace, 'Invalid database name: empty');
  if (db.length >= 64)
    throw commandError(ErrorCodes.InvalidNamespace, `Invalid database name: '${db}' is longer than 63 characters`);
  if (INVALID_DB_CHARS.test(db)) throw commandError(ErrorCodes.InvalidNamespace, `Invalid database name: '${db}'`);
}

export function validateCollectionName(db: string, coll: unknown, command: string): string {
  if (typeof coll !== 'string') {
    throw commandError(ErrorCodes.InvalidNamespace, `collection name has invalid type ${typeName(coll)}`);
  }
  const full = `${db}.${coll}`;
  if (coll.length === 0 || coll.startsWith('.') || coll.includes('$') || coll.includes('\0')) {
    throw commandError(ErrorCodes.InvalidNamespace, `Invalid namespace specified '${full}'`);
  }
  if (Buffer.byteLength(full) > 255) {
    throw commandError(
      ErrorCodes.InvalidNamespace,
      `Fully qualified namespace is too long. Namespace: ${full} Max: 255`,
    );
  }
  void command;
  return coll;
}

/** The command's target collection (value of the first key), validated. */
export function collectionNs(ctx: CommandContext, field = ctx.name): Ns {
  validateDbName(ctx.db);
  return { db: ctx.db, coll: validateCollectionName(ctx.db, ctx.body[field], ctx.name) };
}

/** Writes to system collections are refused, as mongod does for user clients. */
export function assertWritable(ns: Ns): void {
  if (ns.coll.startsWith('system.'))
    throw commandError(ErrorCodes.InvalidNamespace, `cannot write to '${ns.db}.${ns.coll}'`);
}

const UNSUPPORTED_OPERATORS: Record<string, string> = {
  $text: 'text search ($text)',
  $where: 'JavaScript queries ($where)',
  $near: 'geospatial queries ($near)',
  $nearSphere: 'geospatial queries ($nearSphere)',
  $geoWithin: 'geospatial queries ($geoWithin)',
  $geoIntersects: 'geospatial queries ($geoIntersects)',
  $within: 'geospatial queries ($within)',
  $function: 'server-side JavaScript ($function)',
  $accumulator: 'server-side JavaScript ($accumulator)',
};

const UNSUPPORTED_STAGES: Record<string, string> = {
  $changeStream: 'change streams ($changeStream)',
  $geoNear: 'geospatial queries ($geoNear)',
  $search: 'Atlas Search ($search)',
  $searchMeta: 'Atlas Search ($searchMeta)',
  $vectorSearch: 'Atlas Vector Search ($vectorSearch)',
};

export const LIMIT_SUFFIX =
  'is not supported by the embedded MongoDB server (@shop/embedded-mongo); use a real MongoDB for it';

/** Refuses queries that use a declared limit ($text, geo, $where, server-side JS), wherever they are nested. */
export function assertSupportedQuery(value: unknown, depth = 0): void {
  if (depth > 100 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) assertSupportedQuery(item, depth + 1);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    const what = Object.hasOwn(UNSUPPORTED_OPERATORS, key) ? UNSUPPORTED_OPERATORS[key] : undefined;
    if (what) throw commandError(ErrorCodes.BadValue, `${what} ${LIMIT_SUFFIX}`);
    assertSupportedQuery(value[key], depth + 1);
  }
}

export function assertSupportedPipeline(pipeline: unknown[]): void {
  for (const stage of pipeline) {
    if (!isPlainObject(stage)) continue;
    for (const key of Object.keys(stage)) {
      const what = Object.hasOwn(UNSUPPORTED_STAGES, key) ? UNSUPPORTED_STAGES[key] : undefined;
      if (what)
        throw commandError(
          key === '$changeStream' ? ErrorCodes.CommandNotSupported : ErrorCodes.BadValue,
          `${what} ${LIMIT_SUFFIX}`,
        );
    }
  }
  assertSupportedQuery(pipeline);
}

/** Fields every command may carry (sessions, concerns, API version...), which are not command options. */
const GENERIC_FIELDS = new Set([
  '$db',
  'lsid',
  '$clusterTime',
  'txnNumber',
  'autocommit',
  'startTransaction',
  'writeConcern',
  'readConcern',
  '$readPreference',
  'comment',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'maxTimeMS',
  '$client',
  '$audit',
]);

/** The command's own options: the body without its name and the generic fields. */
export function commandOptions(ctx: CommandContext): Document {
  const options: Document = {};
  for (const [key, value] of Object.entries(ctx.body)) {
    if (key !== ctx.name && !GENERIC_FIELDS.has(key)) setField(options, key, value);
  }
  return options;
}
