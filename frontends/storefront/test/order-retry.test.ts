// A quote submitted while the shop restarts a part: the storefront sends it again with the same
// Idempotency-Key after a dropped connection or a 502/503/504, and stops at once on any other answer.
// A real HTTP server on loopback plays the gateway; only the relative /api URL is resolved against it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { idempotencyKeyHeader } from '@shop/contracts';
import { ORDER_SUBMIT_ATTEMPTS, submitOrderRequest } from '../src/api/shop.js';
import type { OrderRequestBody } from '../src/flow/model.js';

/** What the fake gateway does with the n-th request: drop the connection, or answer with a status. */
let plan: Array<'drop' | number> = [];
let seen: Array<{ key: string | undefined; body: string }> = [];
let server: Server;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text));
  });
}

beforeAll(async () => {
  server = createServer((request, response) => void answer(request, response));
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    seen.push({ key: request.headers[idempotencyKeyHeader.toLowerCase()] as string | undefined, body });
    const step = plan[seen.length - 1] ?? 201;
    if (step === 'drop') {
      request.socket.destroy();
      return;
    }
    response.writeHead(step, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(
        step < 300
          ? { success: true, order: { orderNumber: 'CC-20261124-0001' } }
          : { success: false, error: `status ${step}` },
      ),
    );
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => realFetch(new URL(url, base), init));
});
afterEach(() => {
  plan = [];
  seen = [];
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await new Promise((resolve) => server.close(resolve));
});

const body = {
  customerName: 'Jane Doe',
  email: 'jane@example.com',
  itemType: 'coin',
  quantity: 50,
} as unknown as OrderRequestBody;

describe('quote submission retries (issue 21)', () => {
  it('sends the same request with the same key after a dropped connection and a 503, waiting 1 s then 2 s', async () => {
    plan = ['drop', 503, 201];
    const waits: number[] = [];
    const result = await submitOrderRequest(body, 'key-123', async (ms) => void waits.push(ms));
    expect(result.ok).toBe(true);
    expect(result.data?.order?.orderNumber).toBe('CC-20261124-0001');
    expect(seen.map((request) => request.key)).toEqual(['key-123', 'key-123', 'key-123']);
    expect(new Set(seen.map((request) => request.body)).size).toBe(1);
    expect(waits).toEqual([1000, 2000]);
  });

  it('retries a 502 and a 504 too, and gives up after a few attempts with the last answer', async () => {
    plan = [502, 504, 503, 503, 503];
    const result = await submitOrderRequest(body, 'key-456', async () => {});
    expect(seen).toHaveLength(ORDER_SUBMIT_ATTEMPTS);
    expect(result.status).toBe(503);
    expect(result.error).toBe('status 503');
  });

  it('does not resend after an answer that is not about availability (a 400 or a 409)', async () => {
    for (const status of [400, 409, 500]) {
      plan = [status];
      seen = [];
      const result = await submitOrderRequest(body, 'key-789', async () => {});
      expect(result.status).toBe(status);
      expect(seen).toHaveLength(1);
    }
  });
});
