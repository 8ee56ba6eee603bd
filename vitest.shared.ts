// Shared by every package's vitest.config.ts: resolve workspace packages (@shop/*) to their TypeScript
// sources through the "source" export condition, so tests never depend on a previous build.
// No "import"/"module" conditions: vitest passes these to workers as node --conditions, and with
// "import" a require() of a dual package (e.g. @fastify/helmet) would load its ESM entry.
const conditions = ['source', 'node', 'development|production'];
export const sourceConditions = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
};
