// The whole shop through its one door: the gateway started by global-setup.ts in front of the real
// services, MongoDB (embedded) and NATS.
import { describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');
const services = inject('services');

const SERVICE_NAMES = ['orders', 'payments', 'customers', 'support', 'marketing', 'security', 'email'];

/** One public path prefix per service, from the gateway's routing table (ARCHITECTURE.md). */
const PREFIX_OF: Record<string, string> = {
  orders: '/api/orders',
  payments: '/api/payments',
  customers: '/api/customers',
  support: '/api/support',
  marketing: '/api/content',
  security: '/api/auth',
  email: '/api/email',
};

async function getJson(url: string): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Left as text: the assertion below shows it.
  }
  return { status: response.status, body, headers: response.headers };
}

describe('the shop stack through the gateway', () => {
  it('reports all seven services ready on /api/health', async () => {
    const { status, body } = await getJson(`${baseUrl}/api/health`);
    expect(body).toMatchObject({ status: 'ready' });
    expect(status).toBe(200);
    expect(Object.keys(body.services).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const name of SERVICE_NAMES) {
      expect(body.services[name], name).toMatchObject({ status: 'ready', checks: { mongo: 'up', nats: 'up' } });
    }
  });

  it('knows the address of every service', () => {
    expect(Object.keys(services).sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it.each(SERVICE_NAMES)('forwards %s requests to that service', async (name) => {
    // A path below the service's prefix that no route serves: the service itself answers it, so the
    // answer through the gateway is the service's own (same status, same error code), not a gateway
    // failure such as 502 "service unavailable".
    const path = `${PREFIX_OF[name]}/no-such-page-e2e`;
    const direct = await getJson(`${services[name]}${path}`);
    const viaGateway = await getJson(`${baseUrl}${path}`);
    expect(viaGateway.status, JSON.stringify(viaGateway.body)).toBe(direct.status);
    expect(viaGateway.status).toBeLessThan(500);
    expect(viaGateway.body?.code).toBe(direct.body?.code);
    expect(typeof viaGateway.body?.error).toBe('string');
  });

  it('answers /api/docs with the services API documents', async () => {
    const response = await fetch(`${baseUrl}/api/docs`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const name of SERVICE_NAMES) expect(text).toContain(name);
  });

  it('serves the shell page at /', async () => {
    const response = await fetch(`${baseUrl}/`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await response.text()).toMatch(/<div id="root"|<script/);
  });
});
