// The checks every service's own test makes of what the kit gives it: alive and ready on the embedded
// MongoDB and a real nats-server, its info route, its own database, its OpenAPI document, the error
// envelope, its configuration, and its real main.ts stopping gracefully on SIGTERM. One definition, so
// seven services do not keep seven copies.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import {
  accessFor,
  defaultServicePorts,
  errorEnvelopeSchema,
  gatewayTokenHeader,
  readinessSchema,
  serviceInfoSchema,
  type ServiceName,
} from '@shop/contracts';
import type { ServiceConfig } from './config.js';
import { gatewaySigningKey, signGatewayToken } from './gateway-token.js';
import { adminHeaders, gatewayHeaders, spawnServiceProcess, testGatewayKey } from './testing.js';

interface StartableService {
  start(): Promise<string>;
  stop(): Promise<void>;
  ctx: { connection: { name: string } };
}

export interface ServiceBasicsOptions<C extends ServiceConfig = ServiceConfig> {
  name: ServiceName;
  /** The service package's folder (its real src/main.ts is started from there). */
  packageDir: string;
  version: string;
  buildApp(config: C): StartableService | Promise<StartableService>;
  loadConfig(env: Record<string, string | undefined>): C;
  /** Where the test's MongoDB and NATS are (read once they are started). */
  deps(): { mongoUri: string; natsUrl: string };
  /** A free loopback port for the child process (test-support's freePort). */
  freePort(): Promise<number>;
  /** Routes of the service's own that its OpenAPI document must list. */
  openApiPaths?: string[];
}

export function describeServiceBasics<C extends ServiceConfig>(o: ServiceBasicsOptions<C>): void {
  const { name } = o;
  const infoPath = `/api/${name}/_service`;

  describe(`${name} service (in process)`, () => {
    let service: StartableService;
    let url: string;

    beforeAll(async () => {
      const { mongoUri, natsUrl } = o.deps();
      service = await o.buildApp(
        o.loadConfig({ PORT: '0', MONGO_URL: mongoUri, NATS_URL: natsUrl, LOG_LEVEL: 'silent' }),
      );
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
      const res = await fetch(`${url}${infoPath}`);
      expect(res.status).toBe(200);
      expect(serviceInfoSchema.parse(await res.json())).toMatchObject({ service: name, version: o.version });
    });

    it('uses its own database', () => {
      expect(service.ctx.connection.name).toBe(`shop_${name}`);
    });

    it('publishes its OpenAPI document', async () => {
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as {
        info: { title: string };
        paths: Record<string, unknown>;
      };
      expect(doc.info.title).toBe(`Shop ${name} service`);
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/healthz', '/readyz', infoPath, ...(o.openApiPaths ?? [])]),
      );
    });

    /** Every operation of the service's OpenAPI document that the access table makes admin-only. */
    async function adminOperations(): Promise<Array<{ method: string; path: string }>> {
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      return Object.entries(doc.paths).flatMap(([template, operations]) =>
        Object.keys(operations)
          .map((method) => ({
            method: method.toUpperCase(),
            path: template.replace(/\{[^}]+\}/g, '665f1c2e9b1d8a0012345678'),
          }))
          .filter(
            ({ method, path }) =>
              ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method) && accessFor(method, path).access === 'admin',
          ),
      );
    }
    const call = (operation: { method: string; path: string }, headers: Record<string, string>) =>
      fetch(`${url}${operation.path}`, {
        method: operation.method,
        headers: {
          ...headers,
          ...(operation.method === 'GET' || operation.method === 'DELETE'
            ? {}
            : { 'content-type': 'application/json' }),
        },
        body: operation.method === 'GET' || operation.method === 'DELETE' ? undefined : '{}',
      });

    it('refuses every admin operation called without the gateway (401), whatever x-admin-* headers claim', async () => {
      const operations = await adminOperations();
      expect(operations.length, 'admin operations in the OpenAPI document').toBeGreaterThan(0);
      for (const operation of operations) {
        const res = await call(operation, {
          'x-admin-email': 'intruder@evil.example',
          'x-admin-id': 'admin-1',
          'x-forwarded-for': '127.0.0.1',
        });
        expect(res.status, `${operation.method} ${operation.path}`).toBe(401);
        expect(await res.json()).toMatchObject({
          code: 'UNAUTHORIZED',
          error: expect.stringMatching(/did not come through the gateway/) as unknown,
        });
      }
    });

    it('refuses a gateway identity that is expired, signed with another key, or names no admin', async () => {
      const [operation] = await adminOperations();
      const admin = { id: 'admin-1', email: 'chief@shop.test', name: 'Chief', role: 'admin' as const };
      const signedWith = (key: string, now = Date.now()) => ({
        'x-request-id': 'basics-1',
        [gatewayTokenHeader]: signGatewayToken(
          gatewaySigningKey(key),
          { sub: admin, ip: '127.0.0.1', rid: 'basics-1' },
          now,
        ),
      });
      const cases: Array<[Record<string, string>, RegExp]> = [
        [signedWith(testGatewayKey(), Date.now() - 10 * 60_000), /expired/],
        [signedWith('a-key-this-service-never-heard-of-0123456789'), /key this service does not accept/],
        [gatewayHeaders({ ip: '127.0.0.1' }), /names none/],
      ];
      for (const [headers, message] of cases) {
        const res = await call(operation, headers);
        expect(res.status, `${operation.method} ${operation.path}`).toBe(401);
        expect(((await res.json()) as { error: string }).error).toMatch(message);
      }
      // The same call through the gateway (a valid identity naming an admin) gets past the check.
      expect((await call(operation, adminHeaders('chief@shop.test'))).status).not.toBe(401);
    });

    it('answers an unknown path with the error envelope', async () => {
      // Through the gateway (an admin identity): some services' whole prefix is admin-only.
      const requestId = `req-${name}-1`;
      const token = signGatewayToken(gatewaySigningKey(testGatewayKey()), {
        sub: { id: 'admin-1', email: 'chief@shop.test', name: 'Chief', role: 'admin' },
        ip: '127.0.0.1',
        rid: requestId,
      });
      const res = await fetch(`${url}/api/${name}/no-such-thing`, {
        headers: { 'x-request-id': requestId, [gatewayTokenHeader]: token },
      });
      expect(res.status).toBe(404);
      expect(errorEnvelopeSchema.parse(await res.json())).toEqual({
        error: `No route for GET /api/${name}/no-such-thing`,
        code: 'NOT_FOUND',
        requestId: `req-${name}-1`,
      });
    });
  });

  describe(`${name} service (its real main.ts)`, () => {
    it(`starts from the environment, logs as ${name}, and exits 0 on SIGTERM`, async () => {
      const { mongoUri, natsUrl } = o.deps();
      const port = await o.freePort();
      const child = await spawnServiceProcess({
        packageDir: o.packageDir,
        env: { PORT: String(port), MONGO_URL: mongoUri, NATS_URL: natsUrl, LOG_LEVEL: 'info', NODE_ENV: 'test' },
      });
      try {
        const info = await (await fetch(`${child.url}${infoPath}`)).json();
        expect(info).toMatchObject({ service: name, version: o.version });
        // /readyz is 200 only after the ready line is written; reading it from the pipe may lag a little.
        const ready = () => child.logs.some((l) => l.service === name && l.msg === `${name} service ready`);
        for (let waited = 0; !ready() && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
        expect(ready()).toBe(true);
      } finally {
        const code = await child.stop('SIGTERM');
        expect(code, `exit ${code}\n${child.stderr.join('')}\n${JSON.stringify(child.logs.slice(-8))}`).toBe(0);
      }
      expect(child.logs.some((l) => l.msg === 'stopped')).toBe(true);
    });
  });

  describe(`${name} configuration`, () => {
    it('refuses a bad PORT or MONGO_URL with a message naming the variable', () => {
      expect(() => o.loadConfig({ PORT: 'not-a-port' })).toThrow(/PORT/);
      expect(() => o.loadConfig({ MONGO_URL: 'http://wrong' })).toThrow(/MONGO_URL must start with mongodb:\/\//);
    });

    it('defaults to its contract port', () => {
      expect(o.loadConfig({}).port).toBe(defaultServicePorts[name]);
    });
  });
}
