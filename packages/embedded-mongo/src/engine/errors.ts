// Constructors for the MongoDB errors the engine raises, with mongod's codes and code names.
import { MongoCommandError } from './types.js';

export const badValue = (msg: string) => new MongoCommandError(2, 'BadValue', msg);
export const failedToParse = (msg: string) => new MongoCommandError(9, 'FailedToParse', msg);
export const typeMismatch = (msg: string) => new MongoCommandError(14, 'TypeMismatch', msg);
export const pathNotViable = (msg: string) => new MongoCommandError(28, 'PathNotViable', msg);
export const conflictingUpdate = (msg: string) => new MongoCommandError(40, 'ConflictingUpdateOperators', msg);
export const immutableField = (msg: string) => new MongoCommandError(66, 'ImmutableField', msg);
export const dollarPrefixed = (msg: string) => new MongoCommandError(52, 'DollarPrefixedFieldName', msg);
export const namespaceNotFound = (msg: string) => new MongoCommandError(26, 'NamespaceNotFound', msg);
export const indexNotFound = (msg: string) => new MongoCommandError(27, 'IndexNotFound', msg);
export const invalidNamespace = (msg: string) => new MongoCommandError(73, 'InvalidNamespace', msg);
export const namespaceExists = (msg: string) => new MongoCommandError(48, 'NamespaceExists', msg);
export const noSuchTransaction = (msg: string) =>
  new MongoCommandError(251, 'NoSuchTransaction', msg, {}, ['TransientTransactionError']);
export const writeConflict = () =>
  new MongoCommandError(
    112,
    'WriteConflict',
    'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
    {},
    ['TransientTransactionError'],
  );
export const notSupported = (what: string) =>
  badValue(`${what} is not supported by the embedded MongoDB server (@shop/embedded-mongo)`);
