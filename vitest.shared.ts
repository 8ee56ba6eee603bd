// Shared by every package's vitest.config.ts: resolve workspace packages (@shop/*) to their TypeScript
// sources through the "source" export condition, so tests never depend on a previous build.
export const sourceConditions = {
  resolve: { conditions: ['source', 'module', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['source', 'module', 'node', 'import', 'default'], externalConditions: ['source'] } },
};
