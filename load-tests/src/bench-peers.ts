// The processes the bench measures beside the shop: the bare Fastify baseline and stand-in services
// (stand-ins.ts), the real gateway in front of the stand-ins, a minimal @fastify/http-proxy peer
// (proxy-peer.ts) and nginx with one worker as a reverse-proxy peer. Each in its own process, so the load
// generator (this process) does not share an event loop with what it measures.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '@shop/local';
import type { StandIns } from './stand-ins.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const loadTestsDir = fileURLToPath(new URL('../', import.meta.url));

export interface Child {
  process: ChildProcess;
  stderr: () => string;
  /** Also removed when the child is stopped (nginx's prefix directory). */
  cleanup?: () => void;
}

/** `stdout: 'keep'`: its output is kept with stderr's (a service logs its start-up failure there). */
function spawnChild(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  stdout: 'pipe' | 'keep',
): Child {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-8_000));
  child.stderr.on('data', keep);
  if (stdout === 'keep') child.stdout.on('data', keep);
  return { process: child, stderr: () => output };
}

export async function stopChild(child: Child | undefined): Promise<void> {
  if (!child) return;
  if (child.process.exitCode === null && child.process.signalCode === null) {
    const exited = new Promise((resolve) => child.process.once('exit', resolve));
    child.process.kill('SIGTERM');
    await exited;
  }
  child.cleanup?.();
}

/** A Node child that prints one JSON line when ready (stand-ins.ts, proxy-peer.ts). */
async function startReporting<T>(script: string, env: NodeJS.ProcessEnv): Promise<{ info: T; child: Child }> {
  const child = spawnChild(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', script],
    loadTestsDir,
    { PATH: process.env.PATH ?? '', ...env },
    'pipe',
  );
  const lines = createInterface({ input: child.process.stdout! });
  const info = await new Promise<T>((resolve, reject) => {
    child.process.once('exit', (code) => reject(new Error(`${script} exited with code ${code}:\n${child.stderr()}`)));
    lines.once('line', (line) => resolve(JSON.parse(line) as T));
  });
  return { info, child };
}

/** The baseline and the stand-in services (src/stand-ins.ts). */
export async function startStandIns(): Promise<{ urls: StandIns; child: Child }> {
  const { info, child } = await startReporting<StandIns>('src/stand-ins.ts', {});
  return { urls: info, child };
}

/** The minimal @fastify/http-proxy peer, proxying /api/orders/* to `upstream`. */
export async function startProxyPeer(upstream: string): Promise<{ url: string; child: Child }> {
  const { info, child } = await startReporting<{ url: string }>('src/proxy-peer.ts', { UPSTREAM: upstream });
  return { url: info.url, child };
}

async function waitFor(url: string, child: Child, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null)
      throw new Error(`${what} exited with code ${child.process.exitCode}:\n${child.stderr()}`);
    if (Date.now() > deadline)
      throw new Error(`${what} did not answer within ${timeoutMs / 1000} s:\n${child.stderr()}`);
    if (
      await fetch(url).then(
        (r) => r.status < 500,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The real gateway (its build, else src/main.ts) in its own process, in front of the stand-ins, as in
 * production: everything on, the request log publishing to NATS (natsUrl).
 */
export async function startGateway(
  services: Record<string, string>,
  natsUrl: string,
): Promise<{ url: string; child: Child; fromBuild: boolean }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    NATS_URL: natsUrl,
    // The bench is one client address sending thousands of requests a second.
    RATE_LIMIT_MAX: '100000000',
    // Production refuses to start without a strong key for the identity it signs for the services.
    GATEWAY_SIGNING_KEY: randomBytes(48).toString('base64'),
  };
  for (const [service, url] of Object.entries(services)) env[`${service.toUpperCase()}_URL`] = url;

  const fromBuild = [
    'gateway/dist/main.js',
    'packages/service-kit/dist/index.js',
    'packages/contracts/dist/index.js',
  ].every((f) => existsSync(`${repoRoot}${f}`));
  const args = fromBuild ? ['dist/main.js'] : ['--conditions=source', '--import', 'tsx', 'src/main.ts'];
  const child = spawnChild(process.execPath, args, `${repoRoot}gateway`, env, 'keep');
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/readyz`, child, 'the gateway', 90_000);
  return { url, child, fromBuild };
}

/** nginx's binary (Debian's nginx-light puts it in /usr/sbin), or undefined when not installed. */
export function findNginx(): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin']) {
    if (dir && existsSync(join(dir, 'nginx'))) return join(dir, 'nginx');
  }
  return undefined;
}

/**
 * nginx as a reverse proxy to `upstream` with one worker (the gateway is one Node process), upstream
 * keep-alive on and no access log: the configuration people would deploy in front of a service.
 */
export async function startNginx(binary: string, upstream: string): Promise<{ url: string; child: Child }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  const upstreamHost = new URL(upstream).host;
  const config = `worker_processes 1;
daemon off;
master_process on;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream service { server ${upstreamHost}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
    }
  }
}
`;
  writeFileSync(join(dir, 'nginx.conf'), config);
  const child = spawnChild(
    binary,
    ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')],
    dir,
    { PATH: process.env.PATH ?? '' },
    'keep',
  );
  child.cleanup = () => rmSync(dir, { recursive: true, force: true });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/api/orders/_service`, child, 'nginx', 10_000);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url, child };
}
