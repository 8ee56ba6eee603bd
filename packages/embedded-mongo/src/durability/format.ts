// On-disk framing shared by journal segments and snapshots.
//
// A file starts with an 8-byte magic ("EMJRNL\0\1" or "EMSNAP\0\1"); a snapshot adds the u64 sequence number it
// covers. Then records follow, each:
//
//   u32 payload length | u32 CRC32 | u64 seq | u64 aux | payload
//
// (little-endian). The CRC covers the length, seq, aux and payload, so a damaged length is caught too. In a
// journal, seq is the global sequence number of the append and aux is the highest sequence number that was
// already durable (fsynced) when this record's batch was written: recovery uses it to tell a torn, never
// acknowledged tail (records of the same unsynced batch) from damage in the middle of acknowledged data. In a
// snapshot, seq numbers the chunks 1..n and aux is 1 on the closing record. A payload is a run of BSON
// documents, one per JournalOp, each self-delimited by its int32 length.
import { crc32 as zlibCrc32 } from 'node:zlib';
import { serialize, type DeserializeOptions } from 'bson';
import { decodeDocument } from '../engine/bson-codec.js';
import type { JournalOp } from '../engine/types.js';

export const JOURNAL_MAGIC = Buffer.from('EMJRNL\0\x01', 'latin1');
export const SNAPSHOT_MAGIC = Buffer.from('EMSNAP\0\x01', 'latin1');
export const SNAPSHOT_HEADER_SIZE = SNAPSHOT_MAGIC.length + 8;
export const RECORD_HEADER_SIZE = 24;
/** A MongoDB write command is at most 48 MB; anything far larger is a damaged length field, not a record. */
export const MAX_RECORD_PAYLOAD = 256 * 1024 * 1024;

/** Stored documents come back with the types they went in with (Long stays Long, ObjectId, Decimal128...). */
export const DEFAULT_BSON_OPTIONS: DeserializeOptions = { promoteLongs: false };

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** Table-driven CRC-32 (IEEE), used only where node:zlib lacks crc32 (Node < 20.15). */
export function crc32Portable(data: Uint8Array, value = 0): number {
  let crc = ~value >>> 0;
  for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}

export const crc32: (data: Uint8Array, value?: number) => number =
  typeof zlibCrc32 === 'function' ? (data, value = 0) => zlibCrc32(data, value) : crc32Portable;

function recordCrc(header: Buffer, payload: Uint8Array): number {
  let crc = crc32(header.subarray(0, 4));
  crc = crc32(header.subarray(8, RECORD_HEADER_SIZE), crc);
  return crc32(payload, crc);
}

export function encodeRecord(seq: number, aux: number, payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(RECORD_HEADER_SIZE + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeBigUInt64LE(BigInt(seq), 8);
  out.writeBigUInt64LE(BigInt(aux), 16);
  payload.copy(out, RECORD_HEADER_SIZE);
  out.writeUInt32LE(recordCrc(out, payload), 4);
  return out;
}

export interface DecodedRecord {
  seq: number;
  aux: number;
  payload: Buffer;
  /** Offset just past this record. */
  end: number;
}

export type RecordProblem = 'short header' | 'short record' | 'bad length' | 'bad checksum';

/** Reads the record at `offset`, or says why there is no valid one there. */
export function decodeRecordAt(buf: Buffer, offset: number): DecodedRecord | RecordProblem {
  if (offset + RECORD_HEADER_SIZE > buf.length) return 'short header';
  const length = buf.readUInt32LE(offset);
  if (length > MAX_RECORD_PAYLOAD) return 'bad length';
  const end = offset + RECORD_HEADER_SIZE + length;
  if (end > buf.length) return 'short record';
  const header = buf.subarray(offset, offset + RECORD_HEADER_SIZE);
  const payload = buf.subarray(offset + RECORD_HEADER_SIZE, end);
  if (recordCrc(header, payload) !== buf.readUInt32LE(offset + 4)) return 'bad checksum';
  return {
    seq: Number(buf.readBigUInt64LE(offset + 8)),
    aux: Number(buf.readBigUInt64LE(offset + 16)),
    payload,
    end,
  };
}

/** One BSON document per op, concatenated. Throws if an op cannot be represented in BSON. */
export function encodeOps(ops: readonly JournalOp[]): Buffer {
  if (ops.length === 1) return encodeOp(ops[0]);
  return Buffer.concat(ops.map((op) => serialize(op)));
}

export function encodeOp(op: JournalOp): Buffer {
  const bytes = serialize(op);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Counts the BSON documents of a payload and checks their lengths tile it exactly. */
export function countOps(payload: Buffer): number {
  let count = 0;
  for (let off = 0; off < payload.length; count++) {
    if (off + 5 > payload.length) return -1;
    const size = payload.readInt32LE(off);
    if (size < 5 || off + size > payload.length) return -1;
    off += size;
  }
  return count;
}

export function* decodeOps(payload: Buffer, options: DeserializeOptions): Generator<JournalOp> {
  for (let off = 0; off < payload.length;) {
    const size = payload.readInt32LE(off);
    yield decodeDocument(payload.subarray(off, off + size), options) as JournalOp;
    off += size;
  }
}
