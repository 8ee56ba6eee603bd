// Real infrastructure for tests: an embedded MongoDB replica set and a real nats-server with JetStream,
// each on a free loopback port, each stopped by the test that started it.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface StartedMongo {
  /** e.g. `mongodb://127.0.0.1:41234/?replicaSet=rs0`; pass a dbName to mongoose per service. */
  uri: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts the embedded MongoDB as the one-member replica set `rs0` (so transactions work) on a free port,
 * in memory unless `dbPath` is given.
 */
/** `port`: a fixed one (a service started before its database, told the address beforehand); default any free one. */
export async function startMongo(options: { dbPath?: string; port?: number } = {}): Promise<StartedMongo> {
  // Loaded lazily so tests that only need NATS do not load the database engine.
  const { startEmbeddedMongo } = await import('@shop/embedded-mongo');
  const mongo = await startEmbeddedMongo({ port: options.port ?? 0, replSet: 'rs0', dbPath: options.dbPath });
  return { uri: mongo.uri, port: mongo.port, stop: () => mongo.stop() };
}

export interface StartedNats {
  /** e.g. `nats://127.0.0.1:41235`. */
  url: string;
  port: number;
  /** JetStream store directory (removed by stop()). */
  storeDir: string;
  stop(): Promise<void>;
}

export const NATS_NOT_INSTALLED = 'nats-server is not installed: install it with: apt-get install -y nats-server';

const NATS_PLACES = ['/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server'];

/** The nats-server binary: $NATS_SERVER_BIN, else Debian's /usr/sbin/nats-server or another usual place. */
export function natsServerBinary(env: NodeJS.ProcessEnv = process.env): string {
  const candidates = env.NATS_SERVER_BIN ? [env.NATS_SERVER_BIN] : NATS_PLACES;
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // try the next place
    }
  }
  throw new Error(NATS_NOT_INSTALLED);
}

/** A port the kernel reports free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** NATS greets each client with an `INFO {...}` line: seeing it means the server accepts connections. */
function greetsWithInfo(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (chunk) => done(chunk.toString('utf8').startsWith('INFO ')));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Signals the child's whole process group (it was spawned detached, so its pid is the group id). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Spawns a real `nats-server -js` on a free 127.0.0.1 port with a fresh temporary JetStream store, in its
 * own process group, and resolves once it accepts connections.
 */
export async function startNats(
  options: {
    readyTimeoutMs?: number;
    /** A fixed port, e.g. to restart a server where clients expect it (no retry if it is taken). */
    port?: number;
    /** An existing JetStream store to reuse; it is kept on stop() (the caller owns it). */
    storeDir?: string;
  } = {},
): Promise<StartedNats> {
  const binary = natsServerBinary();
  const ownsStore = options.storeDir === undefined;
  const storeDir = options.storeDir ?? (await mkdtemp(path.join(os.tmpdir(), 'shop-nats-')));
  const removeStore = () => (ownsStore ? rm(storeDir, { recursive: true, force: true }) : Promise.resolve());
  // A port can be taken between probing and binding; nats-server then exits and we try another.
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const output: string[] = [];
    const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const remember = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      if (output.length > 50) output.shift();
    };
    child.stdout?.on('data', remember);
    child.stderr?.on('data', remember);
    let spawnFailure: Error | undefined;
    child.once('error', (error) => {
      spawnFailure = error;
    });
    const deadline = Date.now() + (options.readyTimeoutMs ?? 15_000);
    let ready = false;
    while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
      if (spawnFailure) {
        await removeStore();
        throw new Error(`could not start ${binary}: ${spawnFailure.message}`);
      }
      if (await greetsWithInfo(port)) {
        ready = true;
        break;
      }
      await sleep(50);
    }
    if (ready) {
      let stopping: Promise<void> | undefined;
      const stop = () => {
        stopping ??= (async () => {
          killGroup(child, 'SIGTERM');
          const killed = await Promise.race([exited(child).then(() => true), sleep(5000).then(() => false)]);
          if (!killed) {
            killGroup(child, 'SIGKILL');
            await exited(child);
          }
          await removeStore();
        })();
        return stopping;
      };
      return { url: `nats://127.0.0.1:${port}`, port, storeDir, stop };
    }
    killGroup(child, 'SIGKILL');
    await exited(child);
    const portTaken = output.join('').includes('address already in use');
    if (!portTaken || attempt >= 3 || options.port !== undefined) {
      await removeStore();
      throw new Error(`nats-server did not become ready on port ${port}:\n${output.join('').slice(-2000)}`);
    }
  }
}

export { coinOrder, orderCreatedData } from './orders.js';
export { orderEventsReader, streamEventsReader, type EventReader } from './events.js';
export { eventually } from './wait.js';
