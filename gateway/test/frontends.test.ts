import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { defaultSiteContent } from '@shop/contracts';
import { cacheControlFor } from '../src/frontends.js';
import { withFirstPaint } from '../src/first-paint.js';
import { withSeo } from '../src/seo.js';
import { makeFrontends, startStack, type Stack } from './helpers.js';

// The builds write .br and .gz copies next to each asset (packages/ui/build/rspack-app.ts).
const CHUNK = 'export const items = ["Challenge Coins", "Custom Patches", "Tactical Shirts"];';

const SHELL_HTML =
  '<!doctype html><html><head><script defer src="/main.0a1b2c3d4e5f6a7b.js"></script></head><body><div id="root"></div></body></html>';

// Storefront pages carry the site content's SEO tags and the content itself, the home page its first
// paint: the stand-in marketing service has no content, so the defaults (seo.test.ts and
// first-paint.test.ts cover the content's own).
const SHELL_PAGE = withFirstPaint(withSeo(SHELL_HTML, defaultSiteContent.seo), defaultSiteContent, false);
const HOME_PAGE = withFirstPaint(withSeo(SHELL_HTML, defaultSiteContent.seo), defaultSiteContent, true);

let stack: Stack;
let frontends: Awaited<ReturnType<typeof makeFrontends>>;
beforeAll(async () => {
  // The admin remote is deliberately absent: its build failed or was never run.
  frontends = await makeFrontends({
    'shell/dist/index.html': SHELL_HTML,
    'shell/dist/main.0a1b2c3d4e5f6a7b.js': 'console.log("shell")',
    'shell/dist/favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'storefront/dist/mf-manifest.json': '{"id":"storefront"}',
    'storefront/dist/remoteEntry.js': 'var storefront;',
    'storefront/dist/static/js/async/412.9f8e7d6c.js': 'chunk',
    'storefront/dist/static/js/home.1a2b3c4d.js': CHUNK,
    'storefront/dist/static/js/home.1a2b3c4d.js.br': brotliCompressSync(CHUNK),
    'storefront/dist/static/js/home.1a2b3c4d.js.gz': gzipSync(CHUNK),
    'shell/dist/main.5e6f7a8b.js': CHUNK,
    'shell/dist/main.5e6f7a8b.js.gz': gzipSync(CHUNK),
  });
  stack = await startStack({ FRONTENDS_DIR: frontends.dir });
});
afterAll(async () => {
  await stack?.close();
  await frontends?.remove();
});

const page = (path: string) =>
  fetch(`${stack.url}${path}`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });

describe('serving the built frontends', () => {
  it("serves the shell's index.html at / without long caching", async () => {
    const res = await page('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(HOME_PAGE);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('serves hashed assets as immutable for a year, unhashed ones revalidated', async () => {
    const hashed = await fetch(`${stack.url}/main.0a1b2c3d4e5f6a7b.js`);
    expect(hashed.status).toBe(200);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const plain = await fetch(`${stack.url}/favicon.svg`);
    expect(plain.headers.get('cache-control')).toBe('no-cache');
  });

  it("serves a remote's manifest fresh and cross-origin readable, its chunks immutable", async () => {
    const manifest = await fetch(`${stack.url}/remotes/storefront/mf-manifest.json`);
    expect(manifest.status).toBe(200);
    expect(await manifest.json()).toEqual({ id: 'storefront' });
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(manifest.headers.get('access-control-allow-origin')).toBe('*');
    const entry = await fetch(`${stack.url}/remotes/storefront/remoteEntry.js`);
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    const chunk = await fetch(`${stack.url}/remotes/storefront/static/js/async/412.9f8e7d6c.js`);
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('serves the precompressed copy the browser accepts, marked so caches keep the variants apart', async () => {
    const chunk = '/remotes/storefront/static/js/home.1a2b3c4d.js';
    const br = await fetch(`${stack.url}${chunk}`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await br.text()).toBe(CHUNK);
    const gz = await fetch(`${stack.url}${chunk}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(CHUNK);
    const plain = await fetch(`${stack.url}${chunk}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(CHUNK);
    // The shell's own files too; only the encodings that were written are offered.
    const shell = await fetch(`${stack.url}/main.5e6f7a8b.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(shell.headers.get('content-encoding')).toBe('gzip');
    expect(shell.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await shell.text()).toBe(CHUNK);
  });

  it("answers 404 for a missing remote's files while the shell keeps working", async () => {
    const manifest = await fetch(`${stack.url}/remotes/admin/mf-manifest.json`);
    expect(manifest.status).toBe(404);
    const admin = await page('/admin');
    expect(admin.status).toBe(200);
    expect(await admin.text()).toBe(SHELL_HTML);
  });

  it("falls back to the shell's index.html for page addresses (the shell's router decides)", async () => {
    for (const path of ['/track', '/order/pay/6650f0c2a1b2c3d4e5f60718', '/Army-Patches', '/no/such/page?x=1']) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(SHELL_PAGE);
    }
  });

  it('does not fall back for files, non-HTML requests, API paths or writes', async () => {
    expect((await page('/missing.js')).status).toBe(404);
    expect((await fetch(`${stack.url}/track`, { headers: { accept: 'application/json' } })).status).toBe(404);
    expect((await page('/remotes/storefront/nothing')).status).toBe(404);
    const api = await page('/api/nothing');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await fetch(`${stack.url}/track`, { method: 'POST', headers: { accept: 'text/html' } })).status).toBe(404);
  });

  it('says clearly when the shell has not been built', async () => {
    const bare = await startStack({ FRONTENDS_DIR: join(tmpdir(), 'shop-frontends-never-built') });
    try {
      const missing = await fetch(`${bare.url}/`, { headers: { accept: 'text/html' } });
      expect(missing.status).toBe(503);
      expect(await missing.json()).toMatchObject({
        code: 'FRONTEND_NOT_BUILT',
        error: expect.stringContaining('npm run build') as unknown,
      });
      expect((await fetch(`${bare.url}/api/health`)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('cacheControlFor', () => {
  it.each([
    ['index.html', 'no-cache'],
    ['mf-manifest.json', 'no-cache'],
    ['remoteEntry.js', 'no-cache'],
    ['mf-manifest-stats.json', 'no-cache'],
    ['main.0a1b2c3d.js', 'public, max-age=31536000, immutable'],
    ['static/css/app.deadbeefcafe.css', 'public, max-age=31536000, immutable'],
    ['vendors-react.12345678.js.map', 'public, max-age=31536000, immutable'],
    ['412.js', 'no-cache'],
    ['logo.png', 'no-cache'],
  ])('%s -> %s', (file, expected) => {
    expect(cacheControlFor(file)).toBe(expected);
  });
});
