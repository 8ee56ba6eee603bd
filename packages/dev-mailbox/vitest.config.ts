import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

export default defineProject({
  ...sourceConditions,
  test: { name: 'dev-mailbox', include: ['test/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
});
