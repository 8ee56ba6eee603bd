import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

// Unit tests of the shell's route table, rendered on the server side of react-router (no browser):
// the browser tests in frontends/e2e cover the same screens in Chromium.
export default defineProject({
  ...sourceConditions,
  define: {
    __SHOP_DEV__: 'false',
    __SHOP_DEV_REMOTES__: JSON.stringify({ storefront: '', admin: '' }),
  },
  test: { name: 'shell', include: ['test/**/*.test.{ts,tsx}'], environment: 'node' },
});
