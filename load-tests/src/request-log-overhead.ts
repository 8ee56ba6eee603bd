// What the request log costs the gateway (issue 17: "logging costs the gateway under 5% of its
// throughput, measured with the bench runner"). Starts a real nats-server (JetStream), the stand-in
// services (src/stand-ins.ts) and TWO real gateways in their own processes, built from the same code
// and config: one with the request log on (every request batched to the GATEWAY stream, as in
// production), one with it off (`buildApp(config, { requestLog: false })`), fresh ones every round;
// autocannon measures them in alternating rounds (on/off, then off/on, ...) so drift in the machine's
// load falls on both sides, and prints each round, the median of the per-round ratios, the ratio of
// the totals and a verdict on the goal. At the end it reads the GATEWAY stream back: the logging gateway
// must have published an entry for every request it answered, the other none; it also prints how many
// messages and bytes a second nats-server took from the logging gateway while it was measured.
//
//   npm run bench:request-log -w load-tests -- [--rounds 10] [--duration 5] [--connections 50] [--path /api/orders/_service] [--cpu-prof] [--pin]
//
// With --pin (Linux, taskset) the gateway under test runs alone on core 0 and everything else (this
// process with autocannon, the stand-ins, nats-server) on the other cores, both variants alike: a
// deployment does not give the gateway's cores to nats-server and the load generator. Without it all
// share every core, so nats-server's work for the batches slows the gateway too.
//
// Beside each gateway's CPU per request (from /proc) it prints how much ran on the main thread and on
// the other threads (V8's GC and compiler helpers, libuv: a CPU profile sees only the main thread), and
// its GC pauses over the measured run (the gateway reports them on SIGUSR2), so a difference between
// the variants can be put on the hook and flush or on garbage collection.
//
// With --cpu-prof every gateway writes a V8 CPU profile (request-log-on-1.cpuprofile, request-log-off-1...)
// to --profile-dir; read them with `npx tsx load-tests/src/quote-path.ts --summarise <file>`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import os from 'node:os';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result as LoadResult } from 'autocannon';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { startNats } from '@shop/test-support';
import { percentile } from './args.js';
import type { StandIns } from './stand-ins.js';

const loadTestsDir = fileURLToPath(new URL('../', import.meta.url));
const gatewayDir = fileURLToPath(new URL('../../gateway/', import.meta.url));

interface Child {
  process: ChildProcess;
  stderr: () => string;
  /** The next line the child prints on stdout (lines are queued until asked for). */
  nextLine: () => Promise<string>;
}

/** `cores` (a taskset list such as "0" or "1-3"): the child runs on those cores only (taskset execs it, same pid). */
function spawnChild(args: string[], cwd: string, env: NodeJS.ProcessEnv, cores?: string): Child {
  const [command, commandArgs] = cores
    ? ['taskset', ['-c', cores, process.execPath, ...args]]
    : [process.execPath, args];
  const child = spawn(command, commandArgs, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  const nextLine = () =>
    lines.length ? Promise.resolve(lines.shift()!) : new Promise<string>((resolve) => waiting.push(resolve));
  return { process: child, stderr: () => stderr, nextLine };
}

/** The first line the child prints that is JSON with `key` (a gateway's own log lines share its stdout). */
function firstLine<T>(child: Child, what: string, key: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 90 s:\n${child.stderr()}`)), 90_000);
    child.process.once('exit', (code) => reject(new Error(`${what} exited with code ${code}:\n${child.stderr()}`)));
    const next = (): void =>
      void child.nextLine().then((line) => {
        const parsed = line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : undefined;
        if (!parsed || !(key in parsed)) return next();
        clearTimeout(timer);
        resolve(parsed as T);
      });
    next();
  });
}

/** Garbage collection in a gateway so far (its SIGUSR2 answer): pauses and their ms, by kind. */
interface GcTotals {
  minor: number;
  minorMs: number;
  major: number;
  majorMs: number;
  other: number;
  otherMs: number;
}

async function gcTotalsOf(child: Child): Promise<GcTotals> {
  child.process.kill('SIGUSR2');
  // The gateway's own log lines (warnings) share its stdout.
  for (;;) {
    const line = await child.nextLine();
    if (line.startsWith('{"gc":')) return (JSON.parse(line) as { gc: GcTotals }).gc;
  }
}

async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill('SIGTERM');
  await exited;
}

function load(url: string, connections: number, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** CPU time (user + system, ms) a process has used so far (Linux /proc; 0 elsewhere). */
function cpuMsOf(pid: number, statFile = `/proc/${pid}/stat`, only?: 'system'): number {
  try {
    const stat = readFileSync(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
    return (((only ? 0 : Number(fields[11])) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** CPU ms of a process's main thread and of all its other threads (V8's GC and compiler helpers, libuv). */
function threadCpuMsOf(pid: number): { main: number; other: number; system: number } {
  const system = cpuMsOf(pid, undefined, 'system');
  let main = 0;
  let other = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const ms = cpuMsOf(Number(tid), `/proc/${pid}/task/${tid}/stat`);
      if (Number(tid) === pid) main = ms;
      else other += ms;
    }
  } catch {
    // not Linux, or the process ended
  }
  return { main, other, system };
}

/** Busy and total clock ticks of each core so far (Linux /proc/stat; empty elsewhere). */
function coreTicks(): Array<{ busy: number; total: number }> {
  try {
    return readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .filter((line) => /^cpu\d+ /.test(line))
      .map((line) => {
        const ticks = line.split(/\s+/).slice(1).map(Number);
        const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
        // idle and iowait are the 4th and 5th fields.
        return { busy: total - ticks[3] - ticks[4], total };
      });
  } catch {
    return [];
  }
}

/** How busy the cores in `cores` (indexes) were between two `coreTicks` readings, as a share of those cores. */
function busyShare(before: ReturnType<typeof coreTicks>, after: ReturnType<typeof coreTicks>, cores: number[]) {
  let busy = 0;
  let total = 0;
  for (const c of cores) {
    if (!before[c] || !after[c]) continue;
    busy += after[c].busy - before[c].busy;
    total += after[c].total - before[c].total;
  }
  return total > 0 ? busy / total : 0;
}

type Mode = 'on' | 'off';

/** One variant's measured runs in a round, summed (one run, or several with --paired). */
function emptyWindowSum() {
  return {
    requests: 0,
    seconds: 0,
    failures: 0,
    /** The gateway process's CPU, all threads, user + system. */
    cpuMs: 0,
    main: 0,
    other: 0,
    system: 0,
    minor: 0,
    major: 0,
    gcMs: 0,
    wallMs: 0,
    loadSideMs: 0,
    /** How busy the gateway's and the load side's cores were in each run. */
    gatewayCores: [] as number[],
    loadCores: [] as number[],
  };
}

/** Wait after each measured run before reading the gateway's CPU: over the request log's 250 ms flush. */
const flushSettleMs = 400;

/** The pid of the nats-server listening on `port` (Linux /proc; undefined elsewhere). */
function natsServerPid(port: number): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined; // not Linux
  }
  for (const entry of entries) {
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args[0]?.endsWith('nats-server') && args[args.indexOf('-p') + 1] === String(port)) return Number(entry);
    } catch {
      // a process that ended meanwhile
    }
  }
  return undefined;
}

/** Moves every thread of a running process to `cores` (Linux taskset). */
function pinProcess(pid: number, cores: string) {
  execFileSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Issue 17: throughput with the request log within 5% of without. */
const goalRatio = 0.95;
const percent = (ratio: number) => `${(100 * ratio).toFixed(1)}%`;

/**
 * The verdict on the goal from the per-round ratios and the ratio of the totals. One disturbed round
 * (someone else's build starting) moves neither the median nor the totals much; "met" needs both, and
 * the middle half of the rounds shows how firmly.
 */
function verdictOf(ratios: number[], totalRatio: number): string {
  const sorted = [...ratios].sort((a, b) => a - b);
  const mid = median(sorted);
  const spread = `median of rounds ${percent(mid)}, middle half ${percent(percentile(sorted, 25))} to ${percent(percentile(sorted, 75))}, totals ${percent(totalRatio)}`;
  if (mid >= goalRatio && totalRatio >= goalRatio) return `goal met (at least ${percent(goalRatio)}): ${spread}`;
  if (mid < goalRatio && totalRatio < goalRatio) return `goal NOT met (under ${percent(goalRatio)}): ${spread}`;
  return `undecided (median and totals on either side of ${percent(goalRatio)}; run more rounds): ${spread}`;
}

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      rounds: { type: 'string', default: '10' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '50' },
      path: { type: 'string', default: '/api/orders/_service' },
      'cpu-prof': { type: 'boolean', default: false },
      pin: { type: 'boolean', default: false },
      paired: { type: 'boolean', default: false },
      windows: { type: 'string', default: '3' },
      'profile-dir': { type: 'string', default: join(os.tmpdir(), 'request-log-profiles') },
    },
    strict: true,
  });
  const rounds = Number(values.rounds);
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const windows = Number(values.windows);
  for (const [name, v] of [
    ['windows', windows],
    ['rounds', rounds],
    ['duration', duration],
    ['connections', connections],
  ] as const) {
    if (!Number.isInteger(v) || v < 1)
      throw new Error(`--${name} must be a whole number of at least 1, got ${String(v)}`);
  }
  if (!values.path.startsWith('/')) throw new Error(`--path must start with "/", got "${values.path}"`);
  const cores = os.cpus().length;
  // The gateway under test on core 0, the rest on the others; set before anything starts, so the
  // stand-ins inherit it (nats-server is moved once it runs).
  const pinning = values.pin ? { gateway: '0', rest: cores > 2 ? `1-${cores - 1}` : '1' } : undefined;
  if (pinning) {
    if (cores < 2 || process.platform !== 'linux') throw new Error('--pin needs Linux (taskset) and at least 2 cores');
    pinProcess(process.pid, pinning.rest);
  }
  const placement = pinning
    ? `pinned: the gateway under test alone on core ${pinning.gateway}, autocannon, the stand-ins and nats-server on ${pinning.rest} (both variants alike)`
    : `not pinned: gateway, autocannon, stand-ins and nats-server share all ${cores} cores`;

  const nats = await startNats();
  const standIns = spawnChild(['--import', 'tsx', 'src/stand-ins.ts'], loadTestsDir, { PATH: process.env.PATH ?? '' });
  /** The gateways running now; every one started, by mode (the stream check finds their batches by pid). */
  const running = new Set<Child>();
  const pids: Record<Mode, number[]> = { on: [], off: [] };
  let nc: Awaited<ReturnType<typeof connect>> | undefined;
  try {
    const urls = await firstLine<StandIns>(standIns, 'the stand-in services', 'services');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      NATS_URL: nats.url,
      // The bench is one client address sending thousands of requests a second.
      RATE_LIMIT_MAX: '100000000',
      // Production refuses to start without a strong key for the identity it signs for the services.
      GATEWAY_SIGNING_KEY: randomBytes(48).toString('base64'),
    };
    for (const [service, url] of Object.entries(urls.services)) env[`${service.toUpperCase()}_URL`] = url;
    if (values['cpu-prof']) mkdirSync(values['profile-dir'], { recursive: true });
    /** A gateway process with the request log on, off, or (paired) both: one app of each on its own port. */
    const spawnGateway = (mode: Mode | 'both', round: number) => {
      const profile = values['cpu-prof']
        ? [
            '--cpu-prof',
            `--cpu-prof-dir=${values['profile-dir']}`,
            `--cpu-prof-name=request-log-${mode}-${round}.cpuprofile`,
          ]
        : [];
      const child = spawnChild(
        [...profile, '--conditions=source', '--import', 'tsx', fileURLToPath(import.meta.url), '--serve-gateway', mode],
        loadTestsDir,
        env,
        pinning?.gateway,
      );
      running.add(child);
      return child;
    };
    const startGateway = async (mode: Mode, round: number) => {
      const child = spawnGateway(mode, round);
      const { url, pid } = await firstLine<{ url: string; pid: number }>(
        child,
        `the gateway with the request log ${mode}`,
        'url',
      );
      pids[mode].push(pid);
      return { child, url, pid };
    };
    // The off app of a paired process publishes nothing (it has no request log at all), so its pid
    // counts as the logging gateway's in the stream check.
    const startPairedGateways = async (
      round: number,
    ): Promise<Record<Mode, { child: Child; url: string; pid: number }>> => {
      const child = spawnGateway('both', round);
      const { urls, pid } = await firstLine<{ urls: Record<Mode, string>; pid: number }>(
        child,
        'the gateway process with the request log on and off',
        'urls',
      );
      pids.on.push(pid);
      return { on: { child, url: urls.on, pid }, off: { child, url: urls.off, pid } };
    };
    console.log(
      `nats ${nats.url}; ${connections} connections, ${duration} s per run, ${rounds} rounds, ${values.path}; ${values.paired ? `one fresh gateway process holding both variants every round, ${windows} runs of each alternating` : 'two fresh gateways every round'}; ${placement}`,
    );

    const rows: Array<{
      round: number;
      on: number;
      off: number;
      ratio: number;
      onTotal: number;
      offTotal: number;
      failures: number;
      onCpu: number;
      offCpu: number;
      /** µs a request on the main thread and on the others, ms of GC pauses per 1,000 requests, by mode. */
      threads: Record<
        Mode,
        { main: number; other: number; system: number; minor: number; major: number; gcMs: number }
      >;
      /**
       * Shares of a core while measured: the gateway's CPU, its core(s) busy, the load side's cores busy,
       * and the load side's processes' CPU (in cores).
       */
      saturation: Record<Mode, { gateway: number; gatewayCores: number; loadCores: number; loadSide: number }>;
    }> = [];
    let answeredByOn = 0;
    const natsPid = natsServerPid(nats.port);
    if (pinning) {
      if (!natsPid) throw new Error('--pin: nats-server not found in /proc');
      pinProcess(natsPid, pinning.rest);
    }
    const natsCpuMs: Record<Mode, number> = { on: 0, off: 0 };
    // Is the gateway the saturated part? Its own CPU and its core(s), and the load side's (this
    // process with autocannon, the stand-ins, nats-server) and its cores, over each measured run.
    const allCores = Array.from({ length: cores }, (_, c) => c);
    const gatewayCores = pinning ? [0] : allCores;
    const loadCores = pinning ? allCores.slice(1) : allCores;
    const loadSidePids = [process.pid, standIns.process.pid, natsPid].filter((pid): pid is number => !!pid);
    const loadSideCpuMs = () => loadSidePids.reduce((n, pid) => n + cpuMsOf(pid), 0);
    // What the logging gateway sent nats-server while measured: messages and bytes into the stream.
    nc = await connect({ servers: nats.url });
    const jsm = await jetstreamManager(nc);
    const streamState = () =>
      jsm.streams.info('GATEWAY').then(
        (info) => info.state,
        () => ({ messages: 0, bytes: 0 }), // not made yet: the gateway had no NATS
      );
    const stored = { messages: 0, bytes: 0, seconds: 0 };
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const);
      // Fresh processes each round, started in the round's order: how one process happens to be
      // compiled and placed (it moves a long-lived one's CPU per request by 10-15% either way on this
      // machine) then falls on both sides over the rounds instead of on one side for the whole run.
      // --paired: one process holds both variants, so that placement falls on both alike within the round.
      const gateways = {} as Record<Mode, { child: Child; url: string; pid: number }>;
      if (values.paired) Object.assign(gateways, await startPairedGateways(round));
      else for (const mode of order) gateways[mode] = await startGateway(mode, round);
      // Warm-up (JIT, keep-alive pools to the stand-ins, the first NATS batches). Paired, twice over in
      // the order on off off on: with one pass the round's first measured run was still the dearer one
      // (00:13 run: rounds measuring "on" first cost 5-10% more for it, rounds measuring "off" first 0-5%).
      const warmUp: Mode[] = values.paired ? [...order, ...[...order].reverse()] : [...order];
      for (const mode of warmUp) await load(`${gateways[mode].url}${values.path}`, connections, 2);
      const sums = { on: emptyWindowSum(), off: emptyWindowSum() };
      // Separate processes: one window each. Paired: `windows` each, in the order on off off on on off ...,
      // so a drift in the machine's speed within the round falls on both variants alike.
      const sequence: Mode[] = [];
      for (let w = 0; w < (values.paired ? windows : 1); w++) sequence.push(...(w % 2 ? [...order].reverse() : order));
      for (const mode of sequence) {
        const sum = sums[mode];
        const gcBefore = await gcTotalsOf(gateways[mode].child);
        const threadsBefore = threadCpuMsOf(gateways[mode].pid);
        const before = cpuMsOf(gateways[mode].pid);
        const natsBefore = natsPid ? cpuMsOf(natsPid) : 0;
        const streamBefore = mode === 'on' ? await streamState() : undefined;
        const loadSideBefore = loadSideCpuMs();
        const ticksBefore = coreTicks();
        const startedAt = performance.now();
        const result = await load(`${gateways[mode].url}${values.path}`, connections, duration);
        const wallMs = performance.now() - startedAt;
        const ticksAfter = coreTicks();
        const loadSideMs = loadSideCpuMs() - loadSideBefore;
        // The run's last batch is published within one flush interval of its last request: its CPU
        // belongs to this run (and, paired, must not land in the other variant's next run).
        await new Promise((r) => setTimeout(r, flushSettleMs));
        if (streamBefore) {
          const streamAfter = await streamState();
          stored.messages += streamAfter.messages - streamBefore.messages;
          stored.bytes += streamAfter.bytes - streamBefore.bytes;
          stored.seconds += duration;
        }
        const threadsAfter = threadCpuMsOf(gateways[mode].pid);
        const gcAfter = await gcTotalsOf(gateways[mode].child);
        sum.requests += result.requests.total;
        sum.seconds += duration;
        sum.failures += result.non2xx + result.errors + result.timeouts;
        sum.cpuMs += cpuMsOf(gateways[mode].pid) - before;
        sum.main += threadsAfter.main - threadsBefore.main;
        sum.other += threadsAfter.other - threadsBefore.other;
        sum.system += threadsAfter.system - threadsBefore.system;
        sum.minor += gcAfter.minor - gcBefore.minor;
        sum.major += gcAfter.major - gcBefore.major;
        sum.gcMs +=
          gcAfter.minorMs + gcAfter.majorMs + gcAfter.otherMs - gcBefore.minorMs - gcBefore.majorMs - gcBefore.otherMs;
        sum.wallMs += wallMs;
        sum.loadSideMs += loadSideMs;
        sum.gatewayCores.push(busyShare(ticksBefore, ticksAfter, gatewayCores));
        sum.loadCores.push(busyShare(ticksBefore, ticksAfter, loadCores));
        // nats-server shares the machine's cores: what storing the batches costs it slows the gateway too.
        natsCpuMs[mode] += natsPid ? cpuMsOf(natsPid) - natsBefore : 0;
      }
      for (const child of new Set(Object.values(gateways).map((g) => g.child))) {
        await stopChild(child);
        running.delete(child);
      }
      // Its CPU per request also counts the batches it published during the run.
      const cpu = {} as Record<Mode, number>;
      const threads = {} as (typeof rows)[number]['threads'];
      const saturation = {} as (typeof rows)[number]['saturation'];
      for (const mode of order) {
        const s = sums[mode];
        const requests = Math.max(1, s.requests);
        cpu[mode] = s.cpuMs / requests;
        threads[mode] = {
          main: (1000 * s.main) / requests,
          other: (1000 * s.other) / requests,
          system: (1000 * s.system) / requests,
          minor: s.minor,
          major: s.major,
          gcMs: (1000 * s.gcMs) / requests,
        };
        saturation[mode] = {
          gateway: s.cpuMs / s.wallMs,
          gatewayCores: median(s.gatewayCores),
          loadCores: median(s.loadCores),
          loadSide: s.loadSideMs / s.wallMs,
        };
      }
      const rate = (mode: Mode) => sums[mode].requests / sums[mode].seconds;
      answeredByOn += sums.on.requests;
      rows.push({
        round,
        on: rate('on'),
        off: rate('off'),
        ratio: rate('on') / rate('off'),
        onTotal: sums.on.requests,
        offTotal: sums.off.requests,
        failures: sums.on.failures + sums.off.failures,
        onCpu: cpu.on,
        offCpu: cpu.off,
        threads,
        saturation,
      });
      const t = (m: Mode) =>
        `main ${threads[m].main.toFixed(1)} + other threads ${threads[m].other.toFixed(1)} (system ${threads[m].system.toFixed(1)}), GC ${threads[m].minor} minor ${threads[m].major} major ${threads[m].gcMs.toFixed(2)} ms/1000`;
      console.log(
        `round ${round} (${values.paired ? `one process, ${windows} runs each, ` : ''}${order.join(' then ')}${values.paired ? ' first' : ''}): on ${Math.round(rate('on'))} req/s, off ${Math.round(rate('off'))} req/s, on/off ${(100 * rows.at(-1)!.ratio).toFixed(1)}%; gateway CPU µs/request on ${(1000 * cpu.on).toFixed(1)} (${t('on')}), off ${(1000 * cpu.off).toFixed(1)} (${t('off')})`,
      );
      const sat = (m: Mode) =>
        `gateway ${percent(saturation[m].gateway)} of a core (its cores ${percent(saturation[m].gatewayCores)} busy), load side ${percent(saturation[m].loadSide)} (its cores ${percent(saturation[m].loadCores)} busy)`;
      console.log(`  saturation on: ${sat('on')}; off: ${sat('off')}`);
    }

    // Every answered request of the logging gateway reached the GATEWAY stream; none of the other's.
    await new Promise((r) => setTimeout(r, 1_000));
    const info = await jsm.streams.info('GATEWAY');
    const logged: Record<string, number> = {};
    let dropped = 0;
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const msg = await jsm.streams.getMessage('GATEWAY', { seq }).catch(() => null);
      if (!msg || msg.subject !== 'gateway.requests_logged') continue;
      const data = msg.json<{ data: { gateway: string; log: { startedAt: unknown[] }; dropped: number } }>().data;
      logged[data.gateway] = (logged[data.gateway] ?? 0) + data.log.startedAt.length;
      dropped += data.dropped;
    }
    const loggedOn = Object.entries(logged)
      .filter(([name]) => pids.on.some((pid) => name.endsWith(`:${pid}`)))
      .reduce((n, [, c]) => n + c, 0);
    const loggedOff = Object.entries(logged)
      .filter(([name]) => pids.off.some((pid) => name.endsWith(`:${pid}`)))
      .reduce((n, [, c]) => n + c, 0);

    const sumOn = rows.reduce((n, r) => n + r.onTotal, 0);
    const sumOff = rows.reduce((n, r) => n + r.offTotal, 0);
    const load1 = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `\n${values.path}, ${connections} connections, ${rounds} alternating rounds of ${duration} s; ${cores} cores, ${placement}; load average ${load1}; Node ${process.version}\n`,
    );
    const cpuOn = rows.reduce((n, r) => n + r.onCpu * r.onTotal, 0) / sumOn;
    const cpuOff = rows.reduce((n, r) => n + r.offCpu * r.offTotal, 0) / sumOff;
    // The gateway's throughput on a core of its own is a core's second over its CPU per request, so the
    // ratio of its CPU per request (off / on) is what logging leaves of its throughput. Unlike autocannon's
    // req/s it does not depend on which part was saturated: on 2 cores the load side (autocannon, the
    // stand-ins, nats-server) often is, and nats-server storing the batches then slows the logging
    // variant's req/s without costing the gateway anything.
    const capacity = (r: (typeof rows)[number]) => r.offCpu / r.onCpu;
    const shareOf = (mode: Mode, key: 'gateway' | 'gatewayCores' | 'loadCores' | 'loadSide') =>
      median(rows.map((r) => r.saturation[mode][key]));
    console.log(
      '| round | log on req/s | log off req/s | on / off req/s | gateway CPU µs/request on | off | gateway throughput on / off (CPU off / on) | gateway % of a core on / off | load side cores busy on / off |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows)
      console.log(
        `| ${r.round} | ${Math.round(r.on)} | ${Math.round(r.off)} | ${percent(r.ratio)} | ${(1000 * r.onCpu).toFixed(1)} | ${(1000 * r.offCpu).toFixed(1)} | ${percent(capacity(r))} | ${percent(r.saturation.on.gateway)} / ${percent(r.saturation.off.gateway)} | ${percent(r.saturation.on.loadCores)} / ${percent(r.saturation.off.loadCores)} |`,
      );
    console.log(
      `| median of rounds | | | ${percent(median(rows.map((r) => r.ratio)))} | | | ${percent(median(rows.map(capacity)))} | ${percent(shareOf('on', 'gateway'))} / ${percent(shareOf('off', 'gateway'))} | ${percent(shareOf('on', 'loadCores'))} / ${percent(shareOf('off', 'loadCores'))} |`,
    );
    console.log(
      `| all rounds (total requests) | ${sumOn} | ${sumOff} | ${percent(sumOn / sumOff)} | ${(1000 * cpuOn).toFixed(1)} | ${(1000 * cpuOff).toFixed(1)} | ${percent(cpuOff / cpuOn)} | | |`,
    );
    console.log(
      `\nthe request log costs the gateway ${((100 * (cpuOn - cpuOff)) / cpuOff).toFixed(1)}% more CPU per request (${(1000 * (cpuOn - cpuOff)).toFixed(1)} µs; median of rounds ${percent(median(rows.map((r) => r.onCpu / r.offCpu)) - 1)})`,
    );
    const saturated = Math.min(shareOf('on', 'gateway'), shareOf('off', 'gateway')) >= 0.95;
    console.log(
      `which part was saturated (median of rounds, on / off): the gateway used ${percent(shareOf('on', 'gateway'))} / ${percent(shareOf('off', 'gateway'))} of a core (its cores ${percent(shareOf('on', 'gatewayCores'))} / ${percent(shareOf('off', 'gatewayCores'))} busy), the load side's processes ${percent(shareOf('on', 'loadSide'))} / ${percent(shareOf('off', 'loadSide'))} (its cores ${percent(shareOf('on', 'loadCores'))} / ${percent(shareOf('off', 'loadCores'))} busy): ${saturated ? 'the gateway, so req/s measures it too' : 'not the gateway, so req/s measures the load side and only the CPU per request measures the gateway'}`,
    );
    const threadShare = (mode: Mode, key: 'main' | 'other' | 'system' | 'gcMs') =>
      rows.reduce((n, r) => n + r.threads[mode][key] * (mode === 'on' ? r.onTotal : r.offTotal), 0) /
      (mode === 'on' ? sumOn : sumOff);
    const gcCount = (mode: Mode, key: 'minor' | 'major') => rows.reduce((n, r) => n + r.threads[mode][key], 0);
    console.log(
      `gateway CPU µs/request by thread, on / off: main ${threadShare('on', 'main').toFixed(1)} / ${threadShare('off', 'main').toFixed(1)}, other threads (GC and compiler helpers, libuv) ${threadShare('on', 'other').toFixed(1)} / ${threadShare('off', 'other').toFixed(1)}, system time ${threadShare('on', 'system').toFixed(1)} / ${threadShare('off', 'system').toFixed(1)}; GC pauses ${threadShare('on', 'gcMs').toFixed(2)} / ${threadShare('off', 'gcMs').toFixed(2)} ms per 1,000 requests (${gcCount('on', 'minor')} / ${gcCount('off', 'minor')} minor, ${gcCount('on', 'major')} / ${gcCount('off', 'major')} major)`,
    );
    if (natsPid)
      console.log(
        `nats-server CPU µs/request while the gateway with the request log was measured: ${((1000 * natsCpuMs.on) / sumOn).toFixed(1)}, without: ${((1000 * natsCpuMs.off) / sumOff).toFixed(1)}`,
      );
    console.log(
      `stored while the logging gateway was measured: ${(stored.messages / stored.seconds).toFixed(1)} messages/s, ${Math.round(stored.bytes / stored.seconds / 1024)} KiB/s (${Math.round(stored.bytes / Math.max(1, stored.messages) / 1024)} KiB a message, ${(stored.bytes / sumOn).toFixed(0)} bytes a request)`,
    );
    console.log(
      `\nreq/s as autocannon measured it (the gateway's throughput only where it was saturated): ${verdictOf(
        rows.map((r) => r.ratio),
        sumOn / sumOff,
      )}`,
    );
    console.log(
      `verdict, on the gateway's throughput on its own core (CPU per request off / on): ${verdictOf(rows.map(capacity), cpuOff / cpuOn)}`,
    );
    console.log(
      `\nrequest log: ${loggedOn} entries from the logging gateway in the GATEWAY stream (it answered ${answeredByOn} measured requests plus the warm-up), ${loggedOff} from the other, ${dropped} dropped`,
    );
    const failed = rows.reduce((n, r) => n + r.failures, 0);
    if (failed > 0) {
      console.error(`${failed} requests failed`);
      process.exitCode = 1;
    }
    if (loggedOn < answeredByOn || loggedOff > 0) {
      console.error('the request log does not match the requests answered');
      process.exitCode = 1;
    }
  } finally {
    await nc?.close();
    for (const child of running) await stopChild(child);
    await stopChild(standIns);
    await nats.stop();
  }
  if (values['cpu-prof']) console.log(`\nprofiles: ${values['profile-dir']}/request-log-{on,off}-<round>.cpuprofile`);
}

// Child mode: one gateway, request log on or off, config from the environment like src/main.ts
// (without telemetry, so the gateway's own work is all that is measured). Last, once everything above
// is defined.
if (process.argv[2] === '--serve-gateway') {
  const mode = process.argv[3] as Mode | 'both';
  const { loadConfig } = (await import(`${gatewayDir}src/config.ts`)) as {
    loadConfig: () => { host: string; port: number; logLevel: string };
  };
  const { buildApp } = (await import(`${gatewayDir}src/app.ts`)) as {
    buildApp: (
      config: unknown,
      options: object,
    ) => Promise<{ listen(o: object): Promise<string>; close(): Promise<void> }>;
  };
  const { createLogger } = await import('@shop/service-kit');
  const config = loadConfig();
  const logger = createLogger({ service: 'gateway', level: config.logLevel });
  const appWith = (requestLog: boolean) => buildApp(config, { logger, ...(requestLog ? {} : { requestLog: false }) });
  const apps =
    mode === 'both' ? { on: await appWith(true), off: await appWith(false) } : { [mode]: await appWith(mode === 'on') };
  // The bench asks for the GC pauses so far (SIGUSR2) before and after each measured run.
  const gc = { minor: 0, minorMs: 0, major: 0, majorMs: 0, other: 0, otherMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      const key =
        kind === constants.NODE_PERFORMANCE_GC_MINOR
          ? 'minor'
          : kind === constants.NODE_PERFORMANCE_GC_MAJOR
            ? 'major'
            : 'other';
      gc[key] += 1;
      gc[`${key}Ms`] += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => console.log(JSON.stringify({ gc })));
  const urls: Partial<Record<Mode, string>> = {};
  // Paired, each app on a port of its own (the configured one is for a single gateway).
  for (const [name, app] of Object.entries(apps) as Array<[Mode, (typeof apps)[Mode] & object]>)
    urls[name] = await app.listen({ host: config.host, port: mode === 'both' ? 0 : config.port });
  process.once(
    'SIGTERM',
    () => void Promise.all(Object.values(apps).map((app) => app.close())).then(() => process.exit(0)),
  );
  console.log(JSON.stringify(mode === 'both' ? { urls, pid: process.pid } : { url: urls[mode], pid: process.pid }));
} else {
  await main();
}
