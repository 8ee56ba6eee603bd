// The payments tests' world, all real parts: the embedded MongoDB, a real nats-server, the payments
// service (test mode, or Stripe mode with the real stripe SDK pointed at the local fake), the REAL orders
// service in process on the same MongoDB and NATS, and a JetStream consumer reading the PAYMENTS stream.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll } from 'vitest';
import { buildApp as buildOrders } from '@shop/orders-service/app';
import {
  createIntentResponseSchema,
  createOrderResponseSchema,
  type AdminOrderResponse,
  paymentPaths,
  paymentVerifyResultSchema,
  paymentVerifySubject,
  rpcReplySchema,
  type AnyEventEnvelope,
  type OrderRequest,
} from '@shop/contracts';
import { loadServiceConfig } from '@shop/service-kit';
import { adminHeaders } from '@shop/service-kit/testing';
import {
  coinOrder,
  orderEventsReader,
  startMongo,
  startNats,
  streamEventsReader,
  type EventReader,
  type StartedMongo,
  type StartedNats,
} from '@shop/test-support';
import { buildApp } from '../../src/app.js';
import { loadConfig, type RawPaymentsEnv } from '../../src/config.js';
import { startFakeStripe, type FakeStripe } from './fake-stripe.js';
import { stripeKeys } from './keys.js';

export { stripeKeys };

/** The gateway's signed identity of an admin (services check it on admin routes; a fresh token per request). */
export const admin = adminHeaders('boss@shop.test');

type OrdersService = Awaited<ReturnType<typeof buildOrders>>;
type PaymentsService = Awaited<ReturnType<typeof buildApp>>;

export interface Harness {
  mongo: StartedMongo;
  nats: StartedNats;
  payments: PaymentsService;
  paymentsUrl: string;
  orders: OrdersService;
  ordersUrl: string;
  nc: NatsConnection;
  /** Every event read from the PAYMENTS stream so far, after reading until `until` holds and it is quiet. */
  paymentEvents: EventReader;
  /** The same for the ORDERS stream (order.paid, order.status_changed...). */
  orderEvents: EventReader;
  stop(): Promise<void>;
}

/** Orders' configuration for the tests (its loadConfig is not exported; the AI part is the offline one). */
function ordersConfig(mongoUri: string, natsUrl: string): Parameters<typeof buildOrders>[0] {
  return {
    ...loadServiceConfig(
      { PORT: '0', MONGO_URL: mongoUri, NATS_URL: natsUrl, LOG_LEVEL: 'silent', NODE_ENV: 'test' },
      { port: 0 },
    ),
    ai: { apiKey: undefined, baseUrl: undefined, imageModel: 'gpt-image-1' },
    // Orders' default (UPLOAD_RETENTION_HOURS unset); these tests upload nothing.
    uploadRetentionHours: 24,
  };
}

/**
 * The test file's world: started before its tests (in Stripe mode with the local fake of Stripe, as
 * `fake`) and stopped after them. The returned object is filled in once the world is up.
 */
export function useHarness(): Harness;
export function useHarness(options: { stripe: true }): Harness & { fake: FakeStripe };
export function useHarness(options: { stripe?: boolean } = {}): Harness & { fake?: FakeStripe } {
  const world = {} as Harness & { fake?: FakeStripe };
  beforeAll(async () => {
    if (options.stripe) world.fake = await startFakeStripe({ secretKey: stripeKeys.STRIPE_SECRET_KEY });
    Object.assign(world, await startHarness({ stripe: world.fake }));
  }, 90_000);
  afterAll(async () => {
    await world.stop?.();
    await world.fake?.close();
  });
  return world;
}

export async function startHarness(options: { stripe?: FakeStripe; env?: RawPaymentsEnv } = {}): Promise<Harness> {
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const stripeEnv: RawPaymentsEnv = options.stripe ? { ...stripeKeys, STRIPE_API_URL: options.stripe.url } : {};
  const payments = await buildApp(
    loadConfig({
      PORT: '0',
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      ...stripeEnv,
      ...options.env,
    }),
    { relay: { sweepIntervalMs: 200, maxBackoffMs: 500 } },
  );
  const paymentsUrl = await payments.start();
  const orders = await buildOrders(ordersConfig(mongo.uri, nats.url), {
    relay: { sweepIntervalMs: 200, maxBackoffMs: 500 },
  });
  const ordersUrl = await orders.start();

  const nc = await connect({ servers: nats.url });
  const paymentEvents = await streamEventsReader(nc, {
    stream: 'PAYMENTS',
    subject: 'payment.>',
    durable: 'payments-test-payments',
  });
  const orderEvents = await orderEventsReader(nc, 'payments-test-orders');

  return {
    mongo,
    nats,
    payments,
    paymentsUrl,
    orders,
    ordersUrl,
    nc,
    paymentEvents,
    orderEvents,
    async stop() {
      await nc.close().catch(() => undefined);
      await orders.stop();
      await payments.stop();
      await Promise.all([nats.stop(), mongo.stop()]);
    },
  };
}

/** One HTTP call; the body typed as the caller says the route answers (unknown unless told). */
export async function send<Body = unknown>(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Body }> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Body };
}

/** A customer's quote request through the real orders service; its id and number. */
export async function placeOrder(
  h: Harness,
  overrides: Partial<OrderRequest> = {},
): Promise<{ id: string; orderNumber: string }> {
  // The payments tests' customer does not subscribe to emails (the shared body does).
  const res = await send('POST', `${h.ordersUrl}/api/orders`, coinOrder({ subscribeEmail: false, ...overrides }));
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`order refused: ${res.status} ${JSON.stringify(res.body)}`);
  const { order } = createOrderResponseSchema.parse(res.body);
  return { id: order.id, orderNumber: order.orderNumber };
}

/** The admin's Apply Quote (orders asks payments for the tax rate); the order as orders answers it. */
export async function applyQuote(h: Harness, orderId: string, quoteAmount: number) {
  const res = await send<AdminOrderResponse>(
    'POST',
    `${h.ordersUrl}/api/orders/${orderId}/generate-quote`,
    { quoteAmount, quoteNotes: 'Includes rush' },
    admin,
  );
  if (res.status !== 200) throw new Error(`quote refused: ${res.status} ${JSON.stringify(res.body)}`);
  const { quote } = res.body.order;
  if (!quote) throw new Error(`quote missing from the answer: ${JSON.stringify(res.body)}`);
  return { ...res.body.order, quote };
}

/** The payment page's create-intent call, with the browser's amount (1 cent unless given). */
export async function createIntent<Body = unknown>(h: Harness, order: { id: string; orderNumber: string }, amount = 1) {
  return send<Body>('POST', `${h.paymentsUrl}${paymentPaths.createIntent}`, {
    amount,
    currency: 'usd',
    customerInfo: { name: 'Jane Doe', email: 'jane.doe@example.com' },
    orderNumber: order.orderNumber,
    description: 'Quote payment',
    metadata: { orderId: order.id, orderNumber: order.orderNumber },
  });
}

export const parseIntent = (body: unknown) => createIntentResponseSchema.parse(body).paymentIntent;

/** An order with a sent quote, ready to pay. */
export async function quotedOrder(h: Harness, quoteAmount = 100, overrides: Partial<OrderRequest> = {}) {
  const order = await placeOrder(h, overrides);
  const quoted = await applyQuote(h, order.id, quoteAmount);
  return { ...order, quote: quoted.quote };
}

/** A request to one of payments' NATS subjects the way other services make it; the reply's data. */
export async function ask(h: Harness, subject: string, data: unknown) {
  const msg = await h.nc.request(subject, JSON.stringify(data), { timeout: 10_000 });
  const reply = rpcReplySchema.parse(msg.json());
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.data;
}

/** Orders' question before it marks an order paid: is this intent paid, for this order? */
export async function verifyPayment(h: Harness, orderId: string, paymentIntentId: string) {
  return paymentVerifyResultSchema.parse(await ask(h, paymentVerifySubject, { orderId, paymentIntentId }));
}

/** The payment events of one intent. */
export const eventsOf = (all: AnyEventEnvelope[], paymentIntentId: string) =>
  all.filter((e) => (e.data as { paymentIntentId?: string }).paymentIntentId === paymentIntentId);
