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
  stop(): Promise<void>;
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
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]!) as { uri: string }).uri);
    });
    void exited.then(() => reject(new Error('the embedded server exited before it was ready')));
  });
  return {
    uri,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs `op` with CONCURRENCY in flight for SECONDS (after a short warm-up); returns completed ops per second. */
async function throughput(op: (i: number) => Promise<unknown>, seconds = SECONDS): Promise<number> {
  let next = 0;
  const run = async (ms: number) => {
    let done = 0;
    const end = performance.now() + ms;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          await op(next++);
          done++;
        }
      }),
    );
    return (done * 1000) / (performance.now() - start);
  };
  await run(300);
  return run(seconds * 1000);
}

interface Figures {
  ping: number;
  insert: number;
  findOne: number;
  update: number;
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
    const ping = await throughput(() => admin.command({ ping: 1 }));
    const run = Date.now().toString(36);
    let inserted = 0;
    const insert = await throughput(async (i) => {
      await Coin.create({ sku: `${run}-${i}`, name: 'Challenge coin, antique brass', qty: 1, price: '19.99', tags: ['coin', 'brass'] });
      inserted = Math.max(inserted, i + 1);
    });
    // Keys that exist: the warm-up and the timed run both inserted with consecutive numbers from 0.
    const existing = await Coin.countDocuments();
    const key = () => `${run}-${Math.floor(Math.random() * Math.min(existing, inserted))}`;
    const findOne = await throughput(async () => {
      const doc = await Coin.findOne({ sku: key() }).lean();
      if (!doc) throw new Error('an indexed findOne found nothing: the benchmark keys are wrong');
    });
    const update = await throughput(() => Coin.updateOne({ sku: key() }, { $inc: { qty: 1 } }));
    process.stderr.write(`  ${label}: ${existing} coins inserted\n`);
    return { ping, insert, findOne, update };
  } finally {
    await conn.close();
    await client.close();
    await server.stop();
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Indexed findOne latency (one at a time) on a small and a large collection, interleaved to cancel drift. */
async function measureLatency() {
  const server = await startServer();
  const client = await new MongoClient(server.uri).connect();
  const conn = await mongoose.createConnection(server.uri, { dbName: 'bench_latency' }).asPromise();
  try {
    const sizes = [1_000, 100_000];
    const models = sizes.map((size) => conn.model(`Coin${size}`, coinSchema, `coins_${size}`));
    for (const [i, size] of sizes.entries()) {
      await models[i]!.init();
      const coll = client.db('bench_latency').collection(`coins_${size}`);
      for (let start = 0; start < size; start += 1000) {
        await coll.insertMany(
          Array.from({ length: Math.min(1000, size - start) }, (_, k) => ({ sku: `SKU-${start + k}`, name: 'Tactical shirt', qty: k })),
        );
      }
    }
    const samples: number[][] = sizes.map(() => []);
    const blocks = 8;
    for (let block = 0; block < blocks + 1; block++) {
      for (const [i, size] of sizes.entries()) {
        for (let q = 0; q < LATENCY_QUERIES / blocks; q++) {
          const t = performance.now();
          const doc = await models[i]!.findOne({ sku: `SKU-${Math.floor(Math.random() * size)}` }).lean();
          const elapsed = performance.now() - t;
          if (!doc) throw new Error('an indexed findOne found nothing');
          if (block > 0) samples[i]!.push(elapsed); // Block 0 is the warm-up.
        }
      }
    }
    return sizes.map((size, i) => {
      const sorted = samples[i]!.sort((a, b) => a - b);
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
const row = (cells: string[], widths: number[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');

async function main() {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'em-bench-'));
  try {
    process.stderr.write(`embedded-mongo benchmark: ${CONCURRENCY} in flight, ${SECONDS} s per figure, ${os.cpus().length} cores, Node ${process.version}\n`);
    const memory = await measureServer('memory');
    const durable = await measureServer('journal', path.join(tmp, 'db'));
    const latency = await measureLatency();
    const journalOnly = await measureJournal(path.join(tmp, 'journal-only'));

    const widths = [24, 10, 12, 10, 12];
    const lines = [
      `embedded-mongo benchmark: mongoose ${mongoose.version}, ${CONCURRENCY} in flight, ${SECONDS} s per figure, ${os.cpus().length} cores, Node ${process.version}`,
      '',
      row(['operation', 'memory/s', 'ping/op', 'journal/s', 'ping/op'], widths),
      row(['driver ping (ceiling)', num(memory.ping), ratio(1), num(durable.ping), ratio(1)], widths),
    ];
    for (const [name, key] of [['insert (Model.create)', 'insert'], ['indexed findOne (lean)', 'findOne'], ['updateOne ($inc)', 'update']] as const) {
      lines.push(row([name, num(memory[key]), ratio(memory.ping / memory[key]), num(durable[key]), ratio(durable.ping / durable[key])], widths));
    }
    lines.push('  (ping/op: how many times slower than the ping ceiling; goal <= 2.00x)', '');
    const [small, large] = latency;
    lines.push(
      row(['indexed findOne latency', 'mean ms', 'p50 ms', 'p99 ms', ''], widths),
      row([`${num(small!.size)} documents`, small!.mean.toFixed(3), small!.p50.toFixed(3), small!.p99.toFixed(3), ''], widths),
      row([`${num(large!.size)} documents`, large!.mean.toFixed(3), large!.p50.toFixed(3), large!.p99.toFixed(3), ''], widths),
      `  100k / 1k mean latency: ${ratio(large!.mean / small!.mean)} (goal <= 1.50x)`,
      '',
      'journal alone (append + fdatasync, group commit):',
      ...journalOnly.map((j) => `  ${String(j.inFlight).padStart(2)} in flight: ${num(j.perSecond)} appends/s, ${j.recordsPerSync.toFixed(1)} records per sync`),
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

await main();
