// Files kept in MongoDB GridFS (buckets `uploads` and `designs` of the orders database) and served back
// safely: the stored content type, never sniffed, SVG and documents as attachments, and a CSP that
// keeps any script inside an SVG from running even if it is opened directly.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import mongoose, { type Connection } from 'mongoose';
import { notFound } from '@shop/service-kit';

export type BucketName = 'uploads' | 'designs';

/** 128 random bits in hex: a stored file's id is also its link, so it must not be guessable. */
export const newFileId = () => randomBytes(16).toString('hex');
export const fileIdPattern = /^[a-f0-9]{24,64}$/;

export interface StoredFileMetadata {
  originalName: string;
  mimetype: string;
  extension: string;
  sha256?: string;
  orderId?: string;
  designId?: string;
  /** Set by the unused-file sweep: past its retention and used by no order; deleted after a grace
   * period, and meanwhile no longer offered to new orders (`findFile`), though still served. */
  expiredAt?: Date;
  [key: string]: unknown;
}

export interface StoredFile {
  _id: string;
  filename: string;
  length: number;
  uploadDate: Date;
  metadata: StoredFileMetadata;
}

export function bucket(connection: Connection, name: BucketName) {
  if (!connection.db) throw new Error('MongoDB is not connected yet');
  return new mongoose.mongo.GridFSBucket(connection.db, { bucketName: name });
}

export function filesCollection(connection: Connection, name: BucketName) {
  if (!connection.db) throw new Error('MongoDB is not connected yet');
  return connection.db.collection<StoredFile>(`${name}.files`);
}

/** Writes a whole buffer as one GridFS file with the given id. */
export async function storeFile(
  connection: Connection,
  name: BucketName,
  id: string,
  filename: string,
  data: Buffer,
  metadata: StoredFileMetadata,
): Promise<void> {
  const stream = bucket(connection, name).openUploadStreamWithId(id as never, filename, { metadata });
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.once('finish', () => resolve());
    stream.end(data);
  });
}

export function chunksCollection(connection: Connection, name: BucketName) {
  if (!connection.db) throw new Error('MongoDB is not connected yet');
  return connection.db.collection(`${name}.chunks`);
}

export async function deleteFile(connection: Connection, name: BucketName, id: string): Promise<void> {
  await bucket(connection, name).delete(id as never);
}

/** A stored file an order may still claim (not marked expired by the unused-file sweep). */
export async function findFile(connection: Connection, name: BucketName, id: string): Promise<StoredFile | null> {
  if (!fileIdPattern.test(id)) return null;
  // A file the sweep has marked expired is as good as gone: an order that claimed it now could lose it.
  return filesCollection(connection, name).findOne({ _id: id, 'metadata.expiredAt': { $exists: false } });
}

/** Types a browser may show inline; everything else is downloaded. */
const inlineTypes = new Set(['image/png', 'image/jpeg']);

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Streams a stored file with the safety headers; unknown ids answer 404 in the error envelope. */
export async function sendStoredFile(
  connection: Connection,
  name: BucketName,
  id: string,
  reply: FastifyReply,
  options: { missing: string; downloadName?: string },
) {
  // Served even when marked expired: it still exists, and an order may have claimed it during the mark.
  const file = fileIdPattern.test(id) ? await filesCollection(connection, name).findOne({ _id: id }) : null;
  if (!file) throw notFound(options.missing);
  const type = file.metadata?.mimetype ?? 'application/octet-stream';
  const downloadName = options.downloadName ?? file.metadata?.originalName ?? file.filename;
  reply
    .header('content-type', type)
    .header('content-length', String(file.length))
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', contentDisposition(inlineTypes.has(type) ? 'inline' : 'attachment', downloadName))
    // Stored files never change under their id.
    .header('cache-control', 'private, max-age=31536000, immutable')
    // Scripts in an SVG (or anything opened as a document) never run; inline styles may.
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
    .header('cross-origin-resource-policy', 'same-origin');
  return reply.send(bucket(connection, name).openDownloadStream(id as never));
}
