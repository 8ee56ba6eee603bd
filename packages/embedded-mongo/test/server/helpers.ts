// Raw wire-protocol client for protocol-level tests (framing, opcodes, flags) that drivers never exercise.
import net from 'node:net';
import { deflateSync } from 'node:zlib';
import { BSON, type Document } from 'bson';
import { crc32c, OP_COMPRESSED, OP_MSG, OP_QUERY, OP_REPLY } from '../../src/server/wire.js';

let requestId = 100;

export function opMsg(
  command: Document,
  options: { flagBits?: number; sequences?: [string, Document[]][]; checksum?: boolean } = {},
): Buffer {
  const parts: Buffer[] = [Buffer.from([0]), Buffer.from(BSON.serialize(command))];
  for (const [identifier, docs] of options.sequences ?? []) {
    const payload = Buffer.concat([
      Buffer.from(identifier + '\0', 'utf8'),
      ...docs.map((doc) => Buffer.from(BSON.serialize(doc))),
    ]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(payload.length + 4);
    parts.push(Buffer.from([1]), size, payload);
  }
  let flagBits = options.flagBits ?? 0;
  if (options.checksum) flagBits |= 1;
  const body = Buffer.concat(parts);
  const length = 16 + 4 + body.length + (options.checksum ? 4 : 0);
  const header = Buffer.alloc(20);
  header.writeInt32LE(length, 0);
  header.writeInt32LE(++requestId, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(OP_MSG, 12);
  header.writeUInt32LE(flagBits, 16);
  const message = Buffer.concat([header, body]);
  if (!options.checksum) return message;
  const sum = Buffer.alloc(4);
  sum.writeUInt32LE(crc32c(message));
  return Buffer.concat([message, sum]);
}

export function opQuery(collection: string, query: Document): Buffer {
  const name = Buffer.from(collection + '\0', 'utf8');
  const doc = Buffer.from(BSON.serialize(query));
  const buf = Buffer.alloc(16 + 4 + name.length + 8);
  buf.writeInt32LE(buf.length + doc.length, 0);
  buf.writeInt32LE(++requestId, 4);
  buf.writeInt32LE(0, 8);
  buf.writeInt32LE(OP_QUERY, 12);
  buf.writeInt32LE(0, 16);
  name.copy(buf, 20);
  buf.writeInt32LE(0, 20 + name.length);
  buf.writeInt32LE(-1, 24 + name.length);
  return Buffer.concat([buf, doc]);
}

export function opCompressed(message: Buffer, compressorId: number): Buffer {
  const originalOpCode = message.readInt32LE(12);
  const payload = message.subarray(16);
  const compressed = compressorId === 2 ? deflateSync(payload) : payload;
  const header = Buffer.alloc(25);
  header.writeInt32LE(25 + compressed.length, 0);
  header.writeInt32LE(message.readInt32LE(4), 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(OP_COMPRESSED, 12);
  header.writeInt32LE(originalOpCode, 16);
  header.writeInt32LE(payload.length, 20);
  header.writeUInt8(compressorId, 24);
  return Buffer.concat([header, compressed]);
}

export interface Reply {
  opCode: number;
  responseTo: number;
  flagBits: number;
  doc: Document;
}

function parseReply(message: Buffer): Reply {
  const opCode = message.readInt32LE(12);
  const responseTo = message.readInt32LE(8);
  if (opCode === OP_REPLY) {
    return {
      opCode,
      responseTo,
      flagBits: message.readInt32LE(16),
      doc: BSON.deserialize(message.subarray(36), { promoteLongs: false }),
    };
  }
  return {
    opCode,
    responseTo,
    flagBits: message.readUInt32LE(16),
    doc: BSON.deserialize(message.subarray(21), { promoteLongs: false }),
  };
}

/** A socket that collects whole reply messages. */
export class RawClient {
  private buffer = Buffer.alloc(0);
  private readonly replies: Reply[] = [];
  private waiters: (() => void)[] = [];
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      while (this.buffer.length >= 4 && this.buffer.length >= this.buffer.readInt32LE(0)) {
        const length = this.buffer.readInt32LE(0);
        this.replies.push(parseReply(this.buffer.subarray(0, length)));
        this.buffer = this.buffer.subarray(length);
      }
      this.wakeAll();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wakeAll();
    });
    socket.on('error', () => undefined);
  }

  static connect(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1' }, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  private wakeAll() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  async next(timeoutMs = 5000): Promise<Reply> {
    const deadline = Date.now() + timeoutMs;
    while (this.replies.length === 0) {
      if (this.closed) throw new Error('connection closed');
      if (Date.now() > deadline) throw new Error('no reply in time');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.replies.shift()!;
  }

  async command(command: Document, options?: Parameters<typeof opMsg>[1]): Promise<Document> {
    this.send(opMsg(command, options));
    return (await this.next()).doc;
  }

  async waitClosed(timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return this.closed;
  }

  close(): void {
    this.socket.destroy();
  }
}
