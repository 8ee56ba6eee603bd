// Uploads (content checks, limits, GridFS, safe serving) and the AI design generator (offline SVG and
// the openai SDK against a local fake images endpoint), over real HTTP.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLValidator } from 'fast-xml-parser';
import {
  aiInvalidParametersMessage,
  limits,
  uploadRejectedMessage,
  type CreateOrderResponse,
  type Failure,
  type GenerateDesignResponse,
  type UploadResponse,
} from '@shop/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { offlineWarning } from '../src/ai/images.js';
import { coinOrder, postJson, startHarness, type Harness } from './helpers.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00, 0xff, 0xd9,
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const SVG = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>\n',
);
const AI_PDF = Buffer.from('%PDF-1.5\n%âãÏÓ\n1 0 obj\n<< /Creator (Adobe Illustrator) >>\nendobj\n%%EOF\n', 'latin1');
const AI_PS = Buffer.from('%!PS-Adobe-3.0\n%%Creator: Adobe Illustrator(R) 8.0\n%%EOF\n');
const EPS = Buffer.from('%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n%%EOF\n');
const DOS_EPS = Buffer.concat([Buffer.from([0xc5, 0xd0, 0xd3, 0xc6]), Buffer.alloc(26), EPS]);
const EXE = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.from([0x90, 0x00, 0x03, 0x00]),
  Buffer.alloc(58),
  Buffer.from('PE\0\0'),
  Buffer.alloc(64),
]);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** A multipart upload; the body typed as the caller says the route answers (unknown unless told). */
async function upload<Body = unknown>(files: { name: string; data: Buffer; type?: string }[], field = 'files') {
  const form = new FormData();
  for (const f of files) form.append(field, new Blob([f.data], { type: f.type ?? 'application/octet-stream' }), f.name);
  const res = await fetch(`${h.url}/api/upload`, { method: 'POST', body: form });
  return { status: res.status, body: (await res.json()) as Body };
}

describe('POST /api/upload', () => {
  it('accepts each allowed type by its content and answers the file records', async () => {
    const files = [
      { name: 'logo.png', data: PNG, type: 'image/png' },
      { name: 'photo.jpg', data: JPEG },
      { name: 'photo.JPEG', data: JPEG },
      { name: 'brief.pdf', data: PDF },
      { name: 'crest.svg', data: SVG },
      { name: 'art.ai', data: AI_PDF },
      { name: 'old-art.ai', data: AI_PS },
      { name: 'vector.eps', data: EPS },
      { name: 'dos.eps', data: DOS_EPS },
    ];
    const res = await upload<UploadResponse>(files);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.files.map((f) => f.mimetype)).toEqual([
      'image/png',
      'image/jpeg',
      'image/jpeg',
      'application/pdf',
      'image/svg+xml',
      'application/postscript',
      'application/postscript',
      'application/postscript',
      'application/postscript',
    ]);
    for (const [i, f] of res.body.files.entries()) {
      expect(f.originalName).toBe(files[i].name);
      expect(f.size).toBe(files[i].data.length);
      expect(f.url).toMatch(/^\/api\/upload\/[a-f0-9]{32}$/);
      expect(f.filename).toBe(`${f.url.split('/').pop()}.${files[i].name.split('.').pop()!.toLowerCase()}`);
    }
  });

  it('rejects an exe or a text file renamed to .png, naming the file', async () => {
    const exe = await upload<Failure>([{ name: 'cat.png', data: EXE }]);
    expect(exe.status).toBe(415);
    expect(exe.body.error).toMatch(/^"cat.png" is not really a PNG file \(its content is EXE\)\./);
    expect(exe.body.error).toContain(uploadRejectedMessage);
    const text = await upload<Failure>([{ name: 'notes.png', data: Buffer.from('just some text, not an image\n') }]);
    expect(text.status).toBe(415);
    expect(text.body.error).toMatch(/"notes.png" is not really a PNG file/);
    const pngAsJpg = await upload<Failure>([{ name: 'logo.jpg', data: PNG }]);
    expect(pngAsJpg.body.error).toMatch(/"logo.jpg" is not really a JPG file \(its content is PNG\)/);
    const fakeSvg = await upload([{ name: 'x.svg', data: Buffer.from('<html><script>alert(1)</script></html>') }]);
    expect(fakeSvg.status).toBe(415);
    const fakeEps = await upload([{ name: 'x.eps', data: Buffer.from('%!PS-Adobe-3.0\nnot encapsulated\n') }]);
    expect(fakeEps.status).toBe(415);
  });

  it('rejects other extensions with the spec message', async () => {
    const res = await upload<Failure>([{ name: 'anim.gif', data: Buffer.from('GIF89a') }]);
    expect(res.status).toBe(415);
    expect(res.body.error).toBe(`"anim.gif" was rejected. ${uploadRejectedMessage}`);
  });

  it('accepts exactly 10 MB and refuses 10 MB + 1 byte, keeping nothing of a refused request', async () => {
    const exact = Buffer.concat([PNG, Buffer.alloc(limits.uploadMaxBytes - PNG.length)]);
    const ok = await upload<UploadResponse>([{ name: 'big.png', data: exact }]);
    expect(ok.status).toBe(200);
    expect(ok.body.files[0].size).toBe(limits.uploadMaxBytes);

    const before = await h.service.ctx.connection.db!.collection('uploads.files').countDocuments();
    const over = Buffer.concat([PNG, Buffer.alloc(limits.uploadMaxBytes + 1 - PNG.length)]);
    const res = await upload<Failure>([
      { name: 'small.png', data: PNG },
      { name: 'too-big.png', data: over },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(413);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(res.body.error).toBe('"too-big.png" is larger than 10 MB. Each file can be at most 10 MB.');
    expect(await h.service.ctx.connection.db!.collection('uploads.files').countDocuments()).toBe(before);
  });

  it('takes at most 10 files per request, in the files field, and at least one', async () => {
    const eleven = await upload<Failure>(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.png`, data: PNG })));
    expect(eleven.status).toBe(413);
    expect(eleven.body.error).toBe('At most 10 files can be uploaded at once.');
    const wrongField = await upload<Failure>([{ name: 'a.png', data: PNG }], 'file');
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.error).toMatch(/"files" field/);
    const none = await fetch(`${h.url}/api/upload`, { method: 'POST', body: new FormData() });
    expect(none.status).toBe(400);
    const json = await postJson(`${h.url}/api/upload`, { files: [] });
    expect(json.status).toBe(415);
  });
});

describe('broken multipart bodies', () => {
  const boundary = '----shopfuzzboundary';
  const part = (name: string, data: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n${data}`;
  const cases: { name: string; type: string; body: string | Buffer }[] = [
    {
      name: 'a garbage body',
      type: `multipart/form-data; boundary=${boundary}`,
      body: 'this is not multipart at all \x00\xff',
    },
    { name: 'no boundary', type: 'multipart/form-data', body: part('a.png', PNG.toString('latin1')) },
    { name: 'an empty boundary', type: 'multipart/form-data; boundary=', body: part('a.png', 'x') },
    {
      name: 'a part never closed',
      type: `multipart/form-data; boundary=${boundary}`,
      body: Buffer.concat([Buffer.from(part('a.png', '')), PNG]),
    },
    {
      name: 'a header never ended',
      type: `multipart/form-data; boundary=${boundary}`,
      body: `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.png"`,
    },
    { name: 'an empty body', type: `multipart/form-data; boundary=${boundary}`, body: '' },
  ];
  for (const c of cases) {
    it(`answers ${c.name} with a 400 that says what to send, and keeps nothing`, async () => {
      const before = await h.service.ctx.connection.db!.collection('uploads.files').countDocuments();
      const res = await fetch(`${h.url}/api/upload`, {
        method: 'POST',
        headers: { 'content-type': c.type },
        body: c.body,
      });
      const body = (await res.json()) as Failure;
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect(body.error).toMatch(/multipart\/form-data|No files were received/);
      expect(await h.service.ctx.connection.db!.collection('uploads.files').countDocuments()).toBe(before);
    });
  }
});

describe('GET /api/upload/:id', () => {
  it('serves a raster image inline with its stored type and nosniff', async () => {
    const { body } = await upload<UploadResponse>([{ name: 'logo.png', data: PNG }]);
    const res = await fetch(`${h.url}${body.files[0].url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="logo.png"/);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('serves an SVG as an attachment under a CSP that stops its scripts', async () => {
    const { body } = await upload<UploadResponse>([{ name: 'crest.svg', data: SVG }]);
    const res = await fetch(`${h.url}${body.files[0].url}`);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="crest.svg"/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(SVG.toString());
  });

  it('answers an unknown or malformed id with a 404 envelope', async () => {
    for (const id of ['f'.repeat(32), 'nope', '../../etc']) {
      const res = await fetch(`${h.url}/api/upload/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});

describe('orders with uploaded files', () => {
  it('names the files when the description is short, and links the uploads to the order', async () => {
    const { body } = await upload<UploadResponse>([
      { name: 'front.png', data: PNG },
      { name: 'back.pdf', data: PDF },
    ]);
    const res = await postJson<CreateOrderResponse>(
      `${h.url}/api/orders`,
      coinOrder({ designMethod: 'upload', description: '', files: body.files }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const stored = await h.service.ctx.models.Order.findById(res.body.order.id).lean();
    expect(stored!.description).toBe('Custom Challenge Coins design from uploaded files: front.png, back.pdf');
    expect(stored!.files.map((f) => f.originalName)).toEqual(['front.png', 'back.pdf']);
    const files = await h.service.ctx.connection
      .db!.collection('uploads.files')
      .find({ 'metadata.orderId': res.body.order.id })
      .toArray();
    expect(files).toHaveLength(2);
  });
});

describe('POST /api/ai/generate-design (offline generator)', () => {
  const generate = <Body = GenerateDesignResponse>(body: unknown) =>
    postJson<Body>(`${h.url}/api/ai/generate-design`, body);

  it('checks the prompt length 5..500 after trimming and the item type', async () => {
    for (const prompt of ['abcd', '   abcd   ', 'x'.repeat(501)]) {
      const res = await generate<Failure>({ prompt, itemType: 'coin', style: 'military' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: aiInvalidParametersMessage });
      expect(Array.isArray(res.body.details)).toBe(true);
    }
    const badItem = await generate<Failure>({ prompt: 'a gold eagle coin', itemType: 'mug' });
    expect(badItem.status).toBe(400);
    expect(badItem.body.error).toBe(aiInvalidParametersMessage);
    expect((await generate({ prompt: 'abcde', itemType: 'coin', style: 'military' })).status).toBe(200);
    expect((await generate({ prompt: 'x'.repeat(500), itemType: 'patch', style: 'military' })).status).toBe(200);
  });

  for (const itemType of ['coin', 'patch', 'shirt'] as const) {
    it(`draws a valid SVG ${itemType} with the prompt's colour and text, stored under a lasting URL`, async () => {
      const prompt = `A red and gold ${itemType} with an eagle and the words "FIRST IN LAST OUT"`;
      const res = await generate({ prompt, itemType, style: 'military' });
      expect(res.status).toBe(200);
      expect(res.body.warning).toBe(offlineWarning);
      expect(res.body.design).toMatchObject({ prompt, itemType, variations: [] });
      expect(res.body.design.imageUrl).toBe(`/api/ai/designs/${res.body.design.id}/image`);

      const image = await fetch(`${h.url}${res.body.design.imageUrl}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/svg+xml');
      expect(image.headers.get('content-security-policy')).toContain('sandbox');
      expect(image.headers.get('x-content-type-options')).toBe('nosniff');
      const svg = await image.text();
      expect(XMLValidator.validate(svg)).toBe(true);
      expect(svg).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
      expect(svg).toContain('#b4382b'); // red
      expect(svg).toContain('#d4a93c'); // gold
      expect(svg).toContain('FIRST IN LAST OUT');

      const again = await generate({ prompt, itemType, style: 'military' });
      const svgAgain = await (await fetch(`${h.url}${again.body.design.imageUrl}`)).text();
      expect(svgAgain).toBe(svg); // deterministic from the prompt

      const saved = await h.service.ctx.models.Design.findById(res.body.design.id).lean();
      expect(saved).toMatchObject({ prompt, itemType, generator: 'offline', contentType: 'image/svg+xml' });
    });
  }

  it('escapes prompt text so it cannot add markup to the SVG', async () => {
    const res = await generate({ prompt: 'coin with "<script>alert(1)</script>" & more', itemType: 'coin' });
    const svg = await (await fetch(`${h.url}${res.body.design.imageUrl}`)).text();
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;SCRIPT&gt;');
  });

  it('answers an unknown design image with a 404 envelope', async () => {
    const res = await fetch(`${h.url}/api/ai/designs/${'0'.repeat(32)}/image`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('AI rate limit', () => {
  it('refuses a client address after its allowance with 429 in the envelope', async () => {
    const tight = await buildApp(
      loadConfig({ PORT: '0', MONGO_URL: h.mongo.uri, NATS_URL: h.nats.url, LOG_LEVEL: 'silent' }),
      {
        aiRateLimit: { max: 2, windowMs: 60_000 },
      },
    );
    const url = await tight.start();
    try {
      const statuses: number[] = [];
      let last: Record<string, unknown> = {};
      for (let i = 0; i < 3; i++) {
        const res = await postJson<Record<string, unknown>>(`${url}/api/ai/generate-design`, {
          prompt: `eagle coin number ${i}`,
          itemType: 'coin',
        });
        statuses.push(res.status);
        last = res.body;
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(last).toMatchObject({ code: 'RATE_LIMITED' });
      expect(String(last.error)).toMatch(/Too many designs requested/);
    } finally {
      await tight.stop();
    }
  });
});

describe('POST /api/ai/generate-design (openai SDK against a local fake)', () => {
  let fake: http.Server;
  let ai: Awaited<ReturnType<typeof buildApp>>;
  let url: string;
  const seen: { path: string; auth: string | undefined; body: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    fake = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw || '{}') as Record<string, unknown>;
        seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
        res.setHeader('content-type', 'application/json');
        if (req.url !== '/v1/images/generations') {
          res.statusCode = 404;
          return res.end(JSON.stringify({ error: { message: 'not found' } }));
        }
        if (String(body.prompt).includes('out of quota')) {
          res.statusCode = 429;
          res.setHeader('x-should-retry', 'false');
          return res.end(
            JSON.stringify({
              error: {
                message: 'You exceeded your current quota, please check your plan and billing details.',
                type: 'insufficient_quota',
                param: null,
                code: 'insufficient_quota',
              },
            }),
          );
        }
        if (String(body.prompt).includes('forbidden words')) {
          res.statusCode = 400;
          return res.end(
            JSON.stringify({
              error: {
                message: 'Your request was rejected by the safety system.',
                type: 'invalid_request_error',
                code: 'content_policy_violation',
              },
            }),
          );
        }
        res.end(
          JSON.stringify({ created: Math.floor(Date.now() / 1000), data: [{ b64_json: PNG.toString('base64') }] }),
        );
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const port = (fake.address() as AddressInfo).port;
    ai = await buildApp(
      loadConfig({
        PORT: '0',
        MONGO_URL: h.mongo.uri,
        NATS_URL: h.nats.url,
        LOG_LEVEL: 'silent',
        OPENAI_API_KEY: 'sk-test-key',
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        OPENAI_IMAGE_MODEL: 'gpt-image-1',
      }),
      { aiRateLimit: { max: 100, windowMs: 60_000 } },
    );
    url = await ai.start();
  });

  afterAll(async () => {
    await ai?.stop();
    await new Promise((resolve) => fake?.close(resolve));
  });

  it('asks the images API and stores the returned image', async () => {
    const res = await postJson<GenerateDesignResponse>(`${url}/api/ai/generate-design`, {
      prompt: 'A navy anchor patch with gold rope',
      itemType: 'patch',
      style: 'military',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.warning).toBeUndefined();
    const call = seen.at(-1)!;
    expect(call.path).toBe('/v1/images/generations');
    expect(call.auth).toBe('Bearer sk-test-key');
    expect(call.body).toMatchObject({ model: 'gpt-image-1', n: 1, size: '1024x1024' });
    expect(String(call.body.prompt)).toContain('A navy anchor patch with gold rope');
    const image = await fetch(`${url}${res.body.design.imageUrl}`);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    const saved = await ai.ctx.models.Design.findById(res.body.design.id).lean();
    expect(saved).toMatchObject({ generator: 'openai', model: 'gpt-image-1' });
  });

  it('turns an insufficient_quota 429 into a 503 the browser shows as "AI service temporarily unavailable"', async () => {
    const res = await postJson<Failure>(`${url}/api/ai/generate-design`, {
      prompt: 'coin design out of quota',
      itemType: 'coin',
      style: 'military',
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
    expect(res.body.error).toMatch(/^AI service temporarily unavailable/);
    expect(res.body.error).toMatch(/quota|billing/);
  });

  it('turns a refused prompt into a 400', async () => {
    const res = await postJson<Failure>(`${url}/api/ai/generate-design`, {
      prompt: 'coin with forbidden words',
      itemType: 'coin',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/could not use this description/);
  });
});
