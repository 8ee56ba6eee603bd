// The quote path on its own (issue 20): the orders service, the embedded MongoDB (replica-set mode, as
// the local stack runs it) and a real nats-server on loopback, without the gateway, so only the service's
// and the database's work is measured. autocannon sends, straight to the service, quote requests (a new
// customer's coin quote with its own Idempotency-Key and email each time) and tracking reads of one order,
// each beside bare Fastify answering a JSON body of the same size in the same run. Each part runs in its
// own process; `--cpu-prof` writes V8 CPU profiles of the service and the database to --profile-dir
// (summarise one with `--summarise <file.cpuprofile>`).
//
//   npm run bench:quote-path -w load-tests -- [--duration 10] [--connections 50] [--dbpath <dir>] [--cpu-prof] [--only quote|track]
//     [--mongo-module <other checkout>/packages/embedded-mongo/src/index.ts]
//   npm run bench:quote-path -w load-tests -- --stack [--duration 10] [--connections 50] [--cpu-prof] [--node-defaults] [--node-arg=<flag> ...]
//     the whole shop from the local runner instead (as `npm run bench` runs it: gateway, every service, the
//     development mailbox): its tracking-read, quote and confirmation-email rows alone; with --cpu-prof every
//     part writes a profile to --profile-dir; --node-defaults starts the parts without the runner's Node flags
//     (deploy/local/src/node-flags.ts: young and old generation caps), to weigh what those cost; --node-arg adds
//     a flag to every Node part after the runner's (e.g. --node-arg=--max-semi-space-size=16).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { idempotencyKeyHeader } from '@shop/contracts';
import { coinOrder, startNats } from '@shop/test-support';
import { summariseProfile } from './cpu-profile.js';

const loadTestsDir = fileURLToPath(new URL('../', import.meta.url));
const ordersDir = fileURLToPath(new URL('../../services/orders/', import.meta.url));

interface Child {
  process: ChildProcess;
  stderr: () => string;
}

function spawnChild(args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, args, { cwd: loadTestsDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-20_000)));
  return { process: child, stderr: () => stderr };
}

/** The first line the child prints, as JSON. */
function firstLine<T>(child: Child, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 90 s:\n${child.stderr()}`)), 90_000);
    child.process.once('exit', (code) => reject(new Error(`${what} exited with code ${code}:\n${child.stderr()}`)));
    createInterface({ input: child.process.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as T);
    });
  });
}

/** CPU time (user + system) a process has used so far, in ms (/proc/<pid>/stat, 100 ticks a second). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces); utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  // SIGINT lets a --cpu-prof child write its profile (the children exit through process.exit on it).
  child.process.kill('SIGINT');
  await exited;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  failures: number;
}

function load(
  url: string,
  connections: number,
  seconds: number,
  request: { path: string; body?: string; fresh?: () => { body: string; headers: Record<string, string> } },
): Promise<Figures> {
  const latencies: number[] = [];
  const requests = [
    {
      method: 'POST' as const,
      path: request.path,
      headers: { 'content-type': 'application/json' },
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(request.fresh
        ? {
            setupRequest: (r: { headers?: Record<string, string> }) => {
              const made = request.fresh!();
              return { ...r, headers: { ...r.headers, ...made.headers }, body: made.body };
            },
          }
        : {}),
    },
  ];
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds, requests }, (error, result) => {
      if (error) return reject(error);
      latencies.sort((a, b) => a - b);
      const at = (p: number) =>
        latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
      resolve({
        rps: result.requests.average,
        p50: at(50),
        p99: at(99),
        ok: result['2xx'],
        failures: result.non2xx + result.errors + result.timeouts,
      });
    });
    instance.on('response', (_c: unknown, _s: number, _b: number, ms: number) => latencies.push(ms));
  });
}

let quoteCounter = 0;
function freshQuote(run: string): { body: string; headers: Record<string, string> } {
  const email = `quote-${run}-${++quoteCounter}@example.com`;
  return {
    body: JSON.stringify(coinOrder({ email, customerName: 'Bench Customer' })),
    headers: { [idempotencyKeyHeader]: randomUUID() },
  };
}

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      dbpath: { type: 'string' },
      'cpu-prof': { type: 'boolean', default: false },
      'profile-dir': { type: 'string', default: join(os.tmpdir(), 'quote-path-profiles') },
      only: { type: 'string' },
      // Another checkout's embedded MongoDB (its src/index.ts), to compare an engine change in the same conditions.
      'mongo-module': { type: 'string' },
      stack: { type: 'boolean', default: false },
      'node-defaults': { type: 'boolean', default: false },
      'node-arg': { type: 'string', multiple: true, default: [] },
    },
    strict: true,
  });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  for (const [name, v] of [
    ['duration', duration],
    ['connections', connections],
  ] as const) {
    if (!Number.isInteger(v) || v < 1)
      throw new Error(`--${name} must be a whole number of at least 1, got ${String(v)}`);
  }
  if (values.only !== undefined && values.only !== 'quote' && values.only !== 'track')
    throw new Error(`--only must be "quote" or "track", got "${values.only}"`);
  // The stack run measures the bench's stack rows together (tracking first: the memory row needs its logs).
  if (values.stack && values.only !== undefined)
    throw new Error('--only applies to the single-service run; --stack always measures tracking, then quotes');
  const profile = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['profile-dir']] : [];
  if (values.stack)
    return wholeStack(
      { connections, durationSeconds: duration },
      [...profile, ...values['node-arg']],
      !values['node-defaults'],
    );
  const self = fileURLToPath(import.meta.url);
  const baseEnv = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', NODE_ENV: 'production' };

  const nats = await startNats();
  const children: Child[] = [];
  const scratch = values.dbpath ? undefined : undefined;
  try {
    const mongo = spawnChild(
      [
        ...profile,
        '--conditions=source',
        '--import',
        'tsx',
        self,
        '--serve-mongo',
        values.dbpath ?? '',
        values['mongo-module'] ?? '',
      ],
      baseEnv,
    );
    children.push(mongo);
    const { uri } = await firstLine<{ uri: string }>(mongo, 'the embedded MongoDB');
    const orders = spawnChild([...profile, '--conditions=source', '--import', 'tsx', self, '--serve-orders'], {
      ...baseEnv,
      HOST: '127.0.0.1',
      PORT: '0',
      MONGO_URL: uri,
      NATS_URL: nats.url,
      // Production refuses to start without the key the gateway signs identities with (admin routes only).
      GATEWAY_SIGNING_KEY: randomBytes(48).toString('base64'),
    });
    children.push(orders);
    const baseline = spawnChild(['--import', 'tsx', self, '--serve-baseline'], baseEnv);
    children.push(baseline);
    const [{ url }, { url: baselineUrl }] = await Promise.all([
      firstLine<{ url: string }>(orders, 'the orders service'),
      firstLine<{ url: string }>(baseline, 'bare Fastify'),
    ]);
    const run = randomUUID().slice(0, 8);
    console.log(
      `orders ${url} (pid ${orders.process.pid}), embedded MongoDB ${uri} (pid ${mongo.process.pid}, ${values.dbpath ? `journal in ${values.dbpath}` : 'in memory'}), nats ${nats.url}; ${connections} connections, ${duration} s; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}; Node ${process.version}`,
    );

    // One order to track, made through the route itself.
    const first = freshQuote(run);
    const created = await fetch(`${url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...first.headers },
      body: first.body,
    });
    const createdBody = (await created.json()) as { order?: { orderNumber: string } };
    if (created.status !== 201 || !createdBody.order)
      throw new Error(`the first quote request was answered ${created.status}: ${JSON.stringify(createdBody)}`);
    const trackBody = JSON.stringify({
      orderNumber: createdBody.order.orderNumber,
      email: (JSON.parse(first.body) as { email: string }).email,
    });
    const trackAnswer = await (
      await fetch(`${url}/api/orders/track`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: trackBody,
      })
    ).text();
    const quoteAnswer = JSON.stringify(createdBody);

    const rows: string[] = [];
    // CPU of the service and of the database per answered request, over the measured load (from /proc:
    // less moved by other work on the machine than the request rate).
    const cpuMs = () => [orders, mongo].map((c) => processCpuMs(c.process.pid!));
    const row = (name: string, f: Figures, base: Figures, cpu: number[]) =>
      rows.push(
        `| ${name} | ${Math.round(f.rps)} | ${f.p50} | ${f.p99} | ${Math.round(base.rps)} | ${((100 * f.rps) / base.rps).toFixed(1)}% | ${f.failures} | ${cpu.map((ms) => (ms / f.ok).toFixed(2)).join(' + ')} |`,
      );
    for (const what of ['quote', 'track'] as const) {
      if (values.only && values.only !== what) continue;
      const request =
        what === 'quote'
          ? { path: '/api/orders', fresh: () => freshQuote(run) }
          : { path: '/api/orders/track', body: trackBody };
      const baselineRequest = { path: '/answer', body: what === 'quote' ? quoteAnswer : trackAnswer };
      await load(url, connections, 2, request); // warm-up: JIT, keep-alive
      await load(baselineUrl, connections, 1, baselineRequest);
      const cpuBefore = cpuMs();
      const measured = await load(url, connections, duration, request);
      const cpu = cpuMs().map((ms, i) => ms - cpuBefore[i]);
      const base = await load(baselineUrl, connections, duration, baselineRequest);
      row(what === 'quote' ? 'POST /api/orders (quote request)' : 'POST /api/orders/track', measured, base, cpu);
    }
    console.log(
      `\n| route | req/s | p50 ms | p99 ms | bare Fastify req/s | of bare | failures | CPU ms per request (orders + db) |\n|---|---:|---:|---:|---:|---:|---:|---:|\n${rows.join('\n')}`,
    );
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    await nats.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  if (values['cpu-prof']) console.log(`\nCPU profiles in ${values['profile-dir']}`);
}

/** The stack rows of `npm run bench` (track, quote, confirmation emails, memory) on their own. */
async function wholeStack(
  shape: { connections: number; durationSeconds: number },
  nodeArgs: string[],
  localNodeFlags: boolean,
) {
  const { startStandIns, stopChild: stopPeer } = await import('./bench-peers.js');
  const { measureStack, stackCpuMs, startBenchStack } = await import('./bench-stack.js');
  const standIns = await startStandIns();
  let stack: Awaited<ReturnType<typeof startBenchStack>> | undefined;
  try {
    stack = await startBenchStack({ ...(nodeArgs.length > 0 ? { nodeArgs } : {}), localNodeFlags });
    console.log(
      `whole stack at ${stack.url}${localNodeFlags ? '' : " (Node's default flags)"}${nodeArgs.length > 0 ? ` (with ${nodeArgs.join(' ')})` : ''}; ${shape.connections} connections, ${shape.durationSeconds} s; ${os.cpus().length} cores, load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; Node ${process.version}`,
    );
    // CPU each part spent from the quote load's start until its emails were in (the drain included).
    let cpuAtQuoteStart: Map<string, number> | undefined;
    let quoteCpu: Map<string, number> | undefined;
    const r = await measureStack(stack, standIns.urls.baseline, shape, (line) => {
      if (line.startsWith('quote requests:')) cpuAtQuoteStart = stackCpuMs(stack!);
      if (line.startsWith('stack after the quote load') && cpuAtQuoteStart) {
        const now = stackCpuMs(stack!);
        quoteCpu = new Map([...now].map(([name, ms]) => [name, ms - (cpuAtQuoteStart!.get(name) ?? 0)]));
      }
      console.log(line);
    });
    const e = r.emails;
    console.log(
      [
        `track: ${Math.round(r.track.requestsPerSecond)} req/s, p50 ${r.track.p50} ms, p99 ${r.track.p99} ms (bare ${Math.round(r.trackBaseline.requestsPerSecond)})`,
        `quote: ${Math.round(r.quote.requestsPerSecond)} req/s (${r.quote.ok} accepted, ${r.quote.failures} failed), p50 ${r.quote.p50} ms, p99 ${r.quote.p99} ms (bare ${Math.round(r.quoteBaseline.requestsPerSecond)})`,
        `emails: ${Math.round(e.emailsPerSecond)}/s, ${e.delivered} of ${e.expected} (${e.perQuote} per quote), ${e.backlogAtLoadEnd} still to arrive at the load's end, ${e.drainAfterLoadMs === null ? 'not all within 60 s' : `the last ${(e.drainAfterLoadMs / 1000).toFixed(1)} s after it`}`,
        `memory: ${(r.idleRss.bytes / 2 ** 30).toFixed(2)} GiB idle, ${(r.loadedRss.bytes / 2 ** 30).toFixed(2)} GiB after; load ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
        ...(quoteCpu && r.quote.ok > 0
          ? [
              `CPU ms per quote (load and email drain, from /proc): ${[...quoteCpu]
                .filter(([, ms]) => ms > 0)
                .sort((a, b) => b[1] - a[1])
                .map(([name, ms]) => `${name} ${(ms / r.quote.ok).toFixed(2)}`)
                .join(', ')}; all ${([...quoteCpu.values()].reduce((a, b) => a + b, 0) / r.quote.ok).toFixed(1)}`,
            ]
          : []),
      ].join('\n'),
    );
  } finally {
    await stack?.stop();
    await stopPeer(standIns.child);
  }
}

const mode = process.argv[2];
if (mode === '--serve-mongo') {
  const { startEmbeddedMongo } = (
    process.argv[4] ? await import(process.argv[4]) : await import('@shop/embedded-mongo')
  ) as typeof import('@shop/embedded-mongo');
  const dbPath = process.argv[3] || undefined;
  const dir = dbPath ?? undefined;
  const mongo = await startEmbeddedMongo({
    port: 0,
    replSet: 'rs0',
    ...(dir ? { dbPath: mkdtempSync(join(dir, 'quote-path-')) } : {}),
  });
  process.on('SIGINT', () => void mongo.stop().then(() => process.exit(0)));
  console.log(JSON.stringify({ uri: mongo.uri }));
} else if (mode === '--serve-orders') {
  const { loadConfig } = (await import(
    `${ordersDir}src/config.ts`
  )) as typeof import('../../services/orders/src/config.js');
  const { buildApp } = (await import(`${ordersDir}src/app.ts`)) as typeof import('../../services/orders/src/app.js');
  const service = await buildApp(loadConfig(), { unusedFileSweep: false });
  const url = await service.start();
  process.on('SIGINT', () => void service.stop().then(() => process.exit(0)));
  console.log(JSON.stringify({ url }));
} else if (mode === '--serve-baseline') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  app.post<{ Body: unknown }>('/answer', async (request) => request.body);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  process.on('SIGINT', () => void app.close().then(() => process.exit(0)));
  console.log(JSON.stringify({ url }));
} else if (mode === '--summarise') {
  for (const file of process.argv.slice(3)) console.log(summariseProfile(file));
} else {
  await main();
}
