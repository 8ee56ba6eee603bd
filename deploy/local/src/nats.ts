import { accessSync, constants, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { ManagedChild, delay, type LogSink } from './children.js';
import { LOCAL_NATS_ENV } from './node-flags.js';

export const NATS_MISSING_MESSAGE = 'nats-server is not installed: apt-get install -y nats-server';

export class NatsServerMissingError extends Error {
  constructor() {
    super(NATS_MISSING_MESSAGE);
    this.name = 'NatsServerMissingError';
  }
}

/** Where Debian puts it (/usr/sbin is not on every user's PATH) and other usual places. */
const USUAL_PLACES = ['/usr/sbin', '/usr/local/bin', '/usr/bin', '/usr/local/sbin'];

/** Finds an executable nats-server on PATH (then the usual places); undefined when there is none. */
export function findNatsServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NATS_SERVER_BIN) return isExecutable(env.NATS_SERVER_BIN) ? env.NATS_SERVER_BIN : undefined;
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), ...USUAL_PLACES];
  for (const dir of dirs) {
    const candidate = join(dir, 'nats-server');
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface LocalNats {
  url: string;
  child: ManagedChild;
}

/** Starts `nats-server -js` on 127.0.0.1:port with its JetStream store in storeDir, and waits for it. */
export async function startNatsServer(options: {
  binary: string;
  port: number;
  storeDir: string;
  cwd: string;
  log?: LogSink;
  timeoutMs?: number;
}): Promise<LocalNats> {
  mkdirSync(options.storeDir, { recursive: true });
  const child = new ManagedChild({
    name: 'nats',
    command: options.binary,
    args: ['-js', '-a', '127.0.0.1', '-p', String(options.port), '-sd', options.storeDir, '-n', 'shop-local'],
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...LOCAL_NATS_ENV },
    log: options.log,
  });
  const url = `nats://127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    if (!child.running) {
      throw new Error(`nats-server exited before it was ready:\n${child.recentLines().join('\n')}`);
    }
    if (await answersInfo(options.port)) return { url, child };
    await delay(100);
  }
  await child.stop();
  throw new Error(`nats-server did not answer on ${url} in time:\n${child.recentLines().join('\n')}`);
}

/** A NATS server greets every client with an `INFO {...}` line; that is our readiness check. */
export function answersInfo(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (chunk) => done(chunk.toString('utf8').startsWith('INFO ')));
  });
}
