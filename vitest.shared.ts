// Shared by every package's vitest.config.ts: resolve workspace packages (@shop/*) to their TypeScript
// sources through the "source" export condition, so tests never depend on a previous build.
// No "import"/"module" conditions: vitest passes these to workers as node --conditions, and with
// "import" a require() of a dual package (e.g. @fastify/helmet) would load its ESM entry.
const conditions = ['source', 'node', 'development|production'];
export const sourceConditions = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
};

// For the packages whose test files each start and stop their own servers, databases and processes: the
// files run one after another in one reused worker instead of a fresh one each, so nothing but the module
// cache carries over, and fastify, mongoose and the code under test are imported once per package instead
// of once per file (a fifth to a third of these packages' test time; about 30% off their runs on 2 cores).
export const reusedWorker = { isolate: false } as const;
