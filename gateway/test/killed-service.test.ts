// A service killed while the gateway waits on it, and started again on the same port (the fault suite's
// "kill orders"): the caller gets a quick 502/503, never the 15 s upstream timeout, and the next calls
// reach the new process over fresh connections.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadUrl, startStack, type Stack } from './helpers.js';

/** A plain HTTP service in its own process: answers /api/orders/ok, never answers /api/orders/hang. */
const serviceScript = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  if (req.url === '/api/orders/hang') { console.log('hanging'); return; }
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
`;

interface Service {
  process: ChildProcess;
  lines: AsyncIterator<string>;
}

async function startService(port: number): Promise<Service> {
  const child = spawn(process.execPath, ['-e', serviceScript], {
    env: { PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  expect((await lines.next()).value).toBe('listening');
  return { process: child, lines };
}

async function kill(service: Service): Promise<void> {
  const exited = once(service.process, 'exit');
  service.process.kill('SIGKILL');
  await exited;
}

let stack: Stack;
let port: number;
let service: Service | undefined;
beforeAll(async () => {
  const url = await deadUrl();
  port = Number(new URL(url).port);
  service = await startService(port);
  // The production timeout: a call that waits for it shows as a 15 s answer, far above the bound below.
  stack = await startStack({ ORDERS_URL: url, UPSTREAM_TIMEOUT_MS: '15000' });
});
afterAll(async () => {
  if (service && service.process.exitCode === null) await kill(service);
  await stack?.close();
});

const timed = async (path: string) => {
  const started = performance.now();
  const res = await fetch(`${stack.url}${path}`);
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
};

describe('a service killed and started again', () => {
  it('answers a call in flight at once when the service dies, then reaches the new process', async () => {
    // Pooled keep-alive connections to the first process.
    for (let i = 0; i < 5; i++) expect((await timed('/api/orders/ok')).status).toBe(200);

    const inFlight = timed('/api/orders/hang');
    expect((await service!.lines.next()).value).toBe('hanging');
    await kill(service!);
    const answer = await inFlight;
    expect([502, 503]).toContain(answer.status);
    expect(answer.ms).toBeLessThan(3_000);

    // Down: refused at once.
    const down = await timed('/api/orders/ok');
    expect(down.status).toBe(503);
    expect(down.ms).toBeLessThan(3_000);

    // Back on the same port: the pool's old connections are gone, the new process answers.
    service = await startService(port);
    for (let i = 0; i < 5; i++) {
      const call = await timed('/api/orders/ok');
      expect(call.status).toBe(200);
      expect(call.ms).toBeLessThan(3_000);
    }
  }, 30_000);

  it('answers at once when the service dies between calls on an idle pooled connection', async () => {
    for (let i = 0; i < 3; i++) expect((await timed('/api/orders/ok')).status).toBe(200);
    await kill(service!);
    service = await startService(port);
    const calls = await Promise.all(Array.from({ length: 5 }, () => timed('/api/orders/ok')));
    for (const call of calls) expect(call.ms).toBeLessThan(3_000);
    // A call on a connection the kill closed may fail (502/503, the caller retries); most reach the new process.
    expect(calls.filter((c) => c.status === 200).length).toBeGreaterThan(0);
  }, 30_000);
});
