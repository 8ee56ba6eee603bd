// The write-ahead journal of @shop/embedded-mongo: every acknowledged change is fdatasynced to a journal segment
// before the server replies. Appends that arrive while a write+sync is in flight wait together and go to disk in
// the next single write+sync (group commit), so throughput grows with the number of concurrent clients.
//
// Contract with the engine: apply a change to memory and call append() in the same synchronous step (no await in
// between), and reply to the client only after append() resolves. Then any moment between two event-loop turns is
// a consistent point, which is what compact()'s dump and the automatic compaction rely on.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DeserializeOptions } from 'bson';
import type { Journal, JournalOp } from '../engine/types.js';
import { DEFAULT_BSON_OPTIONS, JOURNAL_MAGIC, decodeOps, encodeOps, encodeRecord } from './format.js';
import { LOCK_FILE, fsyncDir, processAlive, segmentName, writeFully } from './files.js';
import { recover, type RecoveryReport, type SegmentInfo } from './recovery.js';
import { writeSnapshot } from './snapshot.js';

export interface JournalOptions {
  /** Compaction is due once this many journal bytes were written since the last snapshot. Default 64 MiB. */
  compactAfterBytes?: number;
  /** ...or this many records. Default 1,000,000. */
  compactAfterRecords?: number;
  /**
   * Called once when compaction becomes due. Without it, the journal compacts by itself if the engine gave it a
   * dump through setCompactionSource().
   */
  onCompactionDue?: () => void;
  /** Background failures (automatic compaction). Default: a process warning. */
  onError?: (err: Error) => void;
  /** How BSON values come back on replay; keep it equal to how the server decodes client messages. */
  bson?: DeserializeOptions;
}

export interface JournalStats {
  /** append() calls that carried ops. */
  appends: number;
  /** Records made durable since open. */
  records: number;
  /** write+fdatasync rounds; with concurrent appends this stays below `records` (group commit). */
  syncs: number;
  /** Appends rejected because the disk write or sync failed. */
  failedAppends: number;
  lastSeq: number;
  snapshotSeq: number;
  bytesSinceSnapshot: number;
  recordsSinceSnapshot: number;
  compactions: number;
  segments: number;
}

export interface DurableJournal extends Journal {
  readonly dbPath: string;
  readonly recovery: RecoveryReport;
  /** True when enough was journaled since the last snapshot that compaction is worth it. */
  shouldCompact(): boolean;
  /** Lets the journal compact by itself when due, calling `dump` at a consistent point. null turns that off. */
  setCompactionSource(dump: (() => Iterable<JournalOp>) | null): void;
  stats(): JournalStats;
}

/** A change could not be made durable; the client must not be told it succeeded. */
export class JournalWriteError extends Error {
  readonly code = 'JOURNAL_WRITE_FAILED';
}

type Entry =
  | { kind: 'record'; payload: Buffer; resolve: () => void; reject: (err: Error) => void }
  | { kind: 'barrier'; resolve: () => void; reject: (err: Error) => void }
  | { kind: 'rotate'; resolve: (at: RotationPoint) => void; reject: (err: Error) => void };

interface RotationPoint {
  seq: number;
  bytes: number;
  records: number;
}

const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;
const DEFAULT_COMPACT_RECORDS = 1_000_000;

/** Data directories opened by this process: a second open would interleave two writers in one file. */
const openDirs = new Set<string>();

async function acquireLock(dir: string): Promise<string> {
  const lockPath = path.join(dir, LOCK_FILE);
  if (openDirs.has(dir)) throw new Error(`the data directory ${dir} is already open in this process`);
  try {
    await fs.writeFile(lockPath, `${process.pid}\n`, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const holder = Number.parseInt(await fs.readFile(lockPath, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) {
      throw new Error(`the data directory ${dir} is in use by process ${holder} (lock file ${lockPath})`);
    }
    // Left behind by a process that died (kill -9, power loss): take it over.
    await fs.writeFile(lockPath, `${process.pid}\n`);
  }
  openDirs.add(dir);
  return lockPath;
}

async function releaseLock(dir: string, lockPath: string): Promise<void> {
  openDirs.delete(dir);
  await fs.rm(lockPath, { force: true });
}

async function createSegment(dir: string, firstSeq: number): Promise<{ handle: fs.FileHandle; info: SegmentInfo }> {
  const file = path.join(dir, segmentName(firstSeq));
  const handle = await fs.open(file, 'wx');
  try {
    await writeFully(handle, JOURNAL_MAGIC, 0);
    await handle.datasync();
    await fsyncDir(dir);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.rm(file, { force: true }).catch(() => undefined);
    throw err;
  }
  return { handle, info: { firstSeq, file, size: JOURNAL_MAGIC.length } };
}

class FileJournal implements DurableJournal {
  private queue: Entry[] = [];
  private writer: Promise<void> | null = null;
  private failure: Error | null = null;
  private closing = false;
  private closed: Promise<void> | null = null;
  private compaction: Promise<void> | null = null;
  private compactionSource: (() => Iterable<JournalOp>) | null = null;
  private dueSignalled = false;
  private failedBatches = 0;
  private snapshotFile: string | null;
  private snapshotSeq: number;
  private lastDurableSeq: number;
  private offset: number;
  // Totals since open; "since snapshot" figures subtract the totals at the snapshot's rotation point.
  private totalBytes: number;
  private totalRecords: number;
  private baseBytes = 0;
  private baseRecords = 0;
  private counters = { appends: 0, records: 0, syncs: 0, failedAppends: 0, compactions: 0 };
  private readonly compactAfterBytes: number;
  private readonly compactAfterRecords: number;

  constructor(
    readonly dbPath: string,
    readonly recovery: RecoveryReport,
    private handle: fs.FileHandle,
    private segments: SegmentInfo[],
    private readonly lockPath: string,
    private readonly options: JournalOptions,
  ) {
    this.snapshotFile = recovery.snapshotFile;
    this.snapshotSeq = recovery.snapshotSeq;
    this.lastDurableSeq = recovery.lastSeq;
    this.offset = segments.at(-1)!.size;
    this.totalBytes = segments.reduce((sum, seg) => sum + seg.size - JOURNAL_MAGIC.length, 0);
    this.totalRecords = recovery.journalRecords;
    this.compactAfterBytes = options.compactAfterBytes ?? DEFAULT_COMPACT_BYTES;
    this.compactAfterRecords = options.compactAfterRecords ?? DEFAULT_COMPACT_RECORDS;
  }

  append(ops: JournalOp[]): Promise<void> {
    if (this.closing) return Promise.reject(new JournalWriteError(`the journal in ${this.dbPath} is closed`));
    if (this.failure) return Promise.reject(this.failure);
    let payload: Buffer;
    try {
      payload = encodeOps(ops);
    } catch (err) {
      return Promise.reject(new JournalWriteError(`these changes cannot be stored as BSON: ${(err as Error).message}`));
    }
    return new Promise<void>((resolve, reject) => {
      // An empty append is a barrier: it resolves once everything appended before it is durable.
      if (ops.length === 0) this.queue.push({ kind: 'barrier', resolve, reject });
      else {
        this.counters.appends++;
        this.queue.push({ kind: 'record', payload, resolve, reject });
      }
      this.kick();
    });
  }

  shouldCompact(): boolean {
    return (
      this.totalBytes - this.baseBytes >= this.compactAfterBytes ||
      this.totalRecords - this.baseRecords >= this.compactAfterRecords
    );
  }

  setCompactionSource(dump: (() => Iterable<JournalOp>) | null): void {
    this.compactionSource = dump;
  }

  stats(): JournalStats {
    return {
      ...this.counters,
      lastSeq: this.lastDurableSeq,
      snapshotSeq: this.snapshotSeq,
      bytesSinceSnapshot: this.totalBytes - this.baseBytes,
      recordsSinceSnapshot: this.totalRecords - this.baseRecords,
      segments: this.segments.length,
    };
  }

  compact(dump: () => Iterable<JournalOp>): Promise<void> {
    if (this.closing) return Promise.reject(new Error(`the journal in ${this.dbPath} is closed`));
    if (this.failure) return Promise.reject(this.failure);
    // One at a time: a compaction already under way covers everything up to its point, the journal the rest.
    if (this.compaction) return this.compaction;

    const failedBefore = this.failedBatches;
    // Everything queued so far lands before the rotation, everything appended later after it; the dump taken
    // right now (same synchronous step) is the state at exactly that point.
    const rotated = new Promise<RotationPoint>((resolve, reject) => {
      this.queue.push({ kind: 'rotate', resolve, reject });
      this.kick();
    });
    let ops: JournalOp[];
    try {
      ops = Array.from(dump());
    } catch (err) {
      rotated.catch(() => undefined);
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }

    const run = async () => {
      const at = await rotated;
      if (this.failedBatches !== failedBefore) {
        throw new JournalWriteError('a journal write failed while the snapshot was being taken; compaction skipped');
      }
      const file = await writeSnapshot(this.dbPath, at.seq, ops, () => this.closing);
      // The snapshot is durable: the segments it covers and the previous snapshot can go.
      const covered = this.segments.filter((seg, i) => {
        const next = this.segments[i + 1];
        return next !== undefined && next.firstSeq <= at.seq + 1;
      });
      for (const seg of covered) await fs.rm(seg.file, { force: true });
      this.segments = this.segments.filter((seg) => !covered.includes(seg));
      if (this.snapshotFile && this.snapshotFile !== file) await fs.rm(this.snapshotFile, { force: true });
      await fsyncDir(this.dbPath);
      this.snapshotFile = file;
      this.snapshotSeq = at.seq;
      this.baseBytes = at.bytes;
      this.baseRecords = at.records;
      this.counters.compactions++;
    };
    const compaction = run().finally(() => {
      this.compaction = null;
      this.dueSignalled = false;
    });
    this.compaction = compaction;
    return compaction;
  }

  close(): Promise<void> {
    if (this.closed) return this.closed;
    this.closing = true;
    this.closed = (async () => {
      // Appends already accepted are still written; a running snapshot stops at its next chunk.
      while (this.writer) await this.writer;
      if (this.compaction) await this.compaction.catch(() => undefined);
      await this.handle.close();
      await releaseLock(this.dbPath, this.lockPath);
    })();
    return this.closed;
  }

  private kick(): void {
    if (this.writer) return;
    // setImmediate lets appends from the I/O callbacks of this loop turn join the first batch too.
    this.writer = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .finally(() => {
        this.writer = null;
        if (this.queue.length > 0) this.kick();
      });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      if (this.failure) {
        for (const entry of this.queue.splice(0)) entry.reject(this.failure);
        return;
      }
      if (this.queue[0].kind === 'rotate') {
        await this.rotate(this.queue.shift() as Extract<Entry, { kind: 'rotate' }>);
        continue;
      }
      let n = 0;
      while (n < this.queue.length && this.queue[n].kind !== 'rotate') n++;
      await this.writeBatch(this.queue.splice(0, n) as Exclude<Entry, { kind: 'rotate' }>[]);
    }
  }

  private async writeBatch(batch: Exclude<Entry, { kind: 'rotate' }>[]): Promise<void> {
    const durable = this.lastDurableSeq;
    let seq = durable;
    const parts: Buffer[] = [];
    for (const entry of batch) if (entry.kind === 'record') parts.push(encodeRecord(++seq, durable, entry.payload));
    if (parts.length === 0) {
      for (const entry of batch) entry.resolve();
      return;
    }
    const data = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    const segment = this.segments.at(-1)!;
    try {
      await writeFully(this.handle, data, this.offset);
      await this.handle.datasync();
    } catch (err) {
      this.failedBatches++;
      this.counters.failedAppends += parts.length;
      const error = new JournalWriteError(
        `could not write ${parts.length} change(s) to the journal ${segment.file}: ${(err as Error).message}`,
        { cause: err },
      );
      for (const entry of batch) entry.reject(error);
      // Cut whatever part of the batch reached the file, so the records that follow stay contiguous.
      try {
        await this.handle.truncate(this.offset);
        await this.handle.datasync();
      } catch (repairErr) {
        this.failure = new JournalWriteError(
          `the journal ${segment.file} could not be repaired after a failed write (${(repairErr as Error).message}); ` +
            'no more changes are accepted, restart the server to recover from disk',
          { cause: repairErr },
        );
      }
      return;
    }
    this.counters.syncs++;
    this.counters.records += parts.length;
    this.offset += data.length;
    segment.size = this.offset;
    this.lastDurableSeq = seq;
    this.totalBytes += data.length;
    this.totalRecords += parts.length;
    for (const entry of batch) entry.resolve();
    this.signalCompactionIfDue();
  }

  private async rotate(entry: Extract<Entry, { kind: 'rotate' }>): Promise<void> {
    const at: RotationPoint = { seq: this.lastDurableSeq, bytes: this.totalBytes, records: this.totalRecords };
    const current = this.segments.at(-1)!;
    if (current.firstSeq === at.seq + 1 && this.offset === JOURNAL_MAGIC.length) {
      entry.resolve(at); // The current segment is still empty and starts right after the cut.
      return;
    }
    try {
      const { handle, info } = await createSegment(this.dbPath, at.seq + 1);
      const previous = this.handle;
      this.handle = handle;
      this.offset = info.size;
      this.segments.push(info);
      await previous.close();
      entry.resolve(at);
    } catch (err) {
      entry.reject(err as Error);
    }
  }

  private signalCompactionIfDue(): void {
    if (this.dueSignalled || this.compaction || this.closing || !this.shouldCompact()) return;
    const report = (err: unknown) => {
      const error = err instanceof Error ? err : new Error(String(err));
      if (this.options.onError) this.options.onError(error);
      else process.emitWarning(`embedded-mongo: journal compaction failed: ${error.message}`);
    };
    if (this.options.onCompactionDue) {
      this.dueSignalled = true;
      try {
        this.options.onCompactionDue();
      } catch (err) {
        report(err);
      }
    } else if (this.compactionSource) {
      this.dueSignalled = true;
      this.compact(this.compactionSource).catch(report);
    }
  }
}

/**
 * Opens (creating it if needed) the data directory, recovers it and returns the journal plus the ops that rebuild
 * the state: the newest valid snapshot first, then the journal records after it, in sequence order.
 */
export async function openJournal(
  dbPath: string,
  options: JournalOptions = {},
): Promise<{ journal: DurableJournal; replay: Iterable<JournalOp>; recovery: RecoveryReport }> {
  const dir = path.resolve(dbPath);
  const created = await fs.mkdir(dir, { recursive: true });
  if (created) await fsyncDir(path.dirname(dir));
  const lockPath = await acquireLock(dir);
  try {
    const { report, snapshotChunks, journalPayloads, segments } = await recover(dir);
    let handle: fs.FileHandle;
    if (segments.length === 0) {
      const fresh = await createSegment(dir, report.lastSeq + 1);
      handle = fresh.handle;
      segments.push(fresh.info);
    } else {
      handle = await fs.open(segments.at(-1)!.file, 'r+');
    }
    const journal = new FileJournal(dir, report, handle, segments, lockPath, options);
    const bson = options.bson ?? DEFAULT_BSON_OPTIONS;
    // Read once: each chunk's raw bytes are let go as soon as it is decoded, so the engine that keeps a reference
    // to this iterable does not also keep a second, serialized copy of the whole data set alive.
    const pending: (Buffer | undefined)[] = [...snapshotChunks, ...journalPayloads];
    let started = false;
    const replay: Iterable<JournalOp> = {
      *[Symbol.iterator]() {
        if (started) throw new Error('the replay of a journal can be read only once');
        started = true;
        for (let i = 0; i < pending.length; i++) {
          const chunk = pending[i]!;
          pending[i] = undefined;
          yield* decodeOps(chunk, bson);
        }
        pending.length = 0;
      },
    };
    return { journal, replay, recovery: report };
  } catch (err) {
    await releaseLock(dir, lockPath);
    throw err;
  }
}
