// Wire-protocol behaviour drivers rarely exercise: framing over TCP, OP_MSG flags and document sequences,
// the legacy OP_QUERY handshake, OP_COMPRESSED, and what a broken message does (closes only its connection).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Long } from 'bson';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../src/index.js';
import { opCompressed, opMsg, opQuery, RawClient } from './helpers.js';

let mongo: EmbeddedMongo;
let port: number;

beforeAll(async () => {
  mongo = await startEmbeddedMongo({ port: 0 });
  port = mongo.port;
  const client = await RawClient.connect(port);
  await client.command({
    insert: 'coins',
    documents: Array.from({ length: 250 }, (_, i) => ({ _id: i })),
    $db: 'shop',
  });
  client.close();
});

afterAll(async () => {
  await mongo?.stop();
});

describe('framing', () => {
  it('answers a message split into single bytes', async () => {
    const client = await RawClient.connect(port);
    const bytes = opMsg({ ping: 1, $db: 'admin' });
    for (const byte of bytes) {
      client.send(Buffer.from([byte]));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await client.next()).doc).toEqual({ ok: 1 });
    client.close();
  });

  it('answers several messages coalesced into one packet, in order', async () => {
    const client = await RawClient.connect(port);
    const messages = [
      opMsg({ ping: 1, $db: 'admin' }),
      opMsg({ buildInfo: 1, $db: 'admin' }),
      opMsg({ nope: 1, $db: 'admin' }),
    ];
    client.send(Buffer.concat(messages));
    const replies = [await client.next(), await client.next(), await client.next()];
    expect(replies.map((reply) => reply.responseTo)).toEqual(messages.map((m) => m.readInt32LE(4)));
    expect(replies[0].doc.ok).toBe(1);
    expect(replies[1].doc.version).toBe('7.0.0');
    expect(replies[2].doc).toMatchObject({
      ok: 0,
      code: 59,
      codeName: 'CommandNotFound',
      errmsg: "no such command: 'nope'",
    });
    client.close();
  });

  it('closes only the connection that sent a message with an impossible length', async () => {
    const bad = await RawClient.connect(port);
    const good = await RawClient.connect(port);
    const header = Buffer.alloc(16);
    header.writeInt32LE(64 * 1024 * 1024, 0); // above maxMessageSizeBytes
    bad.send(header);
    expect(await bad.waitClosed()).toBe(true);
    expect(await good.command({ ping: 1, $db: 'admin' })).toEqual({ ok: 1 });
    good.close();
  });

  it('closes the connection on garbage BSON but keeps serving others', async () => {
    const bad = await RawClient.connect(port);
    const message = opMsg({ ping: 1, $db: 'admin' });
    message.writeInt32LE(9999, 21); // BSON length inside the body no longer matches
    bad.send(message);
    expect(await bad.waitClosed()).toBe(true);
    const good = await RawClient.connect(port);
    expect(await good.command({ ping: 1, $db: 'admin' })).toEqual({ ok: 1 });
    good.close();
  });
});

describe('OP_MSG', () => {
  it('merges kind 1 document sequences into the command as arrays', async () => {
    const client = await RawClient.connect(port);
    const reply = await client.command(
      { insert: 'patches', ordered: false, $db: 'shop' },
      {
        sequences: [
          [
            'documents',
            [
              { _id: 1, name: 'Eagle' },
              { _id: 2, name: 'Anchor' },
              { _id: 1, name: 'Dup' },
              { _id: 3, name: 'Skull' },
            ],
          ],
        ],
      },
    );
    // ordered:false from the body applies to the sequence: the duplicate fails alone.
    expect(reply).toMatchObject({ n: 3, ok: 1, writeErrors: [{ index: 2, code: 11000 }] });
    const found = await client.command({ find: 'patches', filter: {}, sort: { _id: 1 }, $db: 'shop' });
    expect(found.cursor.firstBatch).toEqual([
      { _id: 1, name: 'Eagle' },
      { _id: 2, name: 'Anchor' },
      { _id: 3, name: 'Skull' },
    ]);
    const updated = await client.command(
      { update: 'patches', $db: 'shop' },
      {
        sequences: [
          [
            'updates',
            [
              { q: { _id: 1 }, u: { $set: { qty: 5 } } },
              { q: { _id: 2 }, u: { $set: { qty: 7 } } },
            ],
          ],
        ],
      },
    );
    expect(updated).toMatchObject({ n: 2, nModified: 2, ok: 1 });
    client.close();
  });

  it('verifies a CRC-32C checksum when one is present', async () => {
    const client = await RawClient.connect(port);
    expect(await client.command({ ping: 1, $db: 'admin' }, { checksum: true })).toEqual({ ok: 1 });
    const corrupted = opMsg({ ping: 1, $db: 'admin' }, { checksum: true });
    // >>> 0: a checksum with its top bit set would come out of ^ as a negative number.
    corrupted.writeUInt32LE((corrupted.readUInt32LE(corrupted.length - 4) ^ 1) >>> 0, corrupted.length - 4);
    client.send(corrupted);
    expect(await client.waitClosed()).toBe(true);
  });

  it('sends no reply when the client sets moreToCome, and keeps reading', async () => {
    const client = await RawClient.connect(port);
    client.send(
      opMsg(
        { insert: 'unacknowledged', documents: [{ _id: 'w0' }], writeConcern: { w: 0 }, $db: 'shop' },
        { flagBits: 2 },
      ),
    );
    const reply = await client.command({ find: 'unacknowledged', filter: {}, $db: 'shop' });
    expect(reply.cursor.firstBatch).toEqual([{ _id: 'w0' }]);
    client.close();
  });

  it('rejects a message with an unknown required flag bit by closing the connection', async () => {
    const client = await RawClient.connect(port);
    client.send(opMsg({ ping: 1, $db: 'admin' }, { flagBits: 1 << 5 }));
    expect(await client.waitClosed()).toBe(true);
  });

  it('requires $db', async () => {
    const client = await RawClient.connect(port);
    expect(await client.command({ ping: 1 })).toMatchObject({ ok: 0, code: 40571 });
    client.close();
  });
});

describe('legacy OP_QUERY handshake', () => {
  it('answers isMaster on admin.$cmd with OP_REPLY', async () => {
    const client = await RawClient.connect(port);
    client.send(opQuery('admin.$cmd', { isMaster: 1, helloOk: true, client: { application: { name: 'test' } } }));
    const reply = await client.next();
    expect(reply.opCode).toBe(1);
    expect(reply.doc).toMatchObject({ ismaster: true, helloOk: true, maxWireVersion: 21, minWireVersion: 0, ok: 1 });
    expect(reply.doc.setName).toBeUndefined();
    client.close();
  });

  it('refuses other OP_QUERY commands like MongoDB 6+, without dropping the connection', async () => {
    const client = await RawClient.connect(port);
    client.send(opQuery('shop.$cmd', { find: 'coins' }));
    expect((await client.next()).doc).toMatchObject({ ok: 0, code: 352 });
    expect(await client.command({ ping: 1, $db: 'admin' })).toEqual({ ok: 1 });
    client.close();
  });
});

describe('OP_COMPRESSED', () => {
  it('accepts noop and zlib compressed requests and replies uncompressed', async () => {
    const client = await RawClient.connect(port);
    client.send(opCompressed(opMsg({ ping: 1, $db: 'admin' }), 0));
    expect(await client.next()).toMatchObject({ opCode: 2013, doc: { ok: 1 } });
    client.send(opCompressed(opMsg({ buildInfo: 1, $db: 'admin' }), 2));
    expect((await client.next()).doc.version).toBe('7.0.0');
    client.close();
  });

  it('answers snappy with an error instead of hanging', async () => {
    const client = await RawClient.connect(port);
    client.send(opCompressed(opMsg({ ping: 1, $db: 'admin' }), 1));
    const reply = await client.next();
    expect(reply.doc.ok).toBe(0);
    expect(reply.doc.errmsg).toContain('snappy');
    client.close();
  });
});

describe('awaitable hello', () => {
  it('streams replies with moreToCome when the client allows exhaust', async () => {
    const client = await RawClient.connect(port);
    const first = await client.command({ hello: 1, $db: 'admin' });
    const request = opMsg(
      { hello: 1, topologyVersion: first.topologyVersion, maxAwaitTimeMS: 100, $db: 'admin' },
      { flagBits: 1 << 16 },
    );
    client.send(request);
    const a = await client.next();
    const b = await client.next();
    expect(a.flagBits & 2).toBe(2);
    expect(b.flagBits & 2).toBe(2);
    expect(a.responseTo).toBe(request.readInt32LE(4));
    expect(a.doc.isWritablePrimary).toBe(true);
    client.close();
  });

  it('answers at once when the topology version is from another process', async () => {
    const client = await RawClient.connect(port);
    const reply = await client.command({
      hello: 1,
      topologyVersion: { processId: '000000000000000000000000', counter: Long.ZERO },
      maxAwaitTimeMS: 60_000,
      $db: 'admin',
    });
    expect(reply.ok).toBe(1);
    client.close();
  });
});

describe('cursors', () => {
  it('pages a result with firstBatch/nextBatch and Long ids, and reports CursorNotFound afterwards', async () => {
    const client = await RawClient.connect(port);
    const first = await client.command({ find: 'coins', batchSize: 100, $db: 'shop' });
    expect(first.cursor.firstBatch).toHaveLength(100);
    const id = first.cursor.id;
    expect(id).toBeInstanceOf(Long);
    expect(first.cursor.ns).toBe('shop.coins');
    const second = await client.command({ getMore: id, collection: 'coins', batchSize: 100, $db: 'shop' });
    expect(second.cursor.nextBatch).toHaveLength(100);
    const third = await client.command({ getMore: id, collection: 'coins', $db: 'shop' });
    expect(third.cursor.nextBatch).toHaveLength(50);
    expect(third.cursor.id.isZero()).toBe(true);
    const gone = await client.command({ getMore: id, collection: 'coins', $db: 'shop' });
    expect(gone).toMatchObject({ ok: 0, code: 43, codeName: 'CursorNotFound' });
    client.close();
  });

  it('answers killCursors with the four lists', async () => {
    const client = await RawClient.connect(port);
    const first = await client.command({ find: 'coins', batchSize: 1, $db: 'shop' });
    const reply = await client.command({
      killCursors: 'coins',
      cursors: [first.cursor.id, Long.fromNumber(12345)],
      $db: 'shop',
    });
    expect(reply.cursorsKilled).toEqual([first.cursor.id]);
    expect(reply.cursorsNotFound).toEqual([Long.fromNumber(12345)]);
    expect(reply.cursorsAlive).toEqual([]);
    expect(reply.cursorsUnknown).toEqual([]);
    client.close();
  });
});
