// The home page's first paint that the gateway puts into the HTML (gateway/src/first-paint.ts) must be
// what the shell's React render draws in its place: the same layout, header and links, so the swap moves
// nothing on the screen (no layout shift) and the links work before any script runs.
import { renderToStaticMarkup } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createRoutes } from '../src/routes.js';
import { headerHtml, layoutStartHtml } from '../../../gateway/src/first-paint.js';

async function renderHome(): Promise<string> {
  const handler = createStaticHandler(createRoutes());
  const context = await handler.query(new Request('http://shop.test/'));
  if (context instanceof Response) throw new Error('/ redirected');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

describe("the home page's first paint in the HTML", () => {
  it("is the shell's layout and header as React draws them on /", async () => {
    const html = await renderHome();
    expect(html).toContain(headerHtml());
    expect(html.startsWith(layoutStartHtml())).toBe(true);
  });

  it('links with plain addresses (they work before the scripts load)', () => {
    const hrefs = [...headerHtml().matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(['/', '/', '/track', '/admin']);
  });
});
