// Snapshots: the whole state as JournalOps, written to a temp file in chunks (so appends keep flowing),
// fsynced, renamed into place atomically and made durable with a directory fsync.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { JournalOp } from '../engine/types.js';
import { SNAPSHOT_HEADER_SIZE, SNAPSHOT_MAGIC, countOps, decodeRecordAt, encodeOp, encodeRecord } from './format.js';
import { fsyncDir, snapshotName, snapshotTmpName, writeFully } from './files.js';

/** Serialized bytes per chunk: big enough to write efficiently, small enough to never stall appends for long. */
const CHUNK_BYTES = 1024 * 1024;

export class SnapshotAborted extends Error {
  constructor() {
    super('snapshot aborted because the journal is closing');
  }
}

/**
 * Writes `ops` as the snapshot covering sequence numbers up to `seq`. `shouldAbort` is checked between chunks so
 * close() does not wait for a large snapshot. Returns the final path.
 */
export async function writeSnapshot(
  dir: string,
  seq: number,
  ops: readonly JournalOp[],
  shouldAbort: () => boolean,
): Promise<string> {
  const tmp = path.join(dir, snapshotTmpName(seq));
  const final = path.join(dir, snapshotName(seq));
  const handle = await fs.open(tmp, 'w');
  let closed = false;
  try {
    const header = Buffer.alloc(SNAPSHOT_HEADER_SIZE);
    SNAPSHOT_MAGIC.copy(header, 0);
    header.writeBigUInt64LE(BigInt(seq), SNAPSHOT_MAGIC.length);
    let position = 0;
    await writeFully(handle, header, position);
    position += header.length;

    let chunk: Buffer[] = [];
    let chunkBytes = 0;
    let chunkNo = 0;
    const flushChunk = async () => {
      const record = encodeRecord(++chunkNo, 0, Buffer.concat(chunk, chunkBytes));
      chunk = [];
      chunkBytes = 0;
      await writeFully(handle, record, position);
      position += record.length;
      if (shouldAbort()) throw new SnapshotAborted();
    };
    for (const op of ops) {
      const bytes = encodeOp(op);
      chunk.push(bytes);
      chunkBytes += bytes.length;
      if (chunkBytes >= CHUNK_BYTES) await flushChunk();
    }
    if (chunkBytes > 0) await flushChunk();

    // The closing record carries the op count: a snapshot without it is incomplete and never trusted.
    const count = Buffer.alloc(8);
    count.writeBigUInt64LE(BigInt(ops.length));
    await writeFully(handle, encodeRecord(chunkNo + 1, 1, count), position);
    await handle.sync();
    await handle.close();
    closed = true;
    await fs.rename(tmp, final);
    await fsyncDir(dir);
    return final;
  } catch (err) {
    if (!closed) await handle.close().catch(() => undefined);
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** Reads and fully validates a snapshot; returns its chunk payloads or throws saying what is wrong. */
export async function readSnapshot(file: string, seq: number): Promise<{ chunks: Buffer[]; opCount: number }> {
  const buf = await fs.readFile(file);
  const name = path.basename(file);
  if (buf.length < SNAPSHOT_HEADER_SIZE || !buf.subarray(0, SNAPSHOT_MAGIC.length).equals(SNAPSHOT_MAGIC)) {
    throw new Error(`snapshot ${name} has no valid header`);
  }
  const headerSeq = Number(buf.readBigUInt64LE(SNAPSHOT_MAGIC.length));
  if (headerSeq !== seq) throw new Error(`snapshot ${name} says it covers sequence ${headerSeq}, its name says ${seq}`);
  const chunks: Buffer[] = [];
  let opCount = 0;
  let offset = SNAPSHOT_HEADER_SIZE;
  for (let expected = 1; ; expected++) {
    const record = decodeRecordAt(buf, offset);
    if (typeof record === 'string') throw new Error(`snapshot ${name} is damaged at byte ${offset} (${record})`);
    if (record.seq !== expected) throw new Error(`snapshot ${name} has chunk ${record.seq} where ${expected} belongs`);
    if (record.aux === 1) {
      const declared = record.payload.length === 8 ? Number(record.payload.readBigUInt64LE(0)) : -1;
      if (declared !== opCount) throw new Error(`snapshot ${name} declares ${declared} entries but holds ${opCount}`);
      if (record.end !== buf.length)
        throw new Error(`snapshot ${name} has ${buf.length - record.end} stray bytes after its end`);
      return { chunks, opCount };
    }
    const n = countOps(record.payload);
    if (n < 0) throw new Error(`snapshot ${name} chunk ${record.seq} does not hold well-formed BSON`);
    opCount += n;
    chunks.push(record.payload);
    offset = record.end;
  }
}
