// @fastify/rate-limit's in-memory counter store, which the gateway's rate limit counts with (security.ts).
// The package types only its plugin, so the store is loaded here with the shape the gateway uses.
import { createRequire } from 'node:module';

export interface RateCounterStore {
  /** Counts one hit for `key`; calls back synchronously with the window's count and the ms left in it. */
  incr(
    key: string,
    callback: (error: Error | null, window: { current: number; ttl: number }) => void,
    timeWindowMs: number,
    max: number,
  ): void;
}

type LocalStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => RateCounterStore;

export const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as LocalStoreClass;
