import { defineProject } from 'vitest/config';
import { sourceConditions } from '../vitest.shared.ts';

export default defineProject({
  ...sourceConditions,
  test: { name: 'load-tests', include: ['test/**/*.test.ts'], environment: 'node' },
});
