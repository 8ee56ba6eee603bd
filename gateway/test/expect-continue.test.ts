// `Expect: 100-continue` through the gateway: curl and many HTTP clients send it on their own for bodies
// over 1 MiB and wait for "100 Continue" before sending the body. The gateway answers it, forwards the
// body to the service, and refuses an oversized declared body before the client sends a byte of it.
import { execFile } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha, startStack, type Stack } from './helpers.js';

let stack: Stack;
let dir: string;
beforeAll(async () => {
  stack = await startStack();
  dir = await mkdtemp(join(tmpdir(), 'shop-expect-'));
});
afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: string;
  /** True when the gateway said "100 Continue" before the final answer. */
  continued: boolean;
  /** True when the body was sent (only after "100 Continue"). */
  bodySent: boolean;
}

/** A POST the way curl makes it: headers with Expect, then the body only once the server says continue. */
function postExpecting(path: string, body: Buffer, headers: Record<string, string>): Promise<Answer> {
  const url = new URL(path, stack.url);
  return new Promise((resolve, reject) => {
    let continued = false;
    let bodySent = false;
    const req = http.request(url, {
      method: 'POST',
      headers: { ...headers, expect: '100-continue', 'content-length': String(body.length) },
    });
    req.on('continue', () => {
      continued = true;
      bodySent = true;
      req.end(body);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), continued, bodySent }),
      );
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.flushHeaders();
  });
}

function multipart(name: string, data: Buffer): { body: Buffer; type: string } {
  const boundary = '----expectcontinue7f3a';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('Expect: 100-continue', () => {
  it('an upload of 1 to 10 MB is continued and reaches the service byte for byte', async () => {
    for (const size of [1.5, 4, 9.5]) {
      const data = Buffer.alloc(Math.round(size * 1024 * 1024), 7);
      const { body, type } = multipart(`art-${size}.png`, data);
      const answer = await postExpecting('/api/upload', body, { 'content-type': type });
      expect(answer.status, answer.body).toBe(200);
      expect(answer.continued).toBe(true);
      const echo = JSON.parse(answer.body) as { service: string; bodySha256: string; headers: Record<string, string> };
      expect(echo.service).toBe('orders');
      expect(echo.bodySha256).toBe(sha(body));
      // The gateway has honoured the expectation itself; the service gets a plain request.
      expect(echo.headers.expect).toBeUndefined();
    }
  });

  it('a JSON POST with the header is continued and forwarded', async () => {
    const body = Buffer.from(JSON.stringify({ email: 'jordan@example.com' }));
    const answer = await postExpecting('/api/customers/lookup', body, { 'content-type': 'application/json' });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.continued).toBe(true);
    expect(JSON.parse(answer.body)).toMatchObject({ service: 'customers', bodySha256: sha(body) });
  });

  it('a declared body over the route limit is refused with 413 before the client sends it', async () => {
    const body = Buffer.alloc(2 * 1024 * 1024, 1);
    const answer = await postExpecting('/api/customers/lookup', body, { 'content-type': 'application/json' });
    expect(answer.status).toBe(413);
    expect(answer.bodySent).toBe(false);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('an admin call without a session is refused with 401 before the client sends the body', async () => {
    const answer = await postExpecting('/api/marketing/campaigns', Buffer.alloc(64 * 1024, 32), {
      'content-type': 'application/json',
    });
    expect(answer.status).toBe(401);
    expect(answer.bodySent).toBe(false);
  });

  it('curl uploading a 3 MB file (it sends the header itself) gets the service answer', async () => {
    const file = join(dir, 'coin.png');
    const data = Buffer.alloc(3 * 1024 * 1024, 9);
    await writeFile(file, data);
    const { stdout } = await promisify(execFile)(
      'curl',
      ['-sS', '-v', '-F', `files=@${file};type=image/png`, '-w', '\n%{http_code}', `${stack.url}/api/upload`],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(`curl failed: ${err.stderr ?? ''}`);
    });
    const lines = stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('200');
    const echo = JSON.parse(lines.slice(0, -1).join('\n')) as { service: string; bodyLength: number };
    expect(echo.service).toBe('orders');
    expect(echo.bodyLength).toBeGreaterThan(data.length);
  });
});
