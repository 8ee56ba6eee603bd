import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadUrl, startStack, type Stack } from './helpers.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    CUSTOMERS_URL: await deadUrl(),
    // Under the stand-in's 3 s /slow, with room for a loaded machine elsewhere.
    UPSTREAM_TIMEOUT_MS: '2000',
    BODY_LIMIT_BYTES: '1024',
    UPLOAD_BODY_LIMIT_BYTES: '4096',
  });
});
afterAll(async () => {
  await stack?.close();
});

async function envelope(res: Response) {
  const body = (await res.json()) as { error: string; code: string; requestId?: string };
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  return body;
}

describe('when a service fails', () => {
  it('answers 503 with a human message when the service is down', async () => {
    const res = await fetch(`${stack.url}/api/customers/lookup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"a@b.co"}',
    });
    expect(res.status).toBe(503);
    const body = await envelope(res);
    expect(body.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.error).toBe('The customer service is not available right now. Please try again in a moment.');
  });

  it('answers 504 when the service takes longer than the upstream timeout', async () => {
    const res = await fetch(`${stack.url}/api/orders/slow`);
    expect(res.status).toBe(504);
    const body = await envelope(res);
    expect(body.code).toBe('UPSTREAM_TIMEOUT');
    expect(body.error).toContain('took too long');
  });

  it('answers 502 when the service hangs up without an answer', async () => {
    const res = await fetch(`${stack.url}/api/support/hang-up`, { headers: stack.adminHeaders() });
    expect(res.status).toBe(502);
    const body = await envelope(res);
    expect(body.code).toBe('BAD_GATEWAY');
    expect(body.error).toContain('support service');
  });

  it('other services keep answering', async () => {
    const res = await fetch(`${stack.url}/api/orders/track`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
  });
});

/** POSTs a body sent as a stream: chunked transfer encoding, no Content-Length. */
function postChunked(path: string, contentType: string, chunks: Uint8Array[]): Promise<Response> {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  return fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
    duplex: 'half',
  });
}

describe('body size limits', () => {
  it('refuses a JSON body over the limit before it reaches the service', async () => {
    const before = stack.upstreams.orders.seen.length;
    const res = await fetch(`${stack.url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'x'.repeat(2000) }),
    });
    expect(res.status).toBe(413);
    const body = await envelope(res);
    expect(body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(body.error).toBe('The request is too large. The most this address accepts is 1 KB.');
    expect(stack.upstreams.orders.seen.length).toBe(before);
  });

  it('allows upload routes the larger upload limit', async () => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(3000)], { type: 'image/png' }), 'art.png');
    const ok = await fetch(`${stack.url}/api/upload`, { method: 'POST', body: form });
    expect(ok.status).toBe(200);

    const big = new FormData();
    big.append('files', new Blob([new Uint8Array(5000)], { type: 'image/png' }), 'art.png');
    const refused = await fetch(`${stack.url}/api/upload`, { method: 'POST', body: big });
    expect(refused.status).toBe(413);
    expect((await envelope(refused)).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('stops a chunked body (no Content-Length) at the limit', async () => {
    const res = await postChunked('/api/support', 'application/octet-stream', [
      new Uint8Array(800),
      new Uint8Array(800),
    ]);
    expect(res.status).toBe(413);
    expect((await envelope(res)).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('lets a chunked body under the limit through intact', async () => {
    const text = new TextEncoder();
    const res = await postChunked('/api/support', 'text/plain', [text.encode('hello '), text.encode('support')]);
    expect(res.status).toBe(200);
    expect(stack.upstreams.support.seen.at(-1)!.body.toString()).toBe('hello support');
  });
});
