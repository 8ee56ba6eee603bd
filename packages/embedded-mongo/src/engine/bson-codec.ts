// Decoding BSON from clients and from disk without losing the int32/double distinction.
//
// js-bson turns both int32 and double into JS numbers, and serializes a whole JS number back as an int32, so a
// stored `1.0` would come back as `1` and stop matching `{$type: 'double'}`. Numbers are still the cheapest
// representation for the engine and for mingo, so only the values a plain number cannot carry are kept as
// `Double` wrappers: doubles that hold a whole number in the int32 range (-0 already serializes as a double).
// A byte scan finds whether a document has any such double; most have none and take the fast default path.
import { BSON, Double, type Document } from 'bson';

const DEFAULTS: BSON.DeserializeOptions = { promoteLongs: false };
const WRAPPED: BSON.DeserializeOptions = { promoteLongs: false, promoteValues: false };

/** True when a plain JS number holding `v` would be written back as an int32 rather than a double. */
export const wouldBecomeInt32 = (v: number): boolean =>
  Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 && !Object.is(v, -0);

/**
 * Whether the BSON document in `b[start, end)` holds a double with a whole int32-range value anywhere (nested
 * documents and arrays included). Unknown element types answer true so the full decoder reports them.
 */
const hasWholeDouble = (b: Buffer, start: number, end: number): boolean => {
  let pos = start + 4;
  while (pos < end) {
    const type = b[pos++];
    // 0 ends a (nested) document; nested documents are scanned in line, so just continue.
    if (type === 0) continue;
    while (pos < end && b[pos] !== 0) pos++;
    pos++;
    switch (type) {
      case 0x01:
        if (pos + 8 > end) return true;
        if (wouldBecomeInt32(b.readDoubleLE(pos))) return true;
        pos += 8;
        break;
      case 0x02:
      case 0x0d:
      case 0x0e:
        pos += 4 + b.readInt32LE(pos);
        break;
      case 0x03:
      case 0x04:
        pos += 4;
        break;
      case 0x05:
        pos += 5 + b.readInt32LE(pos);
        break;
      case 0x06:
      case 0x0a:
      case 0x7f:
      case 0xff:
        break;
      case 0x07:
        pos += 12;
        break;
      case 0x08:
        pos += 1;
        break;
      case 0x09:
      case 0x11:
      case 0x12:
        pos += 8;
        break;
      case 0x0b:
        while (pos < end && b[pos] !== 0) pos++;
        pos++;
        while (pos < end && b[pos] !== 0) pos++;
        pos++;
        break;
      case 0x0c:
        pos += 4 + b.readInt32LE(pos) + 12;
        break;
      case 0x0f:
        pos += b.readInt32LE(pos);
        break;
      case 0x10:
        pos += 4;
        break;
      case 0x13:
        pos += 16;
        break;
      default:
        return true;
    }
  }
  return false;
};

/** Int32 wrappers become numbers; Double wrappers stay only where a number would turn into an int32. */
const settle = (v: unknown): unknown => {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = settle(v[i]);
    return v;
  }
  const t = (v as { _bsontype?: string })._bsontype;
  if (t === 'Int32') return (v as { value: number }).value;
  if (t === 'Double') {
    const n = (v as Double).value;
    return wouldBecomeInt32(n) ? v : n;
  }
  if (t !== undefined || v instanceof Date || v instanceof RegExp || ArrayBuffer.isView(v)) return v;
  const o = v as Document;
  for (const k of Object.keys(o)) o[k] = settle(o[k]);
  return o;
};

/** Decodes one BSON document: Long stays Long, whole-number doubles stay doubles, other numbers are numbers. */
export const decodeDocument = (buf: Buffer, extra?: BSON.DeserializeOptions): Document => {
  if (!hasWholeDouble(buf, 0, buf.length)) return BSON.deserialize(buf, extra ? { ...DEFAULTS, ...extra } : DEFAULTS);
  return settle(BSON.deserialize(buf, extra ? { ...WRAPPED, ...extra } : WRAPPED)) as Document;
};

/** A whole number as a BSON double (a wrapper when a plain number would be written as an int32). */
export const asDouble = (n: number): number | Double => (wouldBecomeInt32(n) ? new Double(n) : n);
