// Where the gateway's time goes (issue 20): starts a real nats-server, the stand-in services
// (src/stand-ins.ts) and the gateway from its sources exactly as it starts in production (src/main.ts:
// telemetry, request log, security headers, rate limit, admin check), then measures the proxied read
// and /api/health through it beside bare Fastify in the same run. With --cpu-prof the gateway runs
// under Node's profiler and, after the load, the profile's top self and inclusive times are printed.
// With --compare DIR a second gateway, started from another copy of gateway/ (e.g. `git archive HEAD
// gateway | tar -x -C /tmp/base`, with node_modules linked beside it), is measured in turn with this one
// for --rounds rounds: on a shared machine only a same-run comparison says whether a change paid off.
// Each line also gives the gateway's CPU time per request (all its threads, from /proc) and the stand-in
// services' beside it: throughput moves with whatever else runs on the machine, CPU per request much less.
//
// With --floor the read is also measured, each round, through floor-proxy.ts: Node's http server and
// undici with nothing else, what any Node gateway costs before its framework and features. With
// --cpu-prof the summary covers only the gateway's own loads (not its start-up or its idle time while
// the others are measured).
//
//   npx tsx load-tests/src/gateway-profile.ts [--duration 10] [--connections 50] [--cpu-prof]
//     [--only read,health] [--compare DIR --rounds 3] [--floor] [--client-address 2001:db8::7]
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Result as LoadResult } from 'autocannon';
import { startNats } from '@shop/test-support';
import type { StandIns } from './stand-ins.js';
import { summariseProfile } from './cpu-profile.js';

const loadTestsDir = fileURLToPath(new URL('../', import.meta.url));
const gatewayDir = fileURLToPath(new URL('../../gateway/', import.meta.url));

function spawnChild(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): { process: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  return { process: child, stderr: () => stderr };
}

async function waitReady(url: string, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within 90 s:\n${stderr()}`);
}

/** CPU time (user + system, all threads) a process has used so far, ms; from /proc (Linux). */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    // Fields after the command name (which may hold spaces): state is 3rd, utime 14th, stime 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
  } catch {
    return NaN;
  }
}
const clockTicksPerSecond = 100;

/** The monotonic clock in microseconds, as a .cpuprofile's timestamps are. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** Headers every load sends (--client-address: the client's address, as a trusted proxy passes it on). */
const loadHeaders: Record<string, string> = {};

function load(url: string, connections: number, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers: loadHeaders }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      'cpu-prof': { type: 'boolean', default: false },
      only: { type: 'string', default: 'read,health' },
      compare: { type: 'string' },
      rounds: { type: 'string', default: '1' },
      floor: { type: 'boolean', default: false },
      'client-address': { type: 'string' },
    },
    strict: true,
  });
  if (values['client-address']) loadHeaders['x-forwarded-for'] = values['client-address'];
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const nats = await startNats();
  const standIns = spawnChild(['--import', 'tsx', 'src/stand-ins.ts'], loadTestsDir, { PATH: process.env.PATH ?? '' });
  let gateway: ReturnType<typeof spawnChild> | undefined;
  let compared: ReturnType<typeof spawnChild> | undefined;
  let comparedUrl: string | undefined;
  let floor: ReturnType<typeof spawnChild> | undefined;
  try {
    const urls = await new Promise<StandIns>((resolve, reject) => {
      standIns.process.once('exit', (code) => reject(new Error(`stand-ins exited ${code}: ${standIns.stderr()}`)));
      createInterface({ input: standIns.process.stdout! }).once('line', (line) =>
        resolve(JSON.parse(line) as StandIns),
      );
    });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      NATS_URL: nats.url,
      RATE_LIMIT_MAX: '100000000',
      // Calls as from one client behind a trusted proxy (e.g. an IPv6 one: --client-address 2001:db8::7).
      ...(values['client-address'] ? { TRUST_PROXY: '1' } : {}),
      GATEWAY_SIGNING_KEY: randomBytes(48).toString('base64'),
    };
    for (const [service, url] of Object.entries(urls.services)) env[`${service.toUpperCase()}_URL`] = url;
    const profileDir = values['cpu-prof'] ? mkdtempSync(join(tmpdir(), 'gateway-prof-')) : undefined;
    const startGateway = async (dir: string, profile: boolean) => {
      const port = 20_000 + Math.floor(Math.random() * 20_000);
      const args = [
        ...(profile && profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
        '--conditions=source',
        '--import',
        'tsx',
        'src/main.ts',
      ];
      const child = spawnChild(args, dir, { ...env, PORT: String(port) });
      const url = `http://127.0.0.1:${port}`;
      await waitReady(`${url}/readyz`, child.stderr);
      // Warm it (JIT, connection pools) before measuring.
      await load(`${url}/api/orders/_service`, connections, 2);
      return { child, url };
    };
    const started = await startGateway(gatewayDir, true);
    gateway = started.child;
    const gatewayUrl = started.url;
    if (values.compare) {
      const other = await startGateway(values.compare, false);
      compared = other.child;
      comparedUrl = other.url;
    }
    let floorUrl: string | undefined;
    if (values.floor) {
      floor = spawnChild(['--import', 'tsx', 'src/floor-proxy.ts'], loadTestsDir, {
        PATH: process.env.PATH ?? '',
        UPSTREAM: urls.services.orders,
      });
      const started = floor;
      floorUrl = await new Promise<string>((resolve, reject) => {
        started.process.once('exit', (code) => reject(new Error(`floor-proxy exited ${code}: ${started.stderr()}`)));
        createInterface({ input: started.process.stdout! }).once('line', (line) =>
          resolve((JSON.parse(line) as { url: string }).url),
        );
      });
      await load(`${floorUrl}/api/orders/_service`, connections, 2);
    }
    await load(`${urls.baseline}/api/orders/_service`, connections, 2);
    const only = new Set(values.only.split(','));
    const rounds = Number(values.rounds);
    /** The profiled gateway's loads, on the monotonic clock its profile uses (microseconds). */
    const profiled: { from: number; to: number }[] = [];
    const ratio = (via: LoadResult, bare: LoadResult) => (100 * via.requests.average) / bare.requests.average;
    /** A load through one gateway, with the CPU it and the stand-ins used per request, microseconds. */
    const measured = async (url: string, child: ChildProcess) => {
      const before = [cpuMsOf(child.pid), cpuMsOf(standIns.process.pid)];
      const from = nowUs();
      const result = await load(url, connections, duration);
      if (child === started.child.process) profiled.push({ from, to: nowUs() });
      const count = result.requests.total || 1;
      const cpuUs = (pid: number | undefined, at: number) => ((cpuMsOf(pid) - before[at]) * 1000) / count;
      return { result, gatewayUs: cpuUs(child.pid, 0), standInsUs: cpuUs(standIns.process.pid, 1) };
    };
    const line = ({ result: via, gatewayUs, standInsUs }: Awaited<ReturnType<typeof measured>>, bare: LoadResult) => {
      const failed = via.non2xx + via.errors;
      return `${via.requests.average.toFixed(0)} req/s (p50 ${via.latency.p50} ms, p99 ${via.latency.p99} ms${failed ? `, ${failed} failed` : ''}; CPU per request ${gatewayUs.toFixed(1)} us, stand-ins ${standInsUs.toFixed(1)} us) = ${ratio(via, bare).toFixed(1)}%`;
    };
    const target = comparedUrl && compared ? { url: comparedUrl, child: compared.process } : undefined;
    for (let round = 1; round <= rounds; round++) {
      for (const [name, path] of [
        ['read', '/api/orders/_service'],
        ['health', '/api/health'],
      ] as const) {
        if (!only.has(name)) continue;
        const bare = await load(`${urls.baseline}${path}`, connections, duration);
        // The gateway measured right after bare Fastify came out 5-15% dearer per request even when both
        // were the same code: the two take turns going first.
        const otherFirst = target !== undefined && round % 2 === 0;
        const firstOther = otherFirst ? await measured(`${target.url}${path}`, target.child) : undefined;
        const via = await measured(`${gatewayUrl}${path}`, started.child.process);
        const other = firstOther ?? (target ? await measured(`${target.url}${path}`, target.child) : undefined);
        // The floor (floor-proxy.ts) proxies to the orders stand-in only: the read, not the health fan-out.
        const atFloor =
          floor && floorUrl && name === 'read' ? await measured(`${floorUrl}${path}`, floor.process) : undefined;
        console.log(
          `${rounds > 1 ? `round ${round}${otherFirst ? ' (compared first)' : ''} ` : ''}${path}: gateway ${line(via, bare)}${other ? `; compared ${line(other, bare)}` : ''}${atFloor ? `; floor ${line(atFloor, bare)}` : ''} of bare Fastify ${bare.requests.average.toFixed(0)} req/s (load average ${loadavg()[0].toFixed(2)})`,
        );
      }
    }
    if (profileDir) {
      const exited = new Promise((r) => gateway!.process.once('exit', r));
      gateway.process.kill('SIGTERM');
      await exited;
      gateway = undefined;
      const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
      if (!file) throw new Error(`no profile was written in ${profileDir}`);
      // Only the samples of the gateway's own loads (from the first to the last): the rest of its life
      // is start-up, the warm-up and waiting while bare Fastify and the compared gateway are measured
      // (with several rounds the window still holds those loads between its own: read --rounds 1 profiles).
      const window = profiled.length ? { from: profiled[0].from, to: profiled[profiled.length - 1].to } : undefined;
      console.log(
        `profile: ${join(profileDir, file)}${window ? ` (the loads: ${window.from} to ${window.to} us)` : ''}`,
      );
      console.log(summariseProfile(join(profileDir, file), { top: 30, window }));
    }
  } finally {
    if (gateway && gateway.process.exitCode === null) {
      const exited = new Promise((r) => gateway!.process.once('exit', r));
      gateway.process.kill('SIGTERM');
      await exited;
    }
    if (compared && compared.process.exitCode === null) {
      const exited = new Promise((r) => compared!.process.once('exit', r));
      compared.process.kill('SIGTERM');
      await exited;
    }
    floor?.process.kill('SIGTERM');
    standIns.process.kill('SIGTERM');
    await nats.stop();
  }
}

await main();
