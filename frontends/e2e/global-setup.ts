// Starts one shop stack for all browser tests and hands its address to them:
//   import { inject } from 'vitest'; const baseUrl = inject('baseUrl');
import { appendFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  GATEWAY,
  REPO_ROOT,
  SERVICES,
  prefixedConsole,
  readinessTable,
  runGatewaySigningKey,
  startStack,
  type Stack,
} from '@shop/local';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The gateway of the shared stack, e.g. http://127.0.0.1:39123 (no trailing slash). */
    baseUrl: string;
    /** Each service's own base URL, by name (orders, payments...), for checks that bypass the gateway. */
    services: Record<string, string>;
    /** The stack's NATS server (a second gateway must use it, never the machine's shared one). */
    natsUrl: string;
    /**
     * The stack's MongoDB, for the few states no public or admin call can make (a quote that
     * expired 30 days ago). Each service has its own database (`shop_<service>`).
     */
    mongoUrl: string;
    /** Every line every part of the stack logged so far, one file (log-secrets.test.ts reads it). */
    stackLogFile: string;
    /** The gateway signing key of this stack: it must never show in a log line. */
    gatewaySigningKey: string;
  }
}

/** What must have been built for the stack to serve: every service, the gateway, the three apps. */
export function missingBuildOutputs(repo = REPO_ROOT): string[] {
  const expected = [
    ...[...SERVICES, GATEWAY].map((part) => join(part.dir, 'dist/main.js')),
    'frontends/shell/dist/index.html',
    'frontends/storefront/dist/mf-manifest.json',
    'frontends/admin/dist/mf-manifest.json',
  ];
  return expected.filter((path) => !existsSync(join(repo, path)));
}

let stack: Stack | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const missing = missingBuildOutputs();
  if (missing.length) {
    throw new Error(
      `The browser tests need the built shop, and these are missing:\n  ${missing.join('\n  ')}\n` +
        'run npm run build (or npm test, which builds first)',
    );
  }
  const started = Date.now();
  // Generous: on a 2-core CI machine nine processes start at once next to the other test projects.
  // Every child's lines go to one file (and to the terminal with SHOP_E2E_LOGS), so a test can read them.
  const stackLogFile = join(mkdtempSync(join(tmpdir(), 'shop-e2e-logs-')), 'stack.log');
  const print = process.env.SHOP_E2E_LOGS
    ? prefixedConsole([...SERVICES.map((s) => s.name), GATEWAY.name, 'mongodb', 'nats'])
    : undefined;
  stack = await startStack({
    readyTimeoutMs: 120_000,
    log: (name, line, stream) => {
      appendFileSync(stackLogFile, `[${name}] ${line}\n`);
      print?.(name, line, stream);
    },
  });
  if (process.env.SHOP_E2E_LOGS) console.log(readinessTable(stack.readiness));
  console.log(`e2e: shop stack ready at ${stack.url} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('baseUrl', stack.url);
  project.provide('services', stack.services);
  project.provide('natsUrl', stack.natsUrl);
  project.provide('mongoUrl', stack.mongoUrl);
  project.provide('stackLogFile', stackLogFile);
  // The runner's key, unless the run exported its own (deploy/local env.ts).
  project.provide('gatewaySigningKey', process.env.GATEWAY_SIGNING_KEY || runGatewaySigningKey);
  return async () => {
    await stack?.stop();
    stack = undefined;
  };
}
