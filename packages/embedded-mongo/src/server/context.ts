// What a command handler can see: the server-wide state and the request it is answering.
import type { Document, ObjectId, Timestamp } from 'bson';
import type { Engine, Txn } from '../engine/types.js';
import type { CursorManager } from './cursors.js';
import type { Session, SessionManager } from './sessions.js';

export interface ServerOptions {
  host: string;
  port: number;
  replSet?: string;
  dbPath?: string;
}

export interface ServerState {
  engine: Engine;
  cursors: CursorManager;
  sessions: SessionManager;
  options: ServerOptions;
  /** `host:port` as clients address this server (hello's `me`, `hosts`, `primary`). */
  address: string;
  startedAt: Date;
  processId: ObjectId;
  electionId: ObjectId;
  /** Time of the last write; advances on every write in replica-set mode. */
  lastOpTime(): Timestamp;
  advanceOpTime(): Timestamp;
  connections: { current: number; totalCreated: number };
  opcounters: { insert: number; query: number; update: number; delete: number; getmore: number; command: number };
  argv: string[];
  log: string[];
}

export interface ConnectionInfo {
  id: number;
  remote: string;
}

export interface CommandContext {
  state: ServerState;
  conn: ConnectionInfo;
  /** Database the command runs against (`$db`). */
  db: string;
  /** Command name, the body's first key. */
  name: string;
  body: Document;
  session?: Session;
  /** Set when the command runs inside a multi-document transaction. */
  txn?: Txn;
}

export type CommandHandler = (ctx: CommandContext) => Document | Promise<Document>;
