// File names and the small fs helpers the journal needs to make renames and new files durable.
import { promises as fs } from 'node:fs';
import path from 'node:path';

const SEQ_DIGITS = 16;
const SEGMENT_RE = /^journal-(\d{16})\.log$/;
const SNAPSHOT_RE = /^snapshot-(\d{16})\.snap$/;
const SNAPSHOT_TMP_RE = /^snapshot-(\d{16})\.snap\.tmp$/;
export const LOCK_FILE = 'embedded-mongo.lock';

const pad = (seq: number) => String(seq).padStart(SEQ_DIGITS, '0');

/** A segment is named after the sequence number of its first record. */
export const segmentName = (firstSeq: number) => `journal-${pad(firstSeq)}.log`;
/** A snapshot is named after the last sequence number it covers. */
export const snapshotName = (seq: number) => `snapshot-${pad(seq)}.snap`;
export const snapshotTmpName = (seq: number) => `${snapshotName(seq)}.tmp`;

export interface DirListing {
  segments: { firstSeq: number; file: string }[];
  snapshots: { seq: number; file: string }[];
  tempFiles: string[];
}

export async function listDataDir(dir: string): Promise<DirListing> {
  const listing: DirListing = { segments: [], snapshots: [], tempFiles: [] };
  for (const name of await fs.readdir(dir)) {
    let m: RegExpExecArray | null;
    if ((m = SEGMENT_RE.exec(name))) listing.segments.push({ firstSeq: Number(m[1]), file: path.join(dir, name) });
    else if ((m = SNAPSHOT_RE.exec(name))) listing.snapshots.push({ seq: Number(m[1]), file: path.join(dir, name) });
    else if (SNAPSHOT_TMP_RE.test(name)) listing.tempFiles.push(path.join(dir, name));
  }
  listing.segments.sort((a, b) => a.firstSeq - b.firstSeq);
  listing.snapshots.sort((a, b) => b.seq - a.seq);
  return listing;
}

/** Makes creations, renames and deletions inside `dir` durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** FileHandle.write may write less than asked (e.g. a full disk); keep going or fail loudly. */
export async function writeFully(handle: fs.FileHandle, data: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
    if (bytesWritten <= 0) throw new Error(`short write: ${done} of ${data.length} bytes written`);
    done += bytesWritten;
  }
}

/** True if a process with this pid is running (EPERM still means it exists). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
