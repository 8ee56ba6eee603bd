// Server-side cursors: the engine returns a query's whole result; a cursor hands it out in batches
// (firstBatch/nextBatch) under a 64-bit id until it is exhausted, killed, or idle too long.
import { randomBytes } from 'node:crypto';
import { BSON, Long, type Document } from 'bson';
import { MAX_BSON_OBJECT_SIZE } from './wire.js';
import { commandError, ErrorCodes } from './errors.js';

/** mongod's default for the first batch of find/aggregate. */
export const DEFAULT_FIRST_BATCH_SIZE = 101;
/** Idle cursors are closed after this long (mongod's cursorTimeoutMillis default). */
export const CURSOR_IDLE_TIMEOUT_MS = 10 * 60 * 1000;
/** A batch stops growing once it holds this many bytes (leaves room for the reply envelope). */
const MAX_BATCH_BYTES = MAX_BSON_OBJECT_SIZE - 64 * 1024;

interface OpenCursor {
  id: Long;
  ns: string;
  docs: Document[];
  position: number;
  sessionKey?: string;
  lastUsed: number;
}

export interface Batch {
  batch: Document[];
  /** Long(0) once the cursor is exhausted or closed. */
  id: Long;
}

export class CursorManager {
  private readonly cursors = new Map<string, OpenCursor>();

  get size(): number {
    return this.cursors.size;
  }

  /**
   * Takes the first batch of `docs`; if more remain (and `singleBatch` is not set) keeps them under a new
   * cursor id. batchSize undefined = mongod's default of 101.
   */
  open(
    ns: string,
    docs: Document[],
    options: { batchSize?: number; singleBatch?: boolean; sessionKey?: string },
  ): Batch {
    const batch = takeBatch(docs, 0, options.batchSize ?? DEFAULT_FIRST_BATCH_SIZE);
    if (options.singleBatch || batch.length >= docs.length) return { batch, id: Long.ZERO };
    const id = this.newId();
    this.cursors.set(id.toString(), {
      id,
      ns,
      docs,
      position: batch.length,
      sessionKey: options.sessionKey,
      lastUsed: Date.now(),
    });
    return { batch, id };
  }

  /** The next batch of an open cursor; unknown ids fail with CursorNotFound like mongod. */
  getMore(id: Long, ns: string, batchSize: number | undefined, sessionKey: string | undefined): Batch {
    const key = id.toString();
    const cursor = this.cursors.get(key);
    if (!cursor) throw commandError(ErrorCodes.CursorNotFound, `cursor id ${key} not found`);
    if (cursor.ns !== ns) {
      throw commandError(
        ErrorCodes.Unauthorized,
        `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`,
      );
    }
    if (cursor.sessionKey !== undefined && sessionKey !== undefined && cursor.sessionKey !== sessionKey) {
      throw commandError(50738, `Cannot run getMore on cursor ${key}, which was created in a different session`);
    }
    // getMore without batchSize returns as much as fits in one reply, like mongod.
    const batch = takeBatch(
      cursor.docs,
      cursor.position,
      batchSize && batchSize > 0 ? batchSize : Number.MAX_SAFE_INTEGER,
    );
    cursor.position += batch.length;
    cursor.lastUsed = Date.now();
    if (cursor.position >= cursor.docs.length) {
      this.cursors.delete(key);
      return { batch, id: Long.ZERO };
    }
    return { batch, id: cursor.id };
  }

  kill(
    ns: string,
    ids: Long[],
  ): { cursorsKilled: Long[]; cursorsNotFound: Long[]; cursorsAlive: Long[]; cursorsUnknown: Long[] } {
    const cursorsKilled: Long[] = [];
    const cursorsNotFound: Long[] = [];
    for (const id of ids) {
      const cursor = this.cursors.get(id.toString());
      if (cursor && cursor.ns === ns) {
        this.cursors.delete(id.toString());
        cursorsKilled.push(id);
      } else {
        cursorsNotFound.push(id);
      }
    }
    return { cursorsKilled, cursorsNotFound, cursorsAlive: [], cursorsUnknown: [] };
  }

  killSession(sessionKey: string): void {
    for (const [key, cursor] of this.cursors) if (cursor.sessionKey === sessionKey) this.cursors.delete(key);
  }

  /** Drops cursors of a namespace (drop, dropDatabase), as mongod does. `prefix` matches whole databases. */
  killNamespace(ns: string, prefix = false): void {
    for (const [key, cursor] of this.cursors) {
      if (prefix ? cursor.ns.startsWith(ns) : cursor.ns === ns) this.cursors.delete(key);
    }
  }

  reapIdle(now = Date.now(), idleMs = CURSOR_IDLE_TIMEOUT_MS): number {
    let reaped = 0;
    for (const [key, cursor] of this.cursors) {
      if (now - cursor.lastUsed >= idleMs) {
        this.cursors.delete(key);
        reaped++;
      }
    }
    return reaped;
  }

  clear(): void {
    this.cursors.clear();
  }

  private newId(): Long {
    for (;;) {
      const bytes = randomBytes(8);
      // Positive and non-zero: 0 means "no cursor" on the wire.
      const id = Long.fromBits(bytes.readInt32LE(0), bytes.readInt32LE(4) & 0x7fffffff);
      if (!id.isZero() && !this.cursors.has(id.toString())) return id;
    }
  }
}

function takeBatch(docs: Document[], from: number, batchSize: number): Document[] {
  const end = Math.min(docs.length, from + batchSize);
  if (end - from <= 1) return docs.slice(from, end);
  const batch: Document[] = [];
  let bytes = 0;
  for (let i = from; i < end; i++) {
    bytes += BSON.calculateObjectSize(docs[i], { ignoreUndefined: true });
    if (batch.length > 0 && bytes > MAX_BATCH_BYTES) break;
    batch.push(docs[i]);
  }
  return batch;
}
