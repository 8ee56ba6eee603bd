import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createRoutes, productRedirects } from '../src/routes.js';
import { describeRouteError } from '../src/screens/ErrorScreen.js';

const origin = 'http://shop.test';

/** Runs the shell's real route table for one request, as the browser router would, and renders it. */
async function visit(path: string, init?: RequestInit) {
  const handler = createStaticHandler(createRoutes());
  const context = await handler.query(new Request(`${origin}${path}`, init));
  if (context instanceof Response) return { response: context, html: '' };
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
  return { response: undefined, html, context };
}

describe('shell route table', () => {
  it.each(Object.entries(productRedirects))('redirects %s to %s, replacing the history entry', async (from, to) => {
    const { response } = await visit(from);
    expect(response?.status).toBe(302);
    expect(response?.headers.get('location')).toBe(to);
    expect(response?.headers.get('x-remix-replace')).toBe('true');
  });

  it('keeps the canonical product paths case-sensitive: other spellings are not found', async () => {
    for (const path of ['/ARMY-PATCHES', '/Navy-coins', '/airforcepatches']) {
      const { html } = await visit(path);
      expect(html, path).toContain('Mission Not Found');
    }
  });

  it('shows "Mission Not Found" with a Return to Base link to / for any other path, inside the layout', async () => {
    const { html } = await visit('/no/such/page');
    expect(html).toContain('Mission Not Found');
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Return to Base<\/a>/);
    // Header links of the spec.
    for (const href of ['/', '/track', '/admin']) expect(html).toContain(`href="${href}"`);
  });

  it('routes the information pages and /debug/email to their remotes (no 404)', async () => {
    for (const path of [
      '/support',
      '/faq',
      '/returns',
      '/privacy',
      '/terms',
      '/sitemap',
      '/legal',
      '/business',
      '/debug/email',
    ]) {
      const { html } = await visit(path);
      expect(html, path).not.toContain('Mission Not Found');
    }
    expect((await visit('/debug/email/extra')).html).toContain('Mission Not Found');
  });

  it('routes /order/pay/{orderId} to the storefront payment page (loading the remote), and only with an id', async () => {
    const { html } = await visit('/order/pay/3f1c9a7e-5b2d-4e8f-9a61-0c2b7d4e8f10');
    expect(html).not.toContain('Mission Not Found');
    expect(html).toContain('Loading the shop');
    for (const path of ['/order/pay', '/order/pay/', '/Order/Pay/abc', '/order/pay/abc/extra']) {
      expect((await visit(path)).html, path).toContain('Mission Not Found');
    }
  });

  it('renders the router error screen with status and message for a real route error (a form post no route accepts)', async () => {
    const { html, context } = await visit('/track', {
      method: 'POST',
      body: new URLSearchParams({ orderNumber: 'X' }),
    });
    expect(context?.statusCode).toBe(405);
    expect(html).toContain('Unexpected Application Error!');
    expect(html).toContain('405');
    expect(html).toContain('Method Not Allowed');
    // The error renders inside the layout: the header navigation stays usable.
    expect(html).toContain('href="/track"');
  });
});

describe('describeRouteError', () => {
  it('reads thrown Errors and unknown values', () => {
    expect(describeRouteError(new Error('chunk failed'))).toEqual({ message: 'chunk failed' });
    expect(describeRouteError('plain text')).toEqual({ message: 'plain text' });
    expect(describeRouteError(42)).toEqual({ message: 'An unknown error occurred' });
  });
});
