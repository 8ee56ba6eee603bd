// @fastify/rate-limit's in-memory counter store (security.ts counts with it); the package types only its plugin.
declare module '@fastify/rate-limit/store/LocalStore.js' {
  export default class LocalStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, cache?: number);
    /** Counts one hit for `key`; calls back synchronously with the window's count and the ms left in it. */
    incr(
      key: string,
      callback: (error: Error | null, window: { current: number; ttl: number }) => void,
      timeWindowMs: number,
      max: number,
    ): void;
  }
}
