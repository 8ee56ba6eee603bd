// The site content's SEO fields in the HTML the gateway serves for storefront pages: title, meta
// description, keywords and Open Graph tags, so link previews and crawlers see them without running the
// page's scripts. The content comes from the marketing service's public read, kept for a few seconds;
// when marketing does not answer, the shop's default content is used (a page is never refused for it).
import { contentPaths, contentResponseSchema, defaultSiteContent, type SiteContent } from '@shop/contracts';

type Seo = SiteContent['seo'];

/** A change in the back office reaches the served HTML within this time. */
export const SEO_CACHE_MS = 5_000;
const MARKETING_TIMEOUT_MS = 1_500;

/** Text made safe for HTML text and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The head tags for the site's SEO content, every value escaped. */
export function seoTags(seo: Seo): string {
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    value ? `<meta ${attr}="${key}" content="${escapeHtml(value)}" />` : '';
  return [
    `<title>${escapeHtml(seo.title)}</title>`,
    meta('name', 'description', seo.description),
    meta('name', 'keywords', seo.keywords.join(', ')),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:title', seo.ogTitle || seo.title),
    meta('property', 'og:description', seo.ogDescription || seo.description),
    meta('property', 'og:image', seo.ogImage),
  ]
    .filter(Boolean)
    .join('\n    ');
}

/** The shell's index.html with its own title and description replaced by the content's tags. */
export function withSeo(html: string, seo: Seo): string {
  const stripped = html
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+(?:name="(?:description|keywords)"|property="og:[^"]*")[^>]*>\s*/gi, '');
  const at = stripped.search(/<\/head>/i);
  if (at < 0) return stripped;
  return `${stripped.slice(0, at)}  ${seoTags(seo)}\n  ${stripped.slice(at)}`;
}

/**
 * Reads the public site content from marketing, at most once per SEO_CACHE_MS; the defaults when it
 * fails. The SEO tags and the home page's first paint (src/first-paint.ts) are made from it.
 */
export function siteContentSource(marketingUrl: string, now: () => number = Date.now) {
  let cached: { content: SiteContent; at: number } | null = null;
  let pending: Promise<SiteContent> | null = null;

  async function load(): Promise<SiteContent> {
    try {
      const res = await fetch(new URL(contentPaths.public, marketingUrl), {
        signal: AbortSignal.timeout(MARKETING_TIMEOUT_MS),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) return defaultSiteContent;
      const parsed = contentResponseSchema.safeParse(await res.json());
      return parsed.success ? parsed.data.content : defaultSiteContent;
    } catch {
      return defaultSiteContent;
    }
  }

  return async function currentContent(): Promise<SiteContent> {
    if (cached && now() - cached.at < SEO_CACHE_MS) return cached.content;
    // Concurrent page requests share one read.
    pending ??= load().then((content) => {
      cached = { content, at: now() };
      pending = null;
      return content;
    });
    return pending;
  };
}
