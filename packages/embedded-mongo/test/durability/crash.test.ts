// Crash test: the embedded server runs in a child process with a data directory, the official driver writes to it
// under load, the child is killed with SIGKILL at a random moment, and after a restart every acknowledged write
// must be there. Three rounds on the same data directory, so each restart also recovers the earlier rounds.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Decimal128, MongoClient, MongoServerError, ObjectId, type Collection, type Document } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const childScript = fileURLToPath(new URL('./fixtures/server-child.ts', import.meta.url));
const ROUNDS = 3;
const WORKERS = 16;

interface Child {
  process: ChildProcess;
  uri: string;
  exited: Promise<number | null>;
}

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function startServer(dbPath: string, compactEvery = 0): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript], {
    cwd: packageDir,
    env: {
      ...process.env,
      EMBEDDED_MONGO_DBPATH: dbPath,
      EMBEDDED_MONGO_REPLSET: 'rs0',
      EMBEDDED_MONGO_COMPACT_EVERY: String(compactEvery),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const uri = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start within 30 s: ${stderr}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n')) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { uri: string }).uri);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before it was ready: ${stderr}`));
    });
  });
  return { process: child, uri, exited };
}

function connect(uri: string): MongoClient {
  // No retries: a write in flight when the server dies must fail, never be re-sent to the next server.
  return new MongoClient(uri, {
    retryWrites: false,
    retryReads: false,
    serverSelectionTimeoutMS: 3000,
    maxPoolSize: WORKERS * 2,
  });
}

/** What the server acknowledged, and what was in flight when it died (either outcome is allowed for those). */
class Ledger {
  inserted = new Map<string, { sku: string }>();
  version = new Map<string, number>();
  deleted = new Set<string>();
  deleteInFlight = new Set<string>();
  orders = new Set<string>();
  acknowledged = 0;
}

async function runLoad(client: MongoClient, round: number, ledger: Ledger, isKilled: () => boolean): Promise<void> {
  const db = client.db('shop_crash');
  const coins = db.collection('coins');
  const orders = db.collection('orders');
  const outbox = db.collection('outbox');

  const worker = async (w: number) => {
    const mine: ObjectId[] = [];
    for (let i = 1; !isKilled(); i++) {
      try {
        if (w === 0) {
          // The outbox pattern: an order and its event commit together or not at all.
          const orderId = new ObjectId();
          const session = client.startSession();
          try {
            // Not withTransaction: its commit retries would keep a dead server's test waiting for two minutes.
            session.startTransaction();
            await orders.insertOne({ _id: orderId, round, total: Decimal128.fromString(`${i}.99`) }, { session });
            await outbox.insertOne({ _id: orderId, type: 'OrderPlaced', at: new Date() }, { session });
            await session.commitTransaction();
          } finally {
            await session.endSession().catch(() => undefined);
          }
          ledger.orders.add(orderId.toHexString());
        } else if (mine.length === 0 || i % 3 === 0) {
          const _id = new ObjectId();
          const sku = `R${round}-W${w}-${i}`;
          await coins.insertOne({
            _id,
            sku,
            round,
            version: 0,
            qty: 0,
            price: Decimal128.fromString(`${i}.25`),
            at: new Date(),
          });
          ledger.inserted.set(_id.toHexString(), { sku });
          ledger.version.set(_id.toHexString(), 0);
          mine.push(_id);
        } else if (i % 17 === 0) {
          const _id = mine.shift()!;
          ledger.deleteInFlight.add(_id.toHexString());
          await coins.deleteOne({ _id });
          ledger.deleted.add(_id.toHexString());
        } else {
          // Each document is updated by its own worker only, so the acknowledged version is exact.
          const _id = mine[i % mine.length];
          const version = ledger.version.get(_id.toHexString())! + 1;
          await coins.updateOne({ _id }, { $set: { version }, $inc: { qty: 1 } });
          ledger.version.set(_id.toHexString(), version);
        }
        ledger.acknowledged++;
      } catch (err) {
        if (isKilled()) return; // Failed because the server died: not acknowledged.
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
}

async function verify(coins: Collection, orders: Collection, outbox: Collection, ledger: Ledger) {
  const found = new Map<string, Document>();
  for await (const doc of coins.find({})) found.set(doc._id.toHexString(), doc);
  const missing: string[] = [];
  const staleUpdates: string[] = [];
  const torn: string[] = [];
  for (const [id, { sku }] of ledger.inserted) {
    if (ledger.deleted.has(id) || ledger.deleteInFlight.has(id)) continue;
    const doc = found.get(id);
    if (!doc || doc.sku !== sku) {
      missing.push(id);
      continue;
    }
    if (doc.version < ledger.version.get(id)!)
      staleUpdates.push(`${id}: version ${doc.version} < acknowledged ${ledger.version.get(id)}`);
    if (doc.qty !== doc.version) torn.push(`${id}: qty ${doc.qty} but version ${doc.version}`);
    if (!(doc.price instanceof Decimal128)) torn.push(`${id}: price came back as ${typeof doc.price}`);
  }
  const resurrected = [...ledger.deleted].filter((id) => found.has(id));
  expect({ missing, staleUpdates, torn, resurrected }).toEqual({
    missing: [],
    staleUpdates: [],
    torn: [],
    resurrected: [],
  });

  const orderIds = new Set(
    (await orders.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id.toHexString()),
  );
  const eventIds = new Set(
    (await outbox.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id.toHexString()),
  );
  expect([...ledger.orders].filter((id) => !orderIds.has(id))).toEqual([]);
  // All or nothing: never an order without its event or the reverse.
  expect([...orderIds].filter((id) => !eventIds.has(id))).toEqual([]);
  expect([...eventIds].filter((id) => !orderIds.has(id))).toEqual([]);

  const indexes = await coins.listIndexes().toArray();
  expect(indexes.find((index) => index.name === 'sku_1')).toMatchObject({ key: { sku: 1 }, unique: true });
  const someSku = [...found.values()][0]?.sku;
  if (someSku) {
    const duplicate = await coins.insertOne({ sku: someSku }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(duplicate).toBeInstanceOf(MongoServerError);
    expect((duplicate as MongoServerError).code).toBe(11000);
  }
  return { documents: found.size, orders: orderIds.size };
}

describe('crash safety', () => {
  it(
    `loses no acknowledged write when killed with SIGKILL under load (${ROUNDS} rounds)`,
    { timeout: 240_000 },
    async () => {
      const dbPath = await tempDir('em-crash-');
      const ledger = new Ledger();
      for (let round = 0; round <= ROUNDS; round++) {
        // Round 1 compacts every 40 journaled ops, so the kill may hit a snapshot being written.
        const server = await startServer(dbPath, round === 1 ? 40 : 0);
        const client = connect(server.uri);
        try {
          const db = client.db('shop_crash');
          const coins = db.collection('coins');
          if (round === 0) {
            await coins.createIndex({ sku: 1 }, { unique: true });
            await db.createCollection('orders');
            await db.createCollection('outbox');
          } else {
            const summary = await verify(coins, db.collection('orders'), db.collection('outbox'), ledger);
            if (round === 2) {
              const files = await fs.readdir(dbPath);
              expect(files.filter((name) => name.endsWith('.snap'))).toHaveLength(1);
            }
            console.info(
              `crash round ${round}: recovered ${summary.documents} coins and ${summary.orders} orders, ${ledger.acknowledged} writes acknowledged so far`,
            );
          }
          if (round === ROUNDS) {
            await client.close();
            server.process.kill('SIGTERM');
            expect(await server.exited).toBe(0);
            break;
          }

          let killed = false;
          // Set by the load callback; read through a function so the compiler does not narrow it after the first check.
          const failed: { error?: Error } = {};
          const load = runLoad(client, round, ledger, () => killed).catch((err: unknown) => {
            failed.error = err instanceof Error ? err : new Error(String(err));
          });
          const rethrowLoadFailure = () => {
            if (failed.error) throw failed.error;
          };
          const acknowledgedBefore = ledger.acknowledged;
          // Kill once the load is well under way, at a random point in the next second.
          const deadline = Date.now() + 60_000;
          while (ledger.acknowledged - acknowledgedBefore < 200 && !failed.error && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          rethrowLoadFailure();
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 1000));
          killed = true;
          server.process.kill('SIGKILL');
          await server.exited;
          await load;
          rethrowLoadFailure();
          expect(ledger.acknowledged - acknowledgedBefore).toBeGreaterThanOrEqual(200);
        } finally {
          await client.close(true).catch(() => undefined);
        }
      }
    },
  );
});
