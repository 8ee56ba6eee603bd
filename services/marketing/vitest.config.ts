import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

// Without the 'module' condition: it points @opentelemetry/api at its build/esm folder, whose
// extensionless imports Node cannot load when vitest hands the package to Node's own loader.
const conditions = sourceConditions.resolve.conditions.filter((c) => c !== 'module');

export default defineProject({
  ...sourceConditions,
  resolve: { ...sourceConditions.resolve, conditions },
  ssr: { resolve: { ...sourceConditions.ssr.resolve, conditions } },
  test: {
    name: 'marketing',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
