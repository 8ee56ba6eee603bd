import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../src/routes.js';
import { deadUrl, startStack, type Stack } from './helpers.js';

let stack: Stack;
beforeAll(async () => {
  // Long enough for a loaded machine; the slow service below takes far longer. No caching here: each
  // test changes what the services answer and expects the next call to see it.
  stack = await startStack({ HEALTH_TIMEOUT_MS: '1500', HEALTH_CACHE_MS: '0' });
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  for (const u of Object.values(stack.upstreams)) {
    u.readiness = { status: 200, body: { status: 'ready', checks: { mongo: 'up', nats: 'up' } } };
  }
});

type Health = {
  status: string;
  services: Record<string, { status: string; checks: Record<string, string>; latencyMs: number; error?: string }>;
};

describe('GET /api/health', () => {
  it('is 200 "ready" with every service and its checks when all are ready', async () => {
    const res = await fetch(`${stack.url}/api/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Health;
    expect(body.status).toBe('ready');
    expect(Object.keys(body.services).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const name of SERVICE_NAMES) {
      expect(body.services[name]).toMatchObject({ status: 'ready', checks: { mongo: 'up', nats: 'up' } });
      expect(body.services[name].latencyMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('is 503 "degraded" naming the service whose database is down', async () => {
    stack.upstreams.payments.readiness = {
      status: 503,
      body: { status: 'not_ready', checks: { mongo: 'down', nats: 'up' } },
    };
    const res = await fetch(`${stack.url}/api/health`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as Health;
    expect(body.status).toBe('degraded');
    expect(body.services.payments).toMatchObject({
      status: 'not_ready',
      checks: { mongo: 'down', nats: 'up' },
      error: 'not ready: mongo down',
    });
    expect(body.services.orders.status).toBe('ready');
  });

  it('marks a service that does not answer in time as unreachable, without waiting for it', async () => {
    stack.upstreams.email.readiness = { status: 200, body: { status: 'ready', checks: {} }, delayMs: 6_000 };
    const res = await fetch(`${stack.url}/api/health`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as Health;
    expect(body.services.email).toMatchObject({ status: 'unreachable', error: 'no answer within 1500 ms' });
    expect(body.services.email.latencyMs).toBeLessThan(6_000);
  });

  it('marks a service that is not running as unreachable', async () => {
    const down = await startStack({ SECURITY_URL: await deadUrl() });
    try {
      const res = await fetch(`${down.url}/api/health`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as Health;
      expect(body.services.security).toMatchObject({
        status: 'unreachable',
        error: 'not running (connection refused)',
        checks: {},
      });
    } finally {
      await down.close();
    }
  });

  it('answers polls within HEALTH_CACHE_MS from one round of readiness calls', async () => {
    const cached = await startStack({ HEALTH_CACHE_MS: '60000' });
    try {
      const polls = await Promise.all([1, 2, 3].map(() => fetch(`${cached.url}/api/health`)));
      const bodies = (await Promise.all(polls.map((r) => r.json()))) as Health[];
      expect(polls.map((r) => r.status)).toEqual([200, 200, 200]);
      // Concurrent polls share the round in flight: the same latencies, measured once.
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      // A service going down within the cache time is not asked again yet.
      cached.upstreams.payments.readiness = {
        status: 503,
        body: { status: 'not_ready', checks: { mongo: 'down', nats: 'up' } },
      };
      const later = await fetch(`${cached.url}/api/health`);
      expect(later.status).toBe(200);
      expect(await later.json()).toEqual(bodies[0]);
    } finally {
      await cached.close();
    }
  });

  it('has its own liveness and readiness probes that do not depend on the services', async () => {
    stack.upstreams.orders.readiness = {
      status: 503,
      body: { status: 'not_ready', checks: { mongo: 'down', nats: 'down' } },
    };
    expect(await (await fetch(`${stack.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${stack.url}/readyz`);
    expect(ready.status).toBe(200);
  });
});
