import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

// Browser and stack tests. global-setup.ts starts ONE whole shop (MongoDB, NATS, seven services, the
// gateway serving the built frontends) for every file here; files run one after another so a single
// Chromium at a time shares the 2 cores with that stack.
export default defineProject({
  ...sourceConditions,
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
