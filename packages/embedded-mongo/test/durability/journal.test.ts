import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  Binary,
  BSONRegExp,
  Code,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  UUID,
  serialize,
} from 'bson';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JournalOp } from '../../src/engine/types.js';
import { JournalCorruptError, openJournal, type DurableJournal } from '../../src/durability/index.js';
import { JOURNAL_MAGIC, encodeOps, encodeRecord } from '../../src/durability/format.js';
import { Model, crashCopy, journalFiles, tempDir } from './helpers.js';

const open: DurableJournal[] = [];
async function openTracked(dir: string, options = {}) {
  const result = await openJournal(dir, options);
  open.push(result.journal);
  return result;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((journal) => journal.close()));
});

const put = (i: number, extra: object = {}): JournalOp => ({
  op: 'put',
  db: 'shop_orders',
  coll: 'orders',
  doc: { _id: i, n: i, ...extra },
});

/** Writes `count` records one after another (each acknowledged before the next), then closes. */
async function writeSequential(dir: string, count: number): Promise<void> {
  const { journal } = await openJournal(dir);
  for (let i = 1; i <= count; i++) await journal.append([put(i)]);
  await journal.close();
}

async function replayed(dir: string) {
  const result = await openTracked(dir);
  return { ...result, ops: [...result.replay] };
}

describe('journal round trip', () => {
  it('replays every kind of op with every BSON type exactly as appended', async () => {
    const dir = await tempDir();
    const id = new ObjectId();
    const doc = {
      _id: id,
      string: 'Challenge coin — 2" antique brass ✓',
      int: 42,
      negativeZero: -0,
      double: 3.25,
      bigDouble: 2 ** 60,
      long: Long.fromString('9007199254740993'),
      smallLong: Long.fromNumber(7),
      decimal: Decimal128.fromString('19.990'),
      date: new Date('2026-11-22T10:15:30.123Z'),
      bool: true,
      nothing: null,
      binary: new Binary(Buffer.from([0, 1, 2, 255]), 0),
      uuid: new UUID('0b1d3c5e-7f90-4a2b-8c4d-6e8f0a1b2c3d'),
      regex: /^coin-\d+$/i,
      timestamp: new Timestamp({ t: 1_700_000_000, i: 3 }),
      minKey: new MinKey(),
      maxKey: new MaxKey(),
      code: new Code('function () { return 1; }'),
      codeWithScope: new Code('function () { return x; }', { x: 1 }),
      dbRef: new DBRef('customers', new ObjectId()),
      nested: { array: [1, 'two', { three: Decimal128.fromString('3') }, [new Date(0)]], empty: {} },
      '$odd.key': 'keys with $ and dots are data too',
    };
    const ops: JournalOp[] = [
      { op: 'createCollection', db: 'shop_orders', coll: 'orders', options: { validator: { total: { $gte: 0 } } } },
      {
        op: 'createIndex',
        db: 'shop_orders',
        coll: 'orders',
        spec: {
          v: 2,
          key: { email: 1, createdAt: -1 },
          name: 'email_1_createdAt_-1',
          unique: true,
          partialFilterExpression: { email: { $exists: true } },
        },
      },
      {
        op: 'createIndex',
        db: 'shop_orders',
        coll: 'orders',
        spec: { v: 2, key: { expiresAt: 1 }, name: 'ttl', expireAfterSeconds: 3600 },
      },
      { op: 'put', db: 'shop_orders', coll: 'orders', doc },
      { op: 'delete', db: 'shop_orders', coll: 'orders', id },
      { op: 'delete', db: 'shop_orders', coll: 'orders', id: Decimal128.fromString('1.0') },
      { op: 'collMod', db: 'shop_orders', coll: 'orders', options: { validationLevel: 'off' } },
      { op: 'dropIndex', db: 'shop_orders', coll: 'orders', name: 'ttl' },
      { op: 'dropCollection', db: 'shop_orders', coll: 'orders' },
      { op: 'dropDatabase', db: 'shop_orders' },
    ];
    const { journal } = await openJournal(dir);
    await journal.append(ops.slice(0, 3));
    await journal.append(ops.slice(3, 4));
    await journal.append(ops.slice(4));
    await journal.close();

    const { ops: back, replay } = await replayed(dir);
    expect(back).toHaveLength(ops.length);
    expect(() => [...replay]).toThrow(/only once/); // its buffers were released while it was read
    for (let i = 0; i < ops.length; i++) {
      // Byte-identical BSON means identical types and values, not just equal-looking ones.
      expect(Buffer.from(serialize(back[i])).equals(Buffer.from(serialize(ops[i])))).toBe(true);
    }
    const backDoc = (back[3] as Extract<JournalOp, { op: 'put' }>).doc;
    expect(backDoc._id).toBeInstanceOf(ObjectId);
    expect(backDoc.long).toBeInstanceOf(Long);
    expect(backDoc.smallLong).toBeInstanceOf(Long);
    expect(backDoc.decimal).toBeInstanceOf(Decimal128);
    expect(backDoc.decimal.toString()).toBe('19.990');
    expect(backDoc.date).toBeInstanceOf(Date);
    expect(backDoc.binary).toBeInstanceOf(Binary);
    expect(backDoc.timestamp).toBeInstanceOf(Timestamp);
    expect(Object.is(backDoc.negativeZero, -0)).toBe(true);
    expect((back[5] as Extract<JournalOp, { op: 'delete' }>).id).toBeInstanceOf(Decimal128);
  });

  it('keeps int32 as numbers, a whole-number double as a Double, and BSONRegExp flags when asked to', async () => {
    const dir = await tempDir();
    const { journal } = await openJournal(dir);
    await journal.append([put(1, { i32: new Int32(5), dbl: new Double(2), re: new BSONRegExp('a b', 'x') })]);
    await journal.close();
    const { replay, journal: reopened } = await openJournal(dir, { bson: { promoteLongs: false, bsonRegExp: true } });
    const doc = ([...replay][0] as Extract<JournalOp, { op: 'put' }>).doc;
    expect(doc.i32).toBe(5);
    // a plain 2 would be written back as an int32: the double keeps its type
    expect(doc.dbl).toBeInstanceOf(Double);
    expect(doc.dbl.valueOf()).toBe(2);
    expect(doc.re).toBeInstanceOf(BSONRegExp);
    expect(doc.re.options).toBe('x');
    await reopened.close();
  });

  it('rejects values BSON cannot hold without writing anything', async () => {
    const dir = await tempDir();
    const { journal } = await openTracked(dir);
    await expect(journal.append([put(1, { 'nul\0key': 1 })])).rejects.toThrow(/cannot be stored as BSON/);
    await journal.append([put(2)]);
    await journal.close();
    const { ops } = await replayed(dir);
    expect(ops).toEqual([put(2)]);
  });

  it('starts empty in a new directory and refuses a second open of the same directory', async () => {
    const dir = path.join(await tempDir(), 'nested', 'data');
    const { journal, ops, recovery } = await replayed(dir);
    expect(ops).toEqual([]);
    expect(recovery.lastSeq).toBe(0);
    await expect(openJournal(dir)).rejects.toThrow(/already open/);
    await journal.close();
    const again = await openTracked(dir);
    expect([...again.replay]).toEqual([]);
  });
});

describe('group commit', () => {
  it('makes many concurrent appends durable with fewer syncs than appends', async () => {
    const dir = await tempDir();
    const { journal } = await openJournal(dir);
    const count = 2000;
    await Promise.all(Array.from({ length: count }, (_, i) => journal.append([put(i + 1)])));
    const stats = journal.stats();
    expect(stats.appends).toBe(count);
    expect(stats.records).toBe(count);
    expect(stats.syncs).toBeGreaterThan(0);
    expect(stats.syncs).toBeLessThan(count / 10);
    expect(stats.lastSeq).toBe(count);

    // What is on disk right now (no close) holds every acknowledged append, in append order.
    const { ops } = await replayed(await crashCopy(dir));
    expect(ops.map((op) => (op as Extract<JournalOp, { op: 'put' }>).doc._id)).toEqual(
      Array.from({ length: count }, (_, i) => i + 1),
    );
    await journal.close();
  });

  it('treats an empty append as a barrier behind earlier appends', async () => {
    const dir = await tempDir();
    const { journal } = await openTracked(dir);
    const order: string[] = [];
    const first = journal.append([put(1)]).then(() => order.push('put'));
    const barrier = journal.append([]).then(() => order.push('barrier'));
    await Promise.all([first, barrier]);
    expect(order).toEqual(['put', 'barrier']);
    expect(journal.stats().records).toBe(1);
  });

  it('flushes pending appends on close and rejects appends after it', async () => {
    const dir = await tempDir();
    const { journal } = await openJournal(dir);
    const pending = Array.from({ length: 50 }, (_, i) => journal.append([put(i + 1)]));
    await journal.close();
    await Promise.all(pending);
    await expect(journal.append([put(99)])).rejects.toThrow(/closed/);
    const { ops } = await replayed(dir);
    expect(ops).toHaveLength(50);
  });
});

describe('recovery from damage', () => {
  async function segmentPath(dir: string) {
    const files = await journalFiles(dir);
    return path.join(dir, files.at(-1)!);
  }

  it('ignores a torn tail (a short record), cuts it off, and appends cleanly after it', async () => {
    const dir = await tempDir();
    await writeSequential(dir, 5);
    const file = await segmentPath(dir);
    const goodSize = (await fs.stat(file)).size;
    const torn = encodeRecord(6, 5, encodeOps([put(6)]));
    await fs.appendFile(file, torn.subarray(0, torn.length - 7));

    const { journal, ops, recovery } = await replayed(dir);
    expect(ops.map((op) => (op as Extract<JournalOp, { op: 'put' }>).doc._id)).toEqual([1, 2, 3, 4, 5]);
    expect(recovery.truncated).toMatchObject({ offset: goodSize, reason: expect.stringContaining('short record') });
    expect((await fs.stat(file)).size).toBe(goodSize);

    await journal.append([put(6, { again: true })]);
    await journal.close();
    const after = await replayed(dir);
    expect(after.ops).toHaveLength(6);
    expect(after.ops[5]).toEqual(put(6, { again: true }));
    expect(after.recovery.truncated).toBeNull();
  });

  it('ignores a last record with a bad checksum and a zero-filled tail', async () => {
    const dir = await tempDir();
    await writeSequential(dir, 3);
    const file = await segmentPath(dir);
    const bytes = await fs.readFile(file);
    bytes[bytes.length - 3] ^= 0xff; // inside the payload of record 3
    await fs.writeFile(file, Buffer.concat([bytes, Buffer.alloc(4096)]));
    const { ops, recovery } = await replayed(dir);
    expect(ops).toHaveLength(2);
    expect(recovery.truncated?.reason).toMatch(/bad checksum/);
  });

  it('treats damage followed only by records of the same unsynced batch as a torn tail', async () => {
    const dir = await tempDir();
    await writeSequential(dir, 3);
    const file = await segmentPath(dir);
    // Records 4 and 5 were written in one batch after record 3 was durable (aux = 3); the machine lost power
    // before the sync, with record 4's page lost and record 5's page on disk. Neither was acknowledged.
    const r4 = encodeRecord(4, 3, encodeOps([put(4)]));
    r4.fill(0, 0, 8);
    await fs.appendFile(file, Buffer.concat([r4, encodeRecord(5, 3, encodeOps([put(5)]))]));
    const { ops, recovery } = await replayed(dir);
    expect(ops).toHaveLength(3);
    expect(recovery.truncated).not.toBeNull();
  });

  it('reports a corrupt record in the middle instead of skipping it', async () => {
    const dir = await tempDir();
    await writeSequential(dir, 10);
    const file = await segmentPath(dir);
    const bytes = await fs.readFile(file);
    const recordSize = (bytes.length - JOURNAL_MAGIC.length) / 10;
    bytes[JOURNAL_MAGIC.length + recordSize * 3 + 30] ^= 0x01; // payload of record 4 of 10
    await fs.writeFile(file, bytes);

    const attempt = openJournal(dir);
    await expect(attempt).rejects.toBeInstanceOf(JournalCorruptError);
    await expect(attempt).rejects.toThrow(
      /record 4.*bad checksum.*intact acknowledged records follow.*not a torn write/,
    );
    // Nothing was cut: the data is left for a person to rescue.
    expect((await fs.readFile(file)).length).toBe(bytes.length);
    expect(await fs.readdir(dir)).not.toContain('embedded-mongo.lock');
  });

  it('reports damage in a segment that is not the last one', async () => {
    const dir = await tempDir();
    const { journal } = await openJournal(dir);
    for (let i = 1; i <= 4; i++) await journal.append([put(i)]);
    const model = new Model().apply([put(1), put(2), put(3), put(4)]);
    // A compaction whose snapshot never lands still rotates: a crash right after it leaves two segments.
    await journal.compact(() => model.dump());
    for (let i = 5; i <= 6; i++) await journal.append([put(i)]);
    await journal.close();
    for (const name of await fs.readdir(dir)) if (name.startsWith('snapshot-')) await fs.rm(path.join(dir, name));
    // Recreate the pre-compaction layout: first segment with 1..4, second with 5..6.
    const files = await journalFiles(dir);
    expect(files).toHaveLength(1);
    const second = await fs.readFile(path.join(dir, files[0]));
    const firstSegment = Buffer.concat([
      JOURNAL_MAGIC,
      ...[1, 2, 3, 4].map((i) => encodeRecord(i, i - 1, encodeOps([put(i)]))),
    ]);
    firstSegment[firstSegment.length - 2] ^= 0xff;
    await fs.writeFile(path.join(dir, 'journal-0000000000000001.log'), firstSegment);
    expect(second.length).toBeGreaterThan(JOURNAL_MAGIC.length);
    await expect(openJournal(dir)).rejects.toThrow(/later segments hold acknowledged records/);
  });

  it('cleans up after a crash during segment creation and snapshot writing', async () => {
    const dir = await tempDir();
    await writeSequential(dir, 2);
    await fs.writeFile(path.join(dir, 'journal-0000000000000003.log'), JOURNAL_MAGIC.subarray(0, 3));
    await fs.writeFile(path.join(dir, 'snapshot-0000000000000002.snap.tmp'), 'half a snapshot');
    const { journal, ops, recovery } = await replayed(dir);
    expect(ops).toHaveLength(2);
    expect(recovery.notes.join('\n')).toMatch(/unfinished snapshot/);
    await journal.append([put(3)]);
    await journal.close();
    expect((await replayed(dir)).ops).toHaveLength(3);
  });

  it('refuses a data directory locked by another live process', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'embedded-mongo.lock'), `${process.ppid}\n`);
    await expect(openJournal(dir)).rejects.toThrow(/in use by process/);
    // A lock left by a dead process (kill -9) is taken over.
    await fs.writeFile(path.join(dir, 'embedded-mongo.lock'), '2147483646\n');
    const { journal } = await openJournal(dir);
    await journal.close();
  });
});

describe('compaction', () => {
  it('compacts while appends keep arriving, losing and reordering nothing', async () => {
    const dir = await tempDir();
    const { journal } = await openJournal(dir);
    const model = new Model();
    const doAppend = (ops: JournalOp[]) => {
      model.apply(ops); // The engine applies and appends in the same synchronous step.
      return journal.append(ops);
    };
    await doAppend([
      { op: 'createCollection', db: 'shop', coll: 'coins', options: {} },
      { op: 'createIndex', db: 'shop', coll: 'coins', spec: { v: 2, key: { sku: 1 }, name: 'sku_1', unique: true } },
    ]);
    const writes: Promise<void>[] = [];
    let compaction: Promise<void> | undefined;
    for (let i = 0; i < 3000; i++) {
      const id = i % 700; // Overwrites and deletes, so replay order matters.
      const ops: JournalOp[] =
        i % 11 === 0
          ? [{ op: 'delete', db: 'shop', coll: 'coins', id }]
          : [
              {
                op: 'put',
                db: 'shop',
                coll: 'coins',
                doc: { _id: id, sku: `C-${id}`, version: i, price: Decimal128.fromString(`${i}.50`) },
              },
            ];
      writes.push(doAppend(ops));
      if (i === 1200) compaction = journal.compact(() => model.dump());
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);
    await compaction;
    const stats = journal.stats();
    expect(stats.compactions).toBe(1);
    expect(stats.snapshotSeq).toBeGreaterThan(0);
    expect(stats.recordsSinceSnapshot).toBe(stats.lastSeq - stats.snapshotSeq);
    expect(await journalFiles(dir)).toHaveLength(1);
    expect((await fs.readdir(dir)).filter((name) => name.endsWith('.snap'))).toHaveLength(1);

    const crashed = await replayed(await crashCopy(dir));
    expect(crashed.recovery.snapshotSeq).toBe(stats.snapshotSeq);
    expect(new Model().apply(crashed.ops).canonical()).toBe(model.canonical());
    await journal.close();
  });

  it('reopens after compaction with the same state, and compacts again', async () => {
    const dir = await tempDir();
    const model = new Model();
    {
      const { journal } = await openJournal(dir);
      for (let i = 1; i <= 200; i++) {
        const ops = [put(i, { total: Decimal128.fromString(`${i}.99`) })];
        model.apply(ops);
        await journal.append(ops);
      }
      await journal.compact(() => model.dump());
      const ops = [put(201)];
      model.apply(ops);
      await journal.append(ops);
      await journal.close();
    }
    {
      const { journal, ops, recovery } = await replayed(dir);
      expect(recovery.snapshotSeq).toBe(200);
      expect(recovery.snapshotOps).toBe(201); // createCollection + 200 documents
      expect(recovery.journalRecords).toBe(1);
      expect(new Model().apply(ops).canonical()).toBe(model.canonical());
      const more = [put(202), { op: 'delete', db: 'shop_orders', coll: 'orders', id: 1 } as JournalOp];
      model.apply(more);
      await journal.append(more);
      await journal.compact(() => model.dump());
      await journal.close();
    }
    const { ops, recovery } = await replayed(dir);
    expect(recovery.snapshotSeq).toBe(202);
    expect(recovery.journalRecords).toBe(0);
    expect(new Model().apply(ops).canonical()).toBe(model.canonical());
    expect((await fs.readdir(dir)).filter((name) => name.endsWith('.snap'))).toEqual([
      'snapshot-0000000000000202.snap',
    ]);
  });

  it('recovers when a crash left segments the new snapshot already covers', async () => {
    const dir = await tempDir();
    const model = new Model();
    const { journal } = await openJournal(dir);
    for (let i = 1; i <= 5; i++) {
      model.apply([put(i)]);
      await journal.append([put(i)]);
    }
    const before = await crashCopy(dir); // Holds the segment with records 1..5.
    await journal.compact(() => model.dump());
    await journal.close();
    // Put the old segment back next to the snapshot, as if the crash came right after the rename.
    for (const name of await journalFiles(before)) await fs.copyFile(path.join(before, name), path.join(dir, name));
    const { ops, recovery } = await replayed(dir);
    expect(new Model().apply(ops).canonical()).toBe(model.canonical());
    expect(recovery.notes.join('\n')).toMatch(/covered by the snapshot/);
    expect(await journalFiles(dir)).toEqual(['journal-0000000000000006.log']);
  });

  it('signals when compaction is due and compacts by itself given a dump source', async () => {
    const dir = await tempDir();
    let due = 0;
    const signalled = await openTracked(dir, { compactAfterRecords: 10, onCompactionDue: () => due++ });
    for (let i = 1; i <= 12; i++) await signalled.journal.append([put(i)]);
    expect(signalled.journal.shouldCompact()).toBe(true);
    expect(due).toBe(1);
    await signalled.journal.close();

    const model = new Model().apply([...signalled.replay]);
    const auto = await openTracked(dir, { compactAfterRecords: 10 });
    model.apply(auto.replay);
    auto.journal.setCompactionSource(() => model.dump());
    for (let i = 13; i <= 30; i++) {
      model.apply([put(i)]);
      await auto.journal.append([put(i)]);
    }
    await vi.waitFor(() => expect(auto.journal.stats().compactions).toBeGreaterThanOrEqual(1));
    await auto.journal.close();
    const { ops, recovery } = await replayed(dir);
    expect(recovery.snapshotSeq).toBeGreaterThan(0);
    expect(new Model().apply(ops).canonical()).toBe(model.canonical());
  });

  it('refuses to start when the newest snapshot is damaged and the journal it replaced is gone', async () => {
    const dir = await tempDir();
    const model = new Model();
    const { journal } = await openJournal(dir);
    for (let i = 1; i <= 3; i++) {
      model.apply([put(i)]);
      await journal.append([put(i)]);
    }
    await journal.compact(() => model.dump());
    await journal.append([put(4)]);
    await journal.close();
    const snap = path.join(dir, 'snapshot-0000000000000003.snap');
    const bytes = await fs.readFile(snap);
    bytes[40] ^= 0xff;
    await fs.writeFile(snap, bytes);
    await expect(openJournal(dir)).rejects.toThrow(
      /journal records 1\.\.3 are missing.*damaged snapshots: snapshot-0000000000000003\.snap/,
    );
  });
});

describe('failed writes', () => {
  it('rejects the appends whose write failed (file size limit) and leaves the journal clean', async () => {
    const { execFile } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const dir = await tempDir();
    const child = fileURLToPath(new URL('./fixtures/full-disk-child.ts', import.meta.url));
    const packageDir = fileURLToPath(new URL('../..', import.meta.url));
    // ulimit -f 48: the journal segment cannot grow past 48 KiB; Node turns SIGXFSZ into EFBIG errors.
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        'bash',
        ['-c', `ulimit -f 48 && exec "${process.execPath}" --import tsx "${child}" "${dir}"`],
        { cwd: packageDir },
        (err, out, errOut) => (err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out)),
      ),
    );
    const result = JSON.parse(stdout) as {
      resolved: number[];
      firstError: string;
      batch: string[];
      failedAppends: number;
    };
    expect(result.firstError).toMatch(/could not write 1 change\(s\) to the journal .*(EFBIG|too large)/);
    expect(result.resolved.length).toBeGreaterThan(10);
    expect(result.batch).toEqual(['rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
    expect(result.failedAppends).toBeGreaterThanOrEqual(2);

    // Exactly the acknowledged appends are on disk, with no torn tail left to cut.
    const { journal, ops, recovery } = await replayed(dir);
    expect(ops.map((op) => (op as Extract<JournalOp, { op: 'put' }>).doc._id)).toEqual(result.resolved);
    expect(recovery.truncated).toBeNull();
    await journal.append([put(9999)]);
    expect(journal.stats().lastSeq).toBe(result.resolved.length + 1);
  });
});
