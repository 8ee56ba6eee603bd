// Where the tracking read's time goes (issue 20): the whole local stack started as the bench starts it
// (bench-stack.ts), one order placed, then `POST /api/orders/track` measured beside bare Fastify answering
// the same bytes. With --cpu-prof the gateway, orders and the embedded MongoDB run under Node's profiler;
// after the load the stack stops and each profile's top self times (by function) and its share per
// package are printed. Each part's CPU over the timed load (from /proc) is printed per tracking read.
//   node --conditions=source --import tsx src/track-profile.ts [--duration 10] [--connections 50] [--cpu-prof]
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Stack } from '@shop/local';
import { measure } from './bench-measure.js';
import { startStandIns, stopChild } from './bench-peers.js';
import { placeTrackableOrder, stackCpuMs, startBenchStack } from './bench-stack.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'cpu-prof': { type: 'boolean', default: false },
    top: { type: 'string', default: '25' },
  },
  strict: true,
});
const shape = { connections: Number(values.connections), durationSeconds: Number(values.duration) };
const profiled = new Set(['gateway', 'orders', 'mongodb']);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** `~/pkg` for a dependency, the repository path for the shop's own code, `(node)` for Node's. */
function owner(url: string): string {
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return `~/${dependency[1]}`;
  const own = /\/work\/main\/(.+?)\/(?:src|dist|bin)\//.exec(url);
  if (own) return own[1];
  return url.startsWith('node:') ? '(node)' : url ? url : '(native, gc, idle)';
}

function summarise(path: string, top: number): void {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const perOwner = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const { callFrame } = byId.get(id)!;
    const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*\/work\/main\//, '')}:${callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    perOwner.set(owner(callFrame.url), (perOwner.get(owner(callFrame.url)) ?? 0) + dt);
  });
  const print = (title: string, m: Map<string, number>, n: number) => {
    console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n))
      console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
  };
  print('self time by package', perOwner, 20);
  print('self time by function', self, top);
}

const standIns = await startStandIns();
const profileDir = values['cpu-prof'] ? mkdtempSync(join(tmpdir(), 'track-prof-')) : undefined;
let stack: Stack | undefined;
const pids = new Map<number, string>();
try {
  stack = await startBenchStack(profileDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {});
  for (const child of stack.children()) if (child.pid !== undefined) pids.set(child.pid, child.name);
  const { trackRequest } = await placeTrackableOrder(stack, standIns.urls.baseline, Date.now().toString(36));
  const load = loadavg();
  const bare = await measure(standIns.urls.baseline, trackRequest, shape);
  // The warm-up on its own, so the CPU read around the timed run is the timed run's.
  await measure(stack.url, trackRequest, { ...shape, durationSeconds: 1 }, { warmup: false });
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
  console.log(`CPU ms per tracking read: ${perRead.map(([name, ms]) => `${name} ${ms.toFixed(3)}`).join(', ')}`);
} finally {
  await stack?.stop();
  await stopChild(standIns.child);
}
if (profileDir) {
  for (const file of readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'))) {
    const name = pids.get(Number(file.split('.')[3]));
    if (!name || !profiled.has(name)) continue;
    console.log(`\n=== ${name}: ${join(profileDir, file)}`);
    summarise(join(profileDir, file), Number(values.top));
  }
}
