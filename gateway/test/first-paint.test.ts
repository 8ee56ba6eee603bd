// The home page's first paint in the served HTML (issue 20): the shell's header and the storefront's hero
// drawn from the CURRENT site content (marketing's public read, cached a few seconds), every value
// escaped; the site content as JSON on storefront pages; the defaults when marketing does not answer; the
// back office's pages left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { contentPaths, defaultSiteContent, sitePageMarkers, type SiteContent } from '@shop/contracts';
import { heroHtml, scriptJson, withFirstPaint } from '../src/first-paint.js';
import { SEO_CACHE_MS, escapeHtml, siteContentSource } from '../src/seo.js';
import { deadUrl, makeFrontends, startStack, type Stack } from './helpers.js';

const SHELL_HTML =
  '<!doctype html><html><head><meta charset="utf-8" /><title>Shell title</title></head><body><div id="root"></div><noscript>x</noscript></body></html>';

let current: SiteContent = {
  ...defaultSiteContent,
  homepage: {
    ...defaultSiteContent.homepage,
    companyName: 'Coins & Co',
    tagline: 'Made "right"',
    heroTitle: 'Unit coins </h1><script>alert(1)</script>',
    heroSubtitle: "It's <b>free</b>",
  },
};

let marketing: FastifyInstance;
let frontends: Awaited<ReturnType<typeof makeFrontends>>;
let stack: Stack;
let deadStack: Stack;
let marketingUrl: string;

beforeAll(async () => {
  marketing = Fastify({ logger: false });
  marketing.get(contentPaths.public, async () => ({
    success: true,
    content: current,
    version: 3,
    updatedAt: new Date().toISOString(),
    updatedBy: 'admin:ops@shop.local',
  }));
  marketingUrl = await marketing.listen({ host: '127.0.0.1', port: 0 });
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

const page = async (base: string, path: string) =>
  (await fetch(`${base}${path}`, { headers: { accept: 'text/html' } })).text();

/** The site content the HTML carries in its JSON script element. */
function contentIn(html: string): unknown {
  const match = new RegExp(
    `<script id="${sitePageMarkers.contentElementId}" type="application/json">([^<]*)</script>`,
  ).exec(html);
  return match ? JSON.parse(match[1]) : undefined;
}

describe("the home page's first paint in the served HTML", () => {
  it("draws the header and the current content's hero in #root, every text escaped", async () => {
    const html = await page(stack.url, '/');
    expect(html).toContain('<div id="root" data-first-paint><div class="flex min-h-dvh flex-col">');
    expect(html).toContain(heroHtml(current));
    expect(html).toContain(
      '<h1 class="max-w-3xl font-display text-4xl font-bold uppercase leading-tight tracking-wide text-khaki-50 sm:text-5xl" data-testid="hero-title">Unit coins &lt;/h1&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>',
    );
    expect(html).toContain('Coins &amp; Co<span class="text-khaki-300"> · Made &quot;right&quot;</span>');
    expect(html).toContain('It&#39;s &lt;b&gt;free&lt;/b&gt;');
    expect(html).not.toContain('<script>alert(1)');
    // Plain links: they work before any script has loaded.
    expect(html).toContain('href="/track"');
    expect(html).toContain('<noscript>x</noscript>');
    // The browser paints the first paint whole: rendering waits until the content's script element after
    // #root is parsed.
    expect(html).toContain(
      `<link rel="expect" href="#${sitePageMarkers.contentElementId}" blocking="render" /></head>`,
    );
    expect(html.indexOf(`<script id="${sitePageMarkers.contentElementId}"`)).toBeGreaterThan(
      html.indexOf('data-testid="hero-title"'),
    );
  });

  it('sends the site content as JSON that cannot close its script element', async () => {
    const html = await page(stack.url, '/');
    expect(contentIn(html)).toEqual(current);
    expect(html).not.toContain('</h1><script>');
    expect(scriptJson({ a: '</script><!--' })).toBe('{"a":"\\u003c/script>\\u003c!--"}');
  });

  it('puts the content on the other storefront pages without the first paint, and nothing on the back office', async () => {
    for (const path of ['/track', '/navy-coins', '/faq']) {
      const html = await page(stack.url, path);
      expect(html, path).toContain('<div id="root"></div>');
      expect(html, path).not.toContain('rel="expect"');
      expect(contentIn(html), path).toEqual(current);
    }
    for (const path of ['/admin', '/admin/orders']) expect(await page(stack.url, path)).toBe(SHELL_HTML);
  });

  it("draws the shop's default content when marketing does not answer", async () => {
    const html = await page(deadStack.url, '/');
    expect(html).toContain(heroHtml(defaultSiteContent));
    expect(html).toContain(`>${escapeHtml(defaultSiteContent.homepage.heroTitle)}</h1>`);
    expect(contentIn(html)).toEqual(defaultSiteContent);
  });

  it('leaves out what the content leaves out: no tagline, no subtitle, no AI button', () => {
    const html = heroHtml({
      ...defaultSiteContent,
      homepage: { ...defaultSiteContent.homepage, tagline: '', heroSubtitle: '' },
      features: { ...defaultSiteContent.features, aiGenerationEnabled: false },
    });
    expect(html).not.toContain('text-khaki-300');
    expect(html).not.toContain('max-w-2xl');
    expect(html).not.toContain('AI Design Tool');
    expect(html).toContain('Returning Customer');
  });

  it('returns an HTML without an empty #root unchanged', () => {
    expect(withFirstPaint('<p>no root</p>', defaultSiteContent, true)).toBe('<p>no root</p>');
  });
});

describe('a change of the site content', () => {
  it('reaches the HTML once the few seconds of caching are over', async () => {
    let clock = 0;
    const read = siteContentSource(marketingUrl, () => clock);
    const before = current;
    expect((await read()).homepage.heroTitle).toBe(before.homepage.heroTitle);
    current = { ...before, homepage: { ...before.homepage, heroTitle: 'Patches for Station 14' } };
    try {
      clock = SEO_CACHE_MS - 1;
      expect((await read()).homepage.heroTitle).toBe(before.homepage.heroTitle);
      clock = SEO_CACHE_MS;
      const content = await read();
      expect(content.homepage.heroTitle).toBe('Patches for Station 14');
      expect(withFirstPaint(SHELL_HTML, content, true)).toContain('>Patches for Station 14</h1>');
    } finally {
      current = before;
    }
  });

  it('reaches the served page within the cache time', { timeout: 15_000 }, async () => {
    const before = current;
    expect(await page(stack.url, '/')).toContain(heroHtml(before));
    current = { ...before, homepage: { ...before.homepage, heroTitle: 'Shirts for the reunion' } };
    try {
      await new Promise((resolve) => setTimeout(resolve, SEO_CACHE_MS + 200));
      expect(await page(stack.url, '/')).toContain('>Shirts for the reunion</h1>');
    } finally {
      current = before;
    }
  });
});
