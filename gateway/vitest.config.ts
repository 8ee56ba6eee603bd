import { defineProject } from 'vitest/config';
import { reusedWorker, sourceConditions } from '../vitest.shared.ts';

// vitest hands ssr.resolve.conditions to the worker as node --conditions flags. With "import" among
// them, Node's require() picks the ESM entry of dual packages (helmet's "import" comes first), so
// @fastify/helmet got a module namespace instead of a function. Keep only what Node should honour.
const nodeSafe = { conditions: ['source', 'node', 'development|production'], externalConditions: ['source'] };

export default defineProject({
  ...sourceConditions,
  ssr: { resolve: nodeSafe },
  test: {
    ...reusedWorker,
    name: 'gateway',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
