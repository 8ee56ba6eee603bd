import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

// The image replay (test/replay.test.ts) installs and builds in a temporary folder: long limits, and it runs
// after every other project (groupOrder 1) so its installs and builds do not compete with their tests for
// the 2 cores.
export default defineProject({
  ...sourceConditions,
  test: {
    name: 'image',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 900_000,
    sequence: { groupOrder: 1 },
  },
});
