// Logical sessions (lsid) and what hangs off them: the multi-document transaction in progress and the
// recorded reply of the last retryable write, so a retried write is answered without being applied twice.
import type { Document } from 'bson';
import type { Engine, Txn } from '../engine/types.js';

/** logicalSessionTimeoutMinutes advertised in hello. */
export const SESSION_TIMEOUT_MINUTES = 30;
/** mongod's transactionLifetimeLimitSeconds: an idle open transaction is aborted after this long. */
export const TRANSACTION_LIFETIME_MS = 60 * 1000;

export type TxnState = 'none' | 'inProgress' | 'committed' | 'aborted';

export interface Session {
  key: string;
  lsid: Document;
  lastUsed: number;
  /** Highest txnNumber seen on this session (transactions and retryable writes share the counter). */
  txnNumber: bigint;
  txnState: TxnState;
  txn?: Txn;
  txnLastUsed: number;
  /** The reply (pending or done) of the last retryable write, keyed by its txnNumber. */
  retryable?: { txnNumber: bigint; command: string; reply: Promise<Document> };
}

/** Keys of the lsids commands share (frozen by the command decoder, so their key cannot change). */
const sharedKeys = new WeakMap<object, string | undefined>();

/** A stable map key for an lsid (`{ id: UUID }`). */
export function sessionKey(lsid: unknown): string | undefined {
  if (!lsid || typeof lsid !== 'object') return undefined;
  if (sharedKeys.has(lsid)) return sharedKeys.get(lsid);
  const id = (lsid as { id?: unknown }).id as { buffer?: Uint8Array; toString?: (enc: string) => string } | undefined;
  let key: string | undefined;
  if (!id) key = undefined;
  else if (id.buffer instanceof Uint8Array) key = Buffer.from(id.buffer).toString('hex');
  else key = String(id);
  if (Object.isFrozen(lsid)) sharedKeys.set(lsid, key);
  return key;
}

export function toBigInt(value: unknown): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  const long = value as { _bsontype?: string; toBigInt?: () => bigint };
  if (long._bsontype === 'Long' && typeof long.toBigInt === 'function') return long.toBigInt();
  return undefined;
}

export class SessionManager {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly engine: Engine,
    private readonly onSessionEnd: (key: string) => void,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** The session for an lsid, created on first use (drivers create sessions client-side). */
  touch(lsid: Document): Session | undefined {
    const key = sessionKey(lsid);
    if (!key) return undefined;
    let session = this.sessions.get(key);
    if (!session) {
      session = { key, lsid, lastUsed: Date.now(), txnNumber: -1n, txnState: 'none', txnLastUsed: 0 };
      this.sessions.set(key, session);
    }
    session.lastUsed = Date.now();
    return session;
  }

  /** Ends sessions (endSessions/killSessions): aborts their transaction and closes their cursors. */
  end(lsids: unknown[]): void {
    for (const lsid of lsids) {
      const key = sessionKey(lsid);
      if (!key) continue;
      const session = this.sessions.get(key);
      if (session) this.drop(session);
    }
  }

  endAll(): void {
    for (const session of [...this.sessions.values()]) this.drop(session);
  }

  abortTransaction(session: Session): void {
    if (session.txnState === 'inProgress' && session.txn) {
      try {
        this.engine.abortTransaction(session.txn);
      } catch {
        // Already gone in the engine: nothing left to undo.
      }
    }
    session.txn = undefined;
    if (session.txnState === 'inProgress') session.txnState = 'aborted';
  }

  /** Aborts transactions idle past their lifetime and forgets sessions idle past the session timeout. */
  reap(now = Date.now()): void {
    for (const session of [...this.sessions.values()]) {
      if (session.txnState === 'inProgress' && now - session.txnLastUsed >= TRANSACTION_LIFETIME_MS)
        this.abortTransaction(session);
      if (now - session.lastUsed >= SESSION_TIMEOUT_MINUTES * 60 * 1000) this.drop(session);
    }
  }

  private drop(session: Session): void {
    this.abortTransaction(session);
    this.sessions.delete(session.key);
    this.onSessionEnd(session.key);
  }
}
