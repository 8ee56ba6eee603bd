// Writes replies as BSON straight into one scratch buffer after the wire header: the bytes js-bson's
// serialize (checkKeys off, ignoreUndefined on) writes, for the values replies carry (strings, numbers,
// booleans, null, dates, documents, arrays, ObjectId, Long, Timestamp, Double, Int32, Decimal128, Binary).
// Encoding the reply was ~20% of the server's busy time on the tracking read (issue 20): js-bson checks
// every key against a regular expression and every value for a toBSON method, serializes into its own
// 17 MB buffer and copies out, and the header was then concatenated in front (another copy). Any other
// value (a regex, Code, a DBRef, a Map, an object with toBSON, a key with a NUL, a reply over js-bson's
// own limit...) gives the whole document back to js-bson, so what it accepts, refuses or writes is unchanged.
import { Binary, BSON, Decimal128, Double, Int32, Long, ObjectId, Timestamp, UUID, type Document } from 'bson';

/** js-bson's internal buffer size: a larger reply is left to it (it refuses it, and the caller answers so). */
const MAX_BYTES = 17 * 1024 * 1024;
/** Deeper than this is left to js-bson (it reports a circular structure; no reply nests this deep). */
const MAX_DEPTH = 150;

/** Thrown inside the writer for a value it leaves to js-bson; never leaves this module. */
class Unhandled extends Error {}
const UNHANDLED = new Unhandled('left to js-bson');

let buf = Buffer.allocUnsafe(64 * 1024);
let pos = 0;

const reserve = (n: number) => {
  if (pos + n <= buf.length) return;
  const need = pos + n;
  if (need > MAX_BYTES) throw UNHANDLED;
  const grown = Buffer.allocUnsafe(Math.min(MAX_BYTES, Math.max(need, buf.length * 2)));
  buf.copy(grown, 0, 0, pos);
  buf = grown;
};

/** A string's UTF-8 bytes (lone surrogates as U+FFFD, as Buffer#write and js-bson write them), no NUL after. */
const writeUtf8 = (s: string) => {
  const n = s.length;
  reserve(n * 3 + FIXED);
  if (n < 64) {
    const b = buf;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      b[pos + i] = c;
    }
    if (i === n) {
      pos += n;
      return;
    }
  }
  pos += buf.write(s, pos, 'utf8');
};

/** Room every element gets after its name: the largest fixed-size value (16, Decimal128) and a NUL. */
const FIXED = 24;

/**
 * An element's type byte and NUL-terminated name, with FIXED bytes reserved after it. A name with a NUL is
 * left to js-bson, which refuses it.
 */
const writeName = (type: number, name: string) => {
  const n = name.length;
  reserve(n * 3 + 2 + FIXED);
  const b = buf;
  b[pos++] = type;
  let i = 0;
  for (; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x80 || c === 0) break;
    b[pos + i] = c;
  }
  if (i === n) pos += n;
  else {
    if (name.includes('\0')) throw UNHANDLED;
    pos += b.write(name, pos, 'utf8');
  }
  b[pos++] = 0;
};

const writeDocument = (doc: Document, depth: number) => {
  if (depth > MAX_DEPTH) throw UNHANDLED;
  if (typeof doc.toBSON === 'function') throw UNHANDLED;
  reserve(5);
  const start = pos;
  pos += 4;
  for (const key of Object.keys(doc)) writeElement(key, doc[key], false, depth);
  reserve(1);
  buf[pos++] = 0;
  buf.writeInt32LE(pos - start, start);
};

const writeArray = (arr: unknown[], depth: number) => {
  if (depth > MAX_DEPTH) throw UNHANDLED;
  reserve(5);
  const start = pos;
  pos += 4;
  for (let i = 0; i < arr.length; i++)
    writeElement(i < INDEX_NAMES.length ? INDEX_NAMES[i] : String(i), arr[i], true, depth);
  reserve(1);
  buf[pos++] = 0;
  buf.writeInt32LE(pos - start, start);
};
const INDEX_NAMES = Array.from({ length: 128 }, (_, i) => String(i));

const writeElement = (name: string, v: unknown, inArray: boolean, depth: number) => {
  switch (typeof v) {
    case 'string': {
      writeName(0x02, name);
      const at = pos;
      pos += 4;
      writeUtf8(v);
      buf[pos++] = 0;
      buf.writeInt32LE(pos - at - 4, at);
      return;
    }
    case 'number':
      // js-bson's rule: a safe integer in the int32 range (not -0) is an int32, anything else a double.
      if ((v | 0) === v && !(v === 0 && 1 / v < 0)) {
        writeName(0x10, name);
        buf.writeInt32LE(v, pos);
        pos += 4;
      } else {
        writeName(0x01, name);
        buf.writeDoubleLE(v, pos);
        pos += 8;
      }
      return;
    case 'boolean':
      writeName(0x08, name);
      buf[pos++] = v ? 1 : 0;
      return;
    case 'undefined':
      // ignoreUndefined: left out of documents; an array keeps its place with a null.
      if (inArray) writeName(0x0a, name);
      return;
    case 'object':
      break;
    default:
      throw UNHANDLED;
  }
  if (v === null) {
    writeName(0x0a, name);
    return;
  }
  // By prototype: this package's bson classes only (another copy's values are js-bson's to judge).
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto === Object.prototype || proto === null) {
    if ('_bsontype' in v) throw UNHANDLED;
    writeName(0x03, name);
    writeDocument(v, depth + 1);
  } else if (proto === Array.prototype) {
    writeName(0x04, name);
    writeArray(v as unknown[], depth + 1);
  } else if (proto === Date.prototype) {
    const ms = (v as Date).getTime();
    if (!Number.isFinite(ms)) throw UNHANDLED;
    writeName(0x09, name);
    // A whole number of milliseconds (a safe integer) as a little-endian int64.
    const high = Math.floor(ms / 4294967296);
    buf.writeUInt32LE(ms - high * 4294967296, pos);
    buf.writeInt32LE(high, pos + 4);
    pos += 8;
  } else if (proto === ObjectId.prototype) {
    // js-bson's own writer of the 12 bytes (not in its typings; `id` would allocate a copy).
    const into = (v as { serializeInto?: (b: Uint8Array, at: number) => number }).serializeInto;
    if (typeof into !== 'function') throw UNHANDLED;
    writeName(0x07, name);
    pos += into.call(v, buf, pos);
  } else if (proto === Long.prototype || proto === Timestamp.prototype) {
    writeName(proto === Timestamp.prototype ? 0x11 : 0x12, name);
    buf.writeInt32LE((v as Long).getLowBits(), pos);
    buf.writeInt32LE((v as Long).getHighBits(), pos + 4);
    pos += 8;
  } else if (proto === Double.prototype) {
    writeName(0x01, name);
    buf.writeDoubleLE((v as Double).value, pos);
    pos += 8;
  } else if (proto === Int32.prototype) {
    writeName(0x10, name);
    buf.writeInt32LE((v as Int32).value, pos);
    pos += 4;
  } else if (proto === Decimal128.prototype) {
    writeName(0x13, name);
    buf.set((v as Decimal128).bytes, pos);
    pos += 16;
  } else if (
    (proto === Binary.prototype || proto === UUID.prototype) &&
    // (subtype 2 has a second length inside, 9 is a vector js-bson validates: both left to js-bson)
    (v as Binary).sub_type !== Binary.SUBTYPE_BYTE_ARRAY &&
    (v as Binary).sub_type !== 9
  ) {
    const bin = v as Binary;
    const size = bin.position;
    writeName(0x05, name);
    buf.writeInt32LE(size, pos);
    buf[pos + 4] = bin.sub_type;
    pos += 5;
    reserve(size);
    buf.set(bin.buffer.subarray(0, size), pos);
    pos += size;
  } else throw UNHANDLED;
};

/**
 * `prefix` bytes (the wire header, left for the caller to fill) followed by `doc` as BSON, in a new buffer
 * of exactly that size; undefined when the document holds something only js-bson writes.
 */
export const tryEncodeWithPrefix = (prefix: number, doc: Document): Buffer | undefined => {
  const proto = Object.getPrototypeOf(doc) as unknown;
  if ((proto !== Object.prototype && proto !== null) || '_bsontype' in doc) return undefined;
  pos = 0;
  try {
    reserve(prefix);
    pos = prefix;
    writeDocument(doc, 0);
  } catch (error) {
    if (error === UNHANDLED) return undefined;
    throw error;
  }
  const out = Buffer.allocUnsafe(pos);
  buf.copy(out, 0, 0, pos);
  return out;
};

const SERIALIZE_OPTIONS: BSON.SerializeOptions = { checkKeys: false, ignoreUndefined: true };

/** `prefix` bytes for the caller, then the document as BSON: by the writer above when it can, else by js-bson. */
export const encodeWithPrefix = (prefix: number, doc: Document): Buffer => {
  const fast = tryEncodeWithPrefix(prefix, doc);
  if (fast) return fast;
  const body = BSON.serialize(doc, SERIALIZE_OPTIONS);
  const out = Buffer.allocUnsafe(prefix + body.length);
  out.set(body, prefix);
  return out;
};
