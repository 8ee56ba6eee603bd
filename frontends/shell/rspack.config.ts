import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Configuration } from '@rspack/core';
import { createAppConfig } from '@shop/ui/rspack';

const dir = path.dirname(fileURLToPath(import.meta.url));

export default (env: Record<string, unknown>): Configuration => {
  const config = createAppConfig({ app: 'shell', dir, isDev: Boolean(env.RSPACK_SERVE) });
  // src/icuWarmup.js is a worker script emitted as it is (a file and its URL), not bundled: as a worker
  // entry rspack would put the federation runtime (~95 KB) in it. The last matching rule's type wins.
  config.module?.rules?.push({
    test: /icuWarmup\.js$/,
    type: 'asset/resource',
    generator: { filename: 'static/js/[name].[contenthash:8][ext]' },
  });
  return config;
};
