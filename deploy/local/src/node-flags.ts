// How the local runner starts its Node processes (issue 20: the whole stack, ten processes on one machine,
// must stay under 1.2 GiB resident after the quote load).
//
// V8 sizes a process's young generation for a server that has the machine to itself: under load each
// process's new space grew to 128 MiB (two semi-spaces of 64 MiB), and stayed committed until V8 found the
// process idle, so eight services, the gateway and the database each held ~100 MiB of mostly empty young
// generation. The young objects of a request (parsed bodies, documents, log records) die within the
// request; a few MiB of semi-space are enough for them, and scavenges of a small space are as cheap per
// surviving object. Measured with load-tests/src/stack-memory.ts (see load-tests/RESULTS.md, "Stack memory").

/** Young-generation cap of each part, MiB per semi-space. */
export const SEMI_SPACE_MIB = { service: 4, mongodb: 8 } as const;

/**
 * Node flags the runner gives a part (a service or the gateway: 'service'; the embedded MongoDB: 'mongodb').
 * The database keeps a larger young generation: every command's documents pass through it.
 */
export function localNodeFlags(kind: keyof typeof SEMI_SPACE_MIB): string[] {
  return [`--max-semi-space-size=${SEMI_SPACE_MIB[kind]}`];
}

/**
 * Environment the runner adds for its Node processes: glibc gives each thread that allocates its own
 * malloc arena (up to 8 per core), and memory freed in one is not reused by another; a Node process's
 * allocating threads (the main thread, V8's compiler and GC workers, libuv's pool) share two.
 */
export const LOCAL_NODE_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '2' };
