// The site content's SEO in the HTML the gateway serves for storefront pages (issue 15): title, meta
// description, keywords and Open Graph tags from marketing's public content read, escaped; cached for a
// few seconds; the defaults when marketing does not answer; the back office's pages left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { contentPaths, defaultSiteContent, type SiteContent } from '@shop/contracts';
import { escapeHtml, withSeo } from '../src/seo.js';
import { deadUrl, makeFrontends, startStack, type Stack } from './helpers.js';

const SHELL_HTML =
  '<!doctype html><html><head><meta charset="utf-8" /><meta name="description" content="Shell words" /><title>Shell title</title></head><body><div id="root"></div></body></html>';

const seo: SiteContent['seo'] = {
  title: 'Coins & Patches <script>alert(1)</script>',
  description: 'Made "for your unit"',
  ogTitle: 'Unit gear',
  ogImage: 'https://shop.example/og.png',
  ogDescription: "Quotes in 24 hours, it's free",
  keywords: ['challenge coins', 'patches'],
};

let marketing: FastifyInstance;
let reads = 0;
let frontends: Awaited<ReturnType<typeof makeFrontends>>;
let stack: Stack;
let deadStack: Stack;

beforeAll(async () => {
  marketing = Fastify({ logger: false });
  marketing.get(contentPaths.public, async () => {
    reads++;
    return {
      success: true,
      content: { ...defaultSiteContent, seo },
      version: 3,
      updatedAt: new Date().toISOString(),
      updatedBy: 'admin:ops@shop.local',
    };
  });
  const marketingUrl = await marketing.listen({ host: '127.0.0.1', port: 0 });
  frontends = await makeFrontends({ 'shell/dist/index.html': SHELL_HTML });
  stack = await startStack({ FRONTENDS_DIR: frontends.dir, MARKETING_URL: marketingUrl });
  deadStack = await startStack({ FRONTENDS_DIR: frontends.dir, MARKETING_URL: await deadUrl() });
});
afterAll(async () => {
  await stack?.close();
  await deadStack?.close();
  await marketing?.close();
  await frontends?.remove();
});

const page = (base: string, path: string) => fetch(`${base}${path}`, { headers: { accept: 'text/html' } });

describe('SEO tags in the served HTML', () => {
  it("puts the content's title, description, keywords and Open Graph tags into storefront pages, escaped", async () => {
    for (const path of ['/', '/navy-coins', '/track']) {
      const res = await page(stack.url, path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const html = await res.text();
      expect(html).toContain('<title>Coins &amp; Patches &lt;script&gt;alert(1)&lt;/script&gt;</title>');
      expect(html).not.toContain('<script>alert(1)');
      expect(html).toContain('<meta name="description" content="Made &quot;for your unit&quot;" />');
      expect(html).toContain('<meta name="keywords" content="challenge coins, patches" />');
      expect(html).toContain('<meta property="og:title" content="Unit gear" />');
      expect(html).toContain('<meta property="og:description" content="Quotes in 24 hours, it&#39;s free" />');
      expect(html).toContain('<meta property="og:image" content="https://shop.example/og.png" />');
      // The shell's own title and description are replaced, not doubled.
      expect(html).not.toContain('Shell title');
      expect(html).not.toContain('Shell words');
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html).toContain(path === '/' ? '<div id="root" data-first-paint>' : '<div id="root"></div>');
    }
  });

  it('reads the content once for many pages within a few seconds', async () => {
    const before = reads;
    await Promise.all([page(stack.url, '/'), page(stack.url, '/faq'), page(stack.url, '/support')]);
    await page(stack.url, '/army-patches');
    expect(reads - before).toBeLessThanOrEqual(1);
  });

  it("falls back to the shop's default SEO when marketing does not answer", async () => {
    const res = await page(deadStack.url, '/');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<title>${escapeHtml(defaultSiteContent.seo.title)}</title>`);
    expect(html).toContain(`<meta name="description" content="${escapeHtml(defaultSiteContent.seo.description)}" />`);
    expect(html).toContain(`<meta property="og:title" content="${escapeHtml(defaultSiteContent.seo.ogTitle)}" />`);
  });

  it("leaves the back office's pages and non-page requests of / as the shell built them", async () => {
    expect(await (await page(stack.url, '/admin')).text()).toBe(SHELL_HTML);
    expect(await (await page(stack.url, '/admin/orders')).text()).toBe(SHELL_HTML);
    expect(await (await fetch(`${stack.url}/`)).text()).toBe(SHELL_HTML);
  });

  it('withSeo leaves an HTML without a head untouched apart from the removed tags', () => {
    expect(withSeo('<p>no head</p>', seo)).toBe('<p>no head</p>');
  });
});
