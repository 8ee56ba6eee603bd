// @shop/embedded-mongo: a MongoDB server in TypeScript that mongoose, the official driver and mongosh
// connect to with a plain mongodb:// URI. In memory by default; durable with a dbPath.
import { createEngine } from './engine/index.js';
import { openJournal } from './durability/index.js';
import { WireServer, formatHostPort } from './server/server.js';

export interface EmbeddedMongoOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Data directory for the journal and snapshots; without it the data lives in memory only. */
  dbPath?: string;
  /** Replica set name: answers as a one-member replica set primary, which enables transactions. */
  replSet?: string;
  /** Receives the server's log lines (listening, closed connections after protocol errors...). */
  log?: (line: string) => void;
  /** Shown by getCmdLineOpts (the CLI passes its own argv). */
  argv?: string[];
  /** How often expired documents are removed from TTL-indexed collections, in ms (default 60,000 like mongod). */
  ttlSweepMs?: number;
  /**
   * With a dbPath: also compact the journal into a snapshot after this many journaled writes. By default the
   * journal compacts once 64 MB or a million records were written since the last snapshot.
   */
  compactEveryOps?: number;
}

export interface EmbeddedMongo {
  /** Connection string, e.g. `mongodb://127.0.0.1:27017/?replicaSet=rs0`. */
  uri: string;
  port: number;
  host: string;
  /** Closes every connection, aborts open transactions, stops the engine and closes the journal. */
  stop(): Promise<void>;
}

export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  if (options.replSet !== undefined && !/^[A-Za-z0-9_-]+$/.test(options.replSet)) {
    throw new Error(`invalid replica set name '${options.replSet}': use letters, digits, '-' and '_'`);
  }
  const durable = options.dbPath ? await openJournal(options.dbPath) : undefined;
  for (const [name, value] of [
    ['ttlSweepMs', options.ttlSweepMs],
    ['compactEveryOps', options.compactEveryOps],
  ] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value < 0))
      throw new Error(`${name} must be a non-negative number, got ${value}`);
  }
  if (options.ttlSweepMs === 0) throw new Error('ttlSweepMs must be greater than 0');
  const engine = createEngine({
    ...(durable ? { journal: durable.journal, replay: durable.replay } : {}),
    ...(options.ttlSweepMs !== undefined ? { ttlSweepMs: options.ttlSweepMs } : {}),
    ...(options.compactEveryOps !== undefined ? { compactEveryOps: options.compactEveryOps } : {}),
  });
  const server = new WireServer(engine, {
    host,
    port: options.port ?? 0,
    replSet: options.replSet,
    dbPath: options.dbPath,
    argv: options.argv,
    log: options.log,
  });
  let port: number;
  try {
    port = await server.listen();
  } catch (error) {
    await engine.stop();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        `port ${options.port} on ${host} is already in use: stop what uses it or choose another port (0 picks a free one)`,
        { cause: error },
      );
    }
    throw error;
  }
  const address = formatHostPort(host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host, port);
  const uri = options.replSet
    ? `mongodb://${address}/?replicaSet=${options.replSet}`
    : `mongodb://${address}/?directConnection=true`;
  let stopping: Promise<void> | undefined;
  return {
    uri,
    port,
    host,
    stop: () => {
      stopping ??= (async () => {
        await server.close();
        await engine.stop();
      })();
      return stopping;
    },
  };
}

export { WireServer } from './server/server.js';
export type { WireServerOptions } from './server/server.js';
