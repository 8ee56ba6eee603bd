import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './helpers.js';

describe('security headers', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('sends a CSP that allows only same-origin scripts (and Stripe.js for the card field), and the usual hardening headers', async () => {
    const res = await fetch(`${stack.url}/api/docs`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [k, ...v] = d.trim().split(' ');
        return [k, v.join(' ')];
      }),
    );
    expect(directives['default-src']).toBe("'self'");
    expect(directives['script-src']).toBe("'self' https://js.stripe.com");
    expect(directives['script-src-attr']).toBe("'none'");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(directives['connect-src']).toBe("'self' https://api.stripe.com");
    // Our pages may frame only themselves and Stripe's card field; nobody may frame ours.
    expect(directives['frame-src']).toBe("'self' https://js.stripe.com https://hooks.stripe.com");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('also sends them on answers proxied from a service', async () => {
    const res = await fetch(`${stack.url}/api/orders/track`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self' https://js.stripe.com;");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('rate limiting', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers 429 in the envelope after the per-address limit, with Retry-After', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await fetch(`${stack.url}/api/content/public`);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const body = (await last!.json()) as { error: string; code: string; requestId: string };
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.error).toMatch(
      /^Too many requests from your address: the limit is 3 per minute\. Please wait \d+ seconds? and try again\.$/,
    );
    expect(body.requestId).toBe(last!.headers.get('x-request-id'));
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('tells each answer how many calls are left, and counts admin guesses before the session check', async () => {
    const limited = await startStack({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' });
    try {
      const first = await fetch(`${limited.url}/api/content/public`);
      expect(first.headers.get('x-ratelimit-limit')).toBe('3');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
      expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      // Calls refused by the admin check count too: the fourth is refused by the limit, not the check.
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${limited.url}/api/admin/settings`)).status);
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  it('never limits the health check, the probes or the pages', async () => {
    for (let i = 0; i < 6; i++) {
      expect((await fetch(`${stack.url}/api/health`)).status).toBe(200);
      expect((await fetch(`${stack.url}/api/health?from=dashboard`)).status).toBe(200);
      expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${stack.url}/track`, { headers: { accept: 'text/html' } })).status).not.toBe(429);
    }
  });

  it('counts each client address on its own (behind a trusted proxy)', async () => {
    const proxied = await startStack({ RATE_LIMIT_MAX: '2', TRUST_PROXY: '1' });
    try {
      const from = (ip: string) => fetch(`${proxied.url}/api/content/public`, { headers: { 'x-forwarded-for': ip } });
      expect((await from('198.51.100.1')).status).toBe(200);
      expect((await from('198.51.100.1')).status).toBe(200);
      expect((await from('198.51.100.1')).status).toBe(429);
      expect((await from('198.51.100.2')).status).toBe(200);
      expect(proxied.upstreams.marketing.seen.at(-1)!.headers['x-forwarded-for']).toBe('198.51.100.2');
    } finally {
      await proxied.close();
    }
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 one', async () => {
    const proxied = await startStack({ RATE_LIMIT_MAX: '2', TRUST_PROXY: '1' });
    try {
      const from = async (ip: string) =>
        (await fetch(`${proxied.url}/api/content/public`, { headers: { 'x-forwarded-for': ip } })).status;
      // Two addresses of one /64 share a count; the first one's third call is refused.
      expect([await from('2001:db8:1:2::1'), await from('2001:db8:1:2::ffff'), await from('2001:db8:1:2::1')]).toEqual([
        200, 200, 429,
      ]);
      expect(await from('2001:DB8:1:2::abcd')).toBe(429);
      expect(await from('2001:db8:1:3::1')).toBe(200);
      expect([
        await from('::ffff:198.51.100.9'),
        await from('198.51.100.9'),
        await from('::ffff:198.51.100.9'),
      ]).toEqual([200, 200, 429]);
    } finally {
      await proxied.close();
    }
  });
});
