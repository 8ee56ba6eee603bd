import { defineProject } from 'vitest/config';
import { reusedWorker, sourceConditions } from '../../vitest.shared.ts';

export default defineProject({
  ...sourceConditions,
  test: {
    ...reusedWorker,
    name: 'contracts',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
