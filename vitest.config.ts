import { defineConfig } from 'vitest/config';

// Every workspace package with tests is one project (its own vitest.config.ts). Browser tests
// (frontends/e2e) share one stack that their globalSetup starts once.
export default defineConfig({
  test: {
    // Global: a project config may not set it. The browser tests' global teardown stops a whole stack.
    teardownTimeout: 60_000,
    projects: [
      'packages/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      '{gateway,charts,load-tests}/vitest.config.ts',
      'deploy/*/vitest.config.ts',
      'frontends/*/vitest.config.ts',
    ],
  },
});
