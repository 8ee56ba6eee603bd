import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

export default defineProject({
  ...sourceConditions,
  test: {
    name: 'service-kit',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
