// The whole shop through its one door: the gateway started by global-setup.ts in front of the real
// services, MongoDB (embedded) and NATS.
import { describe, expect, inject, it } from 'vitest';
import { serviceInfoPath, type ErrorEnvelope, type ServiceName } from '@shop/contracts';

const baseUrl = inject('baseUrl');
const services = inject('services');

const SERVICE_NAMES = ['orders', 'payments', 'customers', 'support', 'marketing', 'security', 'email'];

/** One GET; the body typed as the caller says the route answers (unknown unless told), or the text when it is not JSON. */
async function getJson<Body = unknown>(url: string): Promise<{ status: number; body: Body; headers: Headers }> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Left as text: the assertion below shows it.
  }
  return { status: response.status, body: body as Body, headers: response.headers };
}

describe('the shop stack through the gateway', () => {
  it('reports all seven services ready on /api/health', async () => {
    const { status, body } = await getJson<{ services: Record<string, unknown> }>(`${baseUrl}/api/health`);
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

  it.each(SERVICE_NAMES)('forwards %s requests to that very service', async (name) => {
    // Each service's public info route, through the gateway and directly: the same process answers
    // (same start time), so the routing table points at the right service.
    const path = serviceInfoPath(name as ServiceName);
    const direct = await getJson(`${services[name]}${path}`);
    const viaGateway = await getJson(`${baseUrl}${path}`);
    expect(viaGateway.status, JSON.stringify(viaGateway.body)).toBe(200);
    expect(viaGateway.body).toMatchObject({ service: name });
    expect(viaGateway.body).toEqual(direct.body);
  });

  it('refuses an admin route without a session, without forwarding it', async () => {
    const { status, body } = await getJson<ErrorEnvelope>(`${baseUrl}/api/orders`);
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(typeof body.error).toBe('string');
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
