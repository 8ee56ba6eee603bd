// Shared pieces of the orders tests: the service on the embedded MongoDB and a real nats-server, and
// order bodies the way the storefront builds them.
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import type { OrderRequest } from '@shop/contracts';
import { buildApp, type OrdersTestHooks } from '../src/app.js';
import { loadConfig, type RawOrdersEnv } from '../src/config.js';

export interface Harness {
  mongo: StartedMongo;
  nats: StartedNats;
  service: Awaited<ReturnType<typeof buildApp>>;
  url: string;
  stop(): Promise<void>;
}

export async function startHarness(env: RawOrdersEnv = {}, hooks: OrdersTestHooks = {}): Promise<Harness> {
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const service = await buildApp(
    loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent', ...env }),
    { relay: { sweepIntervalMs: 200, maxBackoffMs: 500 }, aiRateLimit: { max: 1000, windowMs: 60_000 }, ...hooks },
  );
  const url = await service.start();
  return {
    mongo,
    nats,
    service,
    url,
    async stop() {
      await service.stop();
      await Promise.all([nats.stop(), mongo.stop()]);
    },
  };
}

export function coinOrder(overrides: Partial<OrderRequest> = {}): OrderRequest {
  return {
    customerName: 'Jane Doe',
    email: 'jane.doe@example.com',
    phone: '555-0100',
    itemType: 'coin',
    designMethod: 'describe',
    description: 'An eagle over crossed rifles with our unit motto',
    quantity: 50,
    size: '2',
    colors: ['Gold', 'Blue'],
    finish: 'antique_gold',
    shape: 'Round',
    edge: 'rope',
    features: ['Enamel Fill'],
    estimatedTotal: 1170,
    files: [],
    aiGenerated: false,
    subscribeEmail: true,
    subscribeSMS: false,
    shippingAddress: { line1: '1 Main St', line2: '', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    customerCategory: 'general',
    taxExempt: false,
    ...overrides,
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

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
