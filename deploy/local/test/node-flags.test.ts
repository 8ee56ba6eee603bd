import { describe, expect, it } from 'vitest';
import { JEMALLOC_PATHS, localNodeEnv } from '../src/node-flags.ts';

describe('localNodeEnv', () => {
  it('preloads the first jemalloc that exists, with its background purging', () => {
    const env = localNodeEnv((path) => path === JEMALLOC_PATHS[1] || path === JEMALLOC_PATHS[2]);
    expect(env).toEqual({
      MALLOC_ARENA_MAX: '2',
      LD_PRELOAD: JEMALLOC_PATHS[1],
      MALLOC_CONF: 'background_thread:true,narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0',
    });
  });

  it("keeps glibc's malloc, with two arenas, where there is no jemalloc", () => {
    expect(localNodeEnv(() => false)).toEqual({ MALLOC_ARENA_MAX: '2' });
  });
});
