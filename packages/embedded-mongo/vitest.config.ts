import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

export default defineProject({
  ...sourceConditions,
  test: {
    name: 'embedded-mongo',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
