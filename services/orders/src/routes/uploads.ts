// POST /api/upload (multipart, repeated `files` field) and GET /api/upload/:id. Each file is checked by
// name and content (storefront §5: JPG, JPEG, PNG, PDF, SVG, AI, EPS; 10 MB each), stored in GridFS
// bucket `uploads`, and answered as the file record the order body later carries back.
import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  errorCodes,
  limits,
  uploadMaxFilesPerRequest,
  uploadResponseSchema,
  uploadUrl,
  type UploadedFile,
} from '@shop/contracts';
import { AppError, badRequest, type ServiceContext } from '@shop/service-kit';
import { checkUpload, tooLargeMessage } from '../domain/file-check.js';
import type { OrderModels } from '../models/order.js';
import { deleteFile, newFileId, sendStoredFile, storeFile } from '../storage/files.js';
import type { OrdersApp } from '../app.js';
import { failWith, failureResponse } from './respond.js';
import { currentSiteSettings } from '../models/site-settings.js';
import { contentMessages } from '@shop/contracts';

/** The name as the customer's computer had it, without any folder part or control characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, 255);
  return clean || 'file';
}

const limitErrorCodes = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

/** The answer to a body the multipart parser could not read (garbage, no boundary, a part cut off). */
export const unreadableUploadMessage =
  'The upload could not be read: it is not complete multipart/form-data. Send the files as multipart/form-data in the "files" field.';

/**
 * Reads from the request body. A failure there is the client's (busboy's "Unexpected end of form",
 * "Boundary not found", a malformed part header...): a 400, not a 500. The limits keep their codes.
 */
async function readingBody<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError || limitErrorCodes.has((err as { code?: string }).code ?? '')) throw err;
    throw new AppError(
      400,
      errorCodes.BAD_REQUEST,
      unreadableUploadMessage,
      [{ field: 'files', message: unreadableUploadMessage }],
      { cause: err },
    );
  }
}

export async function registerUploadRoutes(app: OrdersApp, ctx: ServiceContext<OrderModels>) {
  await app.register(async (plugin) => {
    const scope = plugin as unknown as OrdersApp;
    await scope.register(multipart, {
      limits: {
        fileSize: limits.uploadMaxBytes,
        files: uploadMaxFilesPerRequest,
        fields: 10,
        fieldSize: 1024,
        parts: uploadMaxFilesPerRequest + 10,
        headerPairs: 100,
      },
    });

    scope.post(
      '/api/upload',
      {
        schema: {
          tags: ['uploads'],
          summary: 'Upload artwork files (multipart/form-data, repeated `files` field)',
          consumes: ['multipart/form-data'],
          response: { 200: uploadResponseSchema, '4xx': failureResponse },
        },
      },
      async (request, reply) => {
        // File upload can be turned off in the back office (site content features).
        if (!(await currentSiteSettings(ctx.connection)).features.fileUploadEnabled) {
          return failWith(request, reply, new AppError(403, 'FEATURE_DISABLED', contentMessages.uploadDisabled));
        }
        if (!request.isMultipart()) {
          return failWith(
            request,
            reply,
            new AppError(
              415,
              errorCodes.UNSUPPORTED_MEDIA_TYPE,
              'Send the files as multipart/form-data in the "files" field.',
            ),
          );
        }
        const stored: string[] = [];
        const files: UploadedFile[] = [];
        // The file being read: a size error may surface from the part or from the parts iterator.
        let current = '';
        try {
          const parts = request.parts();
          // Read by hand rather than with for-await, so a failure of the body itself is told apart
          // from a failure to check or store a file; leaving early still closes the iterator.
          try {
            for (;;) {
              const next = await readingBody(() => parts.next());
              if (next.done) break;
              const part = next.value;
              if (part.type !== 'file') continue;
              const originalName = cleanFileName(part.filename);
              current = originalName;
              if (part.fieldname !== 'files') {
                part.file.resume();
                throw badRequest(`Upload files in the "files" field (got "${part.fieldname}").`);
              }
              const data = await readingBody(() => part.toBuffer());
              const verdict = await checkUpload(originalName, data);
              if (!verdict.ok) {
                throw new AppError(415, errorCodes.UNSUPPORTED_MEDIA_TYPE, verdict.message, [
                  { field: 'files', message: verdict.message },
                ]);
              }
              const id = newFileId();
              const filename = `${id}.${verdict.extension}`;
              await storeFile(ctx.connection, 'uploads', id, filename, data, {
                originalName,
                mimetype: verdict.mimetype,
                extension: verdict.extension,
                sha256: createHash('sha256').update(data).digest('hex'),
                uploadedFromIp: request.ip,
              });
              stored.push(id);
              files.push({ originalName, filename, size: data.length, mimetype: verdict.mimetype, url: uploadUrl(id) });
            }
          } finally {
            await parts.return?.(undefined).catch(() => undefined);
          }
        } catch (err) {
          // All or nothing: a rejected file leaves none of the request's files behind.
          await Promise.all(stored.map((id) => deleteFile(ctx.connection, 'uploads', id).catch(() => undefined)));
          const code = (err as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE') {
            const message = tooLargeMessage(current || 'A file');
            return failWith(
              request,
              reply,
              new AppError(413, errorCodes.PAYLOAD_TOO_LARGE, message, [{ field: 'files', message }]),
            );
          }
          if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
            return failWith(
              request,
              reply,
              new AppError(
                413,
                errorCodes.PAYLOAD_TOO_LARGE,
                `At most ${uploadMaxFilesPerRequest} files can be uploaded at once.`,
              ),
            );
          }
          if (code === 'FST_FIELDS_LIMIT') {
            return failWith(
              request,
              reply,
              new AppError(
                413,
                errorCodes.PAYLOAD_TOO_LARGE,
                'Too many form fields: send only the files, in the "files" field.',
              ),
            );
          }
          if (err instanceof AppError && err.statusCode < 500) return failWith(request, reply, err);
          throw err;
        }
        if (files.length === 0) {
          return failWith(request, reply, badRequest('No files were received. Choose at least one file to upload.'));
        }
        request.log.info({ files: files.length, ids: stored }, 'files uploaded');
        return { success: true as const, files };
      },
    );

    scope.get(
      '/api/upload/:id',
      {
        schema: {
          tags: ['uploads'],
          summary: 'A stored upload, with its own content type (never sniffed)',
          params: z.object({ id: z.string().max(64) }),
        },
      },
      async (request, reply) =>
        sendStoredFile(ctx.connection, 'uploads', request.params.id, reply, {
          missing: 'No uploaded file has this address.',
        }),
    );
  });
}
