// The TCP side: accepts connections, frames wire messages, answers each request in order per connection,
// and streams awaitable hello replies to driver monitors (exhaust with moreToCome).
import net from 'node:net';
import { ObjectId, Timestamp, type Document } from 'bson';
import type { Engine } from '../engine/types.js';
import type { ConnectionInfo, ServerOptions, ServerState } from './context.js';
import { CursorManager } from './cursors.js';
import { SessionManager } from './sessions.js';
import { runCommand } from './dispatch.js';
import { topologyVersion } from './commands/admin.js';
import { isPlainObject, toNumber } from './commands/args.js';
import {
  encodeOpMsg,
  encodeOpReply,
  MessageFramer,
  MSG_EXHAUST_ALLOWED,
  MSG_MORE_TO_COME,
  parseRequest,
  ProtocolError,
  type Request,
} from './wire.js';

/** How often idle cursors, sessions and abandoned transactions are cleaned up. */
const REAP_INTERVAL_MS = 30_000;
const LOG_LINES_KEPT = 200;
const HELLO_COMMANDS = new Set(['hello', 'isMaster', 'ismaster']);

export interface WireServerOptions {
  host: string;
  port: number;
  replSet?: string;
  dbPath?: string;
  argv?: string[];
  /** Receives one line per notable event (listening, protocol errors...). */
  log?: (line: string) => void;
}

let nextRequestId = 1;
const newRequestId = () => {
  nextRequestId = nextRequestId >= 0x7fffffff ? 1 : nextRequestId + 1;
  return nextRequestId;
};

export function formatHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The address clients should use: a wildcard bind is advertised as loopback. */
function advertisedHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

export class WireServer {
  readonly state: ServerState;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly closers = new Set<() => void>();
  private reaper?: NodeJS.Timeout;
  private nextConnectionId = 1;
  private opTime: Timestamp;
  private stopped = false;

  constructor(
    engine: Engine,
    private readonly options: WireServerOptions,
  ) {
    this.opTime = new Timestamp({ t: Math.floor(Date.now() / 1000), i: 1 });
    const cursors = new CursorManager();
    const serverOptions: ServerOptions = {
      host: options.host,
      port: options.port,
      replSet: options.replSet,
      dbPath: options.dbPath,
    };
    this.state = {
      engine,
      cursors,
      sessions: new SessionManager(engine, (key) => cursors.killSession(key)),
      options: serverOptions,
      address: formatHostPort(advertisedHost(options.host), options.port),
      startedAt: new Date(),
      processId: new ObjectId(),
      electionId: ObjectId.createFromHexString('7fffffff0000000000000001'),
      lastOpTime: () => this.opTime,
      advanceOpTime: () => {
        const now = Math.floor(Date.now() / 1000);
        const last = this.opTime;
        this.opTime =
          now > last.high ? new Timestamp({ t: now, i: 1 }) : new Timestamp({ t: last.high, i: last.low + 1 });
        return this.opTime;
      },
      connections: { current: 0, totalCreated: 0 },
      opcounters: { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 },
      argv: options.argv ?? ['embedded-mongo'],
      log: [],
    };
    this.server = net.createServer((socket) => this.accept(socket));
  }

  /** Starts listening; resolves with the bound port (useful with port 0). */
  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const port = (this.server.address() as net.AddressInfo).port;
    this.state.options.port = port;
    this.state.address = formatHostPort(advertisedHost(this.options.host), port);
    this.reaper = setInterval(() => {
      this.state.cursors.reapIdle();
      this.state.sessions.reap();
    }, REAP_INTERVAL_MS);
    this.reaper.unref();
    this.log(
      `listening on ${this.state.address}${this.options.replSet ? ` as replica set ${this.options.replSet}` : ''}`,
    );
    return port;
  }

  /** Closes the listener and every connection, and aborts open transactions. The engine is not stopped here. */
  async close(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.reaper) clearInterval(this.reaper);
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const close of this.closers) close();
    for (const socket of this.sockets) socket.destroy();
    await closed;
    this.state.sessions.endAll();
    this.state.cursors.clear();
  }

  private log(line: string): void {
    const entry = `${new Date().toISOString()} ${line}`;
    this.state.log.push(entry);
    if (this.state.log.length > LOG_LINES_KEPT) this.state.log.shift();
    this.options.log?.(line);
  }

  private accept(socket: net.Socket): void {
    if (this.stopped) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    this.sockets.add(socket);
    this.state.connections.current++;
    this.state.connections.totalCreated++;
    const conn: ConnectionInfo = {
      id: this.nextConnectionId++,
      remote: formatHostPort(socket.remoteAddress ?? 'unknown', socket.remotePort ?? 0),
    };
    const framer = new MessageFramer();
    let queue = Promise.resolve();
    // Set while an awaitable hello is waiting; new data from the client ends the wait.
    let wake: (() => void) | undefined;
    const onClose = () => wake?.();
    this.closers.add(onClose);

    socket.on('data', (chunk: Buffer) => {
      let messages: Buffer[];
      try {
        messages = framer.push(chunk);
      } catch (error) {
        this.log(`connection ${conn.id} from ${conn.remote}: ${(error as Error).message}; closing it`);
        socket.destroy();
        return;
      }
      if (messages.length > 0) wake?.();
      for (const message of messages) {
        queue = queue
          .then(() =>
            this.handle(socket, conn, message, (fn) => {
              wake = fn;
            }),
          )
          .catch((error: unknown) => {
            // Even the error reply could not be sent: this connection is unusable, the server is not.
            this.log(`connection ${conn.id} from ${conn.remote}: ${(error as Error).message}; closing it`);
            socket.destroy();
          });
      }
    });
    socket.on('error', () => {
      // Resets from clients going away are normal; 'close' follows.
    });
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.closers.delete(onClose);
      wake?.();
      this.state.connections.current--;
    });
  }

  private async handle(
    socket: net.Socket,
    conn: ConnectionInfo,
    message: Buffer,
    setWake: (fn: (() => void) | undefined) => void,
  ): Promise<void> {
    if (socket.destroyed) return;
    let request: Request;
    try {
      request = parseRequest(message);
    } catch (error) {
      const reason = error instanceof ProtocolError ? error.message : String(error);
      this.log(`connection ${conn.id} from ${conn.remote}: bad message (${reason}); closing it`);
      socket.destroy();
      return;
    }
    try {
      await this.answer(socket, conn, request, setWake);
    } catch (error) {
      // Encoding the reply failed (e.g. a document too large): answer the error, keep the connection.
      const reply = {
        ok: 0,
        errmsg: `failed to send reply: ${(error as Error).message}`,
        code: 1,
        codeName: 'InternalError',
      };
      if (!socket.destroyed) {
        socket.write(
          request.kind === 'query' || (request.kind === 'unsupported' && request.replyAs === 'reply')
            ? encodeOpReply(newRequestId(), request.header.requestId, reply)
            : encodeOpMsg(newRequestId(), request.header.requestId, reply),
        );
      }
    }
  }

  private async answer(
    socket: net.Socket,
    conn: ConnectionInfo,
    request: Request,
    setWake: (fn: (() => void) | undefined) => void,
  ): Promise<void> {
    const requestId = request.header.requestId;
    if (request.kind === 'unsupported') {
      const reply = { ok: 0, errmsg: request.reason, code: 2, codeName: 'BadValue' };
      socket.write(
        request.replyAs === 'reply'
          ? encodeOpReply(newRequestId(), requestId, reply)
          : encodeOpMsg(newRequestId(), requestId, reply),
      );
      return;
    }
    if (request.kind === 'query') {
      socket.write(encodeOpReply(newRequestId(), requestId, await this.answerOpQuery(conn, request)));
      return;
    }
    const command = request.command;
    const reply = await runCommand(this.state, conn, command);
    if (socket.destroyed) return;
    if (request.flagBits & MSG_MORE_TO_COME) return; // unacknowledged (w:0): the client reads no reply
    const name = Object.keys(command)[0];
    const maxAwaitTimeMS = toNumber(command.maxAwaitTimeMS);
    if (
      HELLO_COMMANDS.has(name) &&
      reply.ok === 1 &&
      maxAwaitTimeMS !== undefined &&
      this.topologyUnchanged(command.topologyVersion)
    ) {
      await this.streamHello(socket, conn, request, maxAwaitTimeMS, setWake);
      return;
    }
    socket.write(encodeOpMsg(newRequestId(), requestId, reply));
  }

  /** OP_QUERY survives only for the first handshake (hello/isMaster on <db>.$cmd), as in MongoDB 6+. */
  private async answerOpQuery(conn: ConnectionInfo, request: Extract<Request, { kind: 'query' }>): Promise<Document> {
    if (!request.collection.endsWith('.$cmd')) {
      return { $err: 'OP_QUERY is no longer supported for queries; use the find command (OP_MSG)', code: 352, ok: 0 };
    }
    const db = request.collection.slice(0, -'.$cmd'.length);
    let command = request.query;
    // Legacy drivers wrap the command as { $query: {...}, $readPreference } when they add a read preference.
    if (isPlainObject(command.$query)) command = command.$query;
    else if (Object.keys(command)[0] === 'query' && isPlainObject(command.query)) command = command.query;
    const name = Object.keys(command)[0];
    if (!HELLO_COMMANDS.has(name)) {
      return {
        ok: 0,
        errmsg: `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade.`,
        code: 352,
        codeName: 'UnsupportedOpQueryCommand',
      };
    }
    return runCommand(this.state, conn, { ...command, $db: db });
  }

  private topologyUnchanged(clientVersion: unknown): boolean {
    if (!clientVersion || typeof clientVersion !== 'object') return false;
    // The driver echoes our processId back as its own bson ObjectId (another copy of bson, so no instanceof).
    const processId: unknown = (clientVersion as { processId?: unknown }).processId;
    const ours = topologyVersion(this.state).processId as ObjectId;
    const theirs =
      typeof processId === 'string'
        ? processId
        : processId instanceof Object && 'toHexString' in processId && typeof processId.toHexString === 'function'
          ? String(processId.toHexString())
          : undefined;
    return theirs === ours.toHexString();
  }

  /**
   * Awaitable hello: the topology of a one-member set never changes, so each reply goes out after
   * maxAwaitTimeMS. With exhaustAllowed the replies keep coming (moreToCome) until the client hangs up.
   */
  private async streamHello(
    socket: net.Socket,
    conn: ConnectionInfo,
    request: Extract<Request, { kind: 'msg' }>,
    maxAwaitTimeMS: number,
    setWake: (fn: (() => void) | undefined) => void,
  ): Promise<void> {
    const exhaust = (request.flagBits & MSG_EXHAUST_ALLOWED) !== 0;
    let responseTo = request.header.requestId;
    const { topologyVersion: _tv, maxAwaitTimeMS: _max, ...command } = request.command;
    void _tv;
    void _max;
    for (;;) {
      const interrupted = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(
          () => {
            setWake(undefined);
            resolve(false);
          },
          Math.max(0, maxAwaitTimeMS),
        );
        setWake(() => {
          clearTimeout(timer);
          setWake(undefined);
          resolve(true);
        });
      });
      if (socket.destroyed || this.stopped) return;
      const reply = await runCommand(this.state, conn, command);
      const id = newRequestId();
      const more = exhaust && !interrupted;
      socket.write(encodeOpMsg(id, responseTo, reply, more ? MSG_MORE_TO_COME : 0));
      if (!more) return;
      responseTo = id;
    }
  }
}
