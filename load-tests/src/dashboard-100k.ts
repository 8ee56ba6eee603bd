// The back-office dashboard at 100,000 orders (issue 5: "paging and filtering happen on the server so the
// dashboard stays fast with 100,000 orders"). Starts the embedded MongoDB and a real nats-server, builds the
// REAL orders service in this process, seeds realistic orders straight through its mongoose model's driver
// collection (insertMany in batches), then times repeated HTTP requests to the admin list and analytics
// routes and prints p50/p95 per case. Not a test: numbers depend on the machine and on what else runs.
//
//   npm run bench:dashboard -w load-tests -- [--orders 100000] [--reps 15] [--warmup 2] [--case default ...] [--profile x.cpuprofile]
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { buildApp } from '@shop/orders-service/app';
import { adminHeaders } from '@shop/service-kit/testing';
import { startMongo, startNats } from '@shop/test-support';
import { firstNames, lastNames, seededRandom } from './seeded.js';
import { timeCases } from './timed-cases.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    orders: { type: 'string', default: '100000' },
    reps: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '2' },
    case: { type: 'string', multiple: true },
    profile: { type: 'string' },
  },
  strict: true,
});
const orderCount = Number(values.orders);
const reps = Number(values.reps);
const warmup = Number(values.warmup);
for (const [name, v] of [
  ['orders', orderCount],
  ['reps', reps],
  ['warmup', warmup],
] as const) {
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be a whole number, got ${String(v)}`);
}

const statuses = [
  'pending',
  'pending_quote',
  'quote_sent',
  'awaiting_payment',
  'paid',
  'in_progress',
  'design_review',
  'production',
  'shipped',
  'completed',
  'cancelled',
] as const;
// Most orders end completed or waiting for a quote; a long tail in between (a live shop's shape).
const statusWeights = [3, 20, 8, 3, 4, 5, 3, 5, 6, 35, 8];
const itemTypes = ['coin', 'patch', 'shirt'] as const;
const prefixes = { coin: 'CC', patch: 'PT', shirt: 'TS' } as const;
const units = [
  '1st Battalion',
  'VFW Post 112',
  'Engine 7',
  'Troop 42',
  'Alpha Company',
  'Station 19',
  'Harbor Patrol',
  'Rangers',
];
const alphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const dayMs = 86_400_000;

// A seeded generator so two runs seed the same orders.
const { rand, pick, weighted } = seededRandom(0x9e3779b9);

const now = Date.now();
function order(i: number) {
  const itemType = weighted(itemTypes, [55, 30, 15]);
  const status = weighted(statuses, statusWeights);
  const first = pick(firstNames);
  const last = pick(lastNames);
  const email = `${first}.${last}${i}@example.${pick(['com', 'org', 'net'])}`.replace("'", '');
  const createdAt = new Date(now - Math.floor(rand() * 730 * dayMs));
  const updatedAt = new Date(Math.min(now, createdAt.getTime() + Math.floor(rand() * 30 * dayMs)));
  const quantity = itemType === 'shirt' ? 6 + Math.floor(rand() * 60) : 25 + Math.floor(rand() * 975);
  const estimatedTotal =
    Math.round(
      quantity *
        (itemType === 'coin' ? 4 + rand() * 8 : itemType === 'patch' ? 1.5 + rand() * 3 : 14 + rand() * 12) *
        100,
    ) / 100;
  let code = '';
  for (let k = 0; k < 8; k++) code += alphabet[Math.floor(rand() * 32)];
  const quoted = !['pending', 'pending_quote'].includes(status);
  return {
    _id: randomBytes(12).toString('hex'),
    orderNumber: `${prefixes[itemType]}-${code}`,
    customerName: `${first} ${last}`,
    email,
    emailKey: email.toLowerCase(),
    phone: `555-${String(1000 + (i % 9000))}`,
    itemType,
    designMethod: pick(['upload', 'describe', 'team', 'ai']),
    description: `${pick(units)} ${itemType} with our crest, motto and ${pick(['gold', 'silver', 'black'])} accents`,
    quantity,
    ...(itemType === 'shirt'
      ? { sizeBreakdown: { M: Math.ceil(quantity / 2), L: Math.floor(quantity / 2) } }
      : { size: pick(['1.5', '1.75', '2', '2.5']), shape: 'Round', edge: 'rope' }),
    colors: [pick(['Gold', 'Silver', 'Black', 'Red']), pick(['Blue', 'White', 'Green'])],
    finish: pick(['antique_gold', 'polished_silver', 'performance', 'embroidered']),
    features: rand() < 0.3 ? ['Enamel Fill'] : [],
    files: [],
    aiGenerated: false,
    subscribeEmail: rand() < 0.5,
    subscribeSMS: false,
    shippingAddress: {
      line1: `${1 + (i % 999)} Main St`,
      line2: '',
      city: pick(['Austin', 'Norfolk', 'San Diego', 'Tacoma']),
      state: pick(['TX', 'VA', 'CA', 'WA']),
      postalCode: '78701',
      country: 'US',
    },
    customerCategory: pick(['general', 'general', 'military', 'first_responder']),
    taxExempt: false,
    customizer: false,
    estimatedTotal,
    status,
    statusHistory: [
      { status: 'pending_quote', date: createdAt, changedBy: 'customer', note: 'Quote request submitted' },
      ...(status !== 'pending_quote' ? [{ status, date: updatedAt, changedBy: 'admin:ops@example.com' }] : []),
    ],
    quote: quoted
      ? {
          amount: estimatedTotal,
          taxRate: 0.0825,
          taxAmount: Math.round(estimatedTotal * 8.25) / 100,
          finalAmount: Math.round(estimatedTotal * 108.25) / 100,
          sentAt: updatedAt,
          expiresAt: new Date(updatedAt.getTime() + 30 * dayMs),
        }
      : null,
    discount: null,
    tracking:
      status === 'shipped' || status === 'completed' ? { carrier: 'UPS', trackingNumber: `1Z${code}${i}` } : null,
    emailHistory: [],
    createdAt,
    updatedAt,
    __v: 0,
  };
}

interface Case {
  name: string;
  path: string;
}
const base = '/api/orders';
const cases: Case[] = [
  { name: 'default (page 1, all, date desc)', path: base },
  { name: 'status tab (completed)', path: `${base}?status=completed` },
  { name: 'status tab (design_review)', path: `${base}?status=design_review` },
  { name: 'sort by total desc', path: `${base}?sortBy=total&sortDir=desc` },
  { name: 'sort by customer name asc', path: `${base}?sortBy=customerName&sortDir=asc` },
  { name: 'search "garcia"', path: `${base}?search=garcia` },
  {
    name: 'item type + date range',
    path: `${base}?itemType=patch&startDate=${new Date(now - 200 * dayMs).toISOString().slice(0, 10)}&endDate=${new Date(now - 20 * dayMs).toISOString().slice(0, 10)}`,
  },
  { name: 'page 500', path: `${base}?page=500` },
  { name: 'analytics 30d', path: '/api/orders/analytics?period=30d' },
  { name: 'analytics total', path: '/api/orders/analytics?period=total' },
];
const chosen = values.case?.length ? cases.filter((c) => values.case!.some((n) => c.name.includes(n))) : cases;

async function main() {
  const t0 = performance.now();
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  // buildApp() reads its config from the environment, exactly as the deployed service does.
  Object.assign(process.env, {
    PORT: '0',
    MONGO_URL: mongo.uri,
    NATS_URL: nats.url,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
  });
  const service = await buildApp();
  const url = await service.start();
  try {
    const { Order } = service.ctx.models;
    await Order.init(); // the schema's indexes exist before the seed, as in a running shop
    const batch = 2_000;
    for (let i = 0; i < orderCount; i += batch) {
      const docs = [];
      for (let j = i; j < Math.min(orderCount, i + batch); j++) docs.push(order(j));
      // Order ids are strings (see the orders model), the driver's default typing expects ObjectIds.
      await (Order.collection as unknown as { insertMany(d: object[], o: object): Promise<unknown> }).insertMany(docs, {
        ordered: false,
      });
    }
    const seeded = await Order.estimatedDocumentCount();
    console.log(
      `seeded ${seeded} orders in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    const rows = await timeCases(chosen, {
      baseUrl: url,
      headers: () => adminHeaders('bench@example.com'),
      warmup,
      reps,
      profileFile: values.profile,
      describe: (text) => {
        const body = JSON.parse(text) as { total?: number; analytics?: { totalOrders: number } };
        return String(body.total ?? body.analytics?.totalOrders);
      },
    });
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `\n${orderCount} orders, ${reps} timed requests per case after ${warmup} warm-up, one at a time; ${os.cpus().length} cores, load average ${load}\n`,
    );
    console.log(`| case | p50 ms | p95 ms | min ms | max ms | CPU ms/request | matched | response bytes |`);
    console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
    for (const r of rows)
      console.log(
        `| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.min.toFixed(1)} | ${r.max.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.matched} | ${r.bytes} |`,
      );
  } finally {
    await service.stop();
    await Promise.all([nats.stop(), mongo.stop()]);
  }
}

await main();
