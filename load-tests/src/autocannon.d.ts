// The part of autocannon's API the bench uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    /** Each request in turn; setupRequest may change a request before it is sent (a fresh body per request). */
    requests?: (Request & { setupRequest?: (request: Request) => Request })[];
  }
  /** One request of a sequence, as autocannon sends it. */
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number; average: number };
    non2xx: number;
    '2xx': number;
    errors: number;
    timeouts: number;
    duration: number;
  }
  interface Instance extends EventEmitter {
    stop(): void;
  }
  export type { Options, Result, Instance };
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
