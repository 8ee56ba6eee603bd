// Shared setup for engine tests: a fresh in-memory engine and a namespace per test.
import { createEngine, type CreateEngineOptions, type EmbeddedEngine } from '../../src/engine/index.js';

export const ns = { db: 'shop_test', coll: 'items' };

export const freshEngine = (opts: CreateEngineOptions = {}): EmbeddedEngine => createEngine({ ttlSweepMs: 3_600_000, ...opts });

/** Runs a promise expected to reject and returns the error. */
export const rejection = async (p: Promise<unknown> | (() => unknown)): Promise<any> => {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
};
