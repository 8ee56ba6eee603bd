// The security dashboard and logs at 1,000,000 stored request log entries (issue 17: "the dashboard at
// 1,000,000 stored log entries answers at p50 under 200 ms"). Starts the embedded MongoDB and a real
// nats-server, builds the REAL security service in this process, seeds the log entries straight into
// its database (driver insertMany in batches, in time order) together with the hourly counters the
// service's own consumer code computes for them (`hourlyIncrements`, the counters of the last 48 hours:
// older ones expire), then signs in through a real gateway (built in this process, request log off so
// the bench's own calls do not move the counters) and times repeated requests to the dashboard and the
// logs tab through it, as the back office makes them, and prints p50/p95 per case. Not a test: numbers
// depend on the machine and on what else runs.
//
//   npm run bench:security -w load-tests -- [--logs 1000000] [--days 30] [--reps 20] [--warmup 3] [--case dashboard ...] [--profile x.cpuprofile]
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { type RequestLogEntry, type RequestSignal, type RiskLevel } from '@shop/contracts';
import { buildApp } from '@shop/security-service/app';
import { hourlyIncrements } from '@shop/security-service/hourly-counters';
import { startMongo, startNats } from '@shop/test-support';
import { seededRandom } from './seeded.js';
import { timeCases } from './timed-cases.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    logs: { type: 'string', default: '1000000' },
    days: { type: 'string', default: '30' },
    reps: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    case: { type: 'string', multiple: true },
    profile: { type: 'string' },
  },
  strict: true,
});
const logCount = Number(values.logs);
const days = Number(values.days);
const reps = Number(values.reps);
const warmup = Number(values.warmup);
for (const [name, v] of [
  ['logs', logCount],
  ['days', days],
  ['reps', reps],
  ['warmup', warmup],
] as const) {
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be a whole number, got ${String(v)}`);
}
if (days < 1) throw new Error('--days must be at least 1');

// A seeded generator so two runs seed the same entries.
const { rand, pick } = seededRandom(0x2545f491);

// 5,000 visitors (IPv4 and some IPv6) and 40 scanners that send most of the risky traffic.
const visitors = Array.from({ length: 5_000 }, (_, i) =>
  i % 10 === 9 ? `2001:db8:${(i >> 8).toString(16)}::${(i & 255).toString(16)}` : `198.51.${(i >> 8) & 255}.${i & 255}`,
);
const scanners = Array.from({ length: 40 }, (_, i) => `203.0.113.${10 + i}`);
const pages = [
  '/',
  '/coins',
  '/patches',
  '/shirts',
  '/gallery',
  '/faq',
  '/contact',
  '/orders/track',
  '/quote',
  '/api/marketing/testimonials',
  '/api/marketing/content',
  '/api/orders/track',
  '/api/customers/lookup',
  '/main.js',
  '/styles.css',
];
const agents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 Version/18.1 Safari/605.1.15',
];
const probes: Array<{ path: string; status: number; risk: RiskLevel; signals: RequestSignal[] }> = [
  { path: '/.env', status: 404, risk: 'high', signals: ['traversal', 'not_found'] },
  { path: '/api/orders?id=1%27%20OR%20%271%27=%271', status: 400, risk: 'high', signals: ['injection'] },
  { path: '/api/security/dashboard', status: 401, risk: 'high', signals: ['admin_refused'] },
  { path: '/api/auth/login', status: 401, risk: 'medium', signals: ['failed_sign_in'] },
  { path: '/api/customers/verify', status: 400, risk: 'medium', signals: ['code_guess'] },
  { path: '/wp-login.php', status: 404, risk: 'medium', signals: ['not_found_burst', 'not_found'] },
  { path: '/api/orders/track', status: 429, risk: 'medium', signals: ['rate_limited'] },
];

const now = Date.now();
const spanMs = days * 86_400_000;
const start = now - spanMs;
/** Entry i of the seed, in time order (so a batch touches one or two hours of counters). */
function entry(i: number): RequestLogEntry {
  const timestamp = new Date(start + Math.floor(((i + rand()) * spanMs) / logCount)).toISOString();
  if (rand() < 0.04) {
    const p = pick(probes);
    return {
      timestamp,
      ip: pick(scanners),
      method: p.path === '/api/auth/login' || p.path === '/api/customers/verify' ? 'POST' : 'GET',
      path: p.path,
      userAgent: 'sqlmap/1.8',
      statusCode: p.status,
      responseTime: 1 + rand() * 5,
      riskLevel: p.risk,
      signals: p.signals,
      requestId: `req-${i}`,
    };
  }
  const r = rand();
  const statusCode = r < 0.93 ? 200 : r < 0.97 ? 304 : r < 0.99 ? 404 : 500;
  return {
    timestamp,
    ip: pick(visitors),
    method: 'GET',
    path: pick(pages),
    userAgent: pick(agents),
    statusCode,
    responseTime: Math.round((2 + rand() * 60) * 100) / 100,
    riskLevel: 'low',
    signals: statusCode === 404 ? ['not_found'] : [],
    requestId: `req-${i}`,
  };
}

interface Case {
  name: string;
  path: string;
}
const cases: Case[] = [
  { name: 'dashboard', path: '/api/security/dashboard' },
  { name: 'logs (newest 100)', path: '/api/security/logs' },
  { name: 'logs riskLevel=high', path: '/api/security/logs?riskLevel=high' },
  { name: 'logs riskLevel=medium', path: '/api/security/logs?riskLevel=medium' },
  { name: 'logs ip=<visitor>', path: `/api/security/logs?ip=${visitors[42]}` },
  { name: 'logs ip=<scanner> riskLevel=high', path: `/api/security/logs?ip=${scanners[3]}&riskLevel=high` },
  { name: 'logs ip prefix 203.0.113.', path: '/api/security/logs?ip=203.0.113.' },
];
const chosen = values.case?.length ? cases.filter((c) => values.case!.some((n) => c.name.includes(n))) : cases;

const gatewayDir = fileURLToPath(new URL('../../gateway/', import.meta.url));
const admin = { email: 'bench@shop.test', password: 'Bench-Brass-Coin-Vault-42!' };

async function main() {
  const t0 = performance.now();
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  // buildApp() reads its config from the environment, exactly as the deployed service does; one gateway
  // signing key shared by the gateway and the service (a fresh one per run).
  Object.assign(process.env, {
    PORT: '0',
    MONGO_URL: mongo.uri,
    NATS_URL: nats.url,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    GATEWAY_SIGNING_KEY: randomBytes(32).toString('base64url'),
  });
  const service = await buildApp();
  const securityUrl = await service.start();
  // The gateway's sources, by path (the gateway is an application, not a library).
  const { configFromEnv } = (await import(`${gatewayDir}src/config.ts`)) as {
    configFromEnv: (env: Record<string, string | undefined>) => unknown;
  };
  const { buildApp: buildGateway } = (await import(`${gatewayDir}src/app.ts`)) as {
    buildApp: (
      config: unknown,
      options: object,
    ) => Promise<{ listen(o: object): Promise<string>; close(): Promise<void> }>;
  };
  const gateway = await buildGateway(
    configFromEnv({
      PORT: '0',
      LOG_LEVEL: 'silent',
      NATS_URL: nats.url,
      SECURITY_URL: securityUrl,
      RATE_LIMIT_MAX: '1000000',
      GATEWAY_SIGNING_KEY: process.env.GATEWAY_SIGNING_KEY,
    }),
    { logger: false, requestLog: false },
  );
  const url = await gateway.listen({ host: '127.0.0.1', port: 0 });
  try {
    const { RequestLog, HourlyStats, AddressHour } = service.ctx.models;
    // The schemas' indexes exist before the seed, as in a running shop.
    await Promise.all([RequestLog.init(), HourlyStats.init(), AddressHour.init()]);
    const countedSince = now - 48 * 3_600_000;
    const batch = 5_000;
    let last24h = 0;
    for (let i = 0; i < logCount; i += batch) {
      const entries: RequestLogEntry[] = [];
      for (let j = i; j < Math.min(logCount, i + batch); j++) entries.push(entry(j));
      const docs = entries.map((e, k) => ({
        _id: `seed-${i + k}`,
        ...e,
        timestamp: new Date(e.timestamp),
        gateway: 'seed:1',
        userAgent: e.userAgent ?? '',
      }));
      // Log ids are strings (see the request log model), the driver's default typing expects ObjectIds.
      await (RequestLog.collection as unknown as { insertMany(d: object[], o: object): Promise<unknown> }).insertMany(
        docs,
        { ordered: false },
      );
      const recent = entries.filter((e) => Date.parse(e.timestamp) >= countedSince);
      last24h += entries.filter(
        (e) => Date.parse(e.timestamp) >= Math.floor(now / 3_600_000) * 3_600_000 - 23 * 3_600_000,
      ).length;
      if (recent.length) {
        const { hourly, addresses } = hourlyIncrements(recent, 0, new Date(now));
        await HourlyStats.bulkWrite(hourly, { ordered: false });
        await AddressHour.bulkWrite(addresses, { ordered: false });
      }
    }
    const [seeded, addressHours] = await Promise.all([
      RequestLog.estimatedDocumentCount(),
      AddressHour.estimatedDocumentCount(),
    ]);
    console.log(
      `seeded ${seeded} log entries over ${days} days (${addressHours} address-hour counters) in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    // Signed in through the gateway, as the back office is: every measured request carries the session cookie.
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify(admin),
    });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
    const headers = {
      cookie: login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
    };
    const rows = await timeCases(chosen, {
      baseUrl: url,
      headers: () => headers,
      warmup,
      reps,
      profileFile: values.profile,
      describe: (text) => {
        const body = JSON.parse(text) as { stats?: { totalRequests24h: number }; logs?: unknown[] };
        if (!body.stats) return `${body.logs?.length ?? 0} rows`;
        // The counters must say what the seed put in the last 24 hours, or the timing means nothing.
        if (body.stats.totalRequests24h !== last24h)
          throw new Error(`dashboard counts ${body.stats.totalRequests24h} requests in 24 h, the seed put ${last24h}`);
        return `${body.stats.totalRequests24h} in 24 h`;
      },
    });
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `\n${logCount} log entries over ${days} days, ${reps} timed requests per case after ${warmup} warm-up, one at a time through the gateway; ${os.cpus().length} cores, load average ${load}; Node ${process.version}\n`,
    );
    console.log(`| case | p50 ms | p95 ms | min ms | max ms | CPU ms/request | answer | response bytes |`);
    console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
    for (const r of rows)
      console.log(
        `| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.min.toFixed(1)} | ${r.max.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.matched} | ${r.bytes} |`,
      );
  } finally {
    await gateway.close();
    await service.stop();
    await Promise.all([nats.stop(), mongo.stop()]);
  }
}

await main();
