// Shared setup for engine tests: a fresh in-memory engine and a namespace per test.
import { MongoCommandError } from '../../src/engine/types.js';
import { createEngine, type CreateEngineOptions, type EmbeddedEngine } from '../../src/engine/index.js';

export const ns = { db: 'shop_test', coll: 'items' };

export const freshEngine = (opts: CreateEngineOptions = {}): EmbeddedEngine =>
  createEngine({ ttlSweepMs: 3_600_000, ...opts });

/** Runs a promise expected to reject with a command error (as mongod answers) and returns the error. */
export const rejection = async (p: Promise<unknown> | (() => unknown)): Promise<MongoCommandError> => {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    if (err instanceof MongoCommandError) return err;
    throw err;
  }
  throw new Error('expected an error');
};
