import { defineProject } from 'vitest/config';
import { reusedWorker, sourceConditions } from '../../vitest.shared.ts';

export default defineProject({
  ...sourceConditions,
  test: {
    ...reusedWorker,
    name: 'embedded-mongo',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
