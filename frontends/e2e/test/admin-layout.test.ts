// Every back-office view, as an administrator sees it (issue 10): a sign-in lands on the orders
// dashboard (the spec's default view); each entry of ADMIN_VIEWS (so views added later are covered
// too) is loaded at 1280 px and at 1024 px (DESIGN.md: the back office works from 1024 px up), with no
// horizontal scroll of the page and nothing cut off inside a scroll box (the orders table's row actions
// were), and axe finds nothing: every rule (best practices such as one `main` landmark and heading order
// included), every impact level.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_VIEWS, DEFAULT_VIEW_ID } from '../../admin/src/views.js';
import { signInAsAdmin } from './support/admin.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, type Browser } from './support/browser.js';
import { uniqueEmail } from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
const WIDTHS = [1280, 1024] as const;

let browser: Browser;

/** A quote request with long names, so the table's widest row (Apply Quote, More Info) is on screen. */
async function placeLongOrder(): Promise<string> {
  const response = await fetch(`${baseUrl}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({
      customerName: 'Maximilian Alexander Worthington-Fairbanks III',
      email: uniqueEmail('quartermaster.of.the.third.battalion.logistics'),
      phone: '555-0142',
      itemType: 'coin',
      designMethod: 'describe',
      description: 'Battalion coin with the unit crest, motto and the names of every company on the rim',
      quantity: 9500,
      size: '2',
      shape: 'Round',
      colors: ['Gold', 'Black'],
      finish: 'antique_gold',
      edge: 'rope',
      features: [],
      files: [],
      aiGenerated: false,
      subscribeEmail: false,
      subscribeSMS: false,
      shippingAddress: { line1: '12 Garrison Way', city: 'Killeen', state: 'TX', postalCode: '76541', country: 'US' },
      customerCategory: 'military',
      taxExempt: false,
    }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return (JSON.parse(text) as { order: { orderNumber: string } }).order.orderNumber;
}

/** Waits until the view has drawn its data: nothing busy, no skeleton left, the network quiet. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect
    .poll(
      () => page.locator('[data-remote="admin"] [aria-busy="true"], [data-remote="admin"] .animate-shimmer').count(),
      { timeout: 15_000 },
    )
    .toBe(0);
}

/** What sticks out sideways: the page itself, or any scroll box whose content is wider than the box. */
function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      found.push(`the page scrolls sideways: ${root.scrollWidth} px of content in ${root.clientWidth} px`);
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const { overflowX } = getComputedStyle(el);
      if ((overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
        const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].slice(0, 4).join('.')}`;
        found.push(
          `${name} hides ${el.scrollWidth - el.clientWidth} px of its content (scrollWidth ${el.scrollWidth}, width ${el.clientWidth})`,
        );
      }
    }
    return found;
  });
}

beforeAll(async () => {
  await placeLongOrder();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('the back office views', () => {
  it('a sign-in lands on the orders dashboard, the first header button', async () => {
    const { page, pageErrors, close } = await browser.newPage();
    await signInAsAdmin(page, baseUrl);
    expect(DEFAULT_VIEW_ID).toBe('dashboard');
    await page.locator('[data-view="dashboard"]').waitFor();
    await page.getByTestId('orders-dashboard').waitFor();
    const nav = page.getByRole('navigation', { name: 'Back office views' });
    expect(await nav.getByRole('button', { name: 'Orders' }).getAttribute('aria-current')).toBe('page');
    expect(
      await nav.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-view-id'))),
    ).toEqual(ADMIN_VIEWS.map((v) => v.id));
    expect(pageErrors).toEqual([]);
    await close();
  });

  for (const width of WIDTHS) {
    it(`every view at ${width} px: no horizontal overflow, no axe violation of any rule or impact`, async () => {
      const { page, pageErrors, close } = await browser.newPage({ width, bypassCSP: true, reducedMotion: 'reduce' });
      await signInAsAdmin(page, baseUrl);
      const nav = page.getByRole('navigation', { name: 'Back office views' });
      const problems: string[] = [];
      for (const view of ADMIN_VIEWS) {
        await nav.locator(`[data-view-id="${view.id}"]`).click();
        await page.locator(`[data-view="${view.id}"]`).waitFor();
        await settle(page);
        if (view.id === DEFAULT_VIEW_ID) {
          // The widest row: a quote request, with its Apply Quote and More Info buttons, fully on screen.
          const quoteButton = page.getByRole('button', { name: /^Apply Quote to order/ }).first();
          await quoteButton.waitFor();
          const box = (await quoteButton.boundingBox())!;
          const menu = (await page
            .getByRole('button', { name: /^More actions for order/ })
            .first()
            .boundingBox())!;
          expect(box.x + box.width, 'Apply Quote inside the window').toBeLessThanOrEqual(width);
          expect(menu.x + menu.width, 'the more-actions menu inside the window').toBeLessThanOrEqual(width);
        }
        for (const overflow of await horizontalOverflow(page))
          problems.push(`${view.label} at ${width} px: ${overflow}`);
        for (const violation of await axeViolations(page, { rules: 'all' }))
          problems.push(`${view.label} at ${width} px: ${violation}`);
      }
      expect(problems).toEqual([]);
      expect(pageErrors).toEqual([]);
      await close();
    });
  }
});
