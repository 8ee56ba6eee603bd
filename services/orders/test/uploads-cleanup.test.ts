// The unused-file sweep (src/jobs/unused-files.ts) on the embedded MongoDB and a real nats-server: files
// are uploaded and designs generated over real HTTP, their dates set to known instants, and the sweep is
// called directly with a fixed "now" (the timer is switched off), so nothing depends on the clock.
import type { CreateOrderResponse, Failure, GenerateDesignResponse } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultGraceMs, sweepUnusedFiles } from '../src/jobs/unused-files.js';
import { loadConfig } from '../src/config.js';
import { coinOrder, postJson, startHarness, type Harness } from './helpers.js';
import { adminHeaders } from '@shop/service-kit/testing';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

const HOUR = 60 * 60 * 1000;
const NOW = new Date('2030-03-01T12:00:00Z');
const retentionMs = 24 * HOUR;
const hoursBefore = (hours: number) => new Date(NOW.getTime() - hours * HOUR);
/** The second run: late enough that files marked by the first are deleted. */
const LATER = new Date(NOW.getTime() + defaultGraceMs);

let h: Harness;
const db = () => h.service.ctx.connection.db!;
const sweep = (now: Date) => sweepUnusedFiles(h.service.ctx, { now, retentionMs });

beforeAll(async () => {
  h = await startHarness({}, { unusedFileSweep: false });
});
afterAll(async () => {
  await h?.stop();
});

type Uploaded = { originalName: string; filename: string; size: number; mimetype: string; url: string };

async function upload(name: string, data: Buffer): Promise<Uploaded & { id: string }> {
  const form = new FormData();
  form.append('files', new Blob([data]), name);
  const res = await fetch(`${h.url}/api/upload`, { method: 'POST', body: form });
  expect(res.status).toBe(200);
  const file = ((await res.json()) as { files: Uploaded[] }).files[0];
  return { ...file, id: file.url.split('/').pop()! };
}

async function design(prompt: string): Promise<string> {
  const res = await postJson<GenerateDesignResponse>(`${h.url}/api/ai/generate-design`, { prompt, itemType: 'coin' });
  expect(res.status).toBe(200);
  return res.body.design.id;
}

async function order(overrides: Parameters<typeof coinOrder>[0]): Promise<string> {
  const res = await postJson<CreateOrderResponse>(`${h.url}/api/orders`, coinOrder(overrides));
  expect(res.status).toBe(201);
  return res.body.order.id;
}

const setUploadDate = (bucket: 'uploads' | 'designs', id: string, date: Date) =>
  db()
    .collection(`${bucket}.files`)
    .updateOne({ _id: id as never }, { $set: { uploadDate: date } });
/** What these tests read of a stored GridFS file: its size and the sweep's and the order's marks. */
type StoredFile = { _id: string; length: number; metadata?: { orderId?: string; expiredAt?: Date } };
const stored = (bucket: 'uploads' | 'designs', id: string) =>
  db()
    .collection(`${bucket}.files`)
    .findOne<StoredFile>({ _id: id as never });
const chunks = (bucket: 'uploads' | 'designs', id: string) =>
  db().collection(`${bucket}.chunks`).countDocuments({ files_id: id });

describe('unused-file sweep', () => {
  it('deletes old unclaimed uploads and designs and the files of deleted orders; keeps recent and claimed ones', async () => {
    const oldUnclaimed = await upload('forgotten.png', PNG);
    const recent = await upload('just-now.png', PNG);
    const claimed = await upload('front.pdf', PDF);
    const ofDeletedOrder = await upload('cancelled.png', PNG);
    const oldDesign = await design('gold eagle coin never ordered');
    const usedDesign = await design('silver anchor coin that was ordered');

    const keptOrder = await order({ designMethod: 'upload', description: '', files: [claimed] });
    await order({ designMethod: 'ai', aiGenerated: true, aiDesignId: usedDesign });
    const deletedOrder = await order({ designMethod: 'upload', description: '', files: [ofDeletedOrder] });
    const del = await fetch(`${h.url}/api/orders/${deletedOrder}`, {
      method: 'DELETE',
      headers: adminHeaders('boss@shop.test'),
    });
    expect(del.status).toBe(200);

    await setUploadDate('uploads', oldUnclaimed.id, hoursBefore(30));
    await setUploadDate('uploads', recent.id, hoursBefore(2));
    await setUploadDate('uploads', claimed.id, hoursBefore(24 * 365));
    await setUploadDate('uploads', ofDeletedOrder.id, hoursBefore(30));
    await setUploadDate('designs', oldDesign, hoursBefore(30));
    await setUploadDate('designs', usedDesign, hoursBefore(24 * 365));

    const oldDesignSize = (await stored('designs', oldDesign))!.length;

    // First run: the unused ones are only marked; nothing is deleted yet.
    const first = await sweep(NOW);
    expect(first.marked).toEqual({ uploads: 2, designs: 1 });
    expect(first.deleted).toEqual({ uploads: 0, designs: 0 });
    expect(await stored('uploads', oldUnclaimed.id)).not.toBeNull();
    // A marked upload can no longer be attached to a new order...
    const late = await postJson<Failure>(
      `${h.url}/api/orders`,
      coinOrder({ designMethod: 'upload', description: '', files: [oldUnclaimed] }),
    );
    expect(late.status).toBe(400);
    expect(late.body.error).toContain('Please upload it again');
    // ...and the design an order uses is now recorded on its file.
    expect((await stored('designs', usedDesign))?.metadata?.orderId).toBeTruthy();

    // Second run, a grace period later, from two replicas at once: each file deleted and counted once.
    const [a, b] = await Promise.all([sweep(LATER), sweep(LATER)]);
    expect(a.deleted.uploads + b.deleted.uploads).toBe(2);
    expect(a.deleted.designs + b.deleted.designs).toBe(1);
    expect(a.bytes + b.bytes).toBe(oldUnclaimed.size + ofDeletedOrder.size + oldDesignSize);

    for (const id of [oldUnclaimed.id, ofDeletedOrder.id]) {
      expect(await stored('uploads', id)).toBeNull();
      expect(await chunks('uploads', id)).toBe(0);
      expect((await fetch(`${h.url}/api/upload/${id}`)).status).toBe(404);
    }
    expect(await stored('designs', oldDesign)).toBeNull();
    expect(
      await db()
        .collection('designs')
        .findOne({ _id: oldDesign as never }),
    ).toBeNull();
    expect(await chunks('designs', oldDesign)).toBe(0);
    expect((await fetch(`${h.url}/api/ai/designs/${oldDesign}/image`)).status).toBe(404);

    // Kept: the recent upload, the claimed one however old, the design an order uses.
    for (const id of [recent.id, claimed.id]) {
      expect(await stored('uploads', id)).not.toBeNull();
      expect((await fetch(`${h.url}/api/upload/${id}`)).status).toBe(200);
    }
    expect((await stored('uploads', claimed.id))?.metadata?.orderId).toBe(keptOrder);
    expect(
      await db()
        .collection('designs')
        .findOne({ _id: usedDesign as never }),
    ).not.toBeNull();
    expect((await fetch(`${h.url}/api/ai/designs/${usedDesign}/image`)).status).toBe(200);

    // The recent upload goes once it too is past the retention and still unused.
    const muchLater = new Date(NOW.getTime() + 48 * HOUR);
    expect((await sweep(muchLater)).marked.uploads).toBe(1);
    expect((await sweep(new Date(muchLater.getTime() + defaultGraceMs))).deleted.uploads).toBe(1);
    expect(await stored('uploads', recent.id)).toBeNull();
    expect(await stored('uploads', claimed.id)).not.toBeNull();
  });

  it('keeps a marked file that an order claimed before the delete (the order found it before the mark)', async () => {
    const art = await upload('in-flight.png', PNG);
    const other = await upload('other.png', PNG);
    const orderId = await order({ designMethod: 'upload', description: '', files: [other] });
    await setUploadDate('uploads', art.id, hoursBefore(30));
    // Only this file is old in this sweep's view (every earlier file is gone or claimed).
    const first = await sweep(NOW);
    expect(first.marked.uploads).toBe(1);
    expect((await stored('uploads', art.id))?.metadata?.expiredAt).toBeTruthy();

    // What the order transaction writes when it commits after the mark: the order lists the file and the
    // file names the order.
    await h.service.ctx.models.Order.updateOne(
      { _id: orderId },
      {
        $push: {
          files: {
            fileId: art.id,
            originalName: art.originalName,
            filename: art.filename,
            size: art.size,
            mimetype: art.mimetype,
            url: art.url,
          },
        },
      },
    );
    await db()
      .collection('uploads.files')
      .updateOne({ _id: art.id as never }, { $set: { 'metadata.orderId': orderId } });

    const second = await sweep(LATER);
    expect(second.deleted.uploads).toBe(0);
    expect(second.kept).toBe(1);
    const file = await stored('uploads', art.id);
    expect(file?.metadata?.expiredAt).toBeUndefined();
    expect((await fetch(`${h.url}/api/upload/${art.id}`)).status).toBe(200);
  });

  it('keeps a marked file that only the order itself lists (no orderId on the file)', async () => {
    const art = await upload('listed.png', PNG);
    await setUploadDate('uploads', art.id, hoursBefore(30));
    expect((await sweep(NOW)).marked.uploads).toBe(1);
    const orderId = (await h.service.ctx.models.Order.findOne({}, { _id: 1 }).lean())!._id;
    await h.service.ctx.models.Order.updateOne(
      { _id: orderId },
      { $push: { files: { fileId: art.id, url: art.url } } },
    );
    const second = await sweep(LATER);
    expect(second.deleted.uploads).toBe(0);
    expect((await stored('uploads', art.id))?.metadata?.orderId).toBe(orderId);
  });
});

describe('UPLOAD_RETENTION_HOURS', () => {
  const base = { MONGO_URL: 'mongodb://127.0.0.1:1', NATS_URL: 'nats://127.0.0.1:1' };
  it('defaults to 24 hours, reads a number, refuses less than an hour or text', () => {
    expect(loadConfig(base).uploadRetentionHours).toBe(24);
    expect(loadConfig({ ...base, UPLOAD_RETENTION_HOURS: '72' }).uploadRetentionHours).toBe(72);
    expect(() => loadConfig({ ...base, UPLOAD_RETENTION_HOURS: '0.5' })).toThrow(/UPLOAD_RETENTION_HOURS/);
    expect(() => loadConfig({ ...base, UPLOAD_RETENTION_HOURS: 'a day' })).toThrow(/UPLOAD_RETENTION_HOURS/);
  });
});
