// Decodes an OP_MSG command body. Clients send some subdocuments byte for byte the same with command
// after command: a find's projection (the orders service's tracking read: 24 fields) and sort, the
// session id, `$clusterTime`, read and write concerns. Decoding those was most of a tracking read's
// decode time (issue 20: decoding was ~20% of the server's busy time, a third of it naming properties),
// so each distinct one is decoded once, frozen and shared by the commands that send the same bytes; the
// rest of the body is decoded as before (decodeDocument). Nothing reads these subdocuments but to
// compare or copy them (the engine compiles projections and sorts into its own structures, sessions key
// on the id), and frozen they cannot be changed by accident.
import type { Document } from 'bson';
import { decodeDocument } from '../engine/bson-codec.js';
import { BoundedTable } from '../engine/bounded-table.js';
import { setField } from '../engine/bson-values.js';

/** Top-level fields whose subdocuments are shared between commands, as the bytes of their names. */
const SHARED_FIELDS = ['projection', 'sort', 'lsid', '$clusterTime', 'readConcern', 'writeConcern'].map((n) =>
  Buffer.from(n, 'latin1'),
);
/** Only small subdocuments are kept: a hostile client cannot make the caches large (1,024 x 64 bytes + 48 x 4 KiB). */
const MAX_SHARED_BYTES = 4096;
const MAX_SHARED = 1024;
/** Small subdocuments (session ids, concerns, short sorts) by their bytes as a string: cheap to hash. */
const MAX_HASHED_BYTES = 64;
const shared = new BoundedTable<string, Document>(MAX_SHARED);
/**
 * Larger ones (a 24-field projection, $clusterTime) by comparing bytes with the last few seen per field:
 * hashing a string of their bytes cost more than decoding saved, and a client repeats the latest one.
 */
const RECENT_KEPT = 8;
const recent = SHARED_FIELDS.map(() => [] as { bytes: Buffer; value: Document }[]);

/** Which shared field (index in SHARED_FIELDS) the name in `b[start, end)` is, or -1. */
const sharedFieldAt = (b: Buffer, start: number, end: number): number => {
  const n = end - start;
  for (let f = 0; f < SHARED_FIELDS.length; f++) {
    const name = SHARED_FIELDS[f];
    if (name.length !== n) continue;
    let i = 0;
    while (i < n && b[start + i] === name[i]) i++;
    if (i === n) return f;
  }
  return -1;
};

/** Byte length of an element's value at `at` by type, or -1 for a type this scan does not know. */
const valueLength = (b: Buffer, type: number, at: number, end: number): number => {
  switch (type) {
    case 0x01:
    case 0x09:
    case 0x11:
    case 0x12:
      return 8;
    case 0x02:
    case 0x0d:
    case 0x0e:
      return at + 4 <= end ? 4 + b.readInt32LE(at) : -1;
    case 0x03:
    case 0x04:
    case 0x0f:
      return at + 4 <= end ? b.readInt32LE(at) : -1;
    case 0x05:
      return at + 4 <= end ? 5 + b.readInt32LE(at) : -1;
    case 0x06:
    case 0x0a:
    case 0x7f:
    case 0xff:
      return 0;
    case 0x07:
      return 12;
    case 0x08:
      return 1;
    case 0x10:
      return 4;
    case 0x13:
      return 16;
    default:
      return -1;
  }
};

/** A plain decoded document (not a DBRef or other BSON value, which isPlainObject also accepts). */
const isDocument = (v: object): v is Document => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && (v as { _bsontype?: unknown })._bsontype === undefined;
};

/** Whether a decoded value holds only values nothing can change once the containers are frozen. */
const immutableLeaves = (v: unknown): boolean => {
  if (v === null || typeof v !== 'object') return true;
  if (Array.isArray(v)) return v.every(immutableLeaves);
  if (isDocument(v)) return Object.keys(v).every((k) => immutableLeaves(v[k]));
  const t = (v as { _bsontype?: unknown })._bsontype;
  // Binary's bytes could be written to in place; nothing here does, and the session id is one.
  return t === 'Long' || t === 'Timestamp' || t === 'Binary' || t === 'ObjectId' || t === 'Double' || t === 'Int32';
};

const deepFreeze = <T>(v: T): T => {
  if (v !== null && typeof v === 'object' && (Array.isArray(v) || isDocument(v))) {
    for (const k of Object.keys(v)) deepFreeze((v as Document)[k]);
    Object.freeze(v);
  }
  return v;
};

/** A decoded subdocument that may be shared (frozen by the caller), or undefined when it may not. */
const shareable = (bytes: Buffer): Document | undefined => {
  const value = decodeDocument(bytes);
  // A DBRef (or a subdocument with $ref that is not one) is left to the full decode.
  return isDocument(value) && !Object.hasOwn(value, '$ref') && immutableLeaves(value) ? deepFreeze(value) : undefined;
};

/** The shared decoded value of field `f`'s subdocument in `b[start, end)`, decoding and keeping it on first sight. */
const sharedValue = (f: number, b: Buffer, start: number, end: number): Document | undefined => {
  const n = end - start;
  if (n <= MAX_HASHED_BYTES) {
    const key = b.toString('latin1', start, end);
    const known = shared.get(key);
    if (known) return known;
    const value = shareable(b.subarray(start, end));
    if (!value) return undefined;
    return shared.keep(key, value);
  }
  const seen = recent[f];
  for (const r of seen) if (r.bytes.length === n && b.compare(r.bytes, 0, n, start, end) === 0) return r.value;
  const bytes = Buffer.from(b.subarray(start, end));
  const value = shareable(bytes);
  if (!value) return undefined;
  if (seen.length >= RECENT_KEPT) seen.pop();
  seen.unshift({ bytes, value });
  return value;
};

/**
 * Decodes a command body: its shared subdocuments (see above) from the cache, the rest by decodeDocument,
 * fields in the body's order. Anything unusual (an unknown type, a duplicate or non-ASCII field name,
 * lengths that do not add up) takes the plain decodeDocument of the whole body, which also reports errors.
 */
export const decodeCommand = (buf: Buffer): Document => {
  const end = buf.length - 1;
  if (end < 4 || buf.readInt32LE(0) !== buf.length || buf[end] !== 0) return decodeDocument(buf);
  // Elements: [start, nameEnd, valueEnd, shared value or undefined]
  const elements: [number, number, number, Document | undefined][] = [];
  let sharedCount = 0;
  let restBytes = 0;
  let pos = 4;
  while (pos < end) {
    const start = pos;
    const type = buf[pos++];
    const nameEnd = buf.indexOf(0, pos);
    if (nameEnd < 0 || nameEnd >= end) return decodeDocument(buf);
    const len = valueLength(buf, type, nameEnd + 1, end);
    const valueEnd = nameEnd + 1 + len;
    if (len < 0 || valueEnd > end) return decodeDocument(buf);
    let value: Document | undefined;
    const f = type === 0x03 && len <= MAX_SHARED_BYTES ? sharedFieldAt(buf, pos, nameEnd) : -1;
    if (f >= 0) value = sharedValue(f, buf, nameEnd + 1, valueEnd);
    if (value) sharedCount++;
    else restBytes += valueEnd - start;
    elements.push([start, nameEnd, valueEnd, value]);
    pos = valueEnd;
  }
  if (pos !== end || sharedCount === 0) return decodeDocument(buf);
  // The other fields as one document of their own, decoded as the whole body was.
  const rest = Buffer.allocUnsafe(5 + restBytes);
  rest.writeInt32LE(rest.length, 0);
  let at = 4;
  for (const [start, , valueEnd, value] of elements) if (!value) at += buf.copy(rest, at, start, valueEnd);
  rest[at] = 0;
  const restDoc = decodeDocument(rest);
  const restKeys = Object.keys(restDoc);
  if (restKeys.length !== elements.length - sharedCount) return decodeDocument(buf);
  const out: Document = {};
  let j = 0;
  for (const [start, nameEnd, , value] of elements) {
    if (value) {
      const name = buf.toString('latin1', start + 1, nameEnd);
      if (Object.hasOwn(out, name)) return decodeDocument(buf);
      out[name] = value;
    } else {
      const k = restKeys[j++];
      setField(out, k, restDoc[k]);
    }
  }
  return out;
};
