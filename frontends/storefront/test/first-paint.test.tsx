// The hero the gateway sends in the home page's HTML (gateway/src/first-paint.ts) must be the one React
// draws in its place (src/pages/HomeHero.tsx), for every shape of the site content: same markup, classes
// and texts, so the swap moves nothing (no layout shift) and paints nothing larger (the LCP stays).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { defaultSiteContent, sitePageMarkers, type SiteContent } from '@shop/contracts';
import { heroHtml } from '../../../gateway/src/first-paint.js';
import { HomeHero } from '../src/pages/HomeHero.js';
import { pageSiteContent } from '../src/content.js';

function withHomepage(homepage: Partial<SiteContent['homepage']>, ai = true): SiteContent {
  return {
    ...defaultSiteContent,
    homepage: { ...defaultSiteContent.homepage, ...homepage },
    features: { ...defaultSiteContent.features, aiGenerationEnabled: ai },
  };
}

// React writes an apostrophe as &#x27;, the gateway as &#39;: the same character.
const react = (content: SiteContent) =>
  renderToStaticMarkup(<HomeHero content={content} />).replaceAll('&#x27;', '&#39;');
// Until React replaces them, the HTML's buttons are marked as not working yet.
const gateway = (content: SiteContent) => heroHtml(content).replaceAll(' aria-disabled="true"', '');

describe("the hero in the home page's HTML", () => {
  it.each([
    ['the default content', defaultSiteContent],
    ['an edited hero', withHomepage({ heroTitle: 'Coins for the 1st Cavalry', heroSubtitle: 'Quotes in a day.' })],
    ['no tagline and no subtitle', withHomepage({ tagline: '', heroSubtitle: '' })],
    ['the AI tool switched off', withHomepage({}, false)],
    [
      'markup and quotes in the texts',
      withHomepage({
        companyName: 'A & B <Gear>',
        tagline: '"Quoted" in 24 h',
        heroTitle: '</h1><script>alert(1)</script>',
        heroSubtitle: "It's <b>free</b> & fast",
      }),
    ],
  ])('is what React draws for %s', (_, content) => {
    expect(gateway(content)).toBe(react(content));
  });

  it('never carries the texts unescaped', () => {
    const html = heroHtml(withHomepage({ heroTitle: '</h1><script>alert(1)</script>' }));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;/h1&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('the site content sent in the HTML', () => {
  const page = (text: string | null) => ({
    getElementById: (id: string) =>
      id === sitePageMarkers.contentElementId && text !== null ? ({ textContent: text } as HTMLElement) : null,
  });

  it('is what the first render uses', () => {
    const content = withHomepage({ heroTitle: 'From the HTML' });
    expect(pageSiteContent(page(JSON.stringify(content)))).toEqual(content);
  });

  it('is ignored when missing, not JSON or not shaped like the content', () => {
    expect(pageSiteContent(page(null))).toBeUndefined();
    expect(pageSiteContent(page('{oops'))).toBeUndefined();
    expect(pageSiteContent(page(JSON.stringify({ homepage: {} })))).toBeUndefined();
    expect(pageSiteContent(undefined)).toBeUndefined();
  });
});
