// axe-core WCAG 2.1 A/AA checks (contrast included) on the quote screens at 375 px: every step of the
// guided flow, the AI tool with a design, the item customizer, the lookup modal and the tracked order.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { launchBrowser, type Browser, type ShopPage } from './support/browser.js';
import { choose, clickContinue, fillContact, fillShipping, flow } from './support/quote-flow.js';

const baseUrl = inject('baseUrl');

let browser: Browser;
let shop: ShopPage;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  shop = await browser.newPage({ width: 375, bypassCSP: true, reducedMotion: 'reduce' });
  page = shop.page;
});

afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

async function expectNoViolations(screen: string): Promise<void> {
  expect(await axeViolations(page), screen).toEqual([]);
}

describe('accessibility of the quote screens (axe, WCAG 2.1 A and AA)', () => {
  it('the guided flow, step by step, including the field errors of a refused order', async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByRole('button', { name: 'Start Order for Challenge Coins' }).click();
    await choose(page, /Describe Your Design/);
    await expectNoViolations('design method');
    await clickContinue(page);
    await flow(page).getByLabel('Describe your design').fill('Eagle over crossed sabers');
    await expectNoViolations('design content');
    await clickContinue(page);
    await choose(page, /^Large/);
    await choose(page, 'Gold');
    await choose(page, 'Polished Gold');
    await expectNoViolations('specifications');
    await clickContinue(page);
    await fillShipping(page, {
      line1: '1 Main St',
      city: 'Austin',
      state: 'TX',
      postalCode: '78701',
      category: 'Military Personnel',
    });
    await expectNoViolations('shipping');
    await clickContinue(page);
    // An address the server refuses (not an email): the error region and its field list are checked too.
    await fillContact(page, { first: 'Avery', last: 'Stone', email: 'not-an-email', phone: '555-0101' });
    await expectNoViolations('contact');
    await clickContinue(page);
    await flow(page).getByRole('button', { name: 'Request Quote' }).click();
    await flow(page).getByRole('alert').first().waitFor();
    await expectNoViolations('review with a refused order');
  });

  it('the lookup modal', async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByRole('button', { name: 'Returning Customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Returning Customer' });
    await dialog.getByRole('button', { name: 'Find My Details' }).click();
    await dialog.getByRole('alert').waitFor();
    await expectNoViolations('lookup search with its error');
    await page.keyboard.press('Escape');
  });

  it('the AI tool with a design, and the item customizer', async () => {
    await page.getByRole('button', { name: 'AI Design Tool (Beta)' }).click();
    await page.getByRole('button', { name: /Custom Patches/ }).click();
    await page.getByLabel('Describe your design').fill('Subdued patch with a wolf head and the words NIGHT WATCH');
    await page.getByRole('button', { name: 'Generate Design' }).click();
    await page.getByTestId('design-detail').waitFor({ timeout: 30_000 });
    await expectNoViolations('AI tool');
    await page.getByRole('button', { name: 'Customize' }).click();
    const modal = page.getByRole('dialog', { name: 'Customize Custom Patches' });
    await modal.waitFor();
    await expectNoViolations('customizer: design');
    for (const step of ['text', 'specifications', 'review']) {
      await modal.getByRole('button', { name: 'Next' }).click();
      await expectNoViolations(`customizer: ${step}`);
    }
    await modal.getByRole('button', { name: 'Close' }).click();
  });

  it('a tracked order', async () => {
    const email = `a11y.${Date.now()}@example.com`;
    const response = await fetch(`${baseUrl}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        customerName: 'Avery Stone',
        email,
        itemType: 'shirt',
        designMethod: 'team',
        description: 'Station logo on the back',
        quantity: 3,
        sizeBreakdown: { L: 3 },
        colors: ['Black'],
        finish: 'cotton',
        shippingAddress: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      }),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    const { order } = (await response.json()) as { order: { orderNumber: string } };
    await page.goto(`${baseUrl}/track`);
    await page.getByLabel('Order number').fill(order.orderNumber);
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Track Order' }).click();
    await page.getByTestId('tracked-order').waitFor();
    await expectNoViolations('tracked order');
    expect(shop.pageErrors).toEqual([]);
  });
});
