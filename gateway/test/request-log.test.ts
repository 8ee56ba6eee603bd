// The request log: the risk rules and redaction alone, then a gateway on a real nats-server whose
// batches are read from the GATEWAY stream (client addresses from real loopback connections), and a
// gateway whose NATS is away: requests are as fast as with logging off, the oldest entries are
// dropped and counted, and the count arrives with the first batch once NATS is back.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { parseEvent, requestLogEntriesOf, type RequestLogEntry } from '@shop/contracts';
import { createLogger } from '@shop/service-kit';
import { freePort, startNats, type StartedNats } from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { GatewaySecurityLink } from '../src/bans.js';
import {
  assessRequest,
  NOT_FOUND_BURST,
  redactPath,
  RequestLogBuffer,
  type RequestLogSink,
} from '../src/request-log.js';
import { configFromEnv } from '../src/config.js';
import { requestFrom } from './client-address.js';
import { startStack, type Stack } from './helpers.js';

/** A published batch checked against the contract, its columns decoded into entries. */
function entriesOf(event: unknown) {
  const { gateway, dropped, log } = parseEvent('gateway.requests_logged', event).data;
  return { gateway, dropped, entries: requestLogEntriesOf(log) };
}

const facts = (over: Partial<Parameters<typeof assessRequest>[0]>) => ({
  method: 'GET',
  url: '/',
  statusCode: 200,
  banned: false,
  recentNotFound: 0,
  ...over,
});

describe('risk rules', () => {
  it.each([
    [facts({}), 'low', []],
    [facts({ url: "/api/orders?id=1'+OR+'1'='1" }), 'high', ['injection']],
    [facts({ url: '/api/content?q=1%20UNION%20SELECT%20password%20FROM%20users' }), 'high', ['injection']],
    [facts({ url: '/search?q=%253Cscript%253Ealert(1)%253C/script%253E' }), 'high', ['injection']],
    [facts({ url: '/static/../../etc/passwd', statusCode: 404 }), 'high', ['traversal', 'not_found']],
    [facts({ url: '/.env', statusCode: 404 }), 'high', ['traversal', 'not_found']],
    [facts({ banned: true, statusCode: 403 }), 'high', ['banned']],
    [facts({ url: '/api/orders', statusCode: 401 }), 'high', ['admin_refused']],
    [facts({ url: '/api/auth/me', statusCode: 401 }), 'low', []],
    [facts({ method: 'POST', url: '/api/auth/login', statusCode: 401 }), 'medium', ['failed_sign_in']],
    [facts({ method: 'POST', url: '/api/auth/login', statusCode: 200 }), 'low', []],
    [facts({ method: 'POST', url: '/api/customers/verify', statusCode: 400 }), 'medium', ['code_guess']],
    [facts({ url: '/api/content', statusCode: 429 }), 'medium', ['rate_limited']],
    [facts({ url: '/missing.js', statusCode: 404, recentNotFound: 1 }), 'low', ['not_found']],
    [
      facts({ url: '/missing.js', statusCode: 404, recentNotFound: NOT_FOUND_BURST }),
      'medium',
      ['not_found', 'not_found_burst'],
    ],
  ] as const)('%o -> %s %o', (input, risk, signals) => {
    expect(assessRequest(input)).toEqual({ riskLevel: risk, signals: [...signals] });
  });

  it('redacts secret query values and keeps the rest', () => {
    expect(redactPath('/api/orders/track?orderNumber=CC-1&email=a%40b.c&token=abc&code=123456')).toBe(
      '/api/orders/track?orderNumber=CC-1&email=[redacted]&token=[redacted]&code=[redacted]',
    );
    expect(redactPath('/order/pay/123?session_id=xyz&step=2')).toBe('/order/pay/123?session_id=[redacted]&step=2');
    expect(redactPath('/plain')).toBe('/plain');
  });
});

describe('the buffer', () => {
  /** A sink whose publishes wait until the test settles them, keeping what it was given. */
  function heldSink() {
    const waiting: Array<{ body: string; settle: (ok: boolean) => void }> = [];
    const sink: RequestLogSink = {
      gatewayName: 'test:1',
      publish: (_event, body) =>
        new Promise<void>((resolve, reject) =>
          waiting.push({ body, settle: (ok) => (ok ? resolve() : reject(new Error('NATS away'))) }),
        ),
    };
    return { sink, waiting };
  }
  const record = (buffer: RequestLogBuffer, n: number) =>
    buffer.record(
      Date.now(),
      1.5,
      '127.0.0.9',
      'GET',
      `/api/orders/track?n=${n}&token=secret`,
      'probe/1',
      200,
      false,
      0,
      `req-${n}`,
    );
  const batchOf = (body: string) => entriesOf(JSON.parse(body));
  const log = createLogger({ service: 'gateway', level: 'silent' });

  it('formats entries at flush: redacted path, ISO time, risk; the newest kept when full', async () => {
    const { sink, waiting } = heldSink();
    const buffer = new RequestLogBuffer(sink, log, { capacity: 4 });
    for (let n = 0; n < 6; n++) record(buffer, n);
    expect(buffer.pending).toBe(4);
    expect(buffer.droppedTotal).toBe(2);
    const flushed = buffer.flush();
    await vi.waitFor(() => expect(waiting).toHaveLength(1));
    const batch = batchOf(waiting[0].body);
    expect(batch.dropped).toBe(2);
    expect(batch.entries.map((e) => e.path)).toEqual(
      [2, 3, 4, 5].map((n) => `/api/orders/track?n=${n}&token=[redacted]`),
    );
    expect(batch.entries[0]).toMatchObject({
      ip: '127.0.0.9',
      method: 'GET',
      userAgent: 'probe/1',
      statusCode: 200,
      responseTime: 1.5,
      riskLevel: 'low',
      requestId: 'req-2',
    });
    expect(Date.parse(batch.entries[0].timestamp)).toBeGreaterThan(Date.now() - 5_000);
    waiting[0].settle(true);
    await flushed;
    expect(buffer.pending).toBe(0);
    expect(buffer.published).toBe(4);
  });

  it('ends a batch early once its text is large, so every message stays under the 1 MB NATS payload limit', async () => {
    const { sink, waiting } = heldSink();
    const buffer = new RequestLogBuffer(sink, log, { capacity: 1_000 });
    // 400 distinct addresses of 2 KB: 800 KB of text, more than one batch may carry.
    for (let n = 0; n < 400; n++)
      buffer.record(Date.now(), 1, '127.0.0.9', 'GET', `/p/${n}/${'x'.repeat(2_000)}`, 'ua', 200, false, 0, `req-${n}`);
    const flushed = buffer.flush();
    await vi.waitFor(() => expect(waiting).toHaveLength(1));
    const first = batchOf(waiting[0].body).entries;
    expect(first.length).toBeLessThan(400);
    expect(Buffer.byteLength(waiting[0].body)).toBeLessThan(1024 * 1024);
    waiting[0].settle(true);
    await vi.waitFor(() => expect(waiting).toHaveLength(2));
    const second = batchOf(waiting[1].body).entries;
    expect([...first, ...second].map((e) => e.requestId)).toEqual(Array.from({ length: 400 }, (_, n) => `req-${n}`));
    waiting[1].settle(true);
    await flushed;
    expect(buffer.published).toBe(400);
  });

  it('entries overwritten while their batch is being published count as dropped only if that publish fails', async () => {
    const { sink, waiting } = heldSink();
    const buffer = new RequestLogBuffer(sink, log, { capacity: 4 });
    for (let n = 0; n < 4; n++) record(buffer, n);
    let flushed = buffer.flush();
    await vi.waitFor(() => expect(waiting).toHaveLength(1));
    // Two newer requests push out two entries of the batch in flight: not lost yet.
    record(buffer, 4);
    record(buffer, 5);
    expect(buffer.droppedTotal).toBe(0);
    waiting[0].settle(true);
    await flushed;
    expect(buffer.published).toBe(4);
    expect(buffer.droppedTotal).toBe(0);
    // The two newer ones wait for the next flush (a flush publishes what was held when it began).
    expect(waiting).toHaveLength(1);
    expect(buffer.pending).toBe(2);
    flushed = buffer.flush();
    await vi.waitFor(() => expect(waiting).toHaveLength(2));
    expect(batchOf(waiting[1].body).entries.map((e) => e.requestId)).toEqual(['req-4', 'req-5']);

    // The same while NATS refuses that batch: the two pushed out of it are lost, and counted.
    for (let n = 6; n < 10; n++) record(buffer, n);
    waiting[1].settle(false);
    await flushed;
    expect(buffer.droppedTotal).toBe(2);
    flushed = buffer.flush();
    await vi.waitFor(() => expect(waiting).toHaveLength(3));
    const batch = batchOf(waiting[2].body);
    expect(batch.dropped).toBe(2);
    expect(batch.entries.map((e) => e.requestId)).toEqual(['req-6', 'req-7', 'req-8', 'req-9']);
    waiting[2].settle(true);
    await flushed;
  });
});

describe('request log batches on NATS', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  }, 60_000);
  afterAll(async () => stack?.close());

  async function loggedEntries(): Promise<Array<{ entries: RequestLogEntry[]; dropped: number; gateway: string }>> {
    const jsm = await jetstreamManager(stack.security.nc);
    const info = await jsm.streams.info('GATEWAY').catch(() => undefined);
    const out: Array<{ entries: RequestLogEntry[]; dropped: number; gateway: string }> = [];
    if (!info || info.state.messages === 0) return out;
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const msg = await jsm.streams.getMessage('GATEWAY', { seq }).catch(() => null);
      if (msg?.subject === 'gateway.requests_logged') out.push(entriesOf(msg.json()));
    }
    return out;
  }

  it('reports every request with the client address, redacted path, agent, status, time and risk within 250 ms or so', async () => {
    const started = Date.now();
    await requestFrom('127.0.0.7', `${stack.url}/api/marketing/_service?token=secret-value`, {
      'user-agent': 'scanner/1.0',
    });
    await requestFrom('127.0.0.7', `${stack.url}/api/orders?id=1'+OR+'1'='1`);
    let found: RequestLogEntry[] = [];
    while (Date.now() - started < 3_000) {
      found = (await loggedEntries()).flatMap((b) => b.entries).filter((e) => e.ip === '127.0.0.7');
      if (found.length >= 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(Date.now() - started).toBeLessThan(1_500);
    const [first, second] = found;
    expect(first).toMatchObject({
      ip: '127.0.0.7',
      method: 'GET',
      path: '/api/marketing/_service?token=[redacted]',
      userAgent: 'scanner/1.0',
      statusCode: 200,
      riskLevel: 'low',
    });
    expect(first.responseTime).toBeGreaterThan(0);
    expect(Math.abs(new Date(first.timestamp).getTime() - started)).toBeLessThan(2_000);
    expect(second).toMatchObject({ statusCode: 401, riskLevel: 'high' });
    expect(second.signals).toContain('injection');
    expect(JSON.stringify(await loggedEntries())).not.toContain('secret-value');
    // The platform's probes are not visitors: not logged.
    await requestFrom('127.0.0.7', `${stack.url}/healthz`);
    await new Promise((r) => setTimeout(r, 600));
    expect((await loggedEntries()).flatMap((b) => b.entries).some((e) => e.path === '/healthz')).toBe(false);
  });
});

describe('with NATS away', () => {
  let port: number;
  let nats: StartedNats | undefined;
  const log = createLogger({ service: 'gateway', level: 'silent' });
  afterAll(async () => nats?.stop());

  /** Mean and worst milliseconds of `n` sequential requests. */
  async function timeRequests(url: string, n: number) {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await requestFrom('127.0.0.8', `${url}/api/nowhere-${i}`);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { mean: times.reduce((a, b) => a + b, 0) / n, p95: times[Math.floor(n * 0.95)] };
  }

  it('never slows requests; drops the oldest entries, counts them, and reports the count once NATS is back', async () => {
    port = await freePort();
    const config = configFromEnv({
      NATS_URL: `nats://127.0.0.1:${port}`,
      FRONTENDS_DIR: '/nonexistent-frontends',
      RATE_LIMIT_MAX: '100000',
    });
    const off = await buildApp(config, {
      logger: false,
      requestLog: false,
      securityLink: new GatewaySecurityLink(config.natsUrl, log),
    });
    const offUrl = await off.listen({ host: '127.0.0.1', port: 0 });
    const link = new GatewaySecurityLink(config.natsUrl, log);
    link.start();
    const on = await buildApp(config, {
      logger: false,
      securityLink: link,
      requestLog: { capacity: 50, flushMs: 250 },
    });
    const onUrl = await on.listen({ host: '127.0.0.1', port: 0 });
    // Warm both up, then compare: logging with NATS away costs nothing visible.
    await timeRequests(offUrl, 20);
    await timeRequests(onUrl, 20);
    const base = await timeRequests(offUrl, 150);
    const logged = await timeRequests(onUrl, 150);
    expect(logged.p95).toBeLessThan(Math.max(base.p95 * 2, base.p95 + 20));
    expect(logged.mean).toBeLessThan(base.mean * 1.5 + 5);

    // 170 entries into a buffer of 50: the 120 oldest were dropped and counted.
    nats = await startNats({ port });
    const nc = await connect({ servers: nats.url });
    const seen: Array<{ entries: RequestLogEntry[]; dropped: number }> = [];
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const jsm = await jetstreamManager(nc);
      const info = await jsm.streams.info('GATEWAY').catch(() => undefined);
      seen.length = 0;
      if (info && info.state.messages > 0) {
        for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
          const msg = await jsm.streams.getMessage('GATEWAY', { seq }).catch(() => null);
          if (msg?.subject === 'gateway.requests_logged') seen.push(entriesOf(msg.json()));
        }
      }
      if (seen.reduce((n, b) => n + b.entries.length, 0) >= 50) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const entries = seen.flatMap((b) => b.entries);
    expect(entries).toHaveLength(50);
    expect(seen.reduce((n, b) => n + b.dropped, 0)).toBe(120);
    // The newest were kept: the last request's path is there, the first one's is not.
    expect(entries.map((e) => e.path)).toContain('/api/nowhere-149');
    expect(entries.map((e) => e.path)).not.toContain('/api/nowhere-0');
    await nc.close();
    await on.close();
    await off.close();
    await link.close();
  }, 60_000);
});
