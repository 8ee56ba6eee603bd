import { defineProject } from 'vitest/config';
import { reusedWorker, sourceConditions } from '../../vitest.shared.ts';

// Browser and stack tests. global-setup.ts starts ONE whole shop (MongoDB, NATS, seven services, the
// gateway serving the built frontends) for every file here; files run one after another so a single
// Chromium at a time shares the 2 cores with that stack.
export default defineProject({
  ...sourceConditions,
  test: {
    // One worker for every file (each launches and closes its own browser): playwright-core and the contracts
    // are imported once, not 24 times.
    ...reusedWorker,
    name: 'e2e',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    // A poll waits on a page that waits on the stack: vitest's 1 s default failed a wrong-password sign-in on a
    // busy 2-core run (the password check alone can take longer). Polls that need more still say so.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
  },
});
