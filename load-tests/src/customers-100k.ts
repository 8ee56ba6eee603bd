// The back office's customer list at 100,000 customers and 300,000 orders, through the gateway (issue 16:
// "the list answers at p50 under 150 ms through the gateway on this machine"). Starts the embedded MongoDB
// and a real nats-server, builds the REAL customers and security services and the REAL gateway in this
// process, signs in as the admin through the gateway (so every request pays the session check), seeds the
// customers projection straight through its mongoose models' driver collections (per-order facts and the
// profiles with figures derived by the service's own deriveFigures/searchFieldsOf), then times repeated
// GET /api/customers requests and prints p50/p95 per case. Not a test: numbers depend on the machine.
//
//   npm run bench:customers -w load-tests -- [--customers 100000] [--orders-per-customer 3] [--reps 15] [--warmup 2] [--case default ...] [--profile x.cpuprofile]
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { buildApp as buildCustomers } from '@shop/customers-service/app';
import { loadConfig as loadCustomersConfig } from '@shop/customers-service/config';
import { deriveFigures, isVip } from '@shop/customers-service/customer-status';
import { searchFieldsOf } from '@shop/customers-service/projection';
import { buildApp as buildSecurity } from '@shop/security-service/app';
import { buildApp as buildGateway } from '@shop/gateway/app';
import { configFromEnv } from '@shop/gateway/config';
import { orderStatuses, type ItemType, type OrderStatus } from '@shop/contracts';
import { startMongo, startNats } from '@shop/test-support';
import { firstNames, lastNames, seededRandom } from './seeded.js';
import { timeCases } from './timed-cases.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    customers: { type: 'string', default: '100000' },
    'orders-per-customer': { type: 'string', default: '3' },
    reps: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '2' },
    case: { type: 'string', multiple: true },
    profile: { type: 'string' },
  },
  strict: true,
});
const customerCount = Number(values.customers);
const ordersPerCustomer = Number(values['orders-per-customer']);
const reps = Number(values.reps);
const warmup = Number(values.warmup);
for (const [name, v] of [
  ['customers', customerCount],
  ['orders-per-customer', ordersPerCustomer],
  ['reps', reps],
  ['warmup', warmup],
] as const) {
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be a whole number, got ${String(v)}`);
}

const statusWeights: Record<OrderStatus, number> = {
  pending: 3,
  pending_quote: 20,
  quote_sent: 8,
  awaiting_payment: 3,
  paid: 4,
  in_progress: 5,
  design_review: 3,
  production: 5,
  shipped: 6,
  completed: 35,
  cancelled: 8,
};
const statuses = orderStatuses.filter((s) => (statusWeights[s] ?? 0) > 0);
const itemTypes = ['coin', 'patch', 'shirt'] as const;
const prefixes = { coin: 'CC', patch: 'PT', shirt: 'TS' } as const;
const alphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const dayMs = 86_400_000;

// A seeded generator so two runs seed the same customers.
const { rand, pick, weighted } = seededRandom(0x9e3779b9);
const weightedStatus = () =>
  weighted(
    statuses,
    statuses.map((s) => statusWeights[s]),
  );

const now = Date.now();
const thresholds = loadCustomersConfig({}).status;

/** One customer and their orders, shaped as the projection stores them (events/projection.ts). */
function customer(i: number) {
  const first = pick(firstNames);
  const last = pick(lastNames);
  const email = `${first}.${last}${i}@example.${pick(['com', 'org', 'net'])}`.replace("'", '').toLowerCase();
  const name = `${first} ${last}`;
  const phone = `555-${String(1000 + (i % 9000))}`;
  // Between 1 and 2 * ordersPerCustomer - 1 orders: the mean stays ordersPerCustomer.
  const n = Math.max(1, ordersPerCustomer + Math.floor((rand() - 0.5) * 2 * (ordersPerCustomer - 1) + 0.5));
  const orders = [];
  for (let k = 0; k < n; k++) {
    const itemType: ItemType = pick(itemTypes);
    let code = '';
    for (let c = 0; c < 8; c++) code += alphabet[Math.floor(rand() * 32)];
    const submittedDate = new Date(now - Math.floor(rand() * 900 * dayMs));
    const quantity = itemType === 'shirt' ? 6 + Math.floor(rand() * 60) : 25 + Math.floor(rand() * 975);
    const total =
      Math.round(
        quantity *
          (itemType === 'coin' ? 4 + rand() * 8 : itemType === 'patch' ? 1.5 + rand() * 3 : 14 + rand() * 12) *
          100,
      ) / 100;
    const status = weightedStatus();
    orders.push({
      _id: randomBytes(12).toString('hex'),
      customerEmail: email,
      orderNumber: `${prefixes[itemType]}-${code}`,
      itemType,
      quantity,
      total,
      totalAt: submittedDate,
      status,
      statusAt: submittedDate,
      submittedDate,
      createdAt: submittedDate,
      updatedAt: submittedDate,
      __v: 0,
    });
  }
  const f = deriveFigures(
    orders.map((o) => ({
      itemType: o.itemType,
      quantity: o.quantity,
      total: o.total,
      status: o.status,
      submittedDate: o.submittedDate,
    })),
  );
  const newest = orders.reduce((a, b) => (b.submittedDate > a.submittedDate ? b : a));
  const profile = {
    email,
    customerName: name,
    phone,
    lastShippingAddress: {
      line1: `${1 + (i % 999)} Main St`,
      line2: '',
      city: pick(['Austin', 'Norfolk', 'San Diego', 'Tacoma']),
      state: pick(['TX', 'VA', 'CA', 'WA']),
      postalCode: '78701',
      country: 'US',
    },
    customerCategory: pick(['general', 'general', 'military', 'first_responder']),
    orderCount: f.totalOrders,
    firstOrderAt: f.firstOrderDate,
    lastOrderAt: f.lastOrderDate,
    lastOrderId: newest._id,
    lastOrderNumber: newest.orderNumber,
    spentOrders: f.spentOrders,
    totalSpent: f.totalSpent,
    averageOrderValue: f.averageOrderValue,
    preferredItemType: f.preferredItemType,
    completedOrders: f.completedOrders,
    avgDaysBetweenOrders: f.avgDaysBetweenOrders,
    vip: isVip(f, thresholds),
    ...searchFieldsOf(
      { customerName: name, email, phone },
      orders.map((o) => o.orderNumber),
    ),
    createdAt: f.firstOrderDate,
    updatedAt: f.lastOrderDate,
    __v: 0,
  };
  return { profile, orders };
}

interface Case {
  name: string;
  path: string;
}
const base = '/api/customers';
const cases: Case[] = [
  { name: 'default (page 1, all, last order desc)', path: base },
  { name: 'status vip', path: `${base}?status=vip` },
  { name: 'status active', path: `${base}?status=active` },
  { name: 'status inactive', path: `${base}?status=inactive` },
  { name: 'search "garcia"', path: `${base}?search=garcia` },
  { name: 'search phone "555-1234"', path: `${base}?search=555-1234` },
  { name: 'sort by total spent desc', path: `${base}?sortBy=totalSpent&sortDir=desc` },
  { name: 'sort by name asc', path: `${base}?sortBy=name&sortDir=asc` },
  { name: 'sort by total orders desc', path: `${base}?sortBy=totalOrders&sortDir=desc` },
  { name: 'page 2000 (deep)', path: `${base}?page=2000` },
  { name: 'vip sorted by total spent, page 20', path: `${base}?status=vip&sortBy=totalSpent&page=20` },
];
const chosen = values.case?.length ? cases.filter((c) => values.case!.some((n) => c.name.includes(n))) : cases;

async function main() {
  const t0 = performance.now();
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  // The services read their config from the environment, exactly as deployed; each listens on a free port.
  // One gateway signing key shared by the gateway and the services (a fresh one per run).
  Object.assign(process.env, {
    PORT: '0',
    MONGO_URL: mongo.uri,
    NATS_URL: nats.url,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    GATEWAY_SIGNING_KEY: randomBytes(32).toString('base64url'),
  });
  const customersService = await buildCustomers();
  const security = await buildSecurity();
  const [customersUrl, securityUrl] = await Promise.all([customersService.start(), security.start()]);
  const gatewayConfig = configFromEnv({
    PORT: '0',
    LOG_LEVEL: 'silent',
    NATS_URL: nats.url,
    CUSTOMERS_URL: customersUrl,
    SECURITY_URL: securityUrl,
    RATE_LIMIT_MAX: '1000000',
    GATEWAY_SIGNING_KEY: process.env.GATEWAY_SIGNING_KEY,
  });
  const gateway = await buildGateway(gatewayConfig, { logger: false });
  const gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });
  try {
    const { Customer, CustomerOrder } = customersService.ctx.models;
    await Promise.all([Customer.init(), CustomerOrder.init()]); // indexes exist before the seed, as in a running shop
    const batch = 2_000;
    let orderTotal = 0;
    for (let i = 0; i < customerCount; i += batch) {
      const profiles = [];
      const orders = [];
      for (let j = i; j < Math.min(customerCount, i + batch); j++) {
        const c = customer(j);
        profiles.push(c.profile);
        orders.push(...c.orders);
      }
      orderTotal += orders.length;
      await Customer.collection.insertMany(profiles, { ordered: false });
      // Order ids are strings (the orders service's ids), the driver's default typing expects ObjectIds.
      await (
        CustomerOrder.collection as unknown as { insertMany(d: object[], o: object): Promise<unknown> }
      ).insertMany(orders, { ordered: false });
    }
    const [seededCustomers, seededOrders] = await Promise.all([
      Customer.estimatedDocumentCount(),
      CustomerOrder.estimatedDocumentCount(),
    ]);
    console.log(
      `seeded ${seededCustomers} customers and ${seededOrders} orders (${orderTotal} generated) in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    // Sign in through the gateway, as the back office does: every measured request carries the session cookie.
    const login = await fetch(`${gatewayUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: gatewayUrl },
      body: JSON.stringify({ email: 'admin@shop.local', password: 'Shop-Local-Dev-2026!' }),
    });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');

    const rows = await timeCases(chosen, {
      baseUrl: gatewayUrl,
      headers: () => ({ cookie }),
      warmup,
      reps,
      profileFile: values.profile,
      describe: (text) => String((JSON.parse(text) as { total?: number }).total),
    });
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `\n${seededCustomers} customers, ${seededOrders} orders, through the gateway with an admin session; ${reps} timed requests per case after ${warmup} warm-up, one at a time; ${os.cpus().length} cores, load average ${load}\n`,
    );
    console.log(`| case | p50 ms | p95 ms | min ms | max ms | CPU ms/request | matched | response bytes |`);
    console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
    for (const r of rows)
      console.log(
        `| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.min.toFixed(1)} | ${r.max.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.matched} | ${r.bytes} |`,
      );
  } finally {
    await gateway.close();
    await Promise.all([customersService.stop(), security.stop()]);
    await Promise.all([nats.stop(), mongo.stop()]);
  }
}

await main();
