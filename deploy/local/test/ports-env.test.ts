import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GATEWAY, SERVICES, serviceUrlVar } from '../src/catalogue.ts';
import { DEV_ADMIN, gatewayEnv, inheritedEnv, runGatewaySigningKey, securityEnv, serviceEnv } from '../src/env.ts';
import { PortAllocator, freePort, isPortFree } from '../src/ports.ts';

const open: Server[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function occupy(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    open.push(server);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

describe('port allocation', () => {
  it('hands out distinct ports that are free to bind', async () => {
    const ports = new PortAllocator();
    const taken = await Promise.all(Array.from({ length: 12 }, () => ports.take()));
    expect(new Set(taken).size).toBe(12);
    for (const port of taken) expect(await isPortFree(port)).toBe(true);
  });

  it('uses the preferred port when free and another one when it is taken', async () => {
    const busy = await occupy();
    const free = await freePort();
    const ports = new PortAllocator();
    expect(await ports.take(free)).toBe(free);
    const instead = await ports.take(busy);
    expect(instead).not.toBe(busy);
    expect(await isPortFree(instead)).toBe(true);
    // The same preferred port is never handed out twice within one stack.
    expect(await ports.take(free)).not.toBe(free);
  });

  it('refuses an exact port that is in use, naming it', async () => {
    const busy = await occupy();
    await expect(new PortAllocator().takeExactly(busy, 'the gateway')).rejects.toThrow(
      `port ${busy} for the gateway is already in use`,
    );
  });
});

describe('environment per part', () => {
  const parent = {
    PATH: '/usr/bin',
    PORT: '9999',
    HOST: '0.0.0.0',
    VITEST: 'true',
    VITEST_POOL_ID: '1',
    NODE_OPTIONS: '--import tsx',
    STRIPE_SECRET_KEY: 'sk_test_123',
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
  };
  const common = {
    mongoUrl: 'mongodb://127.0.0.1:27017/?replicaSet=rs0',
    natsUrl: 'nats://127.0.0.1:4333',
    nodeEnv: 'production',
  };

  it('gives a service the contract variables and passes the real-provider settings through', () => {
    const env = serviceEnv(parent, common, 4101);
    expect(env).toMatchObject({
      MONGO_URL: common.mongoUrl,
      NATS_URL: common.natsUrl,
      HOST: '127.0.0.1',
      PORT: '4101',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      STRIPE_SECRET_KEY: 'sk_test_123',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      PATH: '/usr/bin',
    });
    expect(env).not.toHaveProperty('VITEST');
    expect(env).not.toHaveProperty('VITEST_POOL_ID');
    expect(env).not.toHaveProperty('NODE_OPTIONS');
  });

  it('keeps a LOG_LEVEL the user chose', () => {
    expect(serviceEnv({ ...parent, LOG_LEVEL: 'debug' }, common, 4102).LOG_LEVEL).toBe('debug');
  });

  it('tells the gateway where every service and the frontends are', () => {
    const urls = Object.fromEntries(
      SERVICES.map((service, index) => [service.name, `http://127.0.0.1:${5000 + index}`]),
    );
    const env = gatewayEnv(parent, common, 8081, urls, '/srv/frontends');
    for (const service of SERVICES) expect(env[serviceUrlVar(service.name)]).toBe(urls[service.name]);
    expect(env).toMatchObject({
      PORT: '8081',
      HOST: '127.0.0.1',
      FRONTENDS_DIR: '/srv/frontends',
      NATS_URL: common.natsUrl,
    });
    expect(
      Object.keys(env).filter((key) => /^[A-Z]+_URL$/.test(key) && !['MONGO_URL', 'NATS_URL'].includes(key)),
    ).toHaveLength(7);
  });

  it('gives the gateway and every service one random signing key per run, unless you exported your own', () => {
    const urls = Object.fromEntries(
      SERVICES.map((service, index) => [service.name, `http://127.0.0.1:${5000 + index}`]),
    );
    expect(serviceEnv(parent, common, 4101).GATEWAY_SIGNING_KEY).toBe(runGatewaySigningKey);
    expect(gatewayEnv(parent, common, 8081, urls, '/srv/frontends').GATEWAY_SIGNING_KEY).toBe(runGatewaySigningKey);
    // Strong enough for NODE_ENV=production, which refuses keys under 32 characters.
    expect(runGatewaySigningKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const own = 'my-own-exported-signing-key-0123456789abcdef';
    expect(serviceEnv({ ...parent, GATEWAY_SIGNING_KEY: own }, common, 4101).GATEWAY_SIGNING_KEY).toBe(own);
  });

  it('does not pass the runner PORT down to anyone', () => {
    expect(inheritedEnv(parent)).not.toHaveProperty('PORT');
  });

  it('uses the contract default ports', () => {
    expect(Object.fromEntries(SERVICES.map((service) => [service.name, service.port]))).toEqual({
      orders: 4101,
      payments: 4102,
      customers: 4103,
      support: 4104,
      marketing: 4105,
      security: 4106,
      email: 4107,
    });
    expect(GATEWAY.port).toBe(8080);
  });
});

describe('securityEnv', () => {
  it('gives the security service the documented development admin outside production, unless you set your own', () => {
    expect(securityEnv({}, 'development')).toEqual({
      ADMIN_EMAIL: DEV_ADMIN.email,
      ADMIN_PASSWORD: DEV_ADMIN.password,
    });
    expect(securityEnv({ ADMIN_EMAIL: 'me@shop.test', ADMIN_PASSWORD: 'Mine-Very-Own-42!' }, 'development')).toEqual({
      ADMIN_EMAIL: 'me@shop.test',
      ADMIN_PASSWORD: 'Mine-Very-Own-42!',
    });
    expect(securityEnv({}, 'production')).toEqual({});
  });
});
