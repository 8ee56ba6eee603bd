// How the local runner starts its Node processes (issue 20: the whole stack, ten processes on one machine,
// must stay under 1.2 GiB resident after the quote load).
//
// V8 sizes a process's young generation for a server that has the machine to itself: under load each
// process's new space grew to 128 MiB (two semi-spaces of 64 MiB), and stayed committed until V8 found the
// process idle, so eight services, the gateway and the database each held ~100 MiB of mostly empty young
// generation. The young objects of a request (parsed bodies, documents, log records) die within the
// request; 16 MiB of semi-space hold those of the requests in flight (see SEMI_SPACE_MIB). Measured with
// load-tests/src/stack-memory.ts (see load-tests/RESULTS.md, "Stack memory").
//
// The old generation: V8 lets it grow to a multiple of what survived the last full collection before it
// collects again, and the multiple grows with the heap limit (up to 4 with the limit it picks on a machine
// with a few GiB). A service holds 30 to 45 MiB live; under the quote load orders grew to 140 MiB of
// mostly garbage. With a 256 MiB limit the multiple is about 1.4 (a local part that needs more crashes with
// "heap out of memory" and the runner restarts it; production sets its own limits). The database keeps V8's limit: its heap
// is the data.
//
// After a burst of load the garbage stayed committed anyway: V8's memory reducer never runs in an idle Node
// process. Every part therefore preloads bin/idle-collector.mjs, which runs one memory-reducing collection
// once the part has gone quiet after growing (measured: the stack ~200 MiB smaller after the quote load).
import { IDLE_COLLECTOR_GLOBAL } from '../bin/idle-collector.mjs';

export type PartKind = 'service' | 'mongodb';

/**
 * Young-generation cap of each part, MiB per semi-space. 4 (services) and 8 (database) were too small under
 * load: 50 requests in flight outlive a 4 MiB scavenge, are promoted and fill the old generation, and the
 * quote load ran at about half the rate of Node's defaults. 16 everywhere gave 140 quote requests a second
 * against 84 with 4/8 (Node's defaults: 169) for 1.13 instead of 1.09 GiB after the load (defaults: 2.38):
 * load-tests/RESULTS.md, "Quote path", helper H1.
 */
export const SEMI_SPACE_MIB: Record<PartKind, number> = { service: 16, mongodb: 16 };

/** Old-generation limit, MiB (undefined: V8's own). */
export const OLD_SPACE_MIB: Record<PartKind, number | undefined> = { service: 256, mongodb: undefined };

/** The idle collector's preload, and V8's collector exposed to it under its own name (not `gc`). */
const idleCollectorFlags = [
  `--expose-gc-as=${IDLE_COLLECTOR_GLOBAL}`,
  `--import=${new URL('../bin/idle-collector.mjs', import.meta.url).href}`,
];

/**
 * Node flags the runner gives a part (a service or the gateway: 'service'; the embedded MongoDB: 'mongodb').
 * The database gets the same young generation: every command's documents pass through it.
 */
export function localNodeFlags(kind: PartKind): string[] {
  const old = OLD_SPACE_MIB[kind];
  return [
    `--max-semi-space-size=${SEMI_SPACE_MIB[kind]}`,
    ...(old ? [`--max-old-space-size=${old}`] : []),
    ...idleCollectorFlags,
  ];
}

/**
 * Environment the runner adds for its Node processes: glibc gives each thread that allocates its own
 * malloc arena (up to 8 per core), and memory freed in one is not reused by another; a Node process's
 * allocating threads (the main thread, V8's compiler and GC workers, libuv's pool) share two.
 */
export const LOCAL_NODE_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '2' };
