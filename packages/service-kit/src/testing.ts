// Helpers for the services' own tests: run a service's real `src/main.ts` as a child process (the way
// the local runner and Kubernetes start it, but from TypeScript sources through tsx) and stop it with a
// signal to observe the graceful shutdown.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Every stdout line parsed as JSON (pino), in order. */
  logs: Record<string, unknown>[];
  stderr: string[];
  /** Sends the signal to the process and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

import { gatewayTokenHeader, type GatewayTokenAdmin } from '@shop/contracts';
import { gatewaySigningKey, signGatewayToken } from './gateway-token.js';

const require = createRequire(import.meta.url);

// A random gateway key per test run (each test process), unless the run sets one: services the tests
// build read it from the environment like the deployed ones, and the helpers below sign with it.
process.env.GATEWAY_SIGNING_KEY ||= randomBytes(32).toString('base64url');

/** The key the tests' gateway identities are signed with (pass it to child processes as GATEWAY_SIGNING_KEY). */
export const testGatewayKey = (): string => process.env.GATEWAY_SIGNING_KEY!;

/**
 * Headers a service receives from the gateway: a signed identity (the admin when given, the client's
 * address) and the request id it is bound to. Both are made afresh each time the object is read (spread,
 * or handed to fetch/inject), so a header object kept for a whole test file never expires.
 */
export function gatewayHeaders(
  options: { admin?: Partial<GatewayTokenAdmin> & { email: string }; ip?: string } = {},
): Record<string, string> {
  const sub = options.admin
    ? {
        id: options.admin.id ?? 'admin-1',
        name: options.admin.name ?? 'Test Admin',
        role: options.admin.role ?? 'admin',
        email: options.admin.email,
      }
    : undefined;
  // Each read makes a new request id (read first: properties are read in order) and a token for it.
  let requestId = `test-${randomUUID()}`;
  const headers: Record<string, string> = {};
  Object.defineProperty(headers, 'x-request-id', { enumerable: true, get: () => (requestId = `test-${randomUUID()}`) });
  Object.defineProperty(headers, gatewayTokenHeader, {
    enumerable: true,
    get: () =>
      signGatewayToken(gatewaySigningKey(testGatewayKey()), { sub, ip: options.ip ?? '127.0.0.1', rid: requestId }),
  });
  return headers;
}

/** The gateway's headers for a signed-in admin (see gatewayHeaders). */
export const adminHeaders = (
  email = 'admin@shop.test',
  more: Partial<GatewayTokenAdmin> & { ip?: string } = {},
): Record<string, string> => {
  const { ip, ...admin } = more;
  return gatewayHeaders({ admin: { ...admin, email }, ...(ip ? { ip } : {}) });
};

/**
 * Starts `node --conditions=source --import tsx <packageDir>/src/main.ts` with the given env (PORT is
 * required so the test knows where to look) and resolves once `/readyz` answers 200.
 */
export async function spawnServiceProcess(options: {
  packageDir: string;
  env: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<ServiceProcess> {
  const port = options.env.PORT;
  if (!port) throw new Error('spawnServiceProcess needs env.PORT');
  const tsx = path.dirname(require.resolve('tsx/package.json'));
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', pathToFileURL(path.join(tsx, 'dist', 'loader.mjs')).href, 'src/main.ts'],
    {
      cwd: options.packageDir,
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const logs: Record<string, unknown>[] = [];
  const stderr: string[] = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        stderr.push(line);
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `service exited with ${child.exitCode} before it was ready:\n${stderr.join('').slice(-3000)}\n${JSON.stringify(logs.slice(-5))}`,
      );
    }
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `service not ready within the time limit:\n${stderr.join('').slice(-3000)}\n${JSON.stringify(logs.slice(-5))}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    pid: child.pid!,
    logs,
    stderr,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

export { describeServiceBasics, type ServiceBasicsOptions } from './testing-basics.js';
