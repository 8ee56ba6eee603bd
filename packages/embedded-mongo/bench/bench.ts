// Benchmark of @shop/embedded-mongo (not a test): `npm run bench -w packages/embedded-mongo`.
//
// Through mongoose, with BENCH_CONCURRENCY (default 32) operations in flight, for BENCH_SECONDS (default 3) each:
// inserts/s, indexed findOne/s and updates/s, once in memory and once with the journal, next to a driver `ping`
// loop against the same server (the ceiling: the cheapest round trip the driver can make). Then the latency of an
// indexed findOne on a 1,000- and a 100,000-document collection, and the journal's group commit on its own.
// The server runs in its own process, as under `npm start`; client and server share this machine's cores.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import mongoose from 'mongoose';
import { openJournal } from '../src/durability/index.js';
import type { JournalOp } from '../src/engine/types.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const LATENCY_QUERIES = Number(process.env.BENCH_LATENCY_QUERIES ?? 4000);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

interface Server {
  uri: string;
  pid: number;
  stop(): Promise<void>;
}

/** CPU time (user + system) a process has used so far, in ms; NaN where /proc is missing. */
async function processCpuMs(pid: number): Promise<number> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in USER_HZ (100) ticks
  } catch {
    return Number.NaN;
  }
}

async function startServer(dbPath?: string): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(packageDir, 'bench/server.ts')], {
    cwd: packageDir,
    env: { ...process.env, EMBEDDED_MONGO_DBPATH: dbPath ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]) as { uri: string }).uri);
    });
    void exited.then(() => reject(new Error('the embedded server exited before it was ready')));
  });
  return {
    uri,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Tally {
  done: number;
  ms: number;
  serverCpuMs: number;
  clientCpuMs: number;
}

/** Runs `op` with CONCURRENCY in flight for `ms`, adding to `tally` what it completed and the CPU it used. */
async function burst(
  server: Server,
  op: (i: number) => Promise<unknown>,
  ms: number,
  counter: { next: number },
  tally?: Tally,
) {
  const serverBefore = await processCpuMs(server.pid);
  const clientBefore = process.cpuUsage();
  let done = 0;
  const start = performance.now();
  const end = start + ms;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await op(counter.next++);
        done++;
      }
    }),
  );
  if (!tally) return;
  const elapsed = performance.now() - start;
  const client = process.cpuUsage(clientBefore);
  tally.done += done;
  tally.ms += elapsed;
  tally.serverCpuMs += (await processCpuMs(server.pid)) - serverBefore;
  tally.clientCpuMs += (client.user + client.system) / 1000;
}

export interface Figure {
  perSecond: number;
  /** CPU per operation, in microseconds: independent of how busy the machine is. */
  serverCpuUs: number;
  clientCpuUs: number;
}

const figure = (t: Tally): Figure => ({
  perSecond: (t.done * 1000) / t.ms,
  serverCpuUs: (t.serverCpuMs * 1000) / t.done,
  clientCpuUs: (t.clientCpuMs * 1000) / t.done,
});

/**
 * `op` and the ping ceiling, measured in alternating slices so both see the same machine load (the cores are
 * shared with whatever else runs here).
 */
async function paired(server: Server, ping: () => Promise<unknown>, op: (i: number) => Promise<unknown>) {
  const slices = 6;
  const sliceMs = (SECONDS * 1000) / slices;
  const counter = { next: 0 };
  await burst(server, ping, 200, counter);
  await burst(server, op, 300, counter);
  const tallies = {
    ping: { done: 0, ms: 0, serverCpuMs: 0, clientCpuMs: 0 },
    op: { done: 0, ms: 0, serverCpuMs: 0, clientCpuMs: 0 },
  };
  for (let s = 0; s < slices; s++) {
    await burst(server, ping, sliceMs, counter, tallies.ping);
    await burst(server, op, sliceMs, counter, tallies.op);
  }
  return { ping: figure(tallies.ping), op: figure(tallies.op) };
}

interface Figures {
  insert: { ping: Figure; op: Figure };
  findOne: { ping: Figure; op: Figure };
  update: { ping: Figure; op: Figure };
}

const coinSchema = new mongoose.Schema({
  sku: { type: String, required: true, unique: true },
  name: String,
  qty: Number,
  price: mongoose.Schema.Types.Decimal128,
  tags: [String],
});

async function measureServer(label: string, dbPath?: string): Promise<Figures> {
  const server = await startServer(dbPath);
  const client = await new MongoClient(server.uri, { maxPoolSize: CONCURRENCY }).connect();
  const conn = await mongoose.createConnection(server.uri, { dbName: 'bench', maxPoolSize: CONCURRENCY }).asPromise();
  try {
    const Coin = conn.model('Coin', coinSchema);
    await Coin.init();
    const admin = client.db('admin');
    const ping = () => admin.command({ ping: 1 });
    const run = Date.now().toString(36);
    const insert = await paired(server, ping, (i) =>
      Coin.create({
        sku: `${run}-${i}`,
        name: 'Challenge coin, antique brass',
        qty: 1,
        price: '19.99',
        tags: ['coin', 'brass'],
      }),
    );
    // The keys that exist: the inserts above, whatever their number.
    const skus = (await Coin.find({}, { sku: 1, _id: 0 }).lean()).map((doc) => doc.sku);
    const key = () => skus[Math.floor(Math.random() * skus.length)];
    const findOne = await paired(server, ping, async () => {
      const doc = await Coin.findOne({ sku: key() }).lean();
      if (!doc) throw new Error('an indexed findOne found nothing: the benchmark keys are wrong');
    });
    const update = await paired(server, ping, () => Coin.updateOne({ sku: key() }, { $inc: { qty: 1 } }));
    process.stderr.write(`  ${label}: ${skus.length} coins inserted\n`);
    return { insert, findOne, update };
  } finally {
    await conn.close();
    await client.close();
    await server.stop();
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** Indexed findOne latency (one at a time) on a small and a large collection, interleaved to cancel drift. */
async function measureLatency() {
  const server = await startServer();
  const client = await new MongoClient(server.uri).connect();
  const conn = await mongoose.createConnection(server.uri, { dbName: 'bench_latency' }).asPromise();
  try {
    const sizes = [1_000, 100_000];
    const models = sizes.map((size) => conn.model(`Coin${size}`, coinSchema, `coins_${size}`));
    for (const [i, size] of sizes.entries()) {
      await models[i].init();
      const coll = client.db('bench_latency').collection(`coins_${size}`);
      for (let start = 0; start < size; start += 1000) {
        await coll.insertMany(
          Array.from({ length: Math.min(1000, size - start) }, (_, k) => ({
            sku: `SKU-${start + k}`,
            name: 'Tactical shirt',
            qty: k,
          })),
        );
      }
    }
    const samples: number[][] = sizes.map(() => []);
    const blocks = 8;
    for (let block = 0; block < blocks + 1; block++) {
      for (const [i, size] of sizes.entries()) {
        for (let q = 0; q < LATENCY_QUERIES / blocks; q++) {
          const t = performance.now();
          const doc = await models[i].findOne({ sku: `SKU-${Math.floor(Math.random() * size)}` }).lean();
          const elapsed = performance.now() - t;
          if (!doc) throw new Error('an indexed findOne found nothing');
          if (block > 0) samples[i].push(elapsed); // Block 0 is the warm-up.
        }
      }
    }
    return sizes.map((size, i) => {
      const sorted = samples[i].sort((a, b) => a - b);
      const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
      return { size, mean, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
    });
  } finally {
    await conn.close();
    await client.close();
    await server.stop();
  }
}

/** The journal alone, in this process: appends/s one at a time and with CONCURRENCY in flight. */
async function measureJournal(dir: string) {
  const { journal } = await openJournal(dir);
  try {
    const op = (i: number): JournalOp[] => [
      { op: 'put', db: 'bench', coll: 'coins', doc: { _id: i, sku: `SKU-${i}`, name: 'Challenge coin', qty: 1 } },
    ];
    const results: { inFlight: number; perSecond: number; recordsPerSync: number }[] = [];
    for (const inFlight of [1, CONCURRENCY]) {
      const before = journal.stats();
      let next = 0;
      const end = performance.now() + 1500;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (performance.now() < end) await journal.append(op(next++));
        }),
      );
      const after = journal.stats();
      results.push({
        inFlight,
        perSecond: ((after.records - before.records) * 1000) / (performance.now() - start),
        recordsPerSync: (after.records - before.records) / (after.syncs - before.syncs),
      });
    }
    return results;
  } finally {
    await journal.close();
  }
}

const num = (n: number) => Math.round(n).toLocaleString('en-US');
const ratio = (n: number) => `${n.toFixed(2)}x`;
const row = (cells: string[], widths: number[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');

async function main() {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'em-bench-'));
  try {
    const loadBefore = os.loadavg()[0].toFixed(1);
    process.stderr.write(
      `embedded-mongo benchmark: ${CONCURRENCY} in flight, ${SECONDS} s per figure, ${os.cpus().length} cores, Node ${process.version}\n`,
    );
    const memory = await measureServer('memory');
    const durable = await measureServer('journal', path.join(tmp, 'db'));
    const latency = await measureLatency();
    const journalOnly = await measureJournal(path.join(tmp, 'journal-only'));

    const widths = [22, 7, 7, 7, 6, 6, 7, 7, 7, 6, 6];
    const us = (n: number) => (Number.isFinite(n) ? `${Math.round(n)}` : '-');
    const lines = [
      `embedded-mongo benchmark: mongoose ${mongoose.version}, ${CONCURRENCY} in flight, ${SECONDS} s per figure, ${os.cpus().length} cores, Node ${process.version}`,
      `load average before/after: ${loadBefore} / ${os.loadavg()[0].toFixed(1)} (other work on these cores slows both columns alike)`,
      '',
      row(['', 'memory', '', '', '', '', 'journal', '', '', '', ''], widths),
      row(
        [
          'operation',
          'ops/s',
          'ping/s',
          'ping/op',
          'srv us',
          'cli us',
          'ops/s',
          'ping/s',
          'ping/op',
          'srv us',
          'cli us',
        ],
        widths,
      ),
    ];
    for (const [name, key] of [
      ['insert Model.create', 'insert'],
      ['indexed findOne lean', 'findOne'],
      ['updateOne ($inc)', 'update'],
    ] as const) {
      const m = memory[key];
      const j = durable[key];
      lines.push(
        row(
          [
            name,
            num(m.op.perSecond),
            num(m.ping.perSecond),
            ratio(m.ping.perSecond / m.op.perSecond),
            us(m.op.serverCpuUs),
            us(m.op.clientCpuUs),
            num(j.op.perSecond),
            num(j.ping.perSecond),
            ratio(j.ping.perSecond / j.op.perSecond),
            us(j.op.serverCpuUs),
            us(j.op.clientCpuUs),
          ],
          widths,
        ),
      );
    }
    const pings = [memory, durable].flatMap((f) => [f.insert.ping, f.findOne.ping, f.update.ping]);
    const avg = (pick: (f: Figure) => number) => pings.reduce((sum, f) => sum + pick(f), 0) / pings.length;
    lines.push(
      `  ping/s: a driver ping loop run in slices alternating with the operation: the ceiling.`,
      `  ping/op: how many times slower than that ceiling the operation is (goal <= 2.00x).`,
      `  srv us / cli us: CPU per operation in the server / in this client process (mongoose + driver), in`,
      `  microseconds, which does not depend on machine load; a ping costs the server ${us(avg((f) => f.serverCpuUs))} us and the client ${us(avg((f) => f.clientCpuUs))} us.`,
      '',
    );
    const [small, large] = latency;
    lines.push(
      row(['indexed findOne latency', 'mean ms', 'p50 ms', 'p99 ms'], widths),
      row([`${num(small.size)} documents`, small.mean.toFixed(3), small.p50.toFixed(3), small.p99.toFixed(3)], widths),
      row([`${num(large.size)} documents`, large.mean.toFixed(3), large.p50.toFixed(3), large.p99.toFixed(3)], widths),
      `  100k / 1k median latency: ${ratio(large.p50 / small.p50)} (goal <= 1.50x); mean: ${ratio(large.mean / small.mean)}`,
      '',
      'journal alone (append + fdatasync, group commit):',
      ...journalOnly.map(
        (j) =>
          `  ${String(j.inFlight).padStart(2)} in flight: ${num(j.perSecond)} appends/s, ${j.recordsPerSync.toFixed(1)} records per sync`,
      ),
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

await main();
