import { defineConfig } from 'vitest/config';

// Every workspace package with tests is one project (its own vitest.config.ts). Browser tests
// (frontends/e2e) share one stack that their globalSetup starts once.
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      '{gateway,charts,load-tests}/vitest.config.ts',
      'deploy/*/vitest.config.ts',
      'frontends/*/vitest.config.ts',
    ],
  },
});
