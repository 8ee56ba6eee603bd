import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

// The image replay (test/replay.test.ts): installs and builds in a temporary folder, so it gets long limits.
export default defineProject({
  ...sourceConditions,
  test: {
    name: 'image',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
