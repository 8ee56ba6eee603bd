import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppConfig } from '@shop/ui/rspack';

const dir = path.dirname(fileURLToPath(import.meta.url));

// Keep in step with the shell's RemoteModules (frontends/shell/src/remotes.ts).
export default (env: Record<string, unknown>) =>
  createAppConfig({
    app: 'storefront',
    dir,
    isDev: Boolean(env.RSPACK_SERVE),
    exposes: {
      './Home': './src/pages/Home.tsx',
      './Track': './src/pages/Track.tsx',
      './BranchPage': './src/pages/BranchPage.tsx',
      './PayPage': './src/pages/PayPage.tsx',
      './Support': './src/pages/Support.tsx',
      './Faq': './src/pages/Faq.tsx',
      './Returns': './src/pages/Returns.tsx',
      './Privacy': './src/pages/Privacy.tsx',
      './Terms': './src/pages/Terms.tsx',
      './Sitemap': './src/pages/Sitemap.tsx',
      './Legal': './src/pages/Legal.tsx',
      './Business': './src/pages/Business.tsx',
    },
  });
