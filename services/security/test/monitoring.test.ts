// Security management against the embedded MongoDB and a real nats-server: request log batches from
// "gateways" stored and counted (logs, filters, hourly dashboard), the alert rules with their windows
// and deduplication, resolving, bans with validation, their ban.changed events and the active-bans
// request/reply, the admin's own address refused, and the log retention index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import {
  activeBansReplySchema,
  activeBansSubject,
  createEvent,
  parseEvent,
  requestLogColumnsOf,
  riskLevelOfSignals,
  rpcReplySchema,
  securityAlertsResponseSchema,
  securityDashboardResponseSchema,
  securityLogsResponseSchema,
  signalMaskOf,
  type BannedIp,
  type ErrorEnvelope,
  type RequestLogEntry,
} from '@shop/contracts';
import {
  eventually,
  startMongo,
  startNats,
  streamEventsReader,
  type StartedMongo,
  type StartedNats,
} from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { requestsLoggedConsumer } from '../src/events/gateway-requests-logged.js';
import { retentionIndexName } from '../src/models/request-log.js';
import { adminHeaders, gatewayHeaders } from '@shop/service-kit/testing';

const ADMIN = { email: 'watch@shop.test', password: 'Brass-Coin-Vault-42!' };
/** The gateway's signed identity of the admin, calling from 127.0.0.2. */
const asAdmin = adminHeaders(ADMIN.email, { ip: '127.0.0.2' });

let mongo: StartedMongo;
let nats: StartedNats;
let nc: NatsConnection;
let service: Awaited<ReturnType<typeof buildApp>>;

const entry = (over: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  timestamp: new Date().toISOString(),
  ip: '198.51.100.10',
  method: 'GET',
  path: '/api/content',
  userAgent: 'test-agent',
  statusCode: 200,
  responseTime: 3.5,
  riskLevel: 'low',
  signals: [],
  ...over,
});

/** Publishes entries as a gateway does: one batch, as columns (the risk level travels as its signals). */
async function sendBatch(entries: RequestLogEntry[], dropped = 0, gateway = 'gw-test:1') {
  for (const e of entries)
    if (riskLevelOfSignals(signalMaskOf(e.signals)) !== e.riskLevel)
      throw new Error(`test entry ${JSON.stringify(e)}: risk level ${e.riskLevel} does not follow from its signals`);
  const event = createEvent('gateway.requests_logged', 'gateway', {
    gateway,
    log: requestLogColumnsOf(entries),
    dropped,
  });
  await jetstream(nc).publish(event.type, JSON.stringify(event), { msgID: event.id });
  return event;
}

const get = async (url: string) => service.app.inject({ method: 'GET', url, headers: asAdmin });
const logsFor = async (query: string) =>
  securityLogsResponseSchema.parse((await get(`/api/security/logs${query}`)).json()).logs;
const alerts = async (resolved = 'all') =>
  securityAlertsResponseSchema.parse((await get(`/api/security/alerts?resolved=${resolved}`)).json()).alerts;
const dashboard = async () =>
  securityDashboardResponseSchema.parse((await get('/api/security/dashboard')).json()).stats;

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  service = await buildApp(
    loadConfig({
      PORT: '0',
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SECURITY_LOG_RETENTION_DAYS: '7',
    }),
    { relay: { sweepIntervalMs: 200 } },
  );
  await service.start();
  nc = await connect({ servers: nats.url });
}, 60_000);

afterAll(async () => {
  await nc?.close();
  await service?.stop();
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

describe('request logs', () => {
  it('stores each batch once, newest first, with the risk and address filters and the limit of 100', async () => {
    const t = Date.now();
    const batch = [
      entry({ timestamp: new Date(t - 3000).toISOString(), ip: '198.51.100.1', path: '/' }),
      entry({
        timestamp: new Date(t - 2000).toISOString(),
        ip: '198.51.100.2',
        statusCode: 404,
        riskLevel: 'medium',
        signals: ['not_found', 'not_found_burst'],
        path: '/nope',
      }),
      entry({
        timestamp: new Date(t - 1000).toISOString(),
        ip: '2001:db8::7',
        statusCode: 400,
        riskLevel: 'high',
        signals: ['injection'],
        path: "/api/orders?id=1'+OR+1=1",
      }),
    ];
    const event = await sendBatch(batch);
    // The same event delivered again (a redelivery, a gateway retry) stores nothing twice.
    await jetstream(nc).publish(event.type, JSON.stringify(event));
    const logs = await eventually(
      () => logsFor('?limit=100'),
      (l) => l.length >= 3,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await logsFor('')).toHaveLength(3);
    expect(logs.map((l) => l.ip)).toEqual(['2001:db8::7', '198.51.100.2', '198.51.100.1']);
    expect(logs[0]).toMatchObject({
      method: 'GET',
      statusCode: 400,
      riskLevel: 'high',
      userAgent: 'test-agent',
      responseTime: 3.5,
      signals: ['injection'],
    });
    expect((await logsFor('?riskLevel=medium')).map((l) => l.ip)).toEqual(['198.51.100.2']);
    expect((await logsFor('?riskLevel=all')).length).toBe(3);
    // Any spelling of an address finds it; a partial address is a prefix search.
    expect((await logsFor(`?ip=${encodeURIComponent('2001:DB8:0:0::7')}`)).map((l) => l.path)).toEqual([
      "/api/orders?id=1'+OR+1=1",
    ]);
    expect((await logsFor('?ip=198.51.100.')).length).toBe(2);
    expect((await logsFor('?limit=1')).length).toBe(1);
  });

  it("refuses bad queries with a clear 400 and answers 401 without the gateway's admin", async () => {
    const bad = await get('/api/security/logs?riskLevel=severe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorEnvelope>().error).toMatch(/riskLevel must be all, low, medium or high/);
    expect((await get('/api/security/logs?limit=0')).statusCode).toBe(400);
    for (const url of [
      '/api/security/logs',
      '/api/security/dashboard',
      '/api/security/banned-ips',
      '/api/security/alerts',
    ]) {
      expect((await service.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('keeps the logs for the configured retention (TTL index, changed in place)', async () => {
    const indexes = (await service.ctx.models.RequestLog.collection.indexes()) as Array<{
      name?: string;
      expireAfterSeconds?: number;
    }>;
    expect(indexes.find((i) => i.name === retentionIndexName)?.expireAfterSeconds).toBe(7 * 86_400);
    expect(loadConfig({ NODE_ENV: 'test' }).logRetentionDays).toBe(30);
    expect(() => loadConfig({ NODE_ENV: 'test', SECURITY_LOG_RETENTION_DAYS: 'forever' })).toThrow(
      /SECURITY_LOG_RETENTION_DAYS must be a whole number/,
    );
    const { ensureLogRetention } = await import('../src/models/request-log.js');
    await ensureLogRetention(service.ctx.models.RequestLog, 30 * 86_400);
    const after = (await service.ctx.models.RequestLog.collection.indexes()) as Array<{
      name?: string;
      expireAfterSeconds?: number;
    }>;
    expect(after.find((i) => i.name === retentionIndexName)?.expireAfterSeconds).toBe(30 * 86_400);
  });
});

describe('dashboard', () => {
  it('counts the last 24 hours by hour from the counters: totals, suspicious, errors, risky addresses', async () => {
    const before = await dashboard();
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await sendBatch([
      entry({ ip: '203.0.113.50', riskLevel: 'high', signals: ['traversal'], statusCode: 404, timestamp: hourAgo }),
      entry({ ip: '203.0.113.50', riskLevel: 'high', signals: ['traversal'], statusCode: 404 }),
      entry({ ip: '203.0.113.51', riskLevel: 'medium', signals: ['rate_limited'], statusCode: 429 }),
      entry({ ip: '203.0.113.52' }),
      // Older than 24 hours: not on the dashboard.
      entry({
        ip: '203.0.113.53',
        riskLevel: 'high',
        signals: ['banned'],
        timestamp: new Date(Date.now() - 30 * 3_600_000).toISOString(),
      }),
    ]);
    const stats = await eventually(dashboard, (s) => s.totalRequests24h === before.totalRequests24h + 4);
    expect(stats.suspiciousActivity24h).toBe(before.suspiciousActivity24h + 3);
    expect(stats.requestTrends).toHaveLength(24);
    const last = stats.requestTrends[23];
    const previous = stats.requestTrends[22];
    expect(new Date(last.hour).getTime()).toBe(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    expect(last.errors).toBeGreaterThanOrEqual(2);
    expect(previous.total).toBeGreaterThanOrEqual(1);
    expect(stats.topRiskyIPs[0]).toEqual({ ip: '203.0.113.50', count: 2, highRisk: 2 });
    expect(stats.topRiskyIPs.length).toBeLessThanOrEqual(5);
    expect(stats.topRiskyIPs.map((r) => r.ip)).not.toContain('203.0.113.52');
    expect(stats.topRiskyIPs.map((r) => r.ip)).not.toContain('203.0.113.53');
  });
});

describe('alert rules', () => {
  it('raises one sign-in brute force alert per address at 5 failures, counts repeats, and publishes alert.raised', async () => {
    const reader = await streamEventsReader(nc, {
      stream: 'SECURITY',
      subject: 'alert.raised',
      durable: 'test-alerts',
    });
    const fail = (ip: string) =>
      entry({
        ip,
        method: 'POST',
        path: '/api/auth/login',
        statusCode: 401,
        riskLevel: 'medium',
        signals: ['failed_sign_in'],
      });
    await sendBatch([fail('192.0.2.7'), fail('192.0.2.7'), fail('192.0.2.7'), fail('192.0.2.7')]);
    await eventually(
      () => logsFor('?ip=192.0.2.7'),
      (l) => l.length === 4,
    );
    expect((await alerts()).filter((a) => a.type === 'brute_force')).toHaveLength(0);
    await sendBatch([fail('192.0.2.7'), fail('192.0.2.8')]);
    const raised = await eventually(
      async () => (await alerts('false')).filter((a) => a.type === 'brute_force'),
      (a) => a.length === 1,
    );
    expect(raised[0]).toMatchObject({ ip: '192.0.2.7', severity: 'high', count: 5, resolved: false, resolvedBy: null });
    expect(raised[0].description).toMatch(/5 failed admin sign-ins from 192\.0\.2\.7/);
    await sendBatch([fail('192.0.2.7'), fail('192.0.2.7'), fail('192.0.2.7')]);
    const repeated = await eventually(
      async () => (await alerts('false')).find((a) => a.type === 'brute_force'),
      (a) => a?.count === 8,
    );
    expect(repeated?.id).toBe(raised[0].id);
    const events = await reader((all) => all.some((e) => e.type === 'alert.raised'));
    const mine = events.map((e) => parseEvent('alert.raised', e)).filter((e) => e.data.type === 'brute_force');
    expect(mine).toHaveLength(1);
    expect(mine[0].data).toMatchObject({ alertId: raised[0].id, severity: 'high', ip: '192.0.2.7' });
  });

  it('handles flushes waiting together in one transaction: all stored and counted, alerts flush by flush', async () => {
    const fail = () =>
      entry({
        ip: '192.0.2.9',
        method: 'POST',
        path: '/api/auth/login',
        statusCode: 401,
        riskLevel: 'medium',
        signals: ['failed_sign_in'],
      });
    const flush = (n: number) =>
      createEvent('gateway.requests_logged', 'gateway', {
        gateway: 'gw-test:2',
        log: requestLogColumnsOf(Array.from({ length: n }, fail)),
        dropped: 0,
      });
    const consumer = requestsLoggedConsumer(service.ctx.models, () => new Date());
    await service.ctx.withOutbox((session, outbox) =>
      consumer.handleBatch(
        [flush(5), flush(2)],
        { session, outbox, log: service.ctx.log, afterCommit: () => {} },
        [1, 1],
      ),
    );
    expect(await logsFor('?ip=192.0.2.9')).toHaveLength(7);
    const counted = await service.ctx.models.AddressHour.find({ ip: '192.0.2.9' }).lean();
    expect(counted.map((c) => [c.count, c.suspicious, c.highRisk])).toEqual([[7, 7, 0]]);
    // The first flush reaches the threshold and opens the alert with its 5; the second counts as a repeat.
    const raised = (await alerts('false')).filter((a) => a.ip === '192.0.2.9');
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ type: 'brute_force', count: 7 });
    expect(raised[0].description).toMatch(/5 failed admin sign-ins from 192\.0\.2\.9/);
  });

  it('raises each documented rule at its threshold', async () => {
    const many = (n: number, over: Partial<RequestLogEntry>) => Array.from({ length: n }, () => entry(over));
    await sendBatch([
      ...many(5, {
        ip: '192.0.2.20',
        method: 'POST',
        path: '/api/customers/verify',
        statusCode: 400,
        riskLevel: 'medium',
        signals: ['code_guess'],
      }),
      ...many(20, {
        ip: '192.0.2.21',
        path: '/wp-login.php',
        statusCode: 404,
        riskLevel: 'low',
        signals: ['not_found'],
      }),
      ...many(1, {
        ip: '192.0.2.22',
        path: '/api/orders?q=<script>',
        statusCode: 400,
        riskLevel: 'high',
        signals: ['injection'],
      }),
      ...many(20, { ip: '192.0.2.23', statusCode: 429, riskLevel: 'medium', signals: ['rate_limited'] }),
      ...many(3, { ip: '192.0.2.24', statusCode: 403, riskLevel: 'high', signals: ['banned'] }),
      // Below thresholds: nothing.
      ...many(19, { ip: '192.0.2.25', statusCode: 404, riskLevel: 'low', signals: ['not_found'] }),
    ]);
    const open = await eventually(
      () => alerts('false'),
      (a) => a.filter((x) => x.ip.startsWith('192.0.2.2')).length >= 5,
    );
    const byIp = Object.fromEntries(open.filter((a) => a.ip.startsWith('192.0.2.2')).map((a) => [a.ip, a]));
    expect(byIp['192.0.2.20']).toMatchObject({ type: 'code_guessing', severity: 'high' });
    expect(byIp['192.0.2.21']).toMatchObject({ type: 'not_found_burst', severity: 'medium' });
    expect(byIp['192.0.2.22']).toMatchObject({ type: 'injection_attempt', severity: 'high' });
    expect(byIp['192.0.2.23']).toMatchObject({ type: 'rate_limit_storm', severity: 'medium' });
    expect(byIp['192.0.2.24']).toMatchObject({ type: 'banned_ip_retry', severity: 'low' });
    expect(byIp['192.0.2.25']).toBeUndefined();
  });

  it('reports log entries a gateway dropped as an alert and on the dashboard', async () => {
    await sendBatch([], 42, 'gw-lossy:7');
    const alert = await eventually(
      async () => (await alerts('false')).find((a) => a.type === 'request_logs_dropped'),
      Boolean,
    );
    expect(alert?.description).toMatch(/gateway gw-lossy:7 dropped 42 request log entries/);
    expect((await dashboard()).droppedLogs24h).toBeGreaterThanOrEqual(42);
  });

  it("resolves an alert with the session's admin, filters by state, and refuses a second resolve or an unknown id", async () => {
    const target = (await alerts('false')).find((a) => a.type === 'injection_attempt')!;
    const res = await service.app.inject({
      method: 'PATCH',
      url: `/api/security/alerts/${target.id}/resolve`,
      headers: asAdmin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, alert: { resolved: true, resolvedBy: ADMIN.email } });
    expect((await alerts('true')).map((a) => a.id)).toContain(target.id);
    expect((await alerts('false')).map((a) => a.id)).not.toContain(target.id);
    expect((await alerts('all')).map((a) => a.id)).toContain(target.id);
    expect(
      (
        await service.app.inject({
          method: 'PATCH',
          url: `/api/security/alerts/${target.id}/resolve`,
          headers: asAdmin,
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await service.app.inject({ method: 'PATCH', url: '/api/security/alerts/nope/resolve', headers: asAdmin }))
        .statusCode,
    ).toBe(404);
    expect((await get('/api/security/alerts?resolved=maybe')).statusCode).toBe(400);
    // A new injection from the same address after resolving opens a new alert.
    await sendBatch([entry({ ip: '192.0.2.22', riskLevel: 'high', signals: ['injection'] })]);
    await eventually(
      async () => (await alerts('false')).filter((a) => a.type === 'injection_attempt' && a.ip === '192.0.2.22'),
      (a) => a.length === 1,
    );
    const stats = await dashboard();
    expect(stats.recentAlerts).toHaveLength(5);
    expect(stats.unsolvedAlerts).toBe((await alerts('false')).length);
  });
});

describe('bans', () => {
  const ban = (body: unknown, headers: Record<string, string> = asAdmin) =>
    service.app.inject({ method: 'POST', url: '/api/security/ban-ip', headers, payload: body as object });
  const askActive = async () => {
    const reply = rpcReplySchema.parse((await nc.request(activeBansSubject, '{}', { timeout: 3000 })).json());
    if (!reply.ok) throw new Error(reply.error.message);
    return activeBansReplySchema.parse(reply.data).bans;
  };

  it('bans an address with a duration (1 hour), announces it, lists it, and lifts it', async () => {
    const heard: unknown[] = [];
    const sub = nc.subscribe('ban.changed', { callback: (_e, m) => void heard.push(m.json()) });
    const res = await ban({ ip: '127.0.0.3', reason: 'brute force', duration: '1h' });
    expect(res.statusCode).toBe(200);
    const banned = res.json<{ bannedIP: BannedIp }>().bannedIP;
    expect(banned).toMatchObject({ ip: '127.0.0.3', reason: 'brute force', bannedBy: ADMIN.email });
    expect(new Date(banned.expiresAt!).getTime() - new Date(banned.bannedDate).getTime()).toBe(3_600_000);
    await eventually(
      () => heard,
      (h) => h.length === 1,
      3000,
    );
    expect(parseEvent('ban.changed', heard[0]).data).toMatchObject({
      ip: '127.0.0.3',
      action: 'banned',
      changedBy: ADMIN.email,
    });
    expect(await askActive()).toContainEqual({ ip: '127.0.0.3', expiresAt: banned.expiresAt });
    const list = (await get('/api/security/banned-ips')).json<{ bannedIPs: BannedIp[] }>().bannedIPs;
    expect(list.map((b) => b.ip)).toContain('127.0.0.3');
    expect((await dashboard()).activeBans).toBeGreaterThanOrEqual(1);
    // Banning it again is a conflict, not a second ban.
    const again = await ban({ ip: '127.0.0.3', reason: 'again' });
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorEnvelope>().error).toMatch(/already banned/);

    const lifted = await service.app.inject({
      method: 'DELETE',
      url: `/api/security/banned-ips/${banned.id}`,
      headers: asAdmin,
    });
    expect(lifted.json()).toEqual({ success: true });
    await eventually(
      () => heard,
      (h) => h.length === 2,
      3000,
    );
    expect(parseEvent('ban.changed', heard[1]).data).toMatchObject({ ip: '127.0.0.3', action: 'unbanned' });
    expect((await askActive()).map((b) => b.ip)).not.toContain('127.0.0.3');
    expect(
      (await service.app.inject({ method: 'DELETE', url: `/api/security/banned-ips/${banned.id}`, headers: asAdmin }))
        .statusCode,
    ).toBe(404);
    sub.unsubscribe();
  });

  it('accepts IPv6 and CIDR ranges in canonical form, permanent when the duration is empty', async () => {
    const v6 = await ban({ ip: '2001:DB8:0:0:0:0:0:42', reason: 'scanner', duration: '' });
    expect(v6.json<{ bannedIP: BannedIp }>().bannedIP).toMatchObject({ ip: '2001:db8::42', expiresAt: null });
    const range = await ban({ ip: '198.51.100.77/24', reason: 'botnet', duration: '30d' });
    expect(range.json<{ bannedIP: BannedIp }>().bannedIP.ip).toBe('198.51.100.0/24');
    const durations = { '6h': 6, '1d': 24, '7d': 168 } as const;
    for (const [duration, hours] of Object.entries(durations)) {
      const b = (await ban({ ip: `10.9.9.${hours % 250}`, reason: 'x', duration })).json<{ bannedIP: BannedIp }>()
        .bannedIP;
      expect(new Date(b.expiresAt!).getTime() - new Date(b.bannedDate).getTime()).toBe(hours * 3_600_000);
    }
  });

  it('refuses bad bans with clear 400 messages', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ reason: 'x' }, /ip is required/],
      [{ ip: '127.0.0.9' }, /reason is required/],
      [{ ip: '127.0.0.9', reason: '   ' }, /reason is required/],
      [{ ip: '300.1.1.1', reason: 'x' }, /not an IPv4 or IPv6 address or a CIDR range/],
      [{ ip: '10.0.0.0/33', reason: 'x' }, /not an IPv4 or IPv6 address or a CIDR range/],
      [{ ip: 'evil.example', reason: 'x' }, /not an IPv4 or IPv6 address/],
      [
        { ip: '127.0.0.9', reason: 'x', duration: '2h' },
        /duration must be 1h, 6h, 1d, 7d, 30d, or empty for permanent/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await ban(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<ErrorEnvelope>().error).toMatch(message);
    }
  });

  it("refuses to ban the admin's own address: this call's, or the one the session signed in from", async () => {
    const own = await ban({ ip: '127.0.0.2', reason: 'oops' });
    expect(own.statusCode).toBe(400);
    expect(own.json<ErrorEnvelope>().error).toMatch(/You cannot ban 127\.0\.0\.2: it covers your own address/);
    expect((await ban({ ip: '127.0.0.0/8', reason: 'oops' })).statusCode).toBe(400);
    // Signed in from 192.0.2.200, now calling from elsewhere: the session's address is protected too.
    const login = await service.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: gatewayHeaders({ ip: '192.0.2.200' }),
      payload: ADMIN,
    });
    expect(login.statusCode).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    const res = await ban({ ip: '192.0.2.200', reason: 'oops' }, { ...asAdmin, cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorEnvelope>().error).toMatch(/192\.0\.2\.200/);
  });

  it("leaves expired bans out of the list, the count and the gateways' answer", async () => {
    await service.ctx.models.Ban.create({
      _id: 'expired-1',
      ip: '192.0.2.99',
      reason: 'old',
      bannedDate: new Date(Date.now() - 7200_000),
      expiresAt: new Date(Date.now() - 1000),
      bannedBy: 'x',
      removeAt: new Date(Date.now() + 86_400_000),
    });
    expect(
      (await get('/api/security/banned-ips')).json<{ bannedIPs: BannedIp[] }>().bannedIPs.map((b) => b.ip),
    ).not.toContain('192.0.2.99');
    expect((await askActive()).map((b) => b.ip)).not.toContain('192.0.2.99');
    // An expired ban does not block a new one of the same address.
    expect((await ban({ ip: '192.0.2.99', reason: 'back again', duration: '1h' })).statusCode).toBe(200);
  });
});
