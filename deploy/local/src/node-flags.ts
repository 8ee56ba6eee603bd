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
import { existsSync } from 'node:fs';
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

/**
 * V8's platform worker threads (concurrent marking, compiling, sweeping), per process; Node's default is 4.
 * Ten processes share the machine's cores, so more workers per process buy no parallelism, and each thread
 * costs its stack and allocator caches. Measured (stack-memory.ts --settle 5, 13:54-13:59 UTC, load 1.4-3.9,
 * alternating with 4): the gateway and seven services 825, 827 MiB idle and 874, 871 after the load against
 * 836, 837 and 881, 881; the database 72 against 74 idle; 573, 474 quotes/s against 492, 459, tracking 6,819,
 * 7,372 against 7,365, 6,540 req/s.
 */
export const V8_POOL_SIZE = 2;

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
    `--v8-pool-size=${V8_POOL_SIZE}`,
    ...(old ? [`--max-old-space-size=${old}`] : []),
    ...idleCollectorFlags,
  ];
}

/**
 * jemalloc, where the machine has it (Debian/Ubuntu `libjemalloc2`; else glibc's malloc as before). After the
 * quote load glibc kept 10 to 25 MiB of freed memory per busy part (email, orders, the gateway): freed chunks
 * between live ones, which glibc gives back only from the top of a heap and which neither the idle
 * collector's full GC nor `MALLOC_TRIM_THRESHOLD_` returned. jemalloc's background thread purges freed
 * pages after `dirty_decay_ms` even in a quiet process. Measured with load-tests/src/stack-memory.ts
 * --settle 5, this file against glibc (`LD_PRELOAD=` exported) and GOGC=100, alternating, 13:48-13:53 UTC,
 * load 3.0-5.3: the gateway and seven services 890, 880 MiB after the load against 961, 925 (gateway 104,
 * 103 against 128, 117; email 126, 124 against 139, 134; orders 116, 113 against 131, 126); idle +10 to
 * +16 MiB (the allocator's own start-up). 552, 388 quotes/s against 530, 499, tracking 7,144, 7,238 req/s
 * against 6,245, 6,496 (earlier pairs 512, 477 against 458, 555 quotes/s: host noise).
 */
export const JEMALLOC_PATHS = [
  '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2',
  '/usr/lib64/libjemalloc.so.2',
  '/usr/local/lib/libjemalloc.so.2',
];

/**
 * Environment the runner adds for its Node processes. glibc gives each thread that allocates its own malloc
 * arena (up to 8 per core), and memory freed in one is not reused by another; a Node process's allocating
 * threads (the main thread, V8's compiler and GC workers, libuv's pool) share two. With jemalloc
 * (JEMALLOC_PATHS, the first that exists): two arenas likewise, freed pages purged after a second by its
 * background thread, none kept "muzzy" (lazily freed, still counted as resident).
 */
export function localNodeEnv(exists: (path: string) => boolean = existsSync): Record<string, string> {
  const jemalloc = JEMALLOC_PATHS.find(exists);
  return {
    MALLOC_ARENA_MAX: '2',
    ...(jemalloc && {
      LD_PRELOAD: jemalloc,
      MALLOC_CONF: 'background_thread:true,narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0',
    }),
  };
}

export const LOCAL_NODE_ENV: Record<string, string> = localNodeEnv();

/**
 * Environment of the nats-server the runner starts (Go). Go collects when its heap has grown by GOGC percent
 * since the last collection (default 100) and keeps what it reached: after the quote load nats-server sat at
 * 51 to 74 MiB resident (17 idle; six runs, mean 67). With 50: 39 to 66 MiB (ten runs, 13:37-14:01 UTC, mean
 * 47), the same quote rates (the stack-memory.ts runs above). 25 gave 36 and 40 in two runs: too few to
 * tell from 50's spread.
 */
export const LOCAL_NATS_ENV: Record<string, string> = { GOGC: '50' };
