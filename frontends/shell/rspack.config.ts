import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppConfig } from '@shop/ui/rspack';

const dir = path.dirname(fileURLToPath(import.meta.url));

export default (env: Record<string, unknown>) =>
  createAppConfig({ app: 'shell', dir, isDev: Boolean(env.RSPACK_SERVE) });
