// The email service boots against the embedded MongoDB and a real nats-server, is ready, and
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

describe('email service (in process)', () => {
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
    const res = await fetch(`${url}/api/email/_service`);
    expect(res.status).toBe(200);
    expect(serviceInfoSchema.parse(await res.json())).toMatchObject({ service: 'email', version });
  });

  it('uses its own database', () => {
    expect(service.ctx.connection.name).toBe('shop_email');
  });

  it('publishes its OpenAPI document', async () => {
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { info: { title: string }; paths: Record<string, unknown> };
    expect(doc.info.title).toBe('Shop email service');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/api/email/_service']));
  });

  it('answers an unknown path with the error envelope', async () => {
    const res = await fetch(`${url}/api/email/no-such-thing`, { headers: { 'x-request-id': 'req-email-1' } });
    expect(res.status).toBe(404);
    expect(errorEnvelopeSchema.parse(await res.json())).toEqual({
      error: 'No route for GET /api/email/no-such-thing',
      code: 'NOT_FOUND',
      requestId: 'req-email-1',
    });
  });
});

describe('email service (its real main.ts)', () => {
  it('starts from the environment, logs as email, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const child = await spawnServiceProcess({
      packageDir,
      env: { PORT: String(port), MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'info', NODE_ENV: 'test' },
    });
    try {
      const info = await (await fetch(`${child.url}/api/email/_service`)).json();
      expect(info).toMatchObject({ service: 'email', version });
      // /readyz turns 200 as soon as MongoDB and NATS are up; the ready line follows a moment later on stdout.
      const deadline = Date.now() + 5000;
      while (!child.logs.some((l) => l.msg === 'email service ready') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(child.logs.some((l) => l.service === 'email' && l.msg === 'email service ready')).toBe(true);
    } finally {
      expect(await child.stop('SIGTERM')).toBe(0);
    }
    expect(child.logs.some((l) => l.msg === 'stopped')).toBe(true);
  });
});

describe('email configuration', () => {
  it('refuses a bad PORT or MONGO_URL with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'not-a-port' })).toThrow(/PORT/);
    expect(() => loadConfig({ MONGO_URL: 'http://wrong' })).toThrow(/MONGO_URL must start with mongodb:\/\//);
  });

  it('defaults to its contract port', () => {
    expect(loadConfig({}).port).toBe(defaultServicePorts.email);
  });
});
