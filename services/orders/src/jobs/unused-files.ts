// The unused-file sweep: customers upload art (bucket `uploads`) and generate AI designs (bucket `designs`
// + the `designs` collection) before they submit a quote request; what no order ever uses, or what only a
// deleted order used, is removed once older than the retention (UPLOAD_RETENTION_HOURS).
//
// Two steps, so a file is never deleted under an order that is just claiming it:
// 1. mark: a file past the retention that no order references gets `metadata.expiredAt` (a conditional
//    update). From then on `findFile` no longer offers it to a new order ("please upload it again").
// 2. delete: a file marked at least `graceMs` ago is checked again against the orders right before a
//    conditional delete that matches only the mark and the `metadata.orderId` read; a file an order did
//    claim after all is unmarked instead. An order request that found the file before the mark has long
//    committed (its `metadata.orderId` then stops the delete) by the end of the grace period.
// Every write is conditional, so several replicas sweeping at once delete each file once and count it once.
import type { Connection } from 'mongoose';
import type { ServiceContext } from '@shop/service-kit';
import type { OrderModels } from '../models/order.js';
import { chunksCollection, filesCollection, type BucketName, type StoredFile } from '../storage/files.js';

export const sweepIntervalMs = 60 * 60 * 1000;
/** Time between marking a file and deleting it: far longer than any order request takes. */
export const defaultGraceMs = 60 * 60 * 1000;
const batchSize = 200;

export interface SweepOptions {
  /** The sweep's idea of the current time (tests pass a fixed one). */
  now?: Date;
  retentionMs: number;
  graceMs?: number;
}

export interface SweepResult {
  /** Files newly marked expired in this run. */
  marked: Record<BucketName, number>;
  /** Files deleted in this run and their total size in bytes. */
  deleted: Record<BucketName, number>;
  bytes: number;
  /** Marked files an order turned out to use: unmarked and kept. */
  kept: number;
}

const buckets: BucketName[] = ['uploads', 'designs'];

type FileRow = Pick<StoredFile, '_id' | 'length' | 'metadata'>;

/**
 * Which of `files` an order uses, as file id -> order id. Looked up by the recorded `metadata.orderId`
 * first (the orders' _id index), and only for the rest in the orders themselves (`files.fileId` for
 * uploads, `aiDesignId` for designs).
 */
async function referencingOrders(
  models: OrderModels,
  bucket: BucketName,
  files: FileRow[],
): Promise<Map<string, string>> {
  const { Order } = models;
  const used = new Map<string, string>();
  const recorded = [
    ...new Set(files.map((f) => f.metadata?.orderId).filter((id): id is string => typeof id === 'string')),
  ];
  const existing = new Set(
    recorded.length === 0
      ? []
      : (await Order.find({ _id: { $in: recorded } }, { _id: 1 }).lean()).map((o) => String(o._id)),
  );
  const rest: FileRow[] = [];
  for (const file of files) {
    const orderId = file.metadata?.orderId;
    if (orderId && existing.has(orderId)) used.set(file._id, orderId);
    else rest.push(file);
  }
  if (rest.length === 0) return used;
  if (bucket === 'uploads') {
    const ids = rest.map((f) => f._id);
    const orders = await Order.find({ 'files.fileId': { $in: ids } }, { 'files.fileId': 1 }).lean<
      { _id: string; files?: { fileId?: string }[] }[]
    >();
    const wanted = new Set(ids);
    for (const order of orders) {
      for (const f of order.files ?? []) if (f.fileId && wanted.has(f.fileId)) used.set(f.fileId, String(order._id));
    }
  } else {
    const designIdOf = new Map(rest.map((f) => [f.metadata?.designId ?? f._id, f._id]));
    const orders = await Order.find({ aiDesignId: { $in: [...designIdOf.keys()] } }, { aiDesignId: 1 }).lean<
      { _id: string; aiDesignId?: string }[]
    >();
    for (const order of orders) {
      const fileId = order.aiDesignId ? designIdOf.get(order.aiDesignId) : undefined;
      if (fileId) used.set(fileId, String(order._id));
    }
  }
  return used;
}

/** The `metadata.orderId` condition that matches only while the file still carries the value read. */
const sameOrderId = (file: FileRow) => file.metadata?.orderId ?? { $exists: false };

async function inBatches(cursor: AsyncIterable<FileRow>, work: (batch: FileRow[]) => Promise<void>) {
  let batch: FileRow[] = [];
  for await (const file of cursor) {
    batch.push(file);
    if (batch.length >= batchSize) {
      await work(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await work(batch);
}

async function deleteMarked(
  connection: Connection,
  models: OrderModels,
  bucket: BucketName,
  graceCutoff: Date,
  result: SweepResult,
) {
  const files = filesCollection(connection, bucket);
  const cursor = files.find(
    { 'metadata.expiredAt': { $lte: graceCutoff } },
    { projection: { _id: 1, length: 1, metadata: 1 } },
  );
  await inBatches(cursor, async (batch) => {
    // Checked again right before deleting: an order may have claimed the file since it was marked.
    const used = await referencingOrders(models, bucket, batch);
    for (const file of batch) {
      const orderId = used.get(file._id);
      if (orderId) {
        const { modifiedCount } = await files.updateOne(
          { _id: file._id, 'metadata.expiredAt': file.metadata.expiredAt },
          { $unset: { 'metadata.expiredAt': '' }, $set: { 'metadata.orderId': orderId } },
        );
        result.kept += modifiedCount;
        continue;
      }
      const { deletedCount } = await files.deleteOne({
        _id: file._id,
        'metadata.expiredAt': file.metadata.expiredAt,
        'metadata.orderId': sameOrderId(file),
      });
      // Another replica got there first, or an order claimed it in the meantime.
      if (deletedCount !== 1) continue;
      await chunksCollection(connection, bucket).deleteMany({ files_id: file._id });
      if (bucket === 'designs') await models.Design.deleteOne({ _id: file.metadata?.designId ?? file._id });
      result.deleted[bucket] += 1;
      result.bytes += file.length;
    }
  });
}

async function markUnused(
  connection: Connection,
  models: OrderModels,
  bucket: BucketName,
  now: Date,
  retentionCutoff: Date,
  result: SweepResult,
) {
  const files = filesCollection(connection, bucket);
  const cursor = files.find(
    { uploadDate: { $lt: retentionCutoff }, 'metadata.expiredAt': { $exists: false } },
    { projection: { _id: 1, length: 1, metadata: 1 } },
  );
  await inBatches(cursor, async (batch) => {
    const used = await referencingOrders(models, bucket, batch);
    for (const file of batch) {
      const orderId = used.get(file._id);
      if (orderId) {
        // Recorded so the next sweeps find the order by its id instead of searching the orders.
        if (file.metadata?.orderId !== orderId) {
          await files.updateOne(
            { _id: file._id, 'metadata.orderId': sameOrderId(file) },
            { $set: { 'metadata.orderId': orderId } },
          );
        }
        continue;
      }
      const { modifiedCount } = await files.updateOne(
        { _id: file._id, 'metadata.expiredAt': { $exists: false }, 'metadata.orderId': sameOrderId(file) },
        { $set: { 'metadata.expiredAt': now } },
      );
      result.marked[bucket] += modifiedCount;
    }
  });
}

/** One sweep over both buckets: deletes what was marked a grace period ago, then marks what is newly unused. */
export async function sweepUnusedFiles(ctx: ServiceContext<OrderModels>, options: SweepOptions): Promise<SweepResult> {
  const now = options.now ?? new Date();
  const graceMs = options.graceMs ?? defaultGraceMs;
  const result: SweepResult = {
    marked: { uploads: 0, designs: 0 },
    deleted: { uploads: 0, designs: 0 },
    bytes: 0,
    kept: 0,
  };
  for (const bucket of buckets) {
    await deleteMarked(ctx.connection, ctx.models, bucket, new Date(now.getTime() - graceMs), result);
    await markUnused(ctx.connection, ctx.models, bucket, now, new Date(now.getTime() - options.retentionMs), result);
  }
  const deleted = result.deleted.uploads + result.deleted.designs;
  const marked = result.marked.uploads + result.marked.designs;
  if (deleted > 0 || marked > 0 || result.kept > 0) {
    ctx.log.info(
      {
        deletedUploads: result.deleted.uploads,
        deletedDesigns: result.deleted.designs,
        bytes: result.bytes,
        marked: result.marked,
        kept: result.kept,
      },
      `unused files swept: ${deleted} deleted (${result.bytes} bytes), ${marked} marked for deletion`,
    );
  }
  return result;
}

/** Runs the sweep every `intervalMs` (first run after `firstRunMs`) until stopped; a failed run is logged and retried next time. */
export function startUnusedFileSweep(
  ctx: ServiceContext<OrderModels>,
  retentionMs: number,
  { intervalMs = sweepIntervalMs, firstRunMs = 60_000 }: { intervalMs?: number; firstRunMs?: number } = {},
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const schedule = (delay: number) => {
    if (stopped) return;
    // unref: a pending sweep never keeps the process alive.
    timer = setTimeout(() => {
      running = sweepUnusedFiles(ctx, { retentionMs })
        .catch((err) => ctx.log.warn({ err }, 'unused-file sweep failed; retrying at the next interval'))
        .finally(() => {
          running = undefined;
          schedule(intervalMs);
        });
    }, delay);
    timer.unref();
  };
  schedule(firstRunMs);
  return {
    /** Stops scheduling and waits for a sweep in progress, so MongoDB is not closed under it. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
