// The orders service boots against the embedded MongoDB and a real nats-server, is ready, and
// exposes what it promises; its real main.ts starts and stops gracefully on SIGTERM.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultServicePorts, errorEnvelopeSchema, readinessSchema, serviceInfoSchema } from '@shop/contracts';
import { spawnServiceProcess } from '@shop/service-kit/testing';
import { freePort, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp, version } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let mongo: StartedMongo;
let nats: StartedNats;

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
});

afterAll(async () => {
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

describe('orders service (in process)', () => {
  let service: Awaited<ReturnType<typeof buildApp>>;
  let url: string;

  beforeAll(async () => {
    service = await buildApp(loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent' }));
    url = await service.start();
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('is alive and ready with MongoDB and NATS up', async () => {
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(200);
    expect(readinessSchema.parse(await res.json())).toEqual({ status: 'ready', checks: { mongo: 'up', nats: 'up' } });
  });

  it('answers its info route under its gateway prefix', async () => {
    const res = await fetch(`${url}/api/orders/_service`);
    expect(res.status).toBe(200);
    expect(serviceInfoSchema.parse(await res.json())).toMatchObject({ service: 'orders', version });
  });

  it('uses its own database', () => {
    expect(service.ctx.connection.name).toBe('shop_orders');
  });

  it('publishes its OpenAPI document', async () => {
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { info: { title: string }; paths: Record<string, unknown> };
    expect(doc.info.title).toBe('Shop orders service');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/healthz',
        '/readyz',
        '/api/orders/_service',
        '/api/orders',
        '/api/orders/track',
        '/api/orders/history',
        '/api/upload',
        '/api/upload/{id}',
        '/api/ai/generate-design',
        '/api/ai/designs/{id}/image',
      ]),
    );
  });

  it('answers an unknown path with the error envelope', async () => {
    const res = await fetch(`${url}/api/orders/no-such-thing`, { headers: { 'x-request-id': 'req-orders-1' } });
    expect(res.status).toBe(404);
    expect(errorEnvelopeSchema.parse(await res.json())).toEqual({
      error: 'No route for GET /api/orders/no-such-thing',
      code: 'NOT_FOUND',
      requestId: 'req-orders-1',
    });
  });
});

describe('orders service (its real main.ts)', () => {
  it('starts from the environment, logs as orders, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const child = await spawnServiceProcess({
      packageDir,
      env: { PORT: String(port), MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'info', NODE_ENV: 'test' },
    });
    try {
      const info = await (await fetch(`${child.url}/api/orders/_service`)).json();
      expect(info).toMatchObject({ service: 'orders', version });
      // /readyz turns 200 once MongoDB and NATS answer, while start() may still be ensuring the streams;
      // a SIGTERM in that window makes start() fail (exit 1). Wait for the end of start first.
      const ready = () => child.logs.some((l) => l.service === 'orders' && l.msg === 'orders service ready');
      for (let waited = 0; !ready() && waited < 60_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
      expect(ready()).toBe(true);
    } finally {
      const code = await child.stop('SIGTERM');
      expect(code, `exit ${code}\n${child.stderr.join('')}\n${JSON.stringify(child.logs.slice(-8))}`).toBe(0);
    }
    expect(child.logs.some((l) => l.msg === 'stopped')).toBe(true);
  });
});

describe('orders configuration', () => {
  it('refuses a bad PORT or MONGO_URL with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'not-a-port' })).toThrow(/PORT/);
    expect(() => loadConfig({ MONGO_URL: 'http://wrong' })).toThrow(/MONGO_URL must start with mongodb:\/\//);
  });

  it('defaults to its contract port', () => {
    expect(loadConfig({}).port).toBe(defaultServicePorts.orders);
  });
});
