import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppConfig } from '@shop/ui/rspack';

const dir = path.dirname(fileURLToPath(import.meta.url));

// Keep in step with the shell's RemoteModules (frontends/shell/src/remotes.ts).
export default (env: Record<string, unknown>) =>
  createAppConfig({
    app: 'admin',
    dir,
    isDev: Boolean(env.RSPACK_SERVE),
    exposes: {
      './AdminApp': './src/AdminApp.tsx',
      './EmailDiagnostics': './src/email-diagnostics/EmailDiagnosticsApp.tsx',
    },
  });
