import { defineProject } from 'vitest/config';
import { sourceConditions } from '../vitest.shared.ts';

export default defineProject({
  ...sourceConditions,
  test: {
    name: 'charts',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
