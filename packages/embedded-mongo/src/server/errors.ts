// MongoDB error codes the server answers with, and the helpers that build them in mongod's shape.
import type { Document } from 'bson';
import { MongoCommandError } from '../engine/types.js';

export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  NoSuchKey: 4,
  FailedToParse: 9,
  Unauthorized: 13,
  TypeMismatch: 14,
  InvalidLength: 16,
  AuthenticationFailed: 18,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  NoReplicationEnabled: 76,
  CommandNotSupported: 115,
  ConflictingOperationInProgress: 117,
  TransactionTooOld: 225,
  NoSuchTransaction: 251,
  TransactionCommitted: 256,
  OperationNotSupportedInTransaction: 263,
  Location40415: 40415,
} as const;

const NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(ErrorCodes).map(([name, code]) => [code, name]),
);

export function codeName(code: number): string {
  return NAMES[code] ?? `Location${code}`;
}

export function commandError(
  code: number,
  message: string,
  extra: Document = {},
  errorLabels: string[] = [],
): MongoCommandError {
  return new MongoCommandError(code, codeName(code), message, extra, errorLabels);
}

export const TRANSIENT_TRANSACTION_ERROR = 'TransientTransactionError';

/** The `{ ok: 0, ... }` reply for any thrown value; unexpected exceptions become InternalError. */
export function errorReply(error: unknown): Document {
  if (error instanceof MongoCommandError || isCommandErrorLike(error)) {
    const reply: Document = {
      ok: 0,
      errmsg: error.message,
      code: error.code,
      codeName: error.codeName ?? codeName(error.code),
      ...(error.extra ?? {}),
    };
    if (error.errorLabels && error.errorLabels.length > 0) reply.errorLabels = [...error.errorLabels];
    return reply;
  }
  // Engine or driver-level mistakes must still produce a reply: a dropped connection looks like a network
  // failure to the client and gets retried.
  const message = error instanceof Error ? error.message : String(error);
  return { ok: 0, errmsg: message, code: ErrorCodes.InternalError, codeName: 'InternalError' };
}

/** A MongoCommandError from another copy of the module (source vs dist) still carries its code. */
function isCommandErrorLike(
  error: unknown,
): error is { message: string; code: number; codeName?: string; extra?: Document; errorLabels?: string[] } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'number';
}
