// Public order lookups (storefront §3, §4, §7). POST /api/orders/track answers only when the order
// number and the email belong together (email compared case-insensitively); a wrong email and a missing
// order get the same answer, so nobody can learn which order numbers exist. POST /api/orders/history
// lists an email's other orders only to someone who has just proven one of them the same way.
import {
  historyMaxOrders,
  historyRequestSchema,
  historyResponseSchema,
  trackMissingFieldsMessage,
  trackOrderNotFoundMessage,
  trackRequestSchema,
  trackResponseSchema,
} from '@shop/contracts';
import type { ServiceContext } from '@shop/service-kit';
import {
  RecentTrackedAnswers,
  trackedFields,
  trackedView,
  type TrackedAnswer,
  type TrackedOrderDoc,
} from '../domain/tracking.js';
import type { OrderModels } from '../models/order.js';
import type { OrdersApp } from '../app.js';
import { fail, failureResponse } from './respond.js';

const trackedProjection = Object.fromEntries(trackedFields.map((field) => [field, 1]));

/** An order number as typed, in the stored form (order numbers are stored upper-case). */
const orderNumberKey = (orderNumber: string) => orderNumber.trim().toUpperCase();

/** Whether the email a tracker typed is the order's (stored lower-case; compared case-insensitively). */
const emailMatches = (order: { emailKey: string } | null, email: string) =>
  order !== null && order.emailKey === email.trim().toLowerCase();

/** The order when `orderNumber` and `email` belong together, else null (same outcome for both misses). */
async function provenOrder(
  ctx: ServiceContext<OrderModels>,
  orderNumber: string,
  email: string,
): Promise<TrackedOrderDoc | null> {
  const order = await storedOrder(ctx, orderNumberKey(orderNumber));
  return emailMatches(order, email) ? order : null;
}

/** The tracked fields of the order with this (normalised) number, or null. */
async function storedOrder(ctx: ServiceContext<OrderModels>, orderNumber: string): Promise<TrackedOrderDoc | null> {
  const db = ctx.connection.db;
  if (!db) throw new Error('MongoDB is not connected yet');
  // MongoDB's find command itself, one batch of at most one order: a read of a unique key needs neither a
  // mongoose query (its casting and projection parsing were about 8% of the orders service's CPU on the
  // tracking read) nor the driver's findOne, whose cursor is set up, read and closed for the one answer
  // (about a third less CPU per lookup without it, issue 20).
  const reply = (await db.command({
    find: ctx.models.Order.collection.collectionName,
    filter: { orderNumber },
    projection: trackedProjection,
    limit: 1,
    singleBatch: true,
  })) as { cursor: { firstBatch: TrackedOrderDoc[] } };
  return reply.cursor.firstBatch[0] ?? null;
}

/** The order's tracked answer as sent, or null: no such order. */
async function trackedAnswer(ctx: ServiceContext<OrderModels>, orderNumber: string): Promise<TrackedAnswer | null> {
  const order = await storedOrder(ctx, orderNumber);
  if (!order) return null;
  return { emailKey: order.emailKey, json: JSON.stringify({ success: true, order: trackedView(order) }) };
}

/**
 * The tracking read's answers as plain JSON, without zod's encode pass over them (the route's schemas still
 * document them): a found order's answer is JSON text already (trackedAnswer, from trackedView, which builds
 * it field by field, typed as TrackedOrder), and `fail` builds the error envelope, so the pass changed nothing
 * and was about 6% of the service's busy time on this read (issue 20).
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

export function registerTrackingRoutes(app: OrdersApp, ctx: ServiceContext<OrderModels>) {
  // Repeated lookups of one order within trackedAnswerMaxAgeMs share one read and its JSON (domain/tracking.ts).
  const recentAnswers = new RecentTrackedAnswers();
  app.post(
    '/api/orders/track',
    {
      attachValidation: true,
      serializerCompiler: plainJson,
      schema: {
        tags: ['tracking'],
        summary: 'Track an order by its number and email',
        body: trackRequestSchema,
        response: { 200: trackResponseSchema, '4xx': failureResponse },
      },
    },
    async (request, reply) => {
      if (request.validationError || !request.body.orderNumber || !request.body.email) {
        return fail(request, reply, 400, 'VALIDATION_FAILED', trackMissingFieldsMessage, [
          ...(!request.body?.orderNumber ? [{ field: 'orderNumber', message: 'Order number is required' }] : []),
          ...(!request.body?.email ? [{ field: 'email', message: 'Email is required' }] : []),
        ]);
      }
      const orderNumber = orderNumberKey(request.body.orderNumber);
      const answer = await recentAnswers.answerFor(orderNumber, () => trackedAnswer(ctx, orderNumber));
      if (!answer || !emailMatches(answer, request.body.email))
        return fail(request, reply, 404, 'NOT_FOUND', trackOrderNotFoundMessage);
      // The JSON text as it is: a string with a JSON content type passes Fastify's serializer untouched
      // (the route's reply type is the object the text holds).
      return reply.type('application/json; charset=utf-8').send(answer.json as never);
    },
  );

  app.post(
    '/api/orders/history',
    {
      attachValidation: true,
      schema: {
        tags: ['tracking'],
        summary: 'The other orders of an email, for someone who has just proven one of them',
        body: historyRequestSchema,
        response: { 200: historyResponseSchema, '4xx': failureResponse },
      },
    },
    async (request, reply) => {
      const body = request.validationError ? undefined : request.body;
      if (!body?.email) {
        return fail(request, reply, 400, 'VALIDATION_FAILED', 'Email is required.', [
          { field: 'email', message: 'Email is required' },
        ]);
      }
      if (!body.orderNumber) {
        return fail(
          request,
          reply,
          400,
          'VALIDATION_FAILED',
          'orderNumber is required: send the order number of one of your orders with the email to see the others.',
          [{ field: 'orderNumber', message: 'Order number is required' }],
        );
      }
      const proven = await provenOrder(ctx, body.orderNumber, body.email);
      if (!proven) return fail(request, reply, 404, 'NOT_FOUND', trackOrderNotFoundMessage);
      const others = await ctx.models.Order.find({ emailKey: proven.emailKey, _id: { $ne: proven._id } })
        .sort({ createdAt: -1 })
        .limit(historyMaxOrders)
        .select(trackedProjection)
        .lean<TrackedOrderDoc[]>();
      return { success: true as const, orders: others.map(trackedView) };
    },
  );
}
