// The home page's first paint (issue 20): the gateway sends the header and the hero in the HTML, drawn
// from the current site content, so they show before any script runs; React then draws the page over
// them without moving anything (no layout shift) and without a later, larger paint (the LCP stays the
// HTML's hero).
import { describe, expect, inject, it } from 'vitest';
import { contentPaths } from '@shop/contracts';
import { browserForTests, pathOf } from './support/browser.js';

const baseUrl = inject('baseUrl');

const browser = browserForTests();

async function currentHeroTitle(): Promise<string> {
  const res = await fetch(`${baseUrl}${contentPaths.public}`);
  const body = (await res.json()) as { content: { homepage: { heroTitle: string } } };
  return body.content.homepage.heroTitle;
}

/** What the page's observers saw (set up before the page's own scripts). */
interface Paints {
  shifts: string[];
  cls: number;
  lcp: string[];
  lcpElements: (Element | null)[];
  htmlHero: Element | null;
}

describe("the home page's first paint", () => {
  it('shows the header and the current hero without scripts, styled, with working links', async () => {
    const { page, close } = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(`${baseUrl}/`);
    const title = page.getByRole('heading', { level: 1 });
    expect(await title.textContent()).toBe(await currentHeroTitle());
    // The shell's stylesheet came with the HTML: text-5xl at this width, the display font's uppercase.
    expect(await title.evaluate((el) => getComputedStyle(el).fontSize)).toBe('48px');
    expect(await title.evaluate((el) => getComputedStyle(el).textTransform)).toBe('uppercase');
    expect(await page.getByText('4.9/5 (3,247 reviews)').count()).toBe(1);
    // Its buttons need the scripts: they say so until React's working ones replace them.
    expect(await page.getByRole('button', { name: 'Returning Customer' }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Track Order' }).click();
    await expect.poll(() => pathOf(page)).toBe('/track');
    await close();
  });

  for (const width of [375, 1280]) {
    it(`is replaced by React's page without a layout shift or a larger paint (${width} px)`, async () => {
      const { page, pageErrors, close } = await browser.newPage({ width });
      await page.addInitScript(() => {
        const seen: Paints = { shifts: [], cls: 0, lcp: [], lcpElements: [], htmlHero: null };
        (window as unknown as { __paint: Paints }).__paint = seen;
        // The hero title the HTML brought, before React replaces it with its own.
        const parsed = new MutationObserver(() => {
          seen.htmlHero ??= document.querySelector('#root[data-first-paint] h1');
          if (seen.htmlHero) parsed.disconnect();
        });
        parsed.observe(document, { childList: true, subtree: true });
        const nodeText = (node: Element | null): string =>
          node ? `${node.parentElement?.className ?? ''} > ${node.outerHTML.slice(0, 100)}` : '?';
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            const shift = entry as unknown as {
              value: number;
              hadRecentInput: boolean;
              sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
            };
            // As CLS counts them: shifts right after the user's input are expected.
            if (shift.hadRecentInput) continue;
            const moves = shift.sources.map(
              (s) =>
                `${nodeText(s.node as Element | null)} from ${JSON.stringify(s.previousRect)} to ${JSON.stringify(s.currentRect)}`,
            );
            seen.cls += shift.value;
            seen.shifts.push(`${shift.value.toFixed(4)} at ${Math.round(entry.startTime)} ms: ${moves.join(' | ')}`);
          }
        }).observe({ type: 'layout-shift', buffered: true });
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            const paint = entry as unknown as { size: number; element: Element | null };
            seen.lcpElements.push(paint.element);
            seen.lcp.push(`${Math.round(entry.startTime)} ms, ${paint.size} px²: ${nodeText(paint.element)}`);
          }
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      await page.goto(`${baseUrl}/`);
      await page.locator('[data-remote="storefront"] [data-item="coin"]').waitFor();
      await page.locator('footer').waitFor();
      await page.locator('[data-testid="testimonial"]').waitFor();
      const { shifts, cls, lcp, largestIsHtmlHero } = await page.evaluate(() => {
        const { shifts, cls, lcp, lcpElements, htmlHero } = (window as unknown as { __paint: Paints }).__paint;
        return { shifts, cls, lcp, largestIsHtmlHero: htmlHero !== null && lcpElements.at(-1) === htmlHero };
      });
      expect(shifts).toEqual([]);
      expect(cls).toBe(0);
      // With the storefront's stylesheet in, the header keeps its responsive spacing: the remote's plain
      // px-2 and gap-0.5 once came later than the shell's sm:px-3 and sm:gap-2 and moved the links.
      const nav = await page.evaluate(() => {
        const link = document.querySelector('header nav a') as HTMLElement;
        const list = document.querySelector('header nav ul') as HTMLElement;
        return { padding: getComputedStyle(link).paddingLeft, gap: getComputedStyle(list).columnGap };
      });
      expect(nav).toEqual(width >= 640 ? { padding: '12px', gap: '8px' } : { padding: '8px', gap: '2px' });
      // The largest paint is the HTML's hero title: nothing React drew later was larger. (Not "the first
      // paint": a busy browser may paint the HTML in two frames, the header before the hero.)
      expect(largestIsHtmlHero, lcp.join('\n')).toBe(true);
      expect(await page.locator('#root[data-first-paint]').count()).toBe(0);
      expect(await page.locator('h1').count()).toBe(1);
      // React's hero, with working buttons, in place of the HTML's.
      await page.getByRole('button', { name: 'Returning Customer' }).click();
      await page.getByRole('dialog', { name: 'Returning Customer' }).waitFor();
      expect(pageErrors).toEqual([]);
      await close();
    });
  }
});
