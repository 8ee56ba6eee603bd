// Two small services built with createService against the real embedded MongoDB and nats-server:
// "orders" writes a widget and announces it (order.created) through the outbox; "customers" consumes
// order.created into a projection that counts how often it acted, and answers request/reply.
import { inspect } from 'node:util';
import { Schema, type Connection, type Model } from 'mongoose';
import { z } from 'zod';
import { rpcSubject, type EventData } from '@shop/contracts';
import { AppError, consumeEvent, createService, loadServiceConfig, replyTo, type Service } from '../src/index.js';

export class LogLines {
  readonly lines: Record<string, unknown>[] = [];
  write(chunk: string) {
    for (const line of chunk.split('\n')) if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
  }
  find(pred: (l: Record<string, unknown>) => boolean) {
    return this.lines.filter(pred);
  }
}

export function orderCreatedData(orderNumber: string): EventData<'order.created'> {
  return {
    orderId: `id-${orderNumber}`,
    orderNumber,
    customerName: 'Jane Doe',
    email: 'jane@example.com',
    itemType: 'coin',
    designMethod: 'describe',
    quantity: 50,
    estimatedTotal: 1170,
    customerCategory: 'general',
    taxExempt: false,
    aiGenerated: false,
    subscribeEmail: false,
    subscribeSMS: false,
    shippingAddress: { line1: '1 Main St', line2: '', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    status: 'pending_quote',
    submittedDate: new Date().toISOString(),
  };
}

interface Widget {
  orderNumber: string;
  quantity: number;
}

export function widgetModels(connection: Connection) {
  const schema = new Schema<Widget>(
    { orderNumber: { type: String, required: true }, quantity: Number },
    { collection: 'widgets' },
  );
  return { Widget: (connection.models.Widget as Model<Widget>) ?? connection.model<Widget>('Widget', schema) };
}

interface Projection {
  _id: string;
  orderNumber: string;
  timesActed: number;
}

export function projectionModels(connection: Connection) {
  const schema = new Schema<Projection>(
    { _id: String, orderNumber: String, timesActed: Number },
    { collection: 'order_projection' },
  );
  return {
    Projection:
      (connection.models.Projection as Model<Projection>) ?? connection.model<Projection>('Projection', schema),
  };
}

/** A test service's config: loopback on a free port, the given MongoDB and NATS. */
export const env = (mongoUrl: string, natsUrl: string, logLevel = 'debug') =>
  loadServiceConfig(
    { HOST: '127.0.0.1', PORT: '0', MONGO_URL: mongoUrl, NATS_URL: natsUrl, LOG_LEVEL: logLevel },
    { port: 0 },
  );

export async function buildOrdersLike(mongoUrl: string, natsUrl: string, logs = new LogLines()) {
  const service = await createService({
    name: 'orders',
    version: '1.2.3',
    config: env(mongoUrl, natsUrl),
    logDestination: logs,
    relay: { sweepIntervalMs: 200, maxBackoffMs: 500, publishTimeoutMs: 1000 },
    models: widgetModels,
    routes(app, ctx) {
      app.post(
        '/widgets',
        {
          schema: {
            body: z.object({
              orderNumber: z.string().min(3),
              quantity: z.number().int().min(1).max(10_000),
            }),
            response: { 201: z.object({ orderNumber: z.string(), eventId: z.string() }) },
          },
        },
        async (request, reply) => {
          const eventId = await ctx.withOutbox(async (session, outbox) => {
            await ctx.models.Widget.create(
              [{ orderNumber: request.body.orderNumber, quantity: request.body.quantity }],
              { session },
            );
            return outbox.add('order.created', {
              ...orderCreatedData(request.body.orderNumber),
              quantity: request.body.quantity,
            }).id;
          });
          return reply.status(201).send({ orderNumber: request.body.orderNumber, eventId });
        },
      );
      // A route whose refusals have their own shape (like the customers lookup): the shared error
      // envelope of a body fastify could not read must still reach the client as a 4xx.
      app.post(
        '/shaped',
        {
          schema: {
            body: z.object({ email: z.string() }),
            response: {
              200: z.object({ ok: z.literal(true) }),
              400: z.object({ success: z.literal(false), message: z.string() }),
            },
          },
        },
        async () => ({ ok: true as const }),
      );
      // What busboy throws while a service reads the parts of a broken multipart body.
      app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, undefined));
      app.post('/parts', async () => {
        throw new Error('Unexpected end of multipart data');
      });
      app.get('/boom', async () => {
        throw new Error('database password is hunter2');
      });
      app.get('/teapot', async () => {
        throw new AppError(409, 'ORDER_ALREADY_PAID', 'This order is already paid.');
      });
      app.get(
        '/ask',
        { schema: { querystring: z.object({ text: z.string(), timeout: z.coerce.number().optional() }) } },
        async (request) =>
          ctx.bus.request(
            rpcSubject('customers', 'echo'),
            { text: request.query.text },
            { timeout: request.query.timeout ?? 2000 },
          ),
      );
    },
  });
  return { service, logs };
}

export async function buildCustomersLike(mongoUrl: string, natsUrl: string, logs = new LogLines()) {
  const service = await createService({
    name: 'customers',
    config: env(mongoUrl, natsUrl),
    logDestination: logs,
    relay: { sweepIntervalMs: 200, maxBackoffMs: 500 },
    models: projectionModels,
    routes() {},
    consumers: (ctx) => [
      consumeEvent('order.created', async (event, { session }) => {
        await ctx.models.Projection.updateOne(
          { _id: event.data.orderNumber },
          { $set: { orderNumber: event.data.orderNumber }, $inc: { timesActed: 1 } },
          { upsert: true, session },
        );
      }),
    ],
    replies: () => [
      replyTo(rpcSubject('customers', 'echo'), z.object({ text: z.string().min(1) }), async ({ text }) => {
        if (text === 'slow') await new Promise((r) => setTimeout(r, 1500));
        if (text === 'refuse') throw new AppError(404, 'CUSTOMER_NOT_FOUND', 'No customer with that email.');
        return { echoed: text.toUpperCase() };
      }),
    ],
  });
  return { service, logs };
}

export async function eventually<T>(
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
  stepMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  const reason = last instanceof Error ? String(last) : inspect(last);
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${reason}` : ''}`);
}

/** The services built above, with their models typed. */
export type OrdersLikeService = Service<ReturnType<typeof widgetModels>>;
export type CustomersLikeService = Service<ReturnType<typeof projectionModels>>;
