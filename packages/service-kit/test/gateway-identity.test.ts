// The gateway's signed identity as every service checks it (createService): admin rows of the shared
// access table need a valid token naming an admin, whatever x-admin-* headers a caller claims; handlers
// read the admin from the token (signedInAdmin), and no x-admin-* header reaches them; the client address
// comes only from a verified token, never from X-Forwarded-For; production refuses a weak key.
// Built without start(): createService does no I/O, so inject() reaches the hooks and routes.
import { createHmac, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayTokenHeader } from '@shop/contracts';
import type { FastifyRequest } from 'fastify';
import {
  adminActor,
  createLogger,
  createService,
  gatewayKeyRing,
  gatewaySigningKey,
  loadServiceConfig,
  signGatewayToken,
  signedInAdmin,
  verifyGatewayToken,
  type Service,
} from '../src/index.js';

const current = randomBytes(32).toString('base64url');
const previous = randomBytes(32).toString('base64url');
const admin = { id: 'admin-7', email: 'chief@shop.test', name: 'Chief Quartermaster', role: 'admin' as const };

let service: Service<Record<string, never>>;

/**
 * What a handler learns of the caller: the verified admin, and any x-admin-* header or gateway token
 * left on the call.
 */
const seenBy = (request: FastifyRequest) => ({
  admin: signedInAdmin(request),
  actor: adminActor(request),
  adminHeaders: Object.keys(request.headers).filter(
    (name) => name.startsWith('x-admin-') || name === gatewayTokenHeader,
  ),
  ip: request.ip,
});

beforeAll(async () => {
  const config = loadServiceConfig(
    { LOG_LEVEL: 'silent', NODE_ENV: 'test', GATEWAY_SIGNING_KEY: current, GATEWAY_SIGNING_KEY_PREVIOUS: previous },
    { port: 0 },
  );
  service = await createService({
    name: 'orders',
    config,
    routes: (app) => {
      // An admin row (GET /api/orders) and a public one (POST /api/orders/track) of the access table.
      app.get('/api/orders', async (request) => seenBy(request));
      app.post('/api/orders/track', async (request) => seenBy(request));
      // Another public row: every header the handler sees, by name, in order.
      app.post('/api/orders/history', async (request) => ({ headers: request.headers, ip: request.ip }));
    },
  });
});
afterAll(async () => {
  await service?.app.close();
});

function signed(
  options: { key?: string; sub?: typeof admin; ip?: string; rid?: string; now?: number; lifetime?: number } = {},
) {
  const rid = options.rid ?? `rid-${randomBytes(4).toString('hex')}`;
  const token = signGatewayToken(
    gatewaySigningKey(options.key ?? current),
    { sub: options.sub, ip: options.ip ?? '198.51.100.7', rid },
    options.now,
    options.lifetime,
  );
  return { 'x-request-id': rid, [gatewayTokenHeader]: token };
}

const listOrders = (headers: Record<string, string>) =>
  service.app.inject({ method: 'GET', url: '/api/orders', headers });

describe('admin routes of a service', () => {
  it('answer with the admin and client address a valid token names', async () => {
    const res = await listOrders({
      ...signed({ sub: admin }),
      'x-admin-email': 'intruder@evil.example',
      'x-forwarded-for': '203.0.113.9',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      admin,
      actor: 'admin:chief@shop.test',
      adminHeaders: [],
      ip: '198.51.100.7',
    });
  });

  it('take the previous key while keys rotate', async () => {
    expect((await listOrders(signed({ sub: admin, key: previous }))).statusCode).toBe(200);
  });

  const refusals: Array<[string, () => Record<string, string>, RegExp]> = [
    [
      'no token, only the old x-admin-email header',
      () => ({ 'x-admin-email': 'chief@shop.test', 'x-admin-id': 'admin-1' }),
      /did not come through the gateway/,
    ],
    [
      'a token signed with another key',
      () => signed({ sub: admin, key: randomBytes(32).toString('base64url') }),
      /key this service does not accept/,
    ],
    [
      'a token whose signature was changed',
      () => {
        const headers = signed({ sub: admin });
        const token = headers[gatewayTokenHeader];
        return { ...headers, [gatewayTokenHeader]: `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}` };
      },
      /signature that is not valid/,
    ],
    [
      'a token whose claims were changed (another admin)',
      () => {
        const headers = signed({ sub: admin });
        const [kid, , signature] = headers[gatewayTokenHeader].split('.');
        const forged = Buffer.from(
          JSON.stringify({
            sub: { ...admin, email: 'intruder@evil.example' },
            ip: '198.51.100.7',
            rid: headers['x-request-id'],
            iat: Math.floor(Date.now() / 1000),
            exp: Math.floor(Date.now() / 1000) + 30,
          }),
        ).toString('base64url');
        return { ...headers, [gatewayTokenHeader]: `${kid}.${forged}.${signature}` };
      },
      /signature that is not valid/,
    ],
    ['an expired token', () => signed({ sub: admin, now: Date.now() - 120_000 }), /has expired/],
    [
      'a token for another request',
      () => ({ ...signed({ sub: admin }), 'x-request-id': 'another-request' }),
      /issued for another request/,
    ],
    ['a malformed token', () => ({ [gatewayTokenHeader]: 'not-a-token' }), /malformed/],
    ['a valid token of a public call (no admin in it)', () => signed(), /names none/],
  ];
  for (const [what, headers, message] of refusals) {
    it(`answer 401 with a clear message for ${what}`, async () => {
      const res = await listOrders(headers());
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', error: expect.stringMatching(message) as unknown });
    });
  }

  it('refuse an encoded path separator the access table cannot read', async () => {
    expect((await service.app.inject({ method: 'GET', url: '/api/orders%2Fexport.csv' })).statusCode).toBe(400);
  });
});

describe('public routes of a service', () => {
  it('take the client address from a verified token only', async () => {
    const viaGateway = await service.app.inject({
      method: 'POST',
      url: '/api/orders/track',
      headers: signed({ ip: '192.0.2.44' }),
      payload: {},
    });
    expect(viaGateway.json()).toEqual({ admin: null, actor: 'admin', adminHeaders: [], ip: '192.0.2.44' });
    // A caller that skips the gateway cannot choose its address, nor pass a forged identity along.
    const claimed = await service.app.inject({
      method: 'POST',
      url: '/api/orders/track',
      headers: {
        'x-forwarded-for': '192.0.2.99',
        'x-admin-email': 'intruder@evil.example',
        [gatewayTokenHeader]: 'forged.token.value',
      },
      payload: {},
      remoteAddress: '10.1.2.3',
    });
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json()).toEqual({ admin: null, actor: 'admin', adminHeaders: [], ip: '10.1.2.3' });
  });
});

describe('the headers a handler sees', () => {
  it("are the call's own, in order, without the token and the x-admin-* headers", async () => {
    for (const viaGateway of [true, false]) {
      const res = await service.app.inject({
        method: 'POST',
        url: '/api/orders/history',
        headers: {
          'x-admin-email': 'intruder@evil.example',
          ...(viaGateway ? signed({ ip: '192.0.2.45', rid: 'rid-headers' }) : { 'x-request-id': 'rid-headers' }),
          'x-admin-role': 'admin',
          'x-forwarded-for': '192.0.2.99',
          'x-admins': 'a header of another name',
          'content-type': 'application/json',
        },
        payload: {},
        remoteAddress: '10.1.2.4',
      });
      const { headers, ip } = res.json<{ headers: Record<string, string>; ip: string }>();
      expect(Object.keys(headers)).toEqual([
        'x-request-id',
        'x-forwarded-for',
        'x-admins',
        'content-type',
        'user-agent',
        'host',
        'content-length',
      ]);
      expect(headers['x-forwarded-for']).toBe('192.0.2.99');
      expect(headers['x-admins']).toBe('a header of another name');
      expect(ip).toBe(viaGateway ? '192.0.2.45' : '10.1.2.4');
    }
  });
});

describe('the token', () => {
  it('carries the claims as JSON.stringify writes them, escapes and all, signed with HMAC-SHA256 of its first two parts', () => {
    const key = gatewaySigningKey(current);
    const now = 1_764_000_000_123;
    const odd = { ...admin, name: 'Zoë "Q" O\'Neil \\ \u2028' };
    for (const sub of [undefined, odd]) {
      const rid = 'rid-"quoted"\\';
      const token = signGatewayToken(key, { sub, ip: '::ffff:198.51.100.7', rid }, now, 60);
      const [kid, payload, signature] = token.split('.');
      const iat = Math.floor(now / 1000);
      const claims = { ...(sub ? { sub } : {}), ip: '::ffff:198.51.100.7', rid, iat, exp: iat + 60 };
      expect(kid).toBe(key.id);
      expect(Buffer.from(payload, 'base64url').toString('utf8')).toBe(JSON.stringify(claims));
      expect(signature).toBe(createHmac('sha256', current).update(`${kid}.${payload}`).digest('base64url'));
      expect(verifyGatewayToken(gatewayKeyRing({ current, nodeEnv: 'test' }), token, rid, now)).toEqual({
        ok: true,
        claims,
      });
    }
  });
});

describe('the signing key', () => {
  it('must be set and strong in production', () => {
    expect(() => gatewayKeyRing({ current: undefined, nodeEnv: 'production' })).toThrow(
      /GATEWAY_SIGNING_KEY must be a strong random key in production \(it is not set\)/,
    );
    expect(() => gatewayKeyRing({ current: 'short-key', nodeEnv: 'production' })).toThrow(/at least 32 are needed/);
    expect(() => gatewayKeyRing({ current: 'a'.repeat(40), nodeEnv: 'production' })).toThrow(
      /too few different characters/,
    );
    expect(() => loadServiceConfig({ NODE_ENV: 'production', GATEWAY_SIGNING_KEY: 'short-key' }, { port: 0 })).toThrow(
      /GATEWAY_SIGNING_KEY/,
    );
    expect(gatewayKeyRing({ current, nodeEnv: 'production' }).current?.id).toMatch(/^[0-9a-f]{12}$/);
  });

  it('leaves admin routes closed when a development service has none', () => {
    const ring = gatewayKeyRing({ current: undefined, nodeEnv: 'development' });
    const token = signGatewayToken(gatewaySigningKey(current), { sub: admin, ip: '127.0.0.1', rid: 'r1' });
    expect(verifyGatewayToken(ring, token, 'r1')).toEqual({
      ok: false,
      reason: expect.stringMatching(/no gateway signing key/) as unknown,
    });
  });

  it('never shows in a log line, nor does the token, a cookie or a verification code', () => {
    const lines: string[] = [];
    const log = createLogger({
      service: 'orders',
      destination: new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }),
    });
    const token = signGatewayToken(gatewaySigningKey(current), { sub: admin, ip: '127.0.0.1', rid: 'r1' });
    log.info(
      {
        req: {
          headers: {
            [gatewayTokenHeader]: token,
            cookie: 'shop_admin_session=s3cr3t-session',
            authorization: 'Bearer abc123',
          },
        },
        res: { headers: { 'set-cookie': 'shop_admin_session=s3cr3t-session; HttpOnly' } },
        headers: { 'stripe-signature': 't=1,v1=deadbeef' },
        event: { data: { code: '493817' } },
        body: {
          card: { number: '4242424242424242', cvc: '123' },
          clientSecret: 'pi_1_secret_2',
          password: 'Hunter-2-Hunter-2',
        },
        signingKey: current,
        sessionId: 's3cr3t-session',
        code: 'UNAUTHORIZED',
      },
      'everything secret at once',
    );
    const line = lines.join('');
    for (const secret of [
      token,
      current,
      's3cr3t-session',
      'abc123',
      'deadbeef',
      '493817',
      '4242424242424242',
      'pi_1_secret_2',
      'Hunter-2-Hunter-2',
    ]) {
      expect(line).not.toContain(secret);
    }
    // Error codes and other fields named like secrets one level up stay readable.
    expect(JSON.parse(line)).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
