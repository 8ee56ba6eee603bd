// Bench runner for machines without k6: measures the same requests on a bare Fastify server (the
// baseline, started in this run so both numbers share the machine's load) and on the gateway, and
// prints req/s, p50/p95/p99 latency and the gateway/baseline ratio.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result as LoadResult } from 'autocannon';
import { createInterface } from 'node:readline';
import { parseBenchArgs, percentile, USAGE, type BenchOptions } from './args.js';
import type { StandIns } from './stand-ins.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const loadTestsDir = fileURLToPath(new URL('../', import.meta.url));

interface Measurement {
  target: string;
  path: string;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  failures: number;
  total: number;
}

interface Child {
  process: ChildProcess;
  stderr: () => string;
}

function spawnChild(args: string[], cwd: string, env: NodeJS.ProcessEnv, stdout: 'pipe' | 'ignore'): Child {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', stdout, 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return { process: child, stderr: () => stderr };
}

async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill('SIGTERM');
  await exited;
}

/** The baseline and the stand-in services, in their own process (src/stand-ins.ts). */
async function startStandIns(): Promise<{ urls: StandIns; child: Child }> {
  const child = spawnChild(['--import', 'tsx', 'src/stand-ins.ts'], loadTestsDir, { PATH: process.env.PATH ?? '' }, 'pipe');
  const lines = createInterface({ input: child.process.stdout! });
  const urls = await new Promise<StandIns>((resolve, reject) => {
    child.process.once('exit', (code) => reject(new Error(`the stand-in services exited with code ${code}:\n${child.stderr()}`)));
    lines.once('line', (line) => resolve(JSON.parse(line) as StandIns));
  });
  return { urls, child };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The real gateway (its build, else src/main.ts) in its own process, in front of the stand-ins. */
async function startGateway(services: Record<string, string>): Promise<{ url: string; child: Child }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // The bench is one client address sending thousands of requests a second.
    RATE_LIMIT_MAX: '100000000',
  };
  for (const [service, url] of Object.entries(services)) env[`${service.toUpperCase()}_URL`] = url;

  const built = ['gateway/dist/main.js', 'packages/service-kit/dist/index.js', 'packages/contracts/dist/index.js'].every((f) =>
    existsSync(`${repoRoot}${f}`),
  );
  const args = built ? ['dist/main.js'] : ['--conditions=source', '--import', 'tsx', 'src/main.ts'];
  console.log(`starting the gateway from ${built ? 'its build (gateway/dist)' : 'its TypeScript sources (run "npm run build" to bench the build)'}...`);
  const child = spawnChild(args, `${repoRoot}gateway`, env, 'ignore');

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.process.exitCode !== null) throw new Error(`the gateway exited with code ${child.process.exitCode}:\n${child.stderr()}`);
    if (Date.now() > deadline) throw new Error(`the gateway did not become ready within 90 s:\n${child.stderr()}`);
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, child };
}

async function measure(target: string, baseUrl: string, path: string, options: BenchOptions): Promise<Measurement> {
  const run = (seconds: number, latencies?: number[]) =>
    new Promise<LoadResult>((resolve, reject) => {
      const instance = autocannon({ url: `${baseUrl}${path}`, connections: options.connections, duration: seconds }, (error, result) =>
        error ? reject(error) : resolve(result),
      );
      // autocannon reports p97.5, not p95: keep every latency to compute the percentiles asked for.
      if (latencies) instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
    });
  await run(1); // warm-up: connections, JIT, keep-alive pools
  const latencies: number[] = [];
  const result = await run(options.durationSeconds, latencies);
  latencies.sort((a, b) => a - b);
  return {
    target,
    path,
    requestsPerSecond: result.requests.average,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failures: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
  };
}

function report(rows: Measurement[]): void {
  const table = rows.map((row) => {
    const baseline = rows.find((r) => r.target === 'baseline' && r.path === row.path);
    return {
      target: row.target,
      path: row.path,
      'req/s': Math.round(row.requestsPerSecond),
      'p50 ms': Number(row.p50.toFixed(1)),
      'p95 ms': Number(row.p95.toFixed(1)),
      'p99 ms': Number(row.p99.toFixed(1)),
      failures: `${row.failures}/${row.total}`,
      'vs bare fastify': baseline ? `${((row.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(1)}%` : '',
    };
  });
  console.table(table);
}

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const standIns = await startStandIns();
  let gateway: { url: string; child?: Child } | undefined;
  const rows: Measurement[] = [];
  try {
    gateway = options.url ? { url: options.url } : await startGateway(standIns.urls.services);
    console.log(`baseline ${standIns.urls.baseline}, gateway ${gateway.url}; ${options.connections} connections, ${options.durationSeconds} s per run`);
    for (const path of options.paths) {
      rows.push(await measure('baseline', standIns.urls.baseline, path, options));
      rows.push(await measure('gateway', gateway.url, path, options));
    }
  } finally {
    if (gateway?.child) await stopChild(gateway.child);
    await stopChild(standIns.child);
  }
  report(rows);
  const failed = rows.filter((r) => r.failures > 0);
  if (failed.length) {
    console.error(`some requests failed: ${failed.map((r) => `${r.target} ${r.path} ${r.failures}/${r.total}`).join(', ')}`);
    process.exit(1);
  }
}

await main();
