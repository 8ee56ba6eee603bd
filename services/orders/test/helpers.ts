// Shared pieces of the orders tests: the service on the embedded MongoDB and a real nats-server, and
// order bodies the way the storefront builds them.
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { coinOrder, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import {
  paymentVerifySubject,
  taxRateSubject,
  type OrderRequest,
  type PaymentVerifyResult,
  type RpcReply,
  type TaxRateResult,
} from '@shop/contracts';
import { buildApp, type OrdersTestHooks } from '../src/app.js';
import { loadConfig, type RawOrdersEnv } from '../src/config.js';

// The coin order body and the ORDERS stream reader are shared with the payments tests.
export { coinOrder, orderEventsReader } from '@shop/test-support';

export interface Harness {
  mongo: StartedMongo;
  nats: StartedNats;
  service: Awaited<ReturnType<typeof buildApp>>;
  url: string;
  /** The stand-in for the payments service's replies (the real ones are tested in payments). */
  payments: StandInPayments;
  stop(): Promise<void>;
}

/** A tiny tax table for these tests: TX and VA taxed, anything else (and tax-exempt orders) 0. */
export const standInTaxRates: Record<string, number> = { TX: 0.0625, VA: 0.053 };

export interface StandInPayments {
  /** The answer to a verify request, by payment intent id; unknown intents are answered not verified. */
  verified: Map<string, PaymentVerifyResult>;
  /** Every verify request seen. */
  verifyRequests: { orderId: string; paymentIntentId: string }[];
  /** Stops or restarts answering tax-rate or verify requests (as if payments were down). */
  answering(subject: 'tax' | 'verify', on: boolean): Promise<void>;
  stop(): Promise<void>;
}

/** Answers the payments service's NATS subjects the way service-kit replies do ({ ok, data }). */
export async function startStandInPayments(natsUrl: string): Promise<StandInPayments> {
  const nc: NatsConnection = await connect({ servers: natsUrl });
  const verified = new Map<string, PaymentVerifyResult>();
  const verifyRequests: { orderId: string; paymentIntentId: string }[] = [];
  const respond = (subject: string, answer: (data: never) => unknown) =>
    nc.subscribe(subject, {
      callback: (_err, msg) => {
        const reply: RpcReply = { ok: true, data: answer(msg.json()) };
        msg.respond(JSON.stringify(reply));
      },
    });
  const taxRate = ({ state, taxExempt }: { state?: string; taxExempt: boolean }): TaxRateResult => {
    if (taxExempt) return { taxRate: 0, basis: 'Tax-exempt military order' };
    const rate = state ? standInTaxRates[state] : undefined;
    return rate
      ? { taxRate: rate, basis: `${state} state sales tax` }
      : { taxRate: 0, basis: `No sales tax for ${state ?? 'an order without address'}` };
  };
  const verify = ({ orderId, paymentIntentId }: { orderId: string; paymentIntentId: string }): PaymentVerifyResult => {
    verifyRequests.push({ orderId, paymentIntentId });
    return (
      verified.get(paymentIntentId) ?? {
        verified: false,
        paymentIntentId,
        orderId: null,
        amount: 0,
        status: 'not_found',
        provider: 'test_mode',
        reason: 'unknown intent',
      }
    );
  };
  const answers = { tax: [taxRateSubject, taxRate], verify: [paymentVerifySubject, verify] } as const;
  const subscriptions: Record<'tax' | 'verify', Subscription | null> = {
    tax: respond(taxRateSubject, taxRate),
    verify: respond(paymentVerifySubject, verify),
  };
  await nc.flush();
  return {
    verified,
    verifyRequests,
    async answering(subject, on) {
      const current = subscriptions[subject];
      if (on && !current) subscriptions[subject] = respond(answers[subject][0], answers[subject][1]);
      if (!on && current) {
        current.unsubscribe();
        subscriptions[subject] = null;
      }
      // The server knows before the next request is made.
      await nc.flush();
    },
    async stop() {
      await nc.close();
    },
  };
}

export async function startHarness(env: RawOrdersEnv = {}, hooks: OrdersTestHooks = {}): Promise<Harness> {
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const service = await buildApp(
    loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent', ...env }),
    { relay: { sweepIntervalMs: 200, maxBackoffMs: 500 }, aiRateLimit: { max: 1000, windowMs: 60_000 }, ...hooks },
  );
  const url = await service.start();
  const payments = await startStandInPayments(nats.url);
  return {
    mongo,
    nats,
    service,
    url,
    payments,
    async stop() {
      await payments.stop();
      await service.stop();
      await Promise.all([nats.stop(), mongo.stop()]);
    },
  };
}

export function shirtOrder(overrides: Partial<OrderRequest> = {}): OrderRequest {
  const { size: _size, shape: _shape, edge: _edge, ...coin } = coinOrder();
  return {
    ...coin,
    itemType: 'shirt',
    description: 'Unit crest on the chest, call sign on the back',
    quantity: 12,
    sizeBreakdown: { M: 5, L: 4, XL: 3 },
    colors: ['Black'],
    finish: 'performance',
    features: [],
    ...overrides,
  };
}

/** A JSON POST; the body typed as the caller says the route answers (unknown unless told). */
export async function postJson<Body = unknown>(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Body, headers: res.headers };
}

/** Polls until `check` holds (or 20 s pass) and returns the last value. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  let value = await read();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}
