// The admin check: every admin row of the access table answers 401 without a session and forwards
// nothing; a valid session from another site gets 403; a valid session from the shop's own page is
// forwarded with the verified admin in x-admin-* (whatever the client claimed); ended sessions stop
// working; every admin call is published for the audit trail. A real nats-server carries the session
// checks, answered by a stand-in for the security service (test/helpers.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_RULES, accessFor, canonicalPath, targetIdOf, type Method } from '../src/admin-routes.js';
import { routeForPath } from '../src/routes.js';
import { signedIdentityOf, startStack, type Stack } from './helpers.js';
import { gatewayTokenHeader } from '@shop/contracts';

const ID = '665f1c2e9b1d8a0012345678';
const ALL_METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** One concrete call per method for each admin row: `:id` filled in, `/**` with a deeper path. */
function adminCalls(): Array<[Method, string]> {
  const calls: Array<[Method, string]> = [];
  for (const rule of ACCESS_RULES) {
    if (rule.access === 'public') continue;
    const methods = rule.methods === '*' ? ALL_METHODS : rule.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
    const base = rule.pattern.replace(/\/\*\*$/, '').replace(/:id/g, ID);
    const paths = rule.pattern.endsWith('/**') ? [base, `${base}/${ID}/details`] : [base];
    for (const method of methods) {
      for (const path of paths) {
        // The row must decide this call (not a more specific public row above it).
        // Only paths some service serves: others are the gateway's own 404.
        if (accessFor(method, path).rule === rule && routeForPath(path)) calls.push([method, path]);
      }
    }
  }
  return calls;
}

const totalSeen = (stack: Stack) => Object.values(stack.upstreams).reduce((n, u) => n + u.seen.length, 0);

describe('the access table', () => {
  it('keeps the storefront public and the back office admin', () => {
    const table: Array<[string, string, 'public' | 'admin']> = [
      ['POST', '/api/orders', 'public'],
      ['GET', '/api/orders', 'admin'],
      ['POST', '/api/orders/track', 'public'],
      ['POST', '/api/orders/history', 'public'],
      ['GET', `/api/orders/${ID}`, 'public'],
      ['PATCH', `/api/orders/${ID}/status`, 'public'],
      ['PUT', `/api/orders/${ID}/status`, 'admin'],
      ['DELETE', `/api/orders/${ID}`, 'admin'],
      ['POST', `/api/orders/${ID}/generate-quote`, 'admin'],
      ['GET', `/api/orders/${ID}/details`, 'admin'],
      ['PUT', `/api/orders/${ID}/details`, 'admin'],
      ['POST', `/api/orders/${ID}/send-email`, 'admin'],
      ['POST', `/api/orders/${ID}/info-request`, 'admin'],
      ['PUT', `/api/orders/${ID}/tracking`, 'admin'],
      ['POST', '/api/orders/bulk/status', 'admin'],
      ['POST', '/api/orders/bulk/delete', 'admin'],
      ['GET', '/api/orders/analytics', 'admin'],
      ['GET', '/api/orders/export.csv', 'admin'],
      ['HEAD', '/api/orders/export.csv', 'admin'],
      ['POST', '/api/upload', 'public'],
      ['POST', '/api/ai/generate-design', 'public'],
      ['POST', '/api/payments/webhook', 'public'],
      ['GET', '/api/payments/config', 'public'],
      ['POST', '/api/payments/create-intent', 'public'],
      ['POST', '/api/payments/test-mode/confirm', 'public'],
      ['GET', '/api/payments/webhook', 'admin'],
      ['POST', '/api/payments/config', 'admin'],
      ['GET', '/api/payments/create-intent', 'admin'],
      ['POST', '/api/payments/refunds', 'admin'],
      ['GET', '/api/payments', 'admin'],
      ['GET', `/api/payments/intents/${ID}`, 'admin'],
      ['GET', '/api/config/business', 'admin'],
      ['GET', '/api/config/contact/public', 'public'],
      ['POST', '/api/config/contact', 'admin'],
      ['POST', '/api/customers/lookup', 'public'],
      ['POST', '/api/customers/verify', 'public'],
      ['GET', '/api/customers', 'admin'],
      ['POST', '/api/support', 'public'],
      ['GET', '/api/support', 'admin'],
      ['POST', `/api/support/${ID}/responses`, 'admin'],
      ['POST', '/api/returns', 'public'],
      ['GET', '/api/content/public', 'public'],
      ['GET', '/api/content', 'admin'],
      ['PUT', '/api/content', 'admin'],
      ['GET', '/api/marketing/discounts', 'admin'],
      ['POST', '/api/auth/login', 'public'],
      ['GET', '/api/auth/me', 'public'],
      ['GET', '/api/security/audit', 'admin'],
      ['GET', '/api/email/queue/stats', 'admin'],
      ['PUT', '/api/admin/settings', 'admin'],
      ['GET', '/api/debug/env', 'admin'],
      ['GET', '/api/debug/mailbox', 'admin'],
      ['DELETE', '/api/debug/mailbox', 'admin'],
      ['GET', '/api/security/_service', 'public'],
      ['GET', '/api/email/_service', 'public'],
      ['POST', '/api/security/_service', 'admin'],
    ];
    for (const [method, path, access] of table)
      expect(accessFor(method, path).access, `${method} ${path}`).toBe(access);
  });

  it('reads paths the way the router does: decoded, no encoded separators or dot segments', () => {
    expect(canonicalPath('/api/%61dmin/settings?x=1')).toBe('/api/admin/settings');
    expect(canonicalPath('//api//security/audit')).toBe('/api/security/audit');
    expect(canonicalPath('/api/orders/1%2Fstatus')).toBeUndefined();
    expect(canonicalPath('/api/orders/..%2F..%2Fadmin')).toBeUndefined();
    expect(canonicalPath('/api/orders/%2e%2e/admin')).toBeUndefined();
    expect(canonicalPath('/api/orders/%E0%A4%A')).toBeUndefined();
  });

  it('names the target of a call for the audit trail', () => {
    expect(targetIdOf(`/api/orders/${ID}/status`)).toBe(ID);
    expect(targetIdOf('/api/email/queue/retry/mail-17')).toBe('mail-17');
    expect(targetIdOf('/api/admin/settings')).toBeUndefined();
  });
});

describe('admin calls through the gateway', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ NODE_ENV: 'production' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('every admin row answers 401 in the envelope without a session, and no service hears of it', async () => {
    const calls = adminCalls();
    expect(calls.length).toBeGreaterThan(40);
    const before = totalSeen(stack);
    for (const [method, path] of calls) {
      const res = await fetch(`${stack.url}${path}`, {
        method,
        headers: { origin: stack.url, 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
      expect(res.status, `${method} ${path}`).toBe(401);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ code: 'UNAUTHORIZED', error: 'Please sign in to continue.' });
      expect(body.requestId).toBe(res.headers.get('x-request-id'));
    }
    expect(totalSeen(stack)).toBe(before);
  });

  it('a made-up session, or the encoded spelling of an admin path, gets no further', async () => {
    const before = totalSeen(stack);
    const forged = await fetch(`${stack.url}/api/admin/settings`, {
      headers: { cookie: 'shop_admin_session=made-up' },
    });
    expect(forged.status).toBe(401);
    const encoded = await fetch(`${stack.url}/api/admin/%73ettings`);
    expect(encoded.status).toBe(401);
    const separator = await fetch(`${stack.url}/api/orders/${ID}%2Fstatus`, {
      method: 'PATCH',
      headers: stack.adminHeaders(),
    });
    expect(separator.status).toBe(400);
    expect(totalSeen(stack)).toBe(before);
  });

  it('decides each method of an address on its own, again and again (decisions are kept per method and address)', async () => {
    // GET /api/content/public is public, PUT of the same address is admin; a query string changes neither.
    for (let round = 0; round < 3; round++) {
      const read = await fetch(`${stack.url}/api/content/public?round=${round}`);
      expect(read.status).toBe(200);
      const write = await fetch(`${stack.url}/api/content/public?round=${round}`, {
        method: 'PUT',
        headers: { origin: stack.url, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(write.status).toBe(401);
      const separator = await fetch(`${stack.url}/api/orders/${ID}%2Fstatus`);
      expect(separator.status).toBe(400);
    }
  });

  it("forwards the spec's back-office order calls (admin part A §7) with a session, unchanged, to the orders service", async () => {
    const calls: Array<[Method, string, string?]> = [
      ['GET', '/api/orders?status=pending&page=2'],
      ['PUT', `/api/orders/${ID}/status`, '{"status":"shipped"}'],
      ['DELETE', `/api/orders/${ID}`],
      ['GET', `/api/orders/${ID}/details`],
      ['PUT', `/api/orders/${ID}/details`, '{"notes":"Rush"}'],
      ['POST', `/api/orders/${ID}/send-email`, '{"subject":"Hi","message":"Hello","type":"admin_message"}'],
      ['POST', `/api/orders/${ID}/generate-quote`, '{"quoteAmount":100,"sendEmail":true}'],
      ['PUT', `/api/orders/${ID}/tracking`, '{"trackingNumber":"1Z","carrier":"UPS"}'],
      ['GET', '/api/orders/analytics?period=7d'],
      ['GET', '/api/orders/export.csv?itemType=coin'],
    ];
    for (const [method, path, body] of calls) {
      const res = await fetch(`${stack.url}${path}`, {
        method,
        headers: stack.adminHeaders(body ? { 'content-type': 'application/json' } : {}),
        body,
      });
      expect(res.status, `${method} ${path}`).toBe(200);
      const seen = stack.upstreams.orders.seen.at(-1)!;
      expect(seen, `${method} ${path}`).toMatchObject({ method, url: path });
      expect(signedIdentityOf(stack, seen).sub?.email, `${method} ${path}`).toBe('chief@shop.test');
    }
  });

  it('the local mailbox needs an admin session', async () => {
    const before = stack.upstreams.email.seen.length;
    expect((await fetch(`${stack.url}/api/debug/mailbox?to=someone%40example.com`)).status).toBe(401);
    expect(stack.upstreams.email.seen.length).toBe(before);
    expect((await fetch(`${stack.url}/api/debug/mailbox`, { headers: stack.adminHeaders() })).status).toBe(200);
  });

  it("forwards with a session, with the verified admin signed for the service and the client's own x-admin-* and token removed", async () => {
    const res = await fetch(`${stack.url}/api/security/audit?limit=5`, {
      headers: stack.adminHeaders({
        'x-admin-email': 'intruder@evil.example',
        'X-Admin-Role': 'owner',
        'x-admin-impersonate': 'yes',
        [gatewayTokenHeader]: 'forged.by.client',
        'x-forwarded-for': '203.0.113.50',
        cookie: `theme=dark; shop_admin_session=${stack.security.sessionId}`,
      }),
    });
    expect(res.status).toBe(200);
    const seen = stack.upstreams.security.seen.at(-1)!;
    expect(seen.url).toBe('/api/security/audit?limit=5');
    const identity = signedIdentityOf(stack, seen);
    expect(identity.sub).toEqual({
      id: 'admin-1',
      email: 'chief@shop.test',
      name: 'Chief Quartermaster',
      role: 'admin',
    });
    // The address the gateway saw (no TRUST_PROXY here), not the one the client claimed.
    expect(identity.ip).toBe('127.0.0.1');
    expect(identity.rid).toBe(res.headers.get('x-request-id'));
    expect(identity.exp - identity.iat).toBeLessThanOrEqual(60);
    for (const name of ['x-admin-id', 'x-admin-email', 'x-admin-name', 'x-admin-role', 'x-admin-impersonate'])
      expect(seen.headers[name], name).toBeUndefined();
  });

  it('strips client x-admin-* headers on public calls too, and keeps the admin cookie away from other services', async () => {
    await fetch(`${stack.url}/api/orders/track`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-admin-id': 'admin-1',
        'x-admin-email': 'chief@shop.test',
        cookie: `theme=dark; shop_admin_session=${stack.security.sessionId}`,
      },
      body: '{}',
    });
    const seen = stack.upstreams.orders.seen.at(-1)!;
    expect(seen.url).toBe('/api/orders/track');
    expect(seen.headers['x-admin-id']).toBeUndefined();
    expect(seen.headers['x-admin-email']).toBeUndefined();
    expect(seen.headers.cookie).toBe('theme=dark');
    // A public call is signed too (the client's address), and names no admin even with a session cookie.
    const identity = signedIdentityOf(stack, seen);
    expect(identity.sub).toBeUndefined();
    expect(identity.ip).toBe('127.0.0.1');
  });

  it("writes from the shop's own page are forwarded; Referer stands in for a missing Origin", async () => {
    const put = await fetch(`${stack.url}/api/orders/${ID}/status`, {
      method: 'PUT',
      headers: stack.adminHeaders({ 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }),
      body: '{"status":"shipped"}',
    });
    expect(put.status).toBe(200);
    expect(stack.upstreams.orders.seen.at(-1)).toMatchObject({ method: 'PUT', url: `/api/orders/${ID}/status` });
    const { origin: _origin, ...noOrigin } = stack.adminHeaders();
    const viaReferer = await fetch(`${stack.url}/api/admin/settings`, {
      method: 'PUT',
      headers: { ...noOrigin, referer: `${stack.url}/admin`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(viaReferer.status).toBe(200);
  });

  it('refuses cross-site writes with a valid session: 403 in the envelope, nothing forwarded', async () => {
    const { origin: _origin, ...noOrigin } = stack.adminHeaders();
    const attempts: Array<Record<string, string>> = [
      stack.adminHeaders({ origin: 'https://evil.example' }),
      stack.adminHeaders({ origin: 'null' }),
      stack.adminHeaders({ 'sec-fetch-site': 'cross-site' }),
      stack.adminHeaders({ 'sec-fetch-site': 'same-site' }),
      { ...noOrigin, referer: 'https://evil.example/page' },
      noOrigin,
    ];
    const before = totalSeen(stack);
    for (const headers of attempts) {
      for (const [method, path] of [
        ['DELETE', `/api/orders/${ID}`],
        ['POST', '/api/email/test'],
        ['PUT', '/api/admin/settings'],
      ] as const) {
        const res = await fetch(`${stack.url}${path}`, {
          method,
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{}',
        });
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(await res.json()).toMatchObject({ code: 'FORBIDDEN' });
      }
    }
    expect(totalSeen(stack)).toBe(before);
    // Reads are not state changes: a cross-site GET cannot read the answer anyway (no CORS).
    expect(
      (
        await fetch(`${stack.url}/api/admin/settings`, {
          headers: stack.adminHeaders({ origin: 'https://evil.example' }),
        })
      ).status,
    ).toBe(200);
  });

  it("refuses a cross-site sign-in or sign-out (no login CSRF) but forwards them from the shop's page", async () => {
    const evil = await fetch(`${stack.url}/api/auth/login`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(evil.status).toBe(403);
    const ours = await fetch(`${stack.url}/api/auth/login`, {
      method: 'POST',
      headers: { origin: stack.url, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(ours.status).toBe(200);
    expect((await fetch(`${stack.url}/api/auth/me`)).status).toBe(200);
  });

  it("takes the payment page's writes only from the shop's own pages, and the Stripe webhook from anywhere", async () => {
    for (const path of ['/api/payments/create-intent', '/api/payments/test-mode/confirm']) {
      const before = stack.upstreams.payments.seen.length;
      const evil = await fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(evil.status, path).toBe(403);
      const bare = await fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(bare.status, path).toBe(403);
      expect(stack.upstreams.payments.seen.length, path).toBe(before);
      const ours = await fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: { origin: stack.url, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(ours.status, path).toBe(200);
      expect(stack.upstreams.payments.seen.at(-1)!.url).toBe(path);
    }
    const webhook = await fetch(`${stack.url}/api/payments/webhook`, {
      method: 'POST',
      headers: { origin: 'https://hooks.stripe.com', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(webhook.status).toBe(200);
    expect(
      (await fetch(`${stack.url}/api/payments/config`, { headers: { origin: 'https://evil.example' } })).status,
    ).toBe(200);
  });

  it("keeps the storefront's calls public (the Stripe webhook has no Origin at all)", async () => {
    for (const [method, path] of [
      ['POST', '/api/orders'],
      ['POST', '/api/orders/track'],
      ['GET', `/api/orders/${ID}`],
      ['PATCH', `/api/orders/${ID}/status`],
      ['POST', '/api/customers/lookup'],
      ['POST', '/api/support'],
      ['GET', '/api/config/contact/public'],
      ['GET', '/api/content/public'],
      ['POST', '/api/payments/webhook'],
      ['GET', '/api/payments/config'],
      ['POST', '/api/upload'],
    ] as const) {
      const res = await fetch(`${stack.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
      expect(res.status, `${method} ${path}`).toBe(200);
    }
  });

  it('asks the security service once per session within a few seconds (cache), and stops at once on revocation', async () => {
    const sessionId = stack.security.addSession({ id: 'admin-2', email: 'second@shop.test' });
    const headers = { cookie: `shop_admin_session=${sessionId}` };
    const calls = stack.security.verifyCalls;
    expect((await fetch(`${stack.url}/api/email/queue/stats`, { headers })).status).toBe(200);
    expect((await fetch(`${stack.url}/api/email/queue/stats`, { headers })).status).toBe(200);
    expect(stack.security.verifyCalls - calls).toBe(1);
    stack.security.revoke(sessionId);
    await expect
      .poll(async () => (await fetch(`${stack.url}/api/email/queue/stats`, { headers })).status, { timeout: 3_000 })
      .toBe(401);
  });

  it('a sign-out through the gateway drops the cached session at once', async () => {
    const sessionId = stack.security.addSession();
    const headers = { cookie: `shop_admin_session=${sessionId}`, origin: stack.url };
    expect((await fetch(`${stack.url}/api/marketing/discounts`, { headers })).status).toBe(200);
    stack.security.forget(sessionId); // the security service ended it, without announcing
    expect((await fetch(`${stack.url}/api/auth/logout`, { method: 'POST', headers })).status).toBe(200);
    expect((await fetch(`${stack.url}/api/marketing/discounts`, { headers })).status).toBe(401);
  });

  it('publishes who did what, to which target, from where and how it ended, for every admin call', async () => {
    await fetch(`${stack.url}/api/orders/${ID}/tracking`, {
      method: 'PUT',
      headers: stack.adminHeaders({ 'content-type': 'application/json', 'user-agent': 'audit-test' }),
      body: '{}',
    });
    await fetch(`${stack.url}/api/orders/${ID}`, {
      method: 'DELETE',
      headers: stack.adminHeaders({ origin: 'https://evil.example', 'user-agent': 'audit-test' }),
    });
    await expect
      .poll(
        async () =>
          (await stack.security.auditEvents()).filter(
            (e) => (e.data as { userAgent?: string }).userAgent === 'audit-test',
          ).length,
        { timeout: 10_000 },
      )
      .toBe(2)
      .catch(async (err) => {
        console.log(JSON.stringify((await stack.security.auditEvents()).map((e) => e.data)));
        throw err;
      });
    const events = (await stack.security.auditEvents()).filter(
      (e) => (e.data as { userAgent?: string }).userAgent === 'audit-test',
    );
    expect(events.map((e) => e.source)).toEqual(['gateway', 'gateway']);
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({
        adminId: 'admin-1',
        adminEmail: 'chief@shop.test',
        method: 'PUT',
        path: `/api/orders/${ID}/tracking`,
        route: 'PUT /api/orders/**',
        targetId: ID,
        ip: '127.0.0.1',
        statusCode: 200,
        outcome: 'success',
      }),
      expect.objectContaining({ method: 'DELETE', path: `/api/orders/${ID}`, statusCode: 403, outcome: 'refused' }),
    ]);
    // Calls without a session are not attributed to anyone.
    const all = await stack.security.auditEvents();
    expect(all.every((e) => typeof (e.data as { adminEmail?: string }).adminEmail === 'string')).toBe(true);
  });
});

describe("the gateway's own origin", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ PUBLIC_ORIGIN: 'https://shop.example.com' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('behind a proxy that rewrites Host, PUBLIC_ORIGIN names it', async () => {
    const ok = await fetch(`${stack.url}/api/admin/settings`, {
      method: 'PUT',
      headers: stack.adminHeaders({ origin: 'https://shop.example.com' }),
      body: '',
    });
    expect(ok.status).toBe(200);
    const hostDerived = await fetch(`${stack.url}/api/admin/settings`, {
      method: 'PUT',
      headers: stack.adminHeaders(),
      body: '',
    });
    expect(hostDerived.status).toBe(403);
  });

  it('outside production the local mailbox needs an admin session too', async () => {
    const before = stack.upstreams.email.seen.length;
    expect((await fetch(`${stack.url}/api/debug/mailbox`)).status).toBe(401);
    expect((await fetch(`${stack.url}/api/debug/mailbox/messages`)).status).toBe(401);
    expect(stack.upstreams.email.seen.length).toBe(before);
  });

  it("answers admin calls 503 while the session cannot be checked, and keeps the shop's public calls working", async () => {
    await stack.security.nats.stop();
    const sessionId = stack.security.addSession();
    const res = await fetch(`${stack.url}/api/admin/settings`, {
      headers: { cookie: `shop_admin_session=${sessionId}` },
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      error: 'Admin sign-in cannot be checked right now. Please try again in a moment.',
    });
    expect(
      (
        await fetch(`${stack.url}/api/orders/track`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);
  });
});
