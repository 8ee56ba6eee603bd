import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../src/routes.js';
import { deadUrl, startStack, type Stack } from './helpers.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ MARKETING_URL: await deadUrl() });
  stack.upstreams.orders.openapi = {
    openapi: '3.1.0',
    info: { title: 'Orders', version: '1.2.0', description: 'Quote requests & <tracking>' },
    servers: [{ url: 'http://10.0.0.5:4101' }],
    paths: {
      '/api/orders': { post: { summary: 'Submit a quote request' }, get: { summary: 'Orders table' } },
      '/api/orders/{id}': { get: { summary: 'Payment view of one order' }, delete: { summary: 'Delete one order' } },
      '/api/upload': { post: { summary: 'Upload artwork' } },
      '/healthz': { get: { summary: 'alive' } },
      '/readyz': { get: { summary: 'ready' } },
      '/api/payments/create-intent': { post: { summary: 'not this service' } },
    },
  };
});
afterAll(async () => {
  await stack?.close();
});

describe('/api/docs', () => {
  it('lists every service with its document and public paths (JSON)', async () => {
    const res = await fetch(`${stack.url}/api/docs`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { services: Array<{ service: string; document: string; paths: string[] }> };
    expect(body.services.map((s) => s.service)).toEqual([...SERVICE_NAMES]);
    const orders = body.services.find((s) => s.service === 'orders')!;
    expect(orders.document).toBe('/api/docs/orders.json');
    expect(orders.paths).toEqual(['/api/orders', '/api/upload', '/api/ai']);
  });

  it('shows a page for people that needs nothing from the internet', async () => {
    const res = await fetch(`${stack.url}/api/docs`, { headers: { accept: 'text/html' } });
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<a href="/api/docs/orders.json">orders.json</a>');
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it("returns a service's document with the gateway as server and only the paths it routes there", async () => {
    const res = await fetch(`${stack.url}/api/docs/orders.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      servers: Array<{ url: string }>;
      paths: Record<string, unknown>;
      info: { version: string };
    };
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) as unknown }]);
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/orders', '/api/orders/{id}', '/api/upload']);
    expect(doc.info.version).toBe('1.2.0');
  });

  it('marks the operations that need an admin session: one path, the method decides', async () => {
    type Op = { security?: unknown };
    const doc = (await (await fetch(`${stack.url}/api/docs/orders.json`)).json()) as {
      paths: Record<string, Record<string, Op>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    const admin = [{ adminSession: [] }];
    expect(doc.paths['/api/orders'].post.security).toBeUndefined();
    expect(doc.paths['/api/orders'].get.security).toEqual(admin);
    expect(doc.paths['/api/orders/{id}'].get.security).toBeUndefined();
    expect(doc.paths['/api/orders/{id}'].delete.security).toEqual(admin);
    expect(doc.components.securitySchemes.adminSession).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'shop_admin_session',
    });
    const html = await (await fetch(`${stack.url}/api/docs/orders`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain(
      '<td class="m">get</td><td><code>/api/orders</code></td><td>admin session</td><td>Orders table</td>',
    );
    expect(html).toContain(
      '<td class="m">post</td><td><code>/api/orders</code></td><td>public</td><td>Submit a quote request</td>',
    );
  });

  it("renders a service's operations as a page, escaping what the service wrote", async () => {
    const res = await fetch(`${stack.url}/api/docs/orders`, { headers: { accept: 'text/html' } });
    const html = await res.text();
    expect(html).toContain('Submit a quote request');
    expect(html).toContain('<code>/api/orders/{id}</code>');
    expect(html).toContain('Quote requests &#38; &#60;tracking&#62;');
    expect(html).not.toContain('/healthz');
  });

  it('answers 404 for an unknown service and 503 when the service is down', async () => {
    const unknown = await fetch(`${stack.url}/api/docs/billing.json`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      code: 'NOT_FOUND',
      error: expect.stringContaining('"billing"') as unknown,
    });

    const down = await fetch(`${stack.url}/api/docs/marketing.json`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      error: expect.stringContaining('marketing service') as unknown,
    });
  });

  it('answers 502 when a service serves something that is not an OpenAPI document', async () => {
    stack.upstreams.email.openapi = { hello: 'world' };
    const res = await fetch(`${stack.url}/api/docs/email.json`);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'BAD_GATEWAY' });
  });
});
