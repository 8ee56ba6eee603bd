// POST /api/returns (public, multipart): a return request with up to 5 photos (storefront §3, §5, §9).
// The text fields are checked with the contracts schema; each photo by its content (images only, 10 MB
// each); the order number must belong to the email and be inside its 30-day return window (support's
// projection of the orders service's events). Photos are stored first, then the return and its
// support.return_requested event in one transaction; if that fails the photos are removed again.
import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import {
  errorCodes,
  errorEnvelopeSchema,
  returnCreatedSchema,
  returnRequestSchema,
  returnRules,
  supportPaths,
} from '@shop/contracts';
import {
  AppError,
  badRequest,
  fieldIssuesFromZod,
  validationFailed,
  validationMessage,
  type ServiceApp,
  type ServiceContext,
} from '@shop/service-kit';
import { checkPhoto, cleanFileName } from '../domain/photo-check.js';
import { returnEligibility } from '../domain/return-window.js';
import type { SupportModels } from '../models/index.js';
import { insertWithReference } from './references.js';

const textFields = ['orderNumber', 'email', 'reason', 'itemCondition', 'description'] as const;

export async function returnRoutes(app: ServiceApp, ctx: ServiceContext<SupportModels>) {
  const { ReturnRequest, ReturnPhoto, KnownOrder } = ctx.models;
  await app.register(async (plugin) => {
    const scope = plugin as unknown as ServiceApp;
    await scope.register(multipart, {
      limits: {
        fileSize: returnRules.photoMaxBytes,
        files: returnRules.photosMax,
        fields: 10,
        fieldSize: 4096,
        parts: returnRules.photosMax + 10,
        headerPairs: 100,
      },
    });

    scope.post(
      supportPaths.returns,
      {
        schema: {
          tags: ['public'],
          summary:
            'Request a return (multipart: orderNumber, email, reason, itemCondition, description, up to 5 `photos`)',
          consumes: ['multipart/form-data'],
          response: { 201: returnCreatedSchema, '4xx': errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new AppError(
            415,
            errorCodes.UNSUPPORTED_MEDIA_TYPE,
            'Send the return request as multipart/form-data (photos in the "photos" field).',
          );
        }
        const fields: Record<string, string> = {};
        const photos: { id: string; filename: string; mimetype: string; size: number; data: Buffer }[] = [];
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              const name = cleanFileName(part.filename);
              if (part.fieldname !== 'photos')
                throw badRequest(`Unexpected file field "${part.fieldname}": send photos in the "photos" field.`);
              const data = await part.toBuffer();
              const verdict = await checkPhoto(name, data);
              if (!verdict.ok)
                throw new AppError(
                  verdict.message.includes('10 MB') ? 413 : 415,
                  verdict.message.includes('10 MB') ? errorCodes.PAYLOAD_TOO_LARGE : errorCodes.UNSUPPORTED_MEDIA_TYPE,
                  verdict.message,
                );
              photos.push({ id: randomUUID(), filename: name, mimetype: verdict.mimetype, size: data.length, data });
            } else if ((textFields as readonly string[]).includes(part.fieldname)) {
              fields[part.fieldname] = typeof part.value === 'string' ? part.value : '';
            }
          }
        } catch (err) {
          throw photoLimitError(err) ?? err;
        }
        const parsed = returnRequestSchema.safeParse(fields);
        if (!parsed.success) {
          const issues = fieldIssuesFromZod(parsed.error);
          throw validationFailed(validationMessage(issues, 'body'), issues);
        }
        const body = parsed.data;
        const now = new Date();
        const order = await KnownOrder.findOne({ orderNumber: body.orderNumber }).lean();
        const eligible = returnEligibility(order, body.email, now);
        if (!eligible.ok)
          throw new AppError(
            eligible.status,
            eligible.status === 404 ? errorCodes.NOT_FOUND : errorCodes.VALIDATION_FAILED,
            eligible.message,
          );

        const returnId = randomUUID().replace(/-/g, '').slice(0, 24);
        if (photos.length) await ReturnPhoto.insertMany(photos.map(({ id, ...p }) => ({ _id: id, returnId, ...p })));
        try {
          const saved = await insertWithReference('RET', now, (reference) =>
            ctx.withOutbox(async (session, outbox) => {
              await ReturnRequest.create(
                [
                  {
                    _id: returnId,
                    reference,
                    ...body,
                    // The order's own address (the form's may differ in case): the emails go there.
                    email: order!.email,
                    customerName: order!.customerName,
                    photos: photos.map((p) => ({
                      _id: p.id,
                      filename: p.filename,
                      mimetype: p.mimetype,
                      size: p.size,
                    })),
                    status: 'requested',
                    history: [{ status: 'requested', at: now, by: body.email }],
                    requestedAt: now,
                    lastUpdate: now,
                  },
                ],
                { session },
              );
              outbox.add('support.return_requested', {
                returnId,
                reference,
                orderNumber: body.orderNumber,
                email: order!.email,
                customerName: order!.customerName,
                reason: body.reason,
                itemCondition: body.itemCondition,
                description: body.description,
                photoCount: photos.length,
                requestedAt: now.toISOString(),
              });
              return { reference };
            }),
          );
          request.log.info(
            { reference: saved.reference, orderNumber: body.orderNumber, photos: photos.length },
            'return requested',
          );
          return reply.status(201).send({ success: true as const, reference: saved.reference, photos: photos.length });
        } catch (err) {
          await ReturnPhoto.deleteMany({ returnId }).catch(() => undefined);
          throw err;
        }
      },
    );
  });
}

/** @fastify/multipart's limit errors as the shop's messages (too many photos, a photo too large). */
function photoLimitError(err: unknown): AppError | undefined {
  const code = (err as { code?: string })?.code;
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new AppError(
      413,
      errorCodes.PAYLOAD_TOO_LARGE,
      `At most ${returnRules.photosMax} photos can be attached to a return.`,
    );
  }
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new AppError(413, errorCodes.PAYLOAD_TOO_LARGE, 'Each photo can be at most 10 MB.');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return new AppError(415, errorCodes.UNSUPPORTED_MEDIA_TYPE, 'Send the return request as multipart/form-data.');
  return undefined;
}
