// Runs one command: finds its handler, applies session rules (multi-document transactions, retryable
// writes) and turns every failure into a MongoDB error reply. A command never throws out of here.
import { Binary, Long, type Document } from 'bson';
import type { CommandContext, CommandHandler, ConnectionInfo, ServerState } from './context.js';
import { adminCommands } from './commands/admin.js';
import { crudCommands, WRITE_COMMANDS } from './commands/crud.js';
import { ddlCommands } from './commands/ddl.js';
import { isPlainObject, typeName } from './commands/args.js';
import { commandError, ErrorCodes, errorReply, TRANSIENT_TRANSACTION_ERROR } from './errors.js';
import { toBigInt, type Session } from './sessions.js';
import { MongoCommandError } from '../engine/types.js';

const transactionCommands: Record<string, CommandHandler> = {
  // Both are answered by runInTransaction; these entries only make the names known commands.
  commitTransaction: () => ({ ok: 1 }),
  abortTransaction: () => ({ ok: 1 }),
};

const HANDLERS: Record<string, CommandHandler> = {
  ...adminCommands,
  ...crudCommands,
  ...ddlCommands,
  ...transactionCommands,
  listCommands: () => ({
    commands: Object.fromEntries(
      Object.keys(HANDLERS)
        .sort()
        .map((name) => [name, { help: '', requiresAuth: false, adminOnly: false }]),
    ),
    ok: 1,
  }),
};

/** Commands mongod runs only against the admin database. */
const ADMIN_ONLY = new Set([
  'listDatabases',
  'getParameter',
  'getCmdLineOpts',
  'getLog',
  'replSetGetStatus',
  'replSetGetConfig',
  'renameCollection',
  'killAllSessions',
  'setParameter',
]);

/** Commands mongod accepts inside a multi-document transaction. */
const ALLOWED_IN_TRANSACTION = new Set([
  'find',
  'getMore',
  'killCursors',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'aggregate',
  'distinct',
  'create',
  'createIndexes',
  'commitTransaction',
  'abortTransaction',
]);

/** Commands that change data or catalog: they advance the replica set's operation time. */
const MUTATING_COMMANDS = new Set([
  ...WRITE_COMMANDS,
  'create',
  'drop',
  'dropDatabase',
  'createIndexes',
  'dropIndexes',
  'deleteIndexes',
  'collMod',
  'renameCollection',
  'commitTransaction',
]);

/** Error codes after which retrying the whole transaction can succeed. */
const TRANSIENT_CODES = new Set([ErrorCodes.NoSuchTransaction, 112 /* WriteConflict */, 24 /* LockTimeout */]);

/**
 * The `$clusterTime` signature of every reply: no keys, so always the zero hash and key id (as a mongod
 * without auth sends). One shared value, only ever serialized: a fresh Binary per reply was allocation for nothing.
 */
const UNSIGNED = Object.freeze({ hash: new Binary(Buffer.alloc(20)), keyId: Long.ZERO });

export function isKnownCommand(name: string): boolean {
  return Object.hasOwn(HANDLERS, name);
}

export async function runCommand(state: ServerState, conn: ConnectionInfo, body: Document): Promise<Document> {
  const name = Object.keys(body)[0];
  let reply: Document;
  try {
    if (name === undefined) throw commandError(ErrorCodes.FailedToParse, 'Command document is empty');
    const db = body.$db;
    if (typeof db !== 'string') throw commandError(40571, 'OP_MSG requests require a $db argument');
    const handler = Object.hasOwn(HANDLERS, name) ? HANDLERS[name] : undefined;
    if (!handler) throw commandError(ErrorCodes.CommandNotFound, `no such command: '${name}'`);
    if (ADMIN_ONLY.has(name) && db !== 'admin') {
      throw commandError(ErrorCodes.Unauthorized, `${name} may only be run against the admin database.`);
    }
    if (!WRITE_COMMANDS.has(name) && name !== 'find' && name !== 'getMore') state.opcounters.command++;
    const ctx: CommandContext = { state, conn, db, name, body };
    reply = await execute(ctx, handler);
    if (state.options.replSet && reply.ok === 1 && MUTATING_COMMANDS.has(name)) state.advanceOpTime();
  } catch (error) {
    reply = errorReply(error);
  }
  if (state.options.replSet) {
    const operationTime = state.lastOpTime();
    reply.$clusterTime = { clusterTime: operationTime, signature: UNSIGNED };
    reply.operationTime = operationTime;
  }
  return reply;
}

async function execute(ctx: CommandContext, handler: CommandHandler): Promise<Document> {
  const { body, state } = ctx;
  if (body.lsid !== undefined) {
    if (!isPlainObject(body.lsid))
      throw commandError(
        ErrorCodes.TypeMismatch,
        `BSON field 'OperationSessionInfo.lsid' is the wrong type '${typeName(body.lsid)}', expected type 'object'`,
      );
    ctx.session = state.sessions.touch(body.lsid);
  }
  const hasTxnNumber = body.txnNumber !== undefined;
  const txnNumber = toBigInt(body.txnNumber);
  if (hasTxnNumber) {
    if (!state.options.replSet) {
      throw commandError(
        ErrorCodes.IllegalOperation,
        'Transaction numbers are only allowed on a replica set member or mongos',
      );
    }
    if (txnNumber === undefined)
      throw commandError(
        ErrorCodes.TypeMismatch,
        `BSON field 'OperationSessionInfo.txnNumber' is the wrong type '${typeName(body.txnNumber)}', expected type 'long'`,
      );
    if (!ctx.session)
      throw commandError(ErrorCodes.InvalidOptions, 'Transaction number requires a session ID to also be specified');
    if (txnNumber < 0n) throw commandError(ErrorCodes.BadValue, `Transaction number cannot be negative: ${txnNumber}`);
  }
  if (body.autocommit !== undefined) {
    if (!hasTxnNumber || !ctx.session || txnNumber === undefined) {
      throw commandError(
        ErrorCodes.InvalidOptions,
        "'autocommit' field requires a transaction number to also be specified",
      );
    }
    if (body.autocommit !== false)
      throw commandError(ErrorCodes.InvalidOptions, 'Specifying autocommit=true is not allowed.');
    return runInTransaction(ctx, ctx.session, txnNumber, handler);
  }
  if (body.startTransaction !== undefined) {
    throw commandError(ErrorCodes.InvalidOptions, 'Specifying startTransaction requires autocommit=false');
  }
  if (ctx.name === 'commitTransaction' || ctx.name === 'abortTransaction') {
    if (!state.options.replSet) {
      throw commandError(
        ErrorCodes.IllegalOperation,
        'Transaction numbers are only allowed on a replica set member or mongos',
      );
    }
    throw commandError(ErrorCodes.InvalidOptions, `${ctx.name} must be run within a transaction`);
  }
  if (hasTxnNumber && ctx.session && txnNumber !== undefined)
    return runRetryableWrite(ctx, ctx.session, txnNumber, handler);
  return handler(ctx);
}

function noSuchTransaction(message: string): MongoCommandError {
  return commandError(ErrorCodes.NoSuchTransaction, message, {}, [TRANSIENT_TRANSACTION_ERROR]);
}

async function runInTransaction(
  ctx: CommandContext,
  session: Session,
  txnNumber: bigint,
  handler: CommandHandler,
): Promise<Document> {
  const { state, body, name } = ctx;
  const start = body.startTransaction;
  if (start !== undefined && start !== true)
    throw commandError(ErrorCodes.InvalidOptions, 'startTransaction must be true');
  if (!ALLOWED_IN_TRANSACTION.has(name)) {
    throw commandError(
      ErrorCodes.OperationNotSupportedInTransaction,
      `Cannot run '${name}' in a multi-document transaction.`,
    );
  }
  if (txnNumber < session.txnNumber) {
    throw commandError(
      ErrorCodes.TransactionTooOld,
      `Cannot start transaction ${txnNumber} on session ${session.key} because a newer transaction ${session.txnNumber} has already started.`,
    );
  }
  if (start === true) {
    if (name === 'commitTransaction' || name === 'abortTransaction') {
      throw commandError(ErrorCodes.InvalidOptions, `Cannot start a transaction with ${name}`);
    }
    if (txnNumber === session.txnNumber) {
      throw commandError(
        ErrorCodes.ConflictingOperationInProgress,
        `Transaction number ${txnNumber} on session ${session.key} has already been used; start a new transaction with a higher txnNumber`,
      );
    }
    state.sessions.abortTransaction(session);
    session.txnNumber = txnNumber;
    session.retryable = undefined;
    session.txn = state.engine.beginTransaction();
    session.txnState = 'inProgress';
  } else {
    if (txnNumber > session.txnNumber || session.txnState === 'none') {
      throw noSuchTransaction(
        `Given transaction number ${txnNumber} does not match any in-progress transactions. The active transaction number is ${session.txnNumber}`,
      );
    }
    if (session.txnState === 'committed') {
      // A retried commit (e.g. after a lost reply) is answered like the first one.
      if (name === 'commitTransaction') return { ok: 1 };
      if (name === 'abortTransaction') {
        throw commandError(
          ErrorCodes.TransactionCommitted,
          `Transaction with { txnNumber: ${txnNumber} } has been committed.`,
        );
      }
      throw noSuchTransaction(
        `Transaction with { txnNumber: ${txnNumber} } has been committed; start a new transaction.`,
      );
    }
    if (session.txnState === 'aborted') {
      throw noSuchTransaction(`Transaction with { txnNumber: ${txnNumber} } has been aborted.`);
    }
  }
  session.txnLastUsed = Date.now();
  const txn = session.txn;
  if (!txn) throw noSuchTransaction(`Transaction with { txnNumber: ${txnNumber} } is not in progress.`);

  if (name === 'abortTransaction') {
    state.sessions.abortTransaction(session);
    return { ok: 1 };
  }
  if (name === 'commitTransaction') {
    try {
      await state.engine.commitTransaction(txn);
      session.txn = undefined;
      session.txnState = 'committed';
      return { ok: 1 };
    } catch (error) {
      state.sessions.abortTransaction(session);
      throw withTransientLabel(error);
    }
  }
  ctx.txn = txn;
  try {
    return await handler(ctx);
  } catch (error) {
    // Like mongod: a failed statement aborts the whole transaction.
    state.sessions.abortTransaction(session);
    throw withTransientLabel(error);
  }
}

function withTransientLabel(error: unknown): unknown {
  if (!(error instanceof MongoCommandError) || !TRANSIENT_CODES.has(error.code)) return error;
  if (error.errorLabels.includes(TRANSIENT_TRANSACTION_ERROR)) return error;
  return new MongoCommandError(error.code, error.codeName, error.message, error.extra, [
    ...error.errorLabels,
    TRANSIENT_TRANSACTION_ERROR,
  ]);
}

async function runRetryableWrite(
  ctx: CommandContext,
  session: Session,
  txnNumber: bigint,
  handler: CommandHandler,
): Promise<Document> {
  const { state, name } = ctx;
  if (!WRITE_COMMANDS.has(name)) {
    throw commandError(
      50768,
      `txnNumber may only be provided for multi-document transactions and retryable write commands. autocommit:false was not provided, and ${name} is not a retryable write command.`,
    );
  }
  if (txnNumber < session.txnNumber) {
    throw commandError(
      ErrorCodes.TransactionTooOld,
      `Retryable write with txnNumber ${txnNumber} is prohibited on session ${session.key} because a newer retryable write with txnNumber ${session.txnNumber} has already started on this session.`,
    );
  }
  if (txnNumber === session.txnNumber) {
    const recorded = session.retryable;
    if (recorded && recorded.txnNumber === txnNumber) {
      if (recorded.command !== name) {
        throw commandError(
          ErrorCodes.IllegalOperation,
          `Retryable write with txnNumber ${txnNumber} was a '${recorded.command}', not a '${name}'`,
        );
      }
      // The first attempt was applied: answer with its result instead of applying it again.
      return { ...(await recorded.reply) };
    }
    if (session.txnState !== 'none') {
      throw commandError(
        ErrorCodes.ConflictingOperationInProgress,
        `Cannot run a retryable write with txnNumber ${txnNumber} on session ${session.key}: that number belongs to a transaction`,
      );
    }
  } else {
    state.sessions.abortTransaction(session);
    session.txnNumber = txnNumber;
    session.txnState = 'none';
  }
  const pending = Promise.resolve(handler(ctx));
  const record = { txnNumber, command: name, reply: pending };
  session.retryable = record;
  try {
    const reply = await pending;
    return { ...reply };
  } catch (error) {
    // A command that failed as a whole applied nothing: a retry must run it again.
    if (session.retryable === record) session.retryable = undefined;
    throw error;
  }
}
