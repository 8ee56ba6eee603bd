// Admin sign-in against the embedded MongoDB and a real nats-server: the first admin, login answers and
// the cookie, throttling (with a clock the test moves, from real loopback client addresses), logout that ends the session on the
// server, idle and absolute expiry, the gateway's NATS session check, and the audit trail. Every pino
// line the service writes is captured to prove no password or session id is ever logged.
import http from 'node:http';
import { Writable } from 'node:stream';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSessionCookie, errorEnvelopeSchema, sessionVerifySubject, verifiedAdminSchema } from '@shop/contracts';
import { adminHeaders, gatewayHeaders, spawnServiceProcess, testGatewayKey } from '@shop/service-kit/testing';
import { freePort, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { devAdmin, loadConfig } from '../src/config.js';
import { passwordWeakness } from '../src/domain/password-policy.js';
import { sessionHash } from '../src/domain/sessions.js';
import { ACCOUNT_SLOWDOWN_MAX_MS, THROTTLE_WINDOW_MS, accountSlowdownMs } from '../src/domain/throttle.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN = { email: 'chief@shop.test', password: 'Brass-Coin-Vault-42!', name: 'Chief Quartermaster' };

let mongo: StartedMongo;
let nats: StartedNats;
let service: Awaited<ReturnType<typeof buildApp>>;
let url: string;
const logLines: string[] = [];
// A year ahead of the real time, on a window boundary: the TTL indexes compare expiry with the real
// time, so a clock in the past would have the database remove counters and sessions under the test.
let clock = Math.ceil((Date.now() + 365 * 24 * 3600_000) / (15 * 60_000)) * 15 * 60_000;
const advance = (ms: number) => {
  clock += ms;
};
/** To the start (plus a second) of the next 15-minute throttle window. */
const nextWindow = () => {
  clock = (Math.floor(clock / THROTTLE_WINDOW_MS) + 1) * THROTTLE_WINDOW_MS + 1000;
};
/** Every wait the per-account slowdown asked for (recorded instead of waited). */
const pauses: number[] = [];
let ipCounter = 0;
/** A fresh client address per test, so per-address limits of one test do not touch another. */
const freshIp = () => `203.0.113.${++ipCounter}`;

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  service = await buildApp(
    loadConfig({
      PORT: '0',
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'debug',
      NODE_ENV: 'test',
      ADMIN_EMAIL: ADMIN.email.toUpperCase(),
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_NAME: ADMIN.name,
    }),
    {
      logDestination: sink,
      now: () => new Date(clock),
      pause: async (ms) => {
        pauses.push(ms);
      },
      relay: { sweepIntervalMs: 200 },
    },
  );
  url = await service.start();
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

async function login(email: string, password: string, ip = freshIp()) {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...gatewayHeaders({ ip }), 'user-agent': 'vitest' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  const setCookie = res.headers.get('set-cookie') ?? '';
  const sessionId = /shop_admin_session=([^;]*)/.exec(setCookie)?.[1] ?? '';
  return { res, body, setCookie, sessionId };
}

/**
 * A sign-in from a real loopback client address (127.0.0.3...), without the gateway's signed identity: the
 * service sees the socket's address.
 */
function loginFrom(
  address: string,
  email: string,
  password: string,
): Promise<{ status: number; retryAfter: string | undefined; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ email, password });
    const req = http.request(`${url}/api/auth/login`, {
      method: 'POST',
      localAddress: address,
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'],
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const cookieFor = (sessionId: string) => ({ cookie: `${adminSessionCookie}=${sessionId}` });

async function me(sessionId: string) {
  return fetch(`${url}/api/auth/me`, { headers: cookieFor(sessionId) });
}

describe('first admin', () => {
  it('is created at start from ADMIN_EMAIL / ADMIN_PASSWORD, email in lower case, password hashed with scrypt', async () => {
    const { AdminUser } = service.ctx.models;
    const users = await AdminUser.find({}).select('+passwordHash').lean();
    expect(users).toHaveLength(1);
    const [user] = users;
    expect(user).toMatchObject({ email: ADMIN.email, name: ADMIN.name, role: 'admin', lastLoginAt: null });
    expect(user.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(user.passwordHash).not.toContain(ADMIN.password);
    // Plain reads never carry the hash.
    expect(await AdminUser.findOne({}).lean()).not.toHaveProperty('passwordHash');
  });

  it('is not created twice when the service starts again', async () => {
    expect(await service.auth.ensureFirstAdmin()).toBe('exists');
    expect(await service.ctx.models.AdminUser.countDocuments()).toBe(1);
  });
});

describe('configuration of the first admin', () => {
  it('refuses production without ADMIN_EMAIL and ADMIN_PASSWORD, naming both', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/ADMIN_EMAIL is required.*ADMIN_PASSWORD is required/);
  });

  it('refuses a weak password in production and accepts a strong one', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', ADMIN_EMAIL: 'a@shop.test', ADMIN_PASSWORD: 'password' }),
    ).toThrow(/ADMIN_PASSWORD is too weak: it must be at least 12/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', ADMIN_EMAIL: 'a@shop.test', ADMIN_PASSWORD: 'Password1234' }),
    ).toThrow(/too weak: it is one of the most common/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', ADMIN_EMAIL: 'a@shop.test', ADMIN_PASSWORD: 'alllowercaseletters' }),
    ).toThrow(/mix at least three/);
    // Strong by the rules, but printed in the README.
    expect(() =>
      loadConfig({ NODE_ENV: 'production', ADMIN_EMAIL: 'a@shop.test', ADMIN_PASSWORD: devAdmin.password }),
    ).toThrow(/ADMIN_PASSWORD is the published development password/);
    const config = loadConfig({ NODE_ENV: 'production', ADMIN_EMAIL: 'Ops@Shop.test', ADMIN_PASSWORD: ADMIN.password });
    expect(config.firstAdmin).toMatchObject({ email: 'ops@shop.test', documentedDefault: false });
    // Production cookies are Secure unless told otherwise (plain-http local runs).
    expect(config.cookieSecure).toBe(true);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        ADMIN_EMAIL: 'a@shop.test',
        ADMIN_PASSWORD: ADMIN.password,
        SESSION_COOKIE_SECURE: 'false',
      }).cookieSecure,
    ).toBe(false);
    expect(() => loadConfig({ SESSION_COOKIE_SECURE: 'sometimes' })).toThrow(
      /SESSION_COOKIE_SECURE must be true or false/,
    );
  });

  it('uses the documented development admin outside production', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    expect(config.firstAdmin).toEqual({
      email: devAdmin.email,
      password: devAdmin.password,
      name: devAdmin.name,
      documentedDefault: true,
    });
    expect(config.cookieSecure).toBe(false);
    expect(passwordWeakness(devAdmin.password, devAdmin.email)).toBeUndefined();
  });

  it('the real main.ts exits with a clear message in production without credentials', async () => {
    const port = await freePort();
    const started = spawnServiceProcess({
      packageDir,
      env: {
        PORT: String(port),
        MONGO_URL: mongo.uri,
        NATS_URL: nats.url,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        GATEWAY_SIGNING_KEY: testGatewayKey(),
      },
      readyTimeoutMs: 60_000,
    });
    await expect(started).rejects.toThrow(/exited with 1[\s\S]*ADMIN_EMAIL is required/);
  });
});

describe('POST /api/auth/login', () => {
  it('signs in: user in the body, session cookie HttpOnly, SameSite=Strict, Path=/, 8 h, a random 32-byte id', async () => {
    const { res, body, setCookie, sessionId } = await login(ADMIN.email, ADMIN.password);
    expect(res.status).toBe(200);
    expect(body).toEqual({ user: { email: ADMIN.email, name: ADMIN.name, role: 'admin' } });
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=28800/);
    expect(setCookie).not.toMatch(/Secure/); // NODE_ENV=test over plain http
    expect(Buffer.from(sessionId, 'base64url')).toHaveLength(32);
    expect(res.headers.get('cache-control')).toBe('no-store');

    // Only the SHA-256 of the id is stored.
    const stored = await service.ctx.models.Session.find({}).lean();
    expect(stored.map((s) => s._id)).toContain(sessionHash(sessionId));
    expect(stored.map((s) => s._id)).not.toContain(sessionId);

    const who = await me(sessionId);
    expect(who.status).toBe(200);
    expect(await who.json()).toEqual({ user: { email: ADMIN.email, name: ADMIN.name, role: 'admin' } });
    const user = await service.ctx.models.AdminUser.findOne({ email: ADMIN.email }).lean();
    expect(user!.lastLoginAt?.getTime()).toBe(clock);
  });

  it('accepts the email in any case and with spaces around it', async () => {
    const { res } = await login(`  ${ADMIN.email.toUpperCase()} `, ADMIN.password);
    expect(res.status).toBe(200);
  });

  it('answers a wrong password and an unknown email the same way: 401 Invalid email or password, no cookie', async () => {
    const wrong = await login(ADMIN.email, 'Not-The-Password-1');
    const unknown = await login('nobody@shop.test', ADMIN.password);
    for (const attempt of [wrong, unknown]) {
      expect(attempt.res.status).toBe(401);
      expect(attempt.setCookie).toBe('');
      const { requestId: _id, ...envelope } = errorEnvelopeSchema.parse(attempt.body);
      expect(envelope).toEqual({ error: 'Invalid email or password', code: 'UNAUTHORIZED' });
    }
  });

  it('refuses a missing field with a 400 naming it', async () => {
    const res = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/password is required/);
  });

  it('GET /api/auth/me without a cookie, or with a made-up one, is 401', async () => {
    expect((await fetch(`${url}/api/auth/me`)).status).toBe(401);
    const forged = await me('x'.repeat(43));
    expect(forged.status).toBe(401);
    expect(forged.headers.get('set-cookie')).toMatch(/Max-Age=0/);
  });
});

describe('throttling', () => {
  // The admin's own address and the attackers' addresses: distinct loopback addresses, as the gateway
  // passes each client's address on.
  const adminAddress = '127.0.0.2';

  it('stops an address after 5 failures on an account (429, Retry-After), even for the right password, while the admin at their own address signs in', async () => {
    nextWindow();
    const attacker = '127.0.0.3';
    for (let i = 1; i <= 4; i++)
      expect((await loginFrom(attacker, ADMIN.email, `Wrong-Password-${i}`)).status).toBe(401);
    const fifth = await loginFrom(attacker, ADMIN.email, 'Wrong-Password-5');
    expect(fifth.status).toBe(429);
    expect(fifth.retryAfter).toBe('899');
    expect(fifth.body.error).toMatch(/Too many failed sign-in attempts\. Sign-in is locked for 15 minutes/);

    // The attacker's address stays stopped, even with the right password (a correct guess lifts nothing).
    advance(60_000);
    const stopped = await loginFrom(attacker, ADMIN.email, ADMIN.password);
    expect(stopped.status).toBe(429);
    expect(stopped.retryAfter).toBe('839');

    // The real admin, from their own address, during the attack: signed in.
    expect((await loginFrom(adminAddress, ADMIN.email, ADMIN.password)).status).toBe(200);

    nextWindow();
    expect((await loginFrom(attacker, ADMIN.email, ADMIN.password)).status).toBe(200);
  });

  it('an unknown email is stopped the same way (no hint that the account does not exist)', async () => {
    nextWindow();
    let last;
    for (let i = 1; i <= 5; i++) last = await loginFrom('127.0.0.5', 'ghost@shop.test', `Guess-${i}-aaaaaa`);
    expect(last?.status).toBe(429);
    expect(last?.body.error).toMatch(/Sign-in is locked/);
  });

  it('guesses from many addresses slow the account down, never lock it: the admin from their own address still gets in', async () => {
    nextWindow();
    pauses.length = 0;
    const attackers = ['127.0.0.10', '127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14', '127.0.0.15'];
    for (const address of attackers) {
      for (let i = 1; i <= 4; i++)
        expect((await loginFrom(address, ADMIN.email, `Guess-${address}-${i}`)).status).toBe(401);
    }
    // 24 failures on the account: from the 11th attempt on, every answer waited, growing, within the cap.
    expect(pauses.length).toBe(24 - 10);
    expect(pauses[0]).toBe(accountSlowdownMs(10));
    expect(pauses.every((ms, i) => i === 0 || ms >= pauses[i - 1])).toBe(true);
    expect(Math.max(...pauses)).toBe(ACCOUNT_SLOWDOWN_MAX_MS);

    const admin = await loginFrom(adminAddress, ADMIN.email, ADMIN.password);
    expect(admin.status).toBe(200);
    // The admin waited too (the slowdown does not tell a right password from a wrong one), but got in.
    expect(pauses.at(-1)).toBe(ACCOUNT_SLOWDOWN_MAX_MS);
  });

  it('stops one address after 20 failures across many accounts, while other addresses still sign in', async () => {
    nextWindow();
    const address = '127.0.0.4';
    for (let i = 0; i < 20; i++)
      expect((await loginFrom(address, `target${i}@shop.test`, 'Some-Guess-123')).status).toBe(401);
    const blocked = await loginFrom(address, ADMIN.email, ADMIN.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatch(/from your network/);
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    expect((await loginFrom(adminAddress, ADMIN.email, ADMIN.password)).status).toBe(200);
    nextWindow();
    expect((await loginFrom(address, ADMIN.email, ADMIN.password)).status).toBe(200);
  });

  it('takes the client address the gateway signs, so one gateway is not one address, and never X-Forwarded-For', async () => {
    nextWindow();
    for (let i = 1; i <= 5; i++) await login(ADMIN.email, `Wrong-${i}-forwarded`, '198.51.100.7');
    expect((await login(ADMIN.email, ADMIN.password, '198.51.100.7')).res.status).toBe(429);
    expect((await login(ADMIN.email, ADMIN.password, '198.51.100.8')).res.status).toBe(200);
    // A caller that skips the gateway cannot borrow (or escape) an address by claiming it.
    const claimed = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.7' },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
    });
    expect(claimed.status).toBe(200);
  });

  it('keeps its counters in MongoDB with an expiry (they survive a restart and are shared by replicas)', async () => {
    const docs = await service.ctx.models.RateCounter.find({}).lean();
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.some((d) => d._id.startsWith('login-fail-pair:'))).toBe(true);
    for (const doc of docs) expect(doc.expiresAt).toBeInstanceOf(Date);
    const indexes = await service.ctx.models.RateCounter.collection.indexes();
    expect(indexes.some((i) => i.key.expiresAt === 1 && i.expireAfterSeconds === 0)).toBe(true);
  });
});

describe('sessions', () => {
  it('logout ends the session on the server: the old cookie is refused afterwards', async () => {
    const { sessionId } = await login(ADMIN.email, ADMIN.password);
    expect((await me(sessionId)).status).toBe(200);
    const out = await fetch(`${url}/api/auth/logout`, { method: 'POST', headers: cookieFor(sessionId) });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ success: true });
    expect(out.headers.get('set-cookie')).toMatch(/shop_admin_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0/);
    expect(await service.ctx.models.Session.findById(sessionHash(sessionId)).lean()).toBeNull();
    // Replaying the saved cookie does not work.
    expect((await me(sessionId)).status).toBe(401);
    await expect(
      service.ctx.bus.request(sessionVerifySubject, { sessionHash: sessionHash(sessionId) }),
    ).rejects.toMatchObject({ statusCode: 401 });
    // A second logout is harmless.
    expect((await fetch(`${url}/api/auth/logout`, { method: 'POST', headers: cookieFor(sessionId) })).status).toBe(200);
  });

  it('ends after 8 hours without use', async () => {
    const { sessionId } = await login(ADMIN.email, ADMIN.password);
    advance(8 * 3600_000 + 1000);
    expect((await me(sessionId)).status).toBe(401);
    expect(await service.ctx.models.Session.findById(sessionHash(sessionId)).lean()).toBeNull();
  });

  it('slides while used, but never beyond 24 hours after sign-in', async () => {
    const { sessionId } = await login(ADMIN.email, ADMIN.password);
    for (let hours = 7; hours <= 21; hours += 7) {
      advance(7 * 3600_000);
      const res = await me(sessionId);
      expect(res.status, `after ${hours} h`).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(/Max-Age=\d+/);
    }
    advance(3 * 3600_000 + 1000); // 24 h after sign-in
    expect((await me(sessionId)).status).toBe(401);
  });

  it('answers the gateway over NATS with the admin for a live session hash, 401 otherwise, never the id itself', async () => {
    const { sessionId } = await login(ADMIN.email, ADMIN.password);
    const admin = verifiedAdminSchema.parse(
      await service.ctx.bus.request(sessionVerifySubject, { sessionHash: sessionHash(sessionId) }),
    );
    expect(admin).toMatchObject({ email: ADMIN.email, name: ADMIN.name, role: 'admin' });
    expect(Date.parse(admin.expiresAt)).toBe(clock + 8 * 3600_000);
    await expect(service.ctx.bus.request(sessionVerifySubject, { sessionHash: '0'.repeat(64) })).rejects.toMatchObject({
      statusCode: 401,
    });
    await expect(service.ctx.bus.request(sessionVerifySubject, { sessionHash: sessionId })).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});

describe('audit trail', () => {
  it('records sign-in success, failure, lockout and logout with who, when and from where', async () => {
    const records = await service.ctx.models.AuditRecord.find({
      action: { $in: ['auth.login', 'auth.logout'] },
    }).lean();
    const outcomes = new Set(records.map((r) => `${r.action}:${r.outcome}`));
    expect(outcomes).toEqual(
      new Set(['auth.login:success', 'auth.login:failure', 'auth.login:locked', 'auth.logout:success']),
    );
    const failure = records.find((r) => r.outcome === 'failure')!;
    expect(failure.ip).toMatch(/^203\.0\.113\./);
    expect(failure.at).toBeInstanceOf(Date);
    expect(JSON.stringify(records)).not.toContain(ADMIN.password);
  });

  it('stores each gateway.admin_action event once and lists it to admins only', async () => {
    const at = new Date(clock).toISOString();
    const data = {
      adminId: 'admin-1',
      adminEmail: ADMIN.email,
      method: 'PUT',
      path: '/api/orders/665f1c2e9b1d8a0012345678/status',
      route: 'PUT /api/orders/:id/*',
      targetId: '665f1c2e9b1d8a0012345678',
      ip: '198.51.100.7',
      statusCode: 200,
      outcome: 'success' as const,
      durationMs: 12,
      at,
    };
    await service.ctx.withOutbox(async (_session, outbox) => {
      outbox.add('gateway.admin_action', data);
    });
    await expect
      .poll(() => service.ctx.models.AuditRecord.countDocuments({ action: 'admin.call', targetId: data.targetId }), {
        timeout: 15_000,
      })
      .toBe(1);

    expect((await fetch(`${url}/api/security/audit`)).status).toBe(401);
    const res = await fetch(`${url}/api/security/audit?limit=500`, { headers: adminHeaders(ADMIN.email) });
    expect(res.status).toBe(200);
    const { records } = (await res.json()) as { records: Array<Record<string, unknown>> };
    expect(records.find((r) => r.targetId === data.targetId)).toMatchObject({
      actorEmail: ADMIN.email,
      action: 'admin.call',
      method: 'PUT',
      ip: '198.51.100.7',
      outcome: 'success',
      statusCode: 200,
    });
    const bad = await fetch(`${url}/api/security/audit?limit=0`, { headers: adminHeaders(ADMIN.email) });
    expect(bad.status).toBe(400);
  });
});

describe('logs', () => {
  it('never contain a password, a password hash or a session id', async () => {
    const { sessionId } = await login(ADMIN.email, ADMIN.password);
    await me(sessionId);
    await fetch(`${url}/api/auth/logout`, { method: 'POST', headers: cookieFor(sessionId) });
    const hash = (await service.ctx.models.AdminUser.findOne({}).select('+passwordHash').lean())!.passwordHash;
    const all = logLines.join('');
    expect(logLines.length).toBeGreaterThan(10);
    expect(all).not.toContain(ADMIN.password);
    expect(all).not.toContain('Wrong-Password-');
    expect(all).not.toContain(hash.split('$')[5]);
    expect(all).not.toContain(sessionId);
    expect(all).toContain('first admin created from ADMIN_EMAIL / ADMIN_PASSWORD');
  });
});
