import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routeForPath } from '../src/routes.js';
import { largeAnswer, sha, startStack, type Stack } from './helpers.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

function lastSeen(service: keyof Stack['upstreams']) {
  return stack.upstreams[service].seen.at(-1);
}

describe('routing table', () => {
  // The architecture's "Who owns what" table, written out once more on purpose: a change to
  // routes.ts that breaks the contract must fail here.
  const expected: Array<[string, string]> = [
    ['/api/orders', 'orders'],
    ['/api/orders/track', 'orders'],
    ['/api/orders/history', 'orders'],
    ['/api/orders/6650f0c2a1b2c3d4e5f60718/status', 'orders'],
    ['/api/upload', 'orders'],
    ['/api/ai/generate-design', 'orders'],
    ['/api/payments/create-intent', 'payments'],
    ['/api/payments/webhook', 'payments'],
    ['/api/config/business', 'payments'],
    ['/api/customers', 'customers'],
    ['/api/customers/lookup', 'customers'],
    ['/api/customers/verify', 'customers'],
    ['/api/support', 'support'],
    ['/api/support/abc/responses', 'support'],
    ['/api/config/contact', 'support'],
    ['/api/config/contact/public', 'support'],
    ['/api/returns', 'support'],
    ['/api/marketing/discounts', 'marketing'],
    ['/api/content', 'marketing'],
    ['/api/content/reset', 'marketing'],
    ['/api/auth/login', 'security'],
    ['/api/auth/me', 'security'],
    ['/api/security/banned-ips', 'security'],
    ['/api/email/queue/stats', 'email'],
    ['/api/admin/settings', 'email'],
    ['/api/debug/env', 'email'],
  ];

  it('every row of the table has a path in this test', () => {
    for (const row of ROUTES) {
      expect(
        expected.some(([path]) => path === row.prefix || path.startsWith(`${row.prefix}/`)),
        row.prefix,
      ).toBe(true);
    }
  });

  it.each(expected)('POST %s reaches %s with path, query and body intact', async (path, service) => {
    expect(routeForPath(path)?.service).toBe(service);
    const body = JSON.stringify({ note: 'keep  this   spacing', unicode: 'Médaille ★', n: 1.5 });
    // Signed in and from the shop's own page: admin rows (most of these) need both.
    const res = await fetch(`${stack.url}${path}?page=2&q=a%20b`, {
      method: 'POST',
      headers: stack.adminHeaders({ 'content-type': 'application/json' }),
      body,
    });
    expect(res.status).toBe(200);
    const echo = (await res.json()) as { service: string; url: string; bodySha256: string };
    expect(echo.service).toBe(service);
    expect(echo.url).toBe(`${path}?page=2&q=a%20b`);
    expect(echo.bodySha256).toBe(sha(Buffer.from(body)));
  });

  it('GET, PATCH and DELETE are forwarded with their method', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await fetch(`${stack.url}/api/orders/42`, { method, headers: stack.adminHeaders() });
      expect(res.status).toBe(200);
      expect(lastSeen('orders')).toMatchObject({ method, url: '/api/orders/42' });
    }
  });

  it('a multipart upload arrives byte for byte, boundary included', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0x0d, 0x0a]);
    const form = new FormData();
    form.append('files', new Blob([bytes], { type: 'image/png' }), 'coin.png');
    form.append('files', new Blob(['%PDF-1.7\n'], { type: 'application/pdf' }), 'proof.pdf');
    const request = new Request(`${stack.url}/api/upload`, { method: 'POST', body: form });
    const sent = Buffer.from(await request.clone().arrayBuffer());
    const res = await fetch(request);
    expect(res.status).toBe(200);
    const seen = lastSeen('orders')!;
    expect(seen.url).toBe('/api/upload');
    expect(seen.headers['content-type']).toBe(request.headers.get('content-type'));
    expect(seen.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.body.equals(sent)).toBe(true);
    expect(seen.body.includes(bytes)).toBe(true);
  });

  it('the Stripe webhook body and signature header arrive unchanged (signatures stay verifiable)', async () => {
    const raw = '{\n  "id": "evt_1",\n  "type": "payment_intent.succeeded"   }\n';
    const signature = 't=1700000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd';
    const res = await fetch(`${stack.url}/api/payments/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: raw,
    });
    expect(res.status).toBe(200);
    const seen = lastSeen('payments')!;
    expect(seen.body.toString('utf8')).toBe(raw);
    expect(seen.headers['stripe-signature']).toBe(signature);
  });

  it('a chunked webhook body (no Content-Length, through the body-limit stream) arrives byte for byte, and a gzip one stays gzip', async () => {
    // Bytes a re-serialising proxy would change: key order, spacing, CRLF, escapes, non-ASCII, a BOM.
    const raw = Buffer.from(
      '\ufeff{"type":"payment_intent.succeeded","id":"evt_2",\r\n "data":{"object":{"id":"pi_1","amount":201147,"description":"Médaille \\u2605 ★"}}}\n',
      'utf8',
    );
    const signature = 't=1700000001,v1=' + 'ab'.repeat(32);
    const chunks = [raw.subarray(0, 7), raw.subarray(7, 40), raw.subarray(40)];
    const res = await fetch(`${stack.url}/api/payments/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      body: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk));
          controller.close();
        },
      }),
      duplex: 'half',
    });
    expect(res.status).toBe(200);
    const seen = lastSeen('payments')!;
    expect(seen.body.equals(raw)).toBe(true);
    expect(seen.headers['stripe-signature']).toBe(signature);
    expect(seen.headers['content-type']).toBe('application/json; charset=utf-8');

    const gzipped = gzipSync(raw);
    const zipped = await fetch(`${stack.url}/api/payments/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'stripe-signature': signature },
      body: gzipped,
    });
    expect(zipped.status).toBe(200);
    expect(lastSeen('payments')!.body.equals(gzipped)).toBe(true);
    expect(lastSeen('payments')!.headers['content-encoding']).toBe('gzip');
  });

  it('cookies and the client address reach the service; a forged x-forwarded-for does not', async () => {
    await fetch(`${stack.url}/api/auth/me`, {
      headers: { cookie: 'shop_session=abc', 'x-forwarded-for': '203.0.113.9' },
    });
    const seen = lastSeen('security')!;
    expect(seen.headers.cookie).toBe('shop_session=abc');
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
  });

  it('unknown /api paths get a 404 envelope and reach no service', async () => {
    const before = Object.values(stack.upstreams).reduce((n, u) => n + u.seen.length, 0);
    for (const path of ['/api/nothing', '/api/ordersX', '/api/config/other', '/api/health/nope', '/api']) {
      const res = await fetch(`${stack.url}${path}`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, path).toBe(404);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ code: 'NOT_FOUND' });
      expect(body.error).toContain(path);
      expect(body.requestId).toBe(res.headers.get('x-request-id'));
    }
    const after = Object.values(stack.upstreams).reduce((n, u) => n + u.seen.length, 0);
    expect(after).toBe(before);
  });
});

describe("the service's answer", () => {
  it('streams a large answer through byte for byte', async () => {
    const res = await fetch(`${stack.url}/api/orders/files/large-file`, { headers: stack.adminHeaders() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-length')).toBe(String(largeAnswer.length));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(largeAnswer)).toBe(true);
  });

  it("keeps the service's own security headers over the gateway's, and adds the others", async () => {
    const res = await fetch(`${stack.url}/api/orders/files/own-policy`, { headers: stack.adminHeaders() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    // One request id (the service echoes the gateway's), not two side by side.
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('passes a HEAD answer on without a body', async () => {
    const res = await fetch(`${stack.url}/api/content/public`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(lastSeen('marketing')!.method).toBe('HEAD');
  });
});

describe('hop-by-hop headers', () => {
  it('are not passed on to the service, nor are headers the Connection header names', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${stack.url}/api/content/public`,
        {
          headers: {
            connection: 'keep-alive, x-private-hop',
            'keep-alive': 'timeout=5',
            'proxy-connection': 'keep-alive',
            te: 'trailers',
            'x-private-hop': 'secret',
            'x-kept': 'yes',
            traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    const headers = lastSeen('marketing')!.headers;
    expect(headers['x-kept']).toBe('yes');
    for (const name of ['keep-alive', 'proxy-connection', 'te', 'x-private-hop'])
      expect(headers[name], name).toBeUndefined();
    // The caller's trace context is not copied (the gateway's span continues it: process.test.ts).
    expect(String(headers.traceparent ?? '')).not.toContain('b7ad6b7169203331');
  });
});

describe('malformed addresses', () => {
  it('answers a broken %-escape with a 400 envelope', async () => {
    for (const path of ['/api/orders/%E0%A4%A', '/%E0%A4%A']) {
      const res = await fetch(`${stack.url}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'BAD_REQUEST',
        error: 'The address is not valid: it contains a broken %-escape.',
      });
    }
  });

  it('does not let an encoded ../ leave the service prefix', async () => {
    const before = stack.upstreams.orders.seen.length;
    const res = await fetch(`${stack.url}/api/orders/..%2f..%2freadyz`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_REQUEST' });
    expect(stack.upstreams.orders.seen.length).toBe(before);
  });
});

describe('request ids', () => {
  it('makes one when the caller sends none, passes it upstream and returns it', async () => {
    const res = await fetch(`${stack.url}/api/content/public`);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lastSeen('marketing')!.headers['x-request-id']).toBe(id);
  });

  it("honours the caller's id", async () => {
    const res = await fetch(`${stack.url}/api/content/public`, { headers: { 'x-request-id': 'ingress-1234.abc' } });
    expect(res.headers.get('x-request-id')).toBe('ingress-1234.abc');
    expect(lastSeen('marketing')!.headers['x-request-id']).toBe('ingress-1234.abc');
  });

  it('replaces an id that is not a plain token', async () => {
    const res = await fetch(`${stack.url}/api/content/public`, { headers: { 'x-request-id': 'bad id <script>' } });
    const id = res.headers.get('x-request-id');
    expect(id).not.toBe('bad id <script>');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
