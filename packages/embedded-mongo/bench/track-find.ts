// The server's CPU per tracking read (issue 20): the find command the orders service sends for
// POST /api/orders/track (a unique-index equality on orderNumber, a 24-field projection, limit 1,
// singleBatch) with 50 in flight through the official driver, against the server in its own process in
// replica-set mode (as the local stack runs it). Prints the server's CPU per command (from /proc), which a
// shared machine moves much less than the rate. With --compare <other package dir> a server started from
// another copy of this package, built (e.g. `git archive HEAD packages/embedded-mongo | tar -x -C /tmp/base`, with
// node_modules linked beside it) is measured in turn with this one, alternating which goes first.
//
//   npx tsx packages/embedded-mongo/bench/track-find.ts [--seconds 3] [--rounds 4] [--in-flight 50] [--compare DIR]
//     [--cpu-prof-dir DIR]
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '4' },
    'in-flight': { type: 'string', default: '50' },
    compare: { type: 'string' },
    // Writes a V8 CPU profile of this package's server to the directory.
    'cpu-prof-dir': { type: 'string' },
  },
  strict: true,
});
const packageDir = fileURLToPath(new URL('..', import.meta.url));

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Server {
  label: string;
  child: ChildProcess;
  client: MongoClient;
}

async function startServer(label: string, dir: string): Promise<Server> {
  const profile =
    label === 'this' && values['cpu-prof-dir'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof-dir']}`] : [];
  // The built server (dist), started as the local stack starts it.
  const args = [...profile, path.join(dir, 'bin/embedded-mongo.mjs'), '--port', '0', '--replset', 'rs0'];
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  const uri = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${label} server exited ${code}`)));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      // "<time> ready: <uri> (in memory)"
      const ready = / ready: (\S+)/.exec(line);
      if (ready) resolve(ready[1]);
    });
  });
  const client = await new MongoClient(uri).connect();
  return { label, child, client };
}

/** An order as the orders service stores it (the fields the tracking read projects, and more). */
function order(n: number) {
  const created = new Date(Date.UTC(2026, 10, 1, 12, n % 60));
  return {
    orderNumber: `CC-2026-${String(n).padStart(6, '0')}`,
    emailKey: `buyer${n}@example.com`,
    email: `Buyer${n}@Example.com`,
    customerName: `Buyer ${n}`,
    phone: '+1 555 0100',
    itemType: 'coin',
    quantity: 100 + n,
    description: 'Two-sided coin with the unit crest on the front and the motto on the back.',
    estimatedTotal: 612.5,
    discount: { code: 'SPRING', amount: 25 },
    quote: { finalAmount: 587.5, notes: 'Setup waived' },
    status: 'in_production',
    createdAt: created,
    updatedAt: created,
    aiGenerated: false,
    designMethod: 'upload',
    size: '1.75in',
    sizeBreakdown: null,
    colors: ['gold', 'navy'],
    finish: 'antique-gold',
    shape: 'round',
    edge: 'rope',
    features: ['epoxy', 'cut-out'],
    statusHistory: [
      { status: 'pending', date: created, note: 'Quote requested' },
      { status: 'quoted', date: created, note: 'Quote sent' },
      { status: 'in_production', date: created, note: 'Paid (payment intent pi_3Nabc123)' },
    ],
    tracking: null,
    shippingAddress: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
    files: [],
    idempotencyKey: `key-${n}`,
  };
}

const fields =
  'orderNumber emailKey customerName email itemType quantity description estimatedTotal discount quote status createdAt updatedAt aiGenerated designMethod size sizeBreakdown colors finish shape edge features statusHistory tracking';
const projection = Object.fromEntries(fields.split(' ').map((f) => [f, 1]));
const ORDERS = 2_000;

async function prepare(server: Server): Promise<void> {
  const coll = server.client.db('shop_orders').collection('orders');
  await coll.createIndex({ orderNumber: 1 }, { unique: true });
  await coll.createIndex({ idempotencyKey: 1 }, { unique: true, sparse: true });
  await coll.createIndex({ emailKey: 1, createdAt: -1 });
  await coll.createIndex({ status: 1, createdAt: -1 });
  await coll.insertMany(Array.from({ length: ORDERS }, (_, i) => order(i)));
}

/** `seconds` of tracking reads with `inFlight` in flight; the server's CPU per read, µs, and reads/s. */
async function measure(server: Server, seconds: number, inFlight: number) {
  const db = server.client.db('shop_orders');
  let reads = 0;
  const end = Date.now() + seconds * 1000;
  const before = cpuMs(server.child.pid!);
  const worker = async (w: number) => {
    for (let i = w; Date.now() < end; i += inFlight) {
      const number = `CC-2026-${String(i % ORDERS).padStart(6, '0')}`;
      const reply = (await db.command({
        find: 'orders',
        filter: { orderNumber: number },
        projection,
        limit: 1,
        singleBatch: true,
      })) as { cursor: { firstBatch: { orderNumber: string }[] } };
      if (reply.cursor.firstBatch[0]?.orderNumber !== number) throw new Error(`${server.label}: ${number} not found`);
      reads++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, (_, w) => worker(w)));
  const used = cpuMs(server.child.pid!) - before;
  return { us: (used * 1000) / reads, rate: reads / seconds };
}

const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const inFlight = Number(values['in-flight']);
const servers = [await startServer('this', packageDir)];
if (values.compare) servers.push(await startServer('compared', path.resolve(values.compare)));
try {
  for (const server of servers) {
    await prepare(server);
    await measure(server, 1, inFlight); // warm-up: JIT, connections
  }
  console.log(
    `tracking find, ${inFlight} in flight, ${seconds} s per figure, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}`,
  );
  const totals = new Map(servers.map((s) => [s.label, [] as number[]]));
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 0 ? [...servers].reverse() : servers;
    const parts: string[] = [];
    for (const server of order) {
      const { us, rate } = await measure(server, seconds, inFlight);
      totals.get(server.label)!.push(us);
      parts.push(`${server.label} ${us.toFixed(1)} us/read (${rate.toFixed(0)}/s)`);
    }
    console.log(`round ${round}: ${parts.join(', ')} (load ${os.loadavg()[0].toFixed(2)})`);
  }
  for (const [label, all] of totals) {
    const sorted = [...all].sort((a, b) => a - b);
    console.log(
      `${label}: median ${sorted[sorted.length >> 1].toFixed(1)} us/read, range ${sorted[0].toFixed(1)}-${sorted.at(-1)!.toFixed(1)}`,
    );
  }
} finally {
  for (const server of servers) {
    await server.client.close();
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  }
}
