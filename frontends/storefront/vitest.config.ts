import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

// Unit tests of the storefront's pure rules (no browser): the flow's validation, quantity and price
// rules, the order body, the messages of §8. The screens themselves are covered in frontends/e2e.
export default defineProject({
  ...sourceConditions,
  test: { name: 'storefront', include: ['test/**/*.test.{ts,tsx}'], environment: 'node' },
});
