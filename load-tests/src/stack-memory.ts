// The stack's memory (issue 20), narrower than `npm run bench`: the whole local stack started as the bench
// starts it (bench-stack.ts), the same tracking and quote loads (measureStack), and the resident memory of
// each part idle, after the quote load and after a quiet settle, with the throughput of the loads beside it
// (a memory flag must not cost the quote path). With --heap every Node part runs with the inspector on a
// free loopback port and its V8 heap is read through it (process.memoryUsage, v8 heap spaces), before and
// after a full garbage collection: what the heap holds live, and what is only garbage not yet collected.
//   node --conditions=source --import tsx src/stack-memory.ts [--duration 10] [--settle 30] [--heap]
//        [--node-defaults] [--node-arg=--max-semi-space-size=2 ...] [--snapshot mongodb.heapsnapshot]
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Stack } from '@shop/local';
import { startStandIns, stopChild } from './bench-peers.js';
import { measureStack, startBenchStack, stackRss, type StackRss } from './bench-stack.js';

const MiB = 2 ** 20;
const mib = (bytes: number) => (bytes / MiB).toFixed(0);
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    settle: { type: 'string', default: '30' },
    heap: { type: 'boolean', default: false },
    // With --heap: after the settle, write the embedded MongoDB's heap snapshot here (open it in DevTools).
    snapshot: { type: 'string' },
    'node-arg': { type: 'string', multiple: true, default: [] },
    // The parts with Node's own defaults, without the runner's memory flags (deploy/local/src/node-flags.ts).
    'node-defaults': { type: 'boolean', default: false },
  },
  strict: true,
});
const shape = { connections: Number(values.connections), durationSeconds: Number(values.duration) };
const log = (line: string) => console.log(line);

interface Heap {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Per V8 space: [used, committed] bytes. */
  spaces: Record<string, [number, number]>;
}

/** A minimal Chrome DevTools Protocol client over Node's WebSocket: one call at a time. */
async function inspect(wsUrl: string, calls: Array<{ method: string; params?: object }>): Promise<unknown[]> {
  const socket = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  const results: unknown[] = [];
  try {
    for (const [id, call] of calls.entries()) {
      const answer = new Promise<unknown>((resolve, reject) => {
        const onMessage = (event: MessageEvent) => {
          const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown };
          if (message.id !== id) return;
          socket.removeEventListener('message', onMessage);
          if (message.error) reject(new Error(JSON.stringify(message.error)));
          else resolve(message.result);
        };
        socket.addEventListener('message', onMessage);
      });
      socket.send(JSON.stringify({ id, ...call }));
      results.push(await answer);
    }
  } finally {
    socket.close();
  }
  return results;
}

const HEAP_EXPRESSION = `JSON.stringify({
  ...process.memoryUsage(),
  spaces: Object.fromEntries(require('v8').getHeapSpaceStatistics().map((s) => [s.space_name, [s.space_used_size, s.space_size]])),
})`;

async function heapOf(wsUrl: string, collect: boolean): Promise<Heap> {
  const evaluate = {
    method: 'Runtime.evaluate',
    params: { expression: HEAP_EXPRESSION, includeCommandLineAPI: true, returnByValue: true },
  };
  const results = await inspect(wsUrl, collect ? [{ method: 'HeapProfiler.collectGarbage' }, evaluate] : [evaluate]);
  const last = results.at(-1) as { result: { value: string } };
  return JSON.parse(last.result.value) as Heap;
}

/** The inspector address each Node part printed at start (`--inspect=127.0.0.1:0`), by part. */
const inspectorAddresses = new Map<string, string>();
function noteInspector(name: string, line: string): void {
  if (line.startsWith('Debugger listening on ws://'))
    inspectorAddresses.set(name, line.slice('Debugger listening on '.length).trim());
}
const inspectorUrls = (stack: Stack) =>
  new Map(
    stack.children().flatMap((child) => {
      const url = inspectorAddresses.get(child.name);
      return url ? [[child.name, url] as const] : [];
    }),
  );

/** Streams a part's heap snapshot (HeapProfiler.takeHeapSnapshot's chunks) into a file. */
async function writeSnapshot(wsUrl: string, file: string): Promise<void> {
  const socket = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  const out = createWriteStream(file);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('message', (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as { id?: number; method?: string; params?: { chunk: string } };
        if (message.method === 'HeapProfiler.addHeapSnapshotChunk') out.write(message.params!.chunk);
        else if (message.id === 1) resolve();
      });
      socket.addEventListener('error', reject, { once: true });
      socket.send(
        JSON.stringify({ id: 1, method: 'HeapProfiler.takeHeapSnapshot', params: { reportProgress: false } }),
      );
    });
  } finally {
    socket.close();
    await new Promise((resolve) => out.end(resolve));
  }
}

async function heaps(stack: Stack, collect: boolean): Promise<Map<string, Heap>> {
  const out = new Map<string, Heap>();
  for (const [name, url] of inspectorUrls(stack)) out.set(name, await heapOf(url, collect));
  return out;
}

function printRss(stages: Array<[string, StackRss]>): void {
  const names = stages[0][1].parts.map((part) => part.name);
  const header = ['part', ...stages.map(([stage]) => `${stage} RSS (anon) MiB`)];
  const rows = names.map((name) => [
    name,
    ...stages.map(([, rss]) => {
      const part = rss.parts.find((p) => p.name === name);
      return part ? `${mib(part.bytes)} (${mib(part.anonBytes)})` : '-';
    }),
  ]);
  rows.push([
    `sum (${stages[0][1].processes} processes)`,
    ...stages.map(([, rss]) => `${mib(rss.bytes)} (${mib(rss.parts.reduce((s, p) => s + p.anonBytes, 0))})`),
  ]);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => ' --- ').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

function printHeaps(stage: string, before: Map<string, Heap>, after: Map<string, Heap>): void {
  console.log(`\n${stage}: V8 heap per part, MiB (used/committed; after a full GC)`);
  console.log(
    '| part | heapUsed | heapTotal | new space | old space | code | large object | external | arrayBuffers |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, heap] of before) {
    const gc = after.get(name);
    const both = (pick: (h: Heap) => number) => `${mib(pick(heap))} / ${gc ? mib(pick(gc)) : '-'}`;
    const space = (key: string) => {
      const used = heap.spaces[key]?.[0] ?? 0;
      const committed = heap.spaces[key]?.[1] ?? 0;
      return `${mib(used)}/${mib(committed)}`;
    };
    console.log(
      `| ${name} | ${both((h) => h.heapUsed)} | ${both((h) => h.heapTotal)} | ${space('new_space')} | ${space('old_space')} | ${space('code_space')} | ${space('large_object_space')} | ${both((h) => h.external)} | ${both((h) => h.arrayBuffers)} |`,
    );
  }
}

const standIns = await startStandIns();
let stack: Stack | undefined;
try {
  const nodeArgs = [...values['node-arg'], ...(values.heap ? ['--inspect=127.0.0.1:0'] : [])];
  const localNodeFlags = !values['node-defaults'];
  console.log(
    `node flags of the parts: ${localNodeFlags ? "the runner's (node-flags.ts)" : "Node's defaults"} ${nodeArgs.join(' ')}`,
  );
  stack = await startBenchStack({ nodeArgs, localNodeFlags, ...(values.heap ? { log: noteInspector } : {}) });
  const result = await measureStack(stack, standIns.urls.baseline, shape, log);
  const loadedHeaps = values.heap ? await heaps(stack, false) : undefined;
  log(`settling ${values.settle} s...`);
  await delay(Number(values.settle) * 1000);
  const settled = stackRss(stack);
  const settledHeaps = values.heap ? await heaps(stack, false) : undefined;
  const collected = values.heap ? await heaps(stack, true) : undefined;
  const collectedRss = values.heap ? stackRss(stack) : undefined;
  const mongoInspector = inspectorUrls(stack).get('mongodb');
  if (values.snapshot && mongoInspector) {
    await writeSnapshot(mongoInspector, values.snapshot);
    log(`the embedded MongoDB's heap snapshot: ${values.snapshot}`);
  }

  console.log(
    `\ntracking: ${result.track.requestsPerSecond.toFixed(0)} req/s, p99 ${result.track.p99} ms (bare ${result.trackBaseline.requestsPerSecond.toFixed(0)}); ` +
      `quotes: ${result.quote.requestsPerSecond.toFixed(0)}/s (${result.quote.ok} accepted, ${result.quote.failures} failed), p50 ${result.quote.p50} ms, p99 ${result.quote.p99} ms; ` +
      `emails ${result.emails.delivered}/${result.emails.expected}, ${result.emails.emailsPerSecond.toFixed(0)}/s\n`,
  );
  printRss([
    ['idle', result.idleRss],
    ['after load', result.loadedRss],
    [`+${values.settle} s`, settled],
    ...(collectedRss ? [['after full GC', collectedRss] as [string, StackRss]] : []),
  ]);
  if (loadedHeaps && settledHeaps && collected) {
    printHeaps('after the load', loadedHeaps, collected);
    printHeaps(`+${values.settle} s`, settledHeaps, collected);
  }
} finally {
  await stack?.stop();
  await stopChild(standIns.child);
}
