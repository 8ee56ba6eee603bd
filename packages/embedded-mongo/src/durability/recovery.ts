// Startup recovery: pick the newest valid snapshot, check the journal segments after it are contiguous, cut a
// torn tail (a crash in the middle of an unacknowledged write) and refuse to start on damage in the middle.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { JOURNAL_MAGIC, RECORD_HEADER_SIZE, countOps, decodeRecordAt, type DecodedRecord } from './format.js';
import { fsyncDir, listDataDir } from './files.js';
import { readSnapshot } from './snapshot.js';

/** The data directory cannot be recovered without losing acknowledged writes; nothing was changed. */
export class JournalCorruptError extends Error {
  readonly code = 'JOURNAL_CORRUPT';
}

export interface SegmentInfo {
  firstSeq: number;
  file: string;
  /** Bytes of valid data (header and whole records). */
  size: number;
}

export interface RecoveryReport {
  /** Last sequence number covered by the snapshot that was loaded (0: none). */
  snapshotSeq: number;
  snapshotFile: string | null;
  snapshotOps: number;
  /** Journal records replayed after the snapshot. */
  journalRecords: number;
  journalOps: number;
  /** Highest sequence number on disk; the next append gets lastSeq + 1. */
  lastSeq: number;
  /** Set when a torn tail was cut off. */
  truncated: { file: string; offset: number; bytes: number; reason: string } | null;
  /** Files set aside or removed, and why. */
  notes: string[];
}

export interface RecoveredData {
  report: RecoveryReport;
  snapshotChunks: Buffer[];
  journalPayloads: Buffer[];
  segments: SegmentInfo[];
}

/**
 * Looks for a later intact record that was written after the record at `seq` was already durable. Such a
 * record means the damage sits in acknowledged data, not in a torn write.
 */
function findDurableSuccessor(buf: Buffer, from: number, seq: number): DecodedRecord | null {
  for (let p = from; p + RECORD_HEADER_SIZE <= buf.length; p++) {
    const length = buf.readUInt32LE(p);
    if (p + RECORD_HEADER_SIZE + length > buf.length) continue;
    const recSeq = Number(buf.readBigUInt64LE(p + 8));
    const aux = Number(buf.readBigUInt64LE(p + 16));
    if (recSeq < seq || aux >= recSeq) continue;
    const record = decodeRecordAt(buf, p);
    if (typeof record === 'string') continue;
    if (record.aux >= seq) return record;
    p = record.end - 1;
  }
  return null;
}

export async function recover(dir: string): Promise<RecoveredData> {
  const listing = await listDataDir(dir);
  const notes: string[] = [];
  let dirChanged = false;

  for (const tmp of listing.tempFiles) {
    await fs.rm(tmp, { force: true });
    notes.push(`removed unfinished snapshot ${path.basename(tmp)}`);
    dirChanged = true;
  }

  let snapshotSeq = 0;
  let snapshotFile: string | null = null;
  let snapshotChunks: Buffer[] = [];
  let snapshotOps = 0;
  const damagedSnapshots: string[] = [];
  for (const snap of listing.snapshots) {
    try {
      const { chunks, opCount } = await readSnapshot(snap.file, snap.seq);
      snapshotSeq = snap.seq;
      snapshotFile = snap.file;
      snapshotChunks = chunks;
      snapshotOps = opCount;
      break;
    } catch (err) {
      damagedSnapshots.push(snap.file);
      notes.push((err as Error).message);
    }
  }

  // Segments whose records all precede the snapshot are left over from a compaction interrupted after the
  // snapshot was in place; the snapshot covers them.
  const segments = listing.segments.filter((seg, i) => {
    const next = listing.segments[i + 1];
    return !(next && next.firstSeq <= snapshotSeq + 1);
  });

  const kept: SegmentInfo[] = [];
  const journalPayloads: Buffer[] = [];
  let journalOps = 0;
  let truncated: RecoveryReport['truncated'] = null;
  let nextSeq = snapshotSeq + 1;
  const describeStart = () =>
    snapshotFile
      ? `snapshot ${path.basename(snapshotFile)} ends at sequence ${snapshotSeq}`
      : 'there is no valid snapshot';

  if (segments.length > 0 && segments[0].firstSeq > snapshotSeq + 1) {
    throw new JournalCorruptError(
      `journal records ${snapshotSeq + 1}..${segments[0].firstSeq - 1} are missing in ${dir}: ${describeStart()} and the ` +
        `oldest journal segment starts at ${segments[0].firstSeq}` +
        (damagedSnapshots.length
          ? ` (damaged snapshots: ${damagedSnapshots.map((f) => path.basename(f)).join(', ')})`
          : ''),
    );
  }

  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const name = path.basename(seg.file);
    const isLast = i === segments.length - 1;
    if (i > 0 && seg.firstSeq !== nextSeq) {
      throw new JournalCorruptError(
        `journal segment ${name} starts at sequence ${seg.firstSeq} but the previous segment ends before ${nextSeq}: records are missing or duplicated`,
      );
    }
    let buf = await fs.readFile(seg.file);
    if (buf.length < JOURNAL_MAGIC.length || !buf.subarray(0, JOURNAL_MAGIC.length).equals(JOURNAL_MAGIC)) {
      const tornCreation = isLast && JOURNAL_MAGIC.subarray(0, buf.length).equals(buf);
      if (!tornCreation) throw new JournalCorruptError(`journal segment ${name} has no valid header`);
      // The crash hit while the segment was being created: it never held a record.
      await fs.writeFile(seg.file, JOURNAL_MAGIC, { flush: true });
      buf = Buffer.from(JOURNAL_MAGIC);
      dirChanged = true;
      notes.push(`rewrote the header of new segment ${name}`);
    }

    let expected = seg.firstSeq;
    let offset = JOURNAL_MAGIC.length;
    while (offset < buf.length) {
      const record = decodeRecordAt(buf, offset);
      if (typeof record !== 'string' && record.seq === expected) {
        const n = countOps(record.payload);
        if (n < 0) {
          throw new JournalCorruptError(
            `journal segment ${name}: record ${expected} at byte ${offset} has a valid checksum but malformed BSON`,
          );
        }
        if (record.seq >= nextSeq) {
          journalPayloads.push(record.payload);
          journalOps += n;
        }
        expected++;
        offset = record.end;
        continue;
      }
      const problem = typeof record === 'string' ? record : `sequence ${record.seq} where ${expected} belongs`;
      if (!isLast) {
        throw new JournalCorruptError(
          `journal segment ${name} is damaged at byte ${offset} (record ${expected}: ${problem}) and later segments hold ` +
            `acknowledged records; refusing to start rather than silently skip data. Restore ${dir} from a backup or ` +
            `move the segment away to accept the loss.`,
        );
      }
      const successor = findDurableSuccessor(buf, offset, expected);
      if (successor) {
        throw new JournalCorruptError(
          `journal segment ${name} is damaged at byte ${offset} (record ${expected}: ${problem}) but intact acknowledged ` +
            `records follow it (record ${successor.seq}); this is corruption in the middle of the journal, not a torn ` +
            `write, so it is not skipped. Restore ${dir} from a backup or truncate the segment at byte ${offset} to ` +
            `accept the loss.`,
        );
      }
      // A torn tail: the batch being written when the process or machine died. It was never acknowledged.
      const handle = await fs.open(seg.file, 'r+');
      try {
        await handle.truncate(offset);
        await handle.sync();
      } finally {
        await handle.close();
      }
      truncated = { file: seg.file, offset, bytes: buf.length - offset, reason: `record ${expected}: ${problem}` };
      notes.push(`cut a torn tail of ${buf.length - offset} bytes from ${name} at byte ${offset} (${problem})`);
      buf = buf.subarray(0, offset);
      break;
    }
    nextSeq = Math.max(nextSeq, expected);
    kept.push({ firstSeq: seg.firstSeq, file: seg.file, size: offset });
  }

  // Only now that recovery succeeded: drop what the snapshot covers and set damaged snapshots aside.
  for (const seg of listing.segments) {
    if (!segments.includes(seg)) {
      await fs.rm(seg.file, { force: true });
      notes.push(`removed journal segment ${path.basename(seg.file)}, covered by the snapshot`);
      dirChanged = true;
    }
  }
  for (const snap of listing.snapshots) {
    if (snap.file === snapshotFile) continue;
    if (damagedSnapshots.includes(snap.file)) {
      await fs.rename(snap.file, `${snap.file}.damaged`);
      notes.push(`set damaged snapshot aside as ${path.basename(snap.file)}.damaged`);
    } else {
      await fs.rm(snap.file, { force: true });
    }
    dirChanged = true;
  }
  if (dirChanged) await fsyncDir(dir);

  return {
    report: {
      snapshotSeq,
      snapshotFile,
      snapshotOps,
      journalRecords: journalPayloads.length,
      journalOps,
      lastSeq: nextSeq - 1,
      truncated,
      notes,
    },
    snapshotChunks,
    journalPayloads,
    segments: kept,
  };
}
