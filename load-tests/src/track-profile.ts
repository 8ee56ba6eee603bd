// Where the tracking read's time goes (issue 20): the whole local stack started as the bench starts it
// (bench-stack.ts), one order placed, then `POST /api/orders/track` measured beside bare Fastify answering
// the same bytes. With --cpu-prof the gateway, orders, security and the embedded MongoDB run under Node's
// profiler; after the load the stack stops and each profile's top self times over the timed load (by
// function) and its share per package are printed. Each part's CPU over the timed load (from /proc) is printed per tracking read.
// With --stalls every part reports, each half second, its event loop's delay (perf_hooks'
// monitorEventLoopDelay) and its GC pauses; those of the timed load are summed up per part, to find what
// makes the p99.
// With --orders N, N orders are placed and tracked in turn instead of one again and again: the figure of a
// read the orders service's held answers (250 ms, RecentTrackedAnswers) do not serve.
//   node --conditions=source --import tsx src/track-profile.ts [--duration 10] [--connections 50] [--warmup 1] [--orders 1] [--cpu-prof] [--stalls] [--node-arg=--flag ...]
import { mkdtempSync, readdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Stack } from '@shop/local';
import { measure, type LoadRequest } from './bench-measure.js';
import { startStandIns, stopChild } from './bench-peers.js';
import { placeTrackableOrder, stackCpuMs, startBenchStack } from './bench-stack.js';
import { summariseProfile } from './cpu-profile.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'cpu-prof': { type: 'boolean', default: false },
    stalls: { type: 'boolean', default: false },
    // Extra Node flags for every part (after the runner's own), e.g. to try a GC setting.
    'node-arg': { type: 'string', multiple: true, default: [] },
    top: { type: 'string', default: '25' },
    // Seconds of load through the stack before the timed one: the services' MongoDB pools grow while it runs
    // (with the driver's default of 2 connections at a time orders held 16 of 50 after 1 s; service-kit's
    // connectionPoolOptions now opens 8 at a time).
    warmup: { type: 'string', default: '1' },
    // Orders placed and tracked in turn: with more than one order the orders service's held answers
    // (RecentTrackedAnswers, 250 ms) no longer serve most reads, which shows a read's uncached cost.
    orders: { type: 'string', default: '1' },
  },
  strict: true,
});
const shape = { connections: Number(values.connections), durationSeconds: Number(values.duration) };
const orderCount = Number(values.orders);
if (!Number.isInteger(orderCount) || orderCount < 1) {
  console.error(`--orders takes a whole number of orders, at least 1 (got "${values.orders}")`);
  process.exit(2);
}
const profiled = new Set(['gateway', 'orders', 'mongodb', 'security']);

/**
 * Preloaded into every part with --stalls: each 500 ms one stderr line with the event loop's delay (max,
 * p99, mean), the GC pauses (count, total, longest; and of them the full mark-compacts) since the last
 * line, and the heap in use.
 */
const stallReporter = `
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
let gcCount = 0, gcMs = 0, gcMax = 0, majorCount = 0, majorMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcCount++; gcMs += e.duration; gcMax = Math.max(gcMax, e.duration);
    // perf_hooks' NODE_PERFORMANCE_GC_MAJOR
    if (e.detail?.kind === 4) { majorCount++; majorMs += e.duration; }
  }
}).observe({ entryTypes: ['gc'] });
setInterval(() => {
  process.stderr.write('@@stall ' + JSON.stringify({ t: Date.now(), max: loop.max / 1e6, p99: loop.percentile(99) / 1e6,
    mean: loop.mean / 1e6, gcCount, gcMs, gcMax, majorCount, majorMs, heapMiB: process.memoryUsage().heapUsed / 2 ** 20 }) + '\\n');
  loop.reset(); gcCount = 0; gcMs = 0; gcMax = 0; majorCount = 0; majorMs = 0;
}, 500).unref();
`;
interface StallLine {
  t: number;
  max: number;
  p99: number;
  mean: number;
  gcCount: number;
  gcMs: number;
  gcMax: number;
  majorCount: number;
  majorMs: number;
  heapMiB: number;
}
const stallLines = new Map<string, StallLine[]>();
function collectStalls(name: string, line: string): void {
  if (!line.startsWith('@@stall ')) return;
  const lines = stallLines.get(name) ?? [];
  lines.push(JSON.parse(line.slice(8)) as StallLine);
  stallLines.set(name, lines);
}
function printStalls(from: number, to: number): void {
  console.log(`\nstalls over the timed load, per part (half-second intervals; event loop delay and GC pauses in ms):`);
  for (const [name, all] of [...stallLines].sort()) {
    const lines = all.filter((l) => l.t > from + 500 && l.t <= to);
    if (!lines.length) continue;
    const maxima = lines.map((l) => l.max).sort((a, b) => a - b);
    const gcMs = lines.reduce((sum, l) => sum + l.gcMs, 0);
    const gcCount = lines.reduce((sum, l) => sum + l.gcCount, 0);
    const majorCount = lines.reduce((sum, l) => sum + l.majorCount, 0);
    const majorMs = lines.reduce((sum, l) => sum + l.majorMs, 0);
    console.log(
      `${name.padEnd(10)} loop delay max ${maxima.at(-1)!.toFixed(1)}, median of interval maxima ${maxima[maxima.length >> 1].toFixed(1)}, ` +
        `intervals over 20 ms ${maxima.filter((m) => m > 20).length}/${lines.length}, mean ${(lines.reduce((s, l) => s + l.mean, 0) / lines.length).toFixed(1)}; ` +
        `GC ${gcCount} pauses ${gcMs.toFixed(0)} ms (${((100 * gcMs) / (to - from)).toFixed(1)}% of the time), longest ${Math.max(...lines.map((l) => l.gcMax)).toFixed(1)}, ` +
        `of them ${majorCount} full ${majorMs.toFixed(0)} ms; heap ${lines[0].heapMiB.toFixed(0)} -> ${lines.at(-1)!.heapMiB.toFixed(0)} MiB`,
    );
  }
}

/**
 * The load's request: one order tracked again and again, or with --orders N, N orders (placed four at a
 * time) tracked in turn.
 */
async function trackableOrders(stack: Stack, count: number): Promise<LoadRequest> {
  const run = Date.now().toString(36);
  const bodies: string[] = [];
  let first: LoadRequest | undefined;
  let placing = 0;
  const place = async () => {
    while (bodies.length + placing < count) {
      placing++;
      const { trackRequest } = await placeTrackableOrder(stack, standIns.urls.baseline, run);
      placing--;
      first ??= trackRequest;
      bodies.push(trackRequest.body!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, count) }, place));
  if (count === 1) return first!;
  console.log(`tracking ${bodies.length} orders in turn`);
  let next = 0;
  return { ...first!, body: undefined, fresh: () => ({ body: bodies[next++ % bodies.length], headers: {} }) };
}

const standIns = await startStandIns();
const profileDir = values['cpu-prof'] ? mkdtempSync(join(tmpdir(), 'track-prof-')) : undefined;
let stack: Stack | undefined;
const pids = new Map<number, string>();
let timed: { from: number; to: number } | undefined;
try {
  stack = await startBenchStack({
    nodeArgs: [
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ...(values.stalls ? [`--import=data:text/javascript,${encodeURIComponent(stallReporter)}`] : []),
      ...values['node-arg'],
    ],
    ...(values.stalls ? { log: collectStalls } : {}),
  });
  for (const child of stack.children()) if (child.pid !== undefined) pids.set(child.pid, child.name);
  const trackRequest = await trackableOrders(stack, orderCount);
  const load = loadavg();
  const bare = await measure(standIns.urls.baseline, trackRequest, shape);
  // The warm-up on its own, so the CPU read around the timed run is the timed run's.
  await measure(stack.url, trackRequest, { ...shape, durationSeconds: Number(values.warmup) }, { warmup: false });
  const cpuBefore = stackCpuMs(stack);
  const track = await measure(stack.url, trackRequest, shape, { warmup: false });
  const cpuAfter = stackCpuMs(stack);
  console.log(
    `track through the stack: ${track.requestsPerSecond.toFixed(0)} req/s = ${((100 * track.requestsPerSecond) / bare.requestsPerSecond).toFixed(1)}% of bare Fastify ${bare.requestsPerSecond.toFixed(0)} req/s; ` +
      `p50 ${track.p50} ms, p99 ${track.p99} ms${track.failures ? `, ${track.failures} of ${track.total} failed` : ''} ` +
      `(load average ${load.map((l) => l.toFixed(2)).join(' ')} before, ${loadavg()[0].toFixed(2)} after)`,
  );
  const perRead = [...cpuAfter]
    .map(([name, ms]) => [name, (ms - (cpuBefore.get(name) ?? 0)) / track.total] as const)
    .filter(([, ms]) => ms >= 0.005)
    .sort((a, b) => b[1] - a[1]);
  if (values.stalls) printStalls(track.startedAt, track.endedAt);
  console.log(`CPU ms per tracking read: ${perRead.map(([name, ms]) => `${name} ${ms.toFixed(3)}`).join(', ')}`);
  // The timed load on the monotonic clock (µs), without its first 200 ms.
  const monotonicOffset = Number(process.hrtime.bigint() / 1000n) - Date.now() * 1000;
  timed = { from: (track.startedAt + 200) * 1000 + monotonicOffset, to: track.endedAt * 1000 + monotonicOffset };
} finally {
  await stack?.stop();
  await stopChild(standIns.child);
}
if (profileDir) {
  for (const file of readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'))) {
    const name = pids.get(Number(file.split('.')[3]));
    if (!name || !profiled.has(name)) continue;
    console.log(`\n=== ${name}: ${join(profileDir, file)} (timed load, monotonic µs: ${timed?.from} ${timed?.to})`);
    console.log(summariseProfile(join(profileDir, file), { top: Number(values.top), window: timed }));
  }
}
