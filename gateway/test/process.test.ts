// The gateway as it runs in production: src/main.ts in its own process (telemetry started before
// fastify loads, the service-kit logger, SIGTERM handling), in front of real upstream servers.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES, type ServiceName } from '../src/routes.js';
import { startSecurityStandIn, startUpstream, type SecurityStandIn, type Upstream } from './helpers.js';

const gatewayDir = fileURLToPath(new URL('..', import.meta.url));
type LogLine = { msg?: string; url?: string; reqId?: string; trace_id?: string; span_id?: string; service?: string };

let upstreams: Record<ServiceName, Upstream>;
let security: SecurityStandIn;
let child: ChildProcess;
let url: string;
const logs: LogLine[] = [];

beforeAll(async () => {
  upstreams = Object.fromEntries(
    await Promise.all(SERVICE_NAMES.map(async (n) => [n, await startUpstream(n)] as const)),
  ) as Record<ServiceName, Upstream>;
  security = await startSecurityStandIn();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    FRONTENDS_DIR: join(tmpdir(), 'shop-gateway-no-frontends'),
    UPSTREAM_TIMEOUT_MS: '10000',
    // Its own nats-server (never the machine's shared one on 4222).
    NATS_URL: security.nats.url,
  };
  for (const name of SERVICE_NAMES) env[`${name.toUpperCase()}_URL`] = upstreams[name].url;
  child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: gatewayDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const lines = createInterface({ input: child.stdout! });
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start: ${stderr}`)), 80_000);
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}: ${stderr}`)));
    lines.on('line', (line) => {
      let entry: LogLine;
      try {
        entry = JSON.parse(line) as LogLine;
      } catch {
        return;
      }
      logs.push(entry);
      if (entry.msg === 'gateway listening' && entry.url) {
        clearTimeout(timer);
        resolve(entry.url);
      }
    });
  });
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  await Promise.all(Object.values(upstreams ?? {}).map((u) => u.close()));
  await security?.close();
});

const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;
const parse = (header: unknown) => {
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(header));
  return m ? { traceId: m[1], spanId: m[2] } : undefined;
};

describe('gateway process', () => {
  it('logs as the gateway service, with request ids', async () => {
    const res = await fetch(`${url}/api/health`);
    expect(res.status).toBe(200);
    expect(logs.some((l) => l.service === 'gateway' && l.reqId === res.headers.get('x-request-id'))).toBe(true);
  });

  it("continues the caller's trace into the service, with the gateway's own span as parent", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const res = await fetch(`${url}/api/orders/track`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', traceparent: traceparent(traceId, callerSpan) },
    });
    expect(res.status).toBe(200);
    const received = parse(upstreams.orders.seen.at(-1)!.headers.traceparent);
    expect(received?.traceId).toBe(traceId);
    expect(received?.spanId).not.toBe(callerSpan);
  });

  it('starts a trace when the caller has none: the service gets the trace id the gateway logs', async () => {
    const res = await fetch(`${url}/api/customers/lookup`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id')!;
    const seen = upstreams.customers.seen.at(-1)!;
    expect(seen.headers['x-request-id']).toBe(requestId);
    const received = parse(seen.headers.traceparent);
    expect(received).toBeDefined();
    // Give the log line a moment to cross the pipe.
    await new Promise((r) => setTimeout(r, 100));
    const gatewayTraceIds = new Set(logs.filter((l) => l.reqId === requestId && l.trace_id).map((l) => l.trace_id));
    expect([...gatewayTraceIds]).toEqual([received!.traceId]);
  });

  it('on SIGTERM finishes the request in flight, then exits cleanly', async () => {
    const inFlight = fetch(`${url}/api/orders/slow`);
    while (!upstreams.orders.arrived.includes('/api/orders/slow')) await new Promise((r) => setTimeout(r, 20));
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { url: string }).url).toBe('/api/orders/slow');
    const [code] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(code).toBe(0);
    expect(logs.some((l) => l.msg === 'gateway stopped')).toBe(true);
  });
});
