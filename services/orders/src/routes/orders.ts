// POST /api/orders: a quote request. The body is parsed with the contracts schema (every rule of
// storefront §5 again), files must be uploads this service stored, the estimate is recomputed, the order
// gets a unique human-readable number and status pending_quote, and order.created goes out through the
// outbox in the same transaction. An Idempotency-Key makes a retried submit return the same order.
import {
  createOrderResponseSchema,
  isCustomizerOrder,
  idempotencyKeyHeader,
  orderRequestSchema,
  orderStatusLabels,
  uploadIdFromUrl,
  uploadUrl,
  type CreatedOrder,
  type ParsedOrderRequest,
} from '@shop/contracts';
import {
  AppError,
  badRequest,
  conflict,
  insertComplete,
  serviceUnavailable,
  type ServiceContext,
} from '@shop/service-kit';
import { z } from 'zod';
import { currentSiteSettings } from '../models/site-settings.js';
import {
  bodyFingerprint,
  idempotencyKeyPattern,
  isTaxExempt,
  orderDescription,
  serverEstimate,
} from '../domain/order-rules.js';
import { newOrderNumber } from '../domain/order-number.js';
import { duplicateKeyOf, QuoteCommits } from '../domain/quote-commits.js';
import { orderCreatedData } from '../events/order-created.js';
import { newOrderId, storedOrder, type OrderDoc, type OrderFile, type OrderModels } from '../models/order.js';
import { filesCollection, findFile } from '../storage/files.js';
import type { OrdersApp } from '../app.js';
import { fail, failWith, failureResponse, validationIssues } from './respond.js';

const ORDER_NUMBER_ATTEMPTS = 5;

export function createdView(order: OrderDoc): CreatedOrder {
  return {
    id: order._id,
    orderNumber: order.orderNumber,
    status: order.status,
    statusLabel: orderStatusLabels[order.status],
    itemType: order.itemType,
    quantity: order.quantity,
    estimatedTotal: order.estimatedTotal,
    taxExempt: order.taxExempt,
    submittedDate: new Date(order.createdAt).toISOString(),
  };
}

/** The order field whose unique index refused the insert (its key pattern, else the index named in the message). */
function duplicateFieldOf(err: unknown): string | undefined {
  const duplicate = duplicateKeyOf(err);
  if (!duplicate) return undefined;
  const pattern = Object.keys(duplicate.keyPattern ?? {});
  if (pattern.length > 0) return pattern[0];
  // Not the key's value: an Idempotency-Key may spell anything, "orderNumber" included.
  return / index: (\w+)_-?1 dup key/.exec(duplicate.message ?? '')?.[1];
}

/** Files named in the body must be uploads stored here; the stored record wins over the browser's copy. */
async function resolveFiles(ctx: ServiceContext<OrderModels>, body: ParsedOrderRequest): Promise<OrderFile[]> {
  const files: OrderFile[] = [];
  for (const [index, file] of body.files.entries()) {
    const id = uploadIdFromUrl(file.url);
    const stored = id ? await findFile(ctx.connection, 'uploads', id) : null;
    if (!id || !stored) {
      throw badRequest(`The file "${file.originalName}" was not found among the uploads. Please upload it again.`, [
        { field: `files.${index}.url`, message: 'Not a file uploaded to this shop' },
      ]);
    }
    files.push({
      fileId: id,
      originalName: stored.metadata?.originalName ?? file.originalName,
      filename: stored.filename,
      size: stored.length,
      mimetype: stored.metadata?.mimetype ?? file.mimetype,
      url: uploadUrl(id),
    });
  }
  return files;
}

export function registerOrderRoutes(app: OrdersApp, ctx: ServiceContext<OrderModels>) {
  const { Order, IdempotencyKey, Design } = ctx.models;
  const quoteCommits = new QuoteCommits(ctx);

  /** Answers a repeated Idempotency-Key: the same order for the same body, 409 for a different one. */
  async function replay(key: string, fingerprint: string): Promise<OrderDoc | null> {
    const order = await Order.findOne({ idempotencyKey: key }).lean<OrderDoc>();
    // An order made before keys were kept on it has its body's fingerprint in idempotency_keys.
    const legacy = order?.idempotencyBodyHash ? null : await IdempotencyKey.findById(key).lean();
    if (!order) {
      if (!legacy) return null;
      throw new AppError(410, 'GONE', 'The order made with this Idempotency-Key no longer exists.');
    }
    if ((order.idempotencyBodyHash ?? legacy?.bodyHash) !== fingerprint) {
      throw conflict(
        'This Idempotency-Key was already used for a different order. Send a changed order with a new Idempotency-Key.',
        [{ field: 'Idempotency-Key', message: 'Already used with a different body' }],
      );
    }
    return order;
  }

  /** Stores an order that claims its uploads or AI design, in its own transaction with the claims. */
  async function storeClaiming(order: OrderDoc, aiDesignId: string | undefined) {
    const { files } = order;
    await ctx.withOutbox(async (session, outbox) => {
      // Through the driver: the body passed the contracts schema, and storedOrder adds what the mongoose
      // schema would (its document hydration and validation were a large share of the CPU).
      // First: a repeated key (or order number) stops the transaction before anything else is written.
      await insertComplete(Order, [storedOrder(order)], session);
      // Claim the files in the same transaction, and only while the unused-file sweep has not
      // marked them for deletion: a file it marked meanwhile fails the order instead of vanishing.
      if (files.length > 0) {
        const claimed = await filesCollection(ctx.connection, 'uploads').updateMany(
          { _id: { $in: files.map((f) => f.fileId) }, 'metadata.expiredAt': { $exists: false } },
          { $set: { 'metadata.orderId': order._id } },
          { session },
        );
        if (claimed.matchedCount !== files.length) {
          throw badRequest('One of your uploaded files has expired. Please upload it again.', [
            { field: 'files', message: 'Expired upload' },
          ]);
        }
      }
      if (aiDesignId) {
        const claimed = await filesCollection(ctx.connection, 'designs').updateOne(
          { _id: aiDesignId, 'metadata.expiredAt': { $exists: false } },
          { $set: { 'metadata.orderId': order._id } },
          { session },
        );
        if (claimed.matchedCount !== 1) {
          throw badRequest('The AI design this order refers to was not found.', [
            { field: 'aiDesignId', message: 'Unknown design' },
          ]);
        }
      }
      outbox.add('order.created', orderCreatedData(order));
    });
  }

  app.post(
    '/api/orders',
    {
      attachValidation: true,
      schema: {
        tags: ['orders'],
        summary: 'Submit a quote request (storefront §7)',
        headers: z.looseObject({ [idempotencyKeyHeader]: z.string().optional() }),
        body: orderRequestSchema,
        response: {
          200: createOrderResponseSchema,
          201: createOrderResponseSchema,
          '4xx': failureResponse,
          '5xx': failureResponse,
        },
      },
    },
    async (request, reply) => {
      if (request.validationError) {
        const issues = validationIssues(request);
        return fail(
          request,
          reply,
          400,
          'VALIDATION_FAILED',
          `Please check your order: ${issues.map((i) => i.message).join('; ')}`,
          issues,
        );
      }
      const rawKey: unknown = request.headers[idempotencyKeyHeader];
      const key =
        typeof rawKey === 'string'
          ? rawKey
          : Array.isArray(rawKey) && typeof rawKey[0] === 'string'
            ? rawKey[0]
            : undefined;
      if (key !== undefined && !idempotencyKeyPattern.test(key)) {
        return fail(
          request,
          reply,
          400,
          'BAD_REQUEST',
          'The Idempotency-Key header must be 1 to 200 printable characters.',
        );
      }
      const body = request.body;
      const fingerprint = bodyFingerprint(body);
      try {
        // No lookup of the Idempotency-Key first: the order carries it under a unique index, so a key
        // already used fails the order's insert (duplicate key), answered as a retry below. A new key,
        // the usual case, costs no command of its own.
        const files = await resolveFiles(ctx, body);
        if (body.aiDesignId && !(await Design.exists({ _id: body.aiDesignId }))) {
          throw badRequest('The AI design this order refers to was not found.', [
            { field: 'aiDesignId', message: 'Unknown design' },
          ]);
        }
        const customizer = isCustomizerOrder(body);
        // The price list in force now; a later change never touches this order's estimate.
        const { prices } = await currentSiteSettings(ctx.connection);
        const description = orderDescription(body);

        for (let attempt = 1; attempt <= ORDER_NUMBER_ATTEMPTS; attempt++) {
          const now = new Date();
          const order: OrderDoc = {
            _id: newOrderId(),
            orderNumber: newOrderNumber(body.itemType),
            customerName: body.customerName,
            email: body.email,
            emailKey: body.email.toLowerCase(),
            ...(body.phone ? { phone: body.phone } : {}),
            itemType: body.itemType,
            designMethod: body.designMethod,
            description,
            quantity: body.quantity,
            ...(body.itemType === 'shirt' && !customizer
              ? {
                  sizeBreakdown: Object.fromEntries(
                    Object.entries(body.sizeBreakdown ?? {}).filter(([, n]) => (n ?? 0) > 0),
                  ),
                }
              : { size: body.size }),
            colors: body.colors,
            finish: body.finish,
            ...(body.shape ? { shape: body.shape } : {}),
            ...(body.edge ? { edge: body.edge } : {}),
            features: body.features,
            files,
            aiGenerated: body.aiGenerated || body.designMethod === 'ai',
            ...(body.aiDesignId ? { aiDesignId: body.aiDesignId } : {}),
            subscribeEmail: body.subscribeEmail,
            subscribeSMS: body.subscribeSMS,
            ...(body.shippingAddress ? { shippingAddress: body.shippingAddress } : {}),
            ...(body.billingAddress ? { billingAddress: body.billingAddress } : {}),
            customerCategory: body.customerCategory,
            taxExempt: isTaxExempt(body.customerCategory),
            customizer,
            estimatedTotal: serverEstimate(body, prices),
            ...(body.estimatedTotal !== undefined ? { browserEstimatedTotal: body.estimatedTotal } : {}),
            status: 'pending_quote',
            statusHistory: [
              { status: 'pending_quote', date: now, changedBy: 'customer', note: 'Quote request submitted' },
            ],
            quote: null,
            discount: null,
            tracking: null,
            payment: null,
            ...(key ? { idempotencyKey: key, idempotencyBodyHash: fingerprint } : {}),
            createdAt: now,
            updatedAt: now,
          };
          try {
            // Nothing to claim (the usual quote request): stored in a transaction shared with the requests
            // that arrive meanwhile (quote-commits.ts).
            if (files.length === 0 && !body.aiDesignId) await quoteCommits.store(order);
            else await storeClaiming(order, body.aiDesignId);
          } catch (err) {
            const duplicate = duplicateFieldOf(err);
            if (duplicate === 'orderNumber') continue;
            if (key && duplicate === 'idempotencyKey') {
              // A retry, or the same key racing us from another request: the order made with it.
              const previous = await replay(key, fingerprint);
              if (previous) return reply.status(200).send({ success: true as const, order: createdView(previous) });
            }
            throw err;
          }
          if (body.estimatedTotal !== undefined && body.estimatedTotal !== order.estimatedTotal) {
            request.log.warn(
              { orderNumber: order.orderNumber, browser: body.estimatedTotal, server: order.estimatedTotal },
              'browser estimate differs from the server estimate; the server estimate is kept',
            );
          }
          request.log.info(
            { orderId: order._id, orderNumber: order.orderNumber, itemType: order.itemType },
            'quote request stored',
          );
          return reply.status(201).send({ success: true as const, order: createdView(order) });
        }
        throw serviceUnavailable('Could not assign an order number right now. Please try again.');
      } catch (err) {
        if (err instanceof AppError && err.statusCode < 500) return failWith(request, reply, err);
        throw err;
      }
    },
  );
}
