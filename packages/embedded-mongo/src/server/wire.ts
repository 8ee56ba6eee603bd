// MongoDB wire protocol: message framing, the request opcodes a client may send (OP_MSG, the legacy
// OP_QUERY handshake, OP_COMPRESSED) and the two reply formats (OP_MSG, OP_REPLY).
import { inflateSync } from 'node:zlib';
import { BSON, type Document } from 'bson';
import { decodeDocument } from '../engine/bson-codec.js';
import { hasField, setField } from '../engine/bson-values.js';
import { encodeWithPrefix } from './bson-writer.js';
import { decodeCommand } from './command-decoder.js';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

export const MSG_CHECKSUM_PRESENT = 1 << 0;
export const MSG_MORE_TO_COME = 1 << 1;
export const MSG_EXHAUST_ALLOWED = 1 << 16;
/** Bits 0-15 are "required": a receiver must reject a message with a required bit it does not know. */
const MSG_KNOWN_REQUIRED_BITS = MSG_CHECKSUM_PRESENT | MSG_MORE_TO_COME;

export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000;
export const MAX_WRITE_BATCH_SIZE = 100_000;

const HEADER_SIZE = 16;

/**
 * How BSON from clients is decoded (see engine/bson-codec.ts): Longs stay `Long`, int32 and most doubles
 * become JS numbers, and a whole-number double stays a `Double` so it is written back as a double.
 */
export const DESERIALIZE_OPTIONS: BSON.DeserializeOptions = { promoteLongs: false };
const SERIALIZE_OPTIONS: BSON.SerializeOptions = { checkKeys: false, ignoreUndefined: true };

/** A message that breaks the protocol: the connection that sent it is closed, nothing else. */
export class ProtocolError extends Error {}

export interface MessageHeader {
  messageLength: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export type Request =
  | { kind: 'msg'; header: MessageHeader; flagBits: number; command: Document }
  | {
      kind: 'query';
      header: MessageHeader;
      flags: number;
      collection: string;
      skip: number;
      limit: number;
      query: Document;
    }
  /** A request we can read the header of but cannot answer with a result (e.g. an unsupported compressor). */
  | { kind: 'unsupported'; header: MessageHeader; replyAs: 'msg' | 'reply'; reason: string };

/** Splits a TCP byte stream into whole wire messages (packets may be partial or coalesced). */
export class MessageFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxMessageSize = MAX_MESSAGE_SIZE_BYTES) {}

  /** Feeds bytes; returns the complete messages now available. Throws ProtocolError on a bad length. */
  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const messages: Buffer[] = [];
    while (this.buffered >= 4) {
      const head = this.chunks[0].length >= 4 ? this.chunks[0] : this.flatten();
      const length = head.readInt32LE(0);
      if (length < HEADER_SIZE || length > this.maxMessageSize) {
        throw new ProtocolError(`invalid message length ${length} (allowed ${HEADER_SIZE}..${this.maxMessageSize})`);
      }
      if (this.buffered < length) break;
      const all = this.chunks.length === 1 ? this.chunks[0] : this.flatten();
      messages.push(all.subarray(0, length));
      const rest = all.subarray(length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
    }
    return messages;
  }

  private flatten(): Buffer {
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [all];
    return all;
  }
}

export function readHeader(message: Buffer): MessageHeader {
  return {
    messageLength: message.readInt32LE(0),
    requestId: message.readInt32LE(4),
    responseTo: message.readInt32LE(8),
    opCode: message.readInt32LE(12),
  };
}

/** Parses one framed message into a request. Throws ProtocolError when the bytes are not a valid message. */
export function parseRequest(message: Buffer): Request {
  const header = readHeader(message);
  try {
    switch (header.opCode) {
      case OP_MSG:
        return parseOpMsg(header, message, HEADER_SIZE);
      case OP_QUERY:
        return parseOpQuery(header, message, HEADER_SIZE);
      case OP_COMPRESSED:
        return parseOpCompressed(header, message);
      default:
        throw new ProtocolError(`unsupported opCode ${header.opCode}`);
    }
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new ProtocolError(`malformed message: ${(error as Error).message}`);
  }
}

function parseOpMsg(header: MessageHeader, buf: Buffer, start: number): Request {
  const flagBits = buf.readUInt32LE(start);
  const requiredBits = flagBits & 0xffff;
  if ((requiredBits & ~MSG_KNOWN_REQUIRED_BITS) !== 0) {
    throw new ProtocolError(`OP_MSG has unknown required flag bits 0x${requiredBits.toString(16)}`);
  }
  let end = buf.length;
  if (flagBits & MSG_CHECKSUM_PRESENT) {
    end -= 4;
    const expected = buf.readUInt32LE(end);
    // The checksum covers the whole message (header included) except the checksum itself.
    if (crc32c(buf.subarray(0, end)) !== expected) throw new ProtocolError('OP_MSG checksum mismatch');
  }
  let offset = start + 4;
  let body: Document | undefined;
  const sequences: [string, Document[]][] = [];
  while (offset < end) {
    const kind = buf[offset++];
    if (kind === 0) {
      if (body) throw new ProtocolError('OP_MSG has more than one body section');
      const size = buf.readInt32LE(offset);
      body = decodeCommand(buf.subarray(offset, offset + size));
      offset += size;
    } else if (kind === 1) {
      const size = buf.readInt32LE(offset);
      const sectionEnd = offset + size;
      if (sectionEnd > end) throw new ProtocolError('OP_MSG document sequence overruns the message');
      let cursor = offset + 4;
      const nul = buf.indexOf(0, cursor);
      if (nul < 0 || nul >= sectionEnd) throw new ProtocolError('OP_MSG document sequence has no identifier');
      const identifier = buf.toString('utf8', cursor, nul);
      cursor = nul + 1;
      const docs: Document[] = [];
      while (cursor < sectionEnd) {
        const docSize = buf.readInt32LE(cursor);
        if (docSize < 5 || cursor + docSize > sectionEnd)
          throw new ProtocolError('OP_MSG document sequence has a bad document size');
        docs.push(decodeDocument(buf.subarray(cursor, cursor + docSize)));
        cursor += docSize;
      }
      sequences.push([identifier, docs]);
      offset = sectionEnd;
    } else {
      throw new ProtocolError(`OP_MSG has an unknown section kind ${kind}`);
    }
  }
  if (offset !== end) throw new ProtocolError('OP_MSG sections do not end at the message end');
  if (!body) throw new ProtocolError('OP_MSG has no body section');
  for (const [identifier, docs] of sequences) {
    if (hasField(body, identifier))
      throw new ProtocolError(`OP_MSG field '${identifier}' is both in the body and a document sequence`);
    setField(body, identifier, docs);
  }
  return { kind: 'msg', header, flagBits, command: body };
}

function parseOpQuery(header: MessageHeader, buf: Buffer, start: number): Request {
  const flags = buf.readInt32LE(start);
  const nul = buf.indexOf(0, start + 4);
  if (nul < 0) throw new ProtocolError('OP_QUERY has no collection name');
  const collection = buf.toString('utf8', start + 4, nul);
  let offset = nul + 1;
  const skip = buf.readInt32LE(offset);
  const limit = buf.readInt32LE(offset + 4);
  offset += 8;
  const size = buf.readInt32LE(offset);
  const query = decodeDocument(buf.subarray(offset, offset + size));
  return { kind: 'query', header, flags, collection, skip, limit, query };
}

const COMPRESSORS: Record<number, string> = { 0: 'noop', 1: 'snappy', 2: 'zlib', 3: 'zstd' };

function parseOpCompressed(header: MessageHeader, buf: Buffer): Request {
  const originalOpCode = buf.readInt32LE(16);
  const uncompressedSize = buf.readInt32LE(20);
  const compressorId = buf.readUInt8(24);
  const replyAs = originalOpCode === OP_QUERY ? 'reply' : 'msg';
  if (uncompressedSize < 0 || uncompressedSize > MAX_MESSAGE_SIZE_BYTES) {
    throw new ProtocolError(`OP_COMPRESSED uncompressed size ${uncompressedSize} is out of range`);
  }
  let payload: Buffer;
  const data = buf.subarray(25);
  if (compressorId === 0) payload = data;
  else if (compressorId === 2) payload = inflateSync(data, { maxOutputLength: MAX_MESSAGE_SIZE_BYTES });
  else {
    // Compression is never advertised in hello, so a client should not send this; answer instead of hanging.
    const name = COMPRESSORS[compressorId] ?? `id ${compressorId}`;
    return {
      kind: 'unsupported',
      header,
      replyAs,
      reason: `compressor ${name} is not supported by this server (it advertises no compression)`,
    };
  }
  if (payload.length !== uncompressedSize)
    throw new ProtocolError('OP_COMPRESSED payload size does not match uncompressedSize');
  const original = Buffer.allocUnsafe(HEADER_SIZE + payload.length);
  original.writeInt32LE(HEADER_SIZE + payload.length, 0);
  original.writeInt32LE(header.requestId, 4);
  original.writeInt32LE(header.responseTo, 8);
  original.writeInt32LE(originalOpCode, 12);
  payload.copy(original, HEADER_SIZE);
  const inner = { ...header, opCode: originalOpCode, messageLength: original.length };
  if (originalOpCode === OP_MSG) return { ...parseOpMsg(inner, original, HEADER_SIZE), header: inner };
  if (originalOpCode === OP_QUERY) return { ...parseOpQuery(inner, original, HEADER_SIZE), header: inner };
  throw new ProtocolError(`OP_COMPRESSED wraps unsupported opCode ${originalOpCode}`);
}

export function serializeDocument(doc: Document): Buffer {
  return BSON.serialize(doc, SERIALIZE_OPTIONS) as Buffer;
}

/** Writes a reply's standard header (its length is the whole message's) into its first HEADER_SIZE bytes. */
function writeHeader(message: Buffer, requestId: number, responseTo: number, opCode: number) {
  message.writeInt32LE(message.length, 0);
  message.writeInt32LE(requestId, 4);
  message.writeInt32LE(responseTo, 8);
  message.writeInt32LE(opCode, 12);
}

/** Encodes an OP_MSG reply with one body section (header and body written into one buffer, see bson-writer). */
export function encodeOpMsg(requestId: number, responseTo: number, doc: Document, flagBits = 0): Buffer {
  const message = encodeWithPrefix(HEADER_SIZE + 5, doc);
  writeHeader(message, requestId, responseTo, OP_MSG);
  message.writeUInt32LE(flagBits, 16);
  message.writeUInt8(0, 20);
  return message;
}

export const REPLY_QUERY_FAILURE = 1 << 1;
const REPLY_AWAIT_CAPABLE = 1 << 3;

/** Encodes a legacy OP_REPLY carrying one document (the answer to an OP_QUERY command). */
export function encodeOpReply(
  requestId: number,
  responseTo: number,
  doc: Document,
  responseFlags = REPLY_AWAIT_CAPABLE,
): Buffer {
  const message = encodeWithPrefix(HEADER_SIZE + 20, doc);
  writeHeader(message, requestId, responseTo, OP_REPLY);
  message.writeInt32LE(responseFlags, 16);
  message.writeBigInt64LE(0n, 20); // cursorID: commands never return a legacy cursor
  message.writeInt32LE(0, 28); // startingFrom
  message.writeInt32LE(1, 32); // numberReturned
  return message;
}

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

/** CRC-32C (Castagnoli), the OP_MSG checksum. */
export function crc32c(buf: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < buf.length; i++) crc = CRC32C_TABLE[(crc ^ buf[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
