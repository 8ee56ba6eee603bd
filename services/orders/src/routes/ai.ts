// The AI design generator (beta): POST /api/ai/generate-design and GET /api/ai/designs/:id/image.
// Every design is stored (GridFS bucket `designs` + the `designs` collection), so its URL never expires
// the way provider URLs do. Generation is rate-limited per client address on top of the gateway's limit.
import rateLimit from '@fastify/rate-limit';
import { z } from 'zod';
import {
  aiInvalidParametersMessage,
  designImageUrl,
  errorCodes,
  generateDesignRequestSchema,
  generateDesignResponseSchema,
} from '@shop/contracts';
import { AppError, type ServiceContext } from '@shop/service-kit';
import type { ImageGenerator } from '../ai/images.js';
import type { OrderModels } from '../models/order.js';
import { deleteFile, newFileId, sendStoredFile, storeFile } from '../storage/files.js';
import type { OrdersApp } from '../app.js';
import { fail, failWith, failureResponse, validationIssues } from './respond.js';
import { currentSiteSettings } from '../models/site-settings.js';
import { contentMessages } from '@shop/contracts';

export interface AiRateLimit {
  /** Designs one client address may request per window. */
  max: number;
  windowMs: number;
}
export const defaultAiRateLimit: AiRateLimit = { max: 10, windowMs: 60_000 };

export async function registerAiRoutes(
  app: OrdersApp,
  ctx: ServiceContext<OrderModels>,
  generate: ImageGenerator,
  limit: AiRateLimit = defaultAiRateLimit,
) {
  const { Design } = ctx.models;
  await app.register(async (plugin) => {
    const scope = plugin as unknown as OrdersApp;
    await scope.register(rateLimit, {
      global: false,
      keyGenerator: (request) => request.ip,
      errorResponseBuilder: (_request, context) =>
        new AppError(
          429,
          errorCodes.RATE_LIMITED,
          `Too many designs requested from your address. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
        ),
    });

    scope.post(
      '/api/ai/generate-design',
      {
        attachValidation: true,
        config: { rateLimit: { max: limit.max, timeWindow: limit.windowMs } },
        schema: {
          tags: ['ai'],
          summary: 'Generate a design from a description (stored; the image URL does not expire)',
          body: generateDesignRequestSchema,
          response: { 200: generateDesignResponseSchema, '4xx': failureResponse, '5xx': failureResponse },
        },
      },
      async (request, reply) => {
        // The AI tool can be turned off in the back office (site content features).
        if (!(await currentSiteSettings(ctx.connection)).features.aiGenerationEnabled) {
          return fail(request, reply, 403, 'FEATURE_DISABLED', contentMessages.aiDisabled);
        }
        if (request.validationError) {
          // The browser turns this exact text into its "Please check your input..." alert (§8).
          return fail(
            request,
            reply,
            400,
            errorCodes.VALIDATION_FAILED,
            aiInvalidParametersMessage,
            validationIssues(request),
          );
        }
        const { prompt, itemType, style } = request.body;
        let image;
        try {
          image = await generate({ prompt, itemType, style });
        } catch (err) {
          if (err instanceof AppError) return failWith(request, reply, err);
          throw err;
        }
        const id = newFileId();
        await storeFile(ctx.connection, 'designs', id, `design-${id}.${image.extension}`, image.data, {
          originalName: `design-${id}.${image.extension}`,
          mimetype: image.contentType,
          extension: image.extension,
          designId: id,
        });
        try {
          await Design.create({
            _id: id,
            prompt,
            itemType,
            style,
            generator: image.generator,
            ...(image.model ? { model: image.model } : {}),
            fileId: id,
            contentType: image.contentType,
            size: image.data.length,
            ip: request.ip,
            createdAt: new Date(),
          });
        } catch (err) {
          await deleteFile(ctx.connection, 'designs', id).catch(() => undefined);
          throw err;
        }
        request.log.info({ designId: id, itemType, generator: image.generator }, 'design generated');
        return {
          success: true as const,
          design: { id, prompt, imageUrl: designImageUrl(id), variations: [], itemType },
          ...(image.warning ? { warning: image.warning } : {}),
        };
      },
    );

    scope.get(
      '/api/ai/designs/:id/image',
      {
        schema: {
          tags: ['ai'],
          summary: 'The stored image of a generated design',
          params: z.object({ id: z.string().max(64) }),
        },
      },
      async (request, reply) =>
        sendStoredFile(ctx.connection, 'designs', request.params.id, reply, {
          missing: 'No design image has this address.',
        }),
    );
  });
}
