// Content management end to end (issue 15) in Chromium against the shared stack: an admin changes the hero
// title and the coin's price in the back office's Content view; the home page shows both and the guided
// flow's estimate uses the new price; then the AI tool is switched off (its calls to action disappear from
// the home and branch pages) and "Message us" on (every page gets the entry, it opens the support form).
// The HTML the gateway serves carries the new SEO title and description.
// The other browser tests share this stack and expect the default content: it is reset at the end, in the
// back office, and again from afterAll whatever happened.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { contentPaths, defaultSiteContent, estimatedTotal, formatMoney } from '@shop/contracts';
import { adminApiHeaders, signInAsAdmin } from './support/admin.js';
import { launchBrowser, type Browser } from './support/browser.js';
import { clickContinue, choose, flow } from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
const heroTitle = `Coins for the ${Date.now().toString(36)} reunion`;
const coinPrice = 13.37;
const seoTitle = `Unit coins & patches ${Date.now().toString(36)}`;
const seoDescription = 'Coins "struck" for your unit, quoted within a day.';

let browser: Browser;

async function resetContentOnServer(): Promise<void> {
  const res = await fetch(`${baseUrl}${contentPaths.reset}`, {
    method: 'POST',
    headers: await adminApiHeaders(baseUrl),
  });
  if (res.status !== 200) throw new Error(`content reset answered ${res.status}: ${await res.text()}`);
}

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await resetContentOnServer();
  await browser?.close();
});

async function openContentView(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Back office views' }).getByRole('button', { name: 'Content' }).click();
  await page.getByTestId('content-view').waitFor();
}

async function saveContent(page: Page): Promise<void> {
  const view = page.getByTestId('content-view');
  await view.getByTestId('unsaved-changes').waitFor();
  await view.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('Content saved successfully!').first().waitFor();
  await view.getByTestId('unsaved-changes').waitFor({ state: 'detached' });
}

describe('content management', () => {
  it(
    'drives the home page, the flow estimate and the AI tool from the back office, then resets to defaults',
    { timeout: 180_000 },
    async () => {
      const admin = await browser.newPage({ width: 1280, reducedMotion: 'reduce' });
      const shopper = await browser.newPage({ width: 1280, reducedMotion: 'reduce' });
      const { page } = admin;
      await signInAsAdmin(page, baseUrl);
      await openContentView(page);
      const view = page.getByTestId('content-view');

      // Homepage is open from the start; the hero title and, under Products, the coin's price.
      await view.getByLabel('Hero title').fill(heroTitle);
      await view.getByRole('button', { name: 'Products' }).click();
      await view.locator('[data-product="coin"]').getByLabel('Base price (USD)').fill(String(coinPrice));
      await view.getByRole('button', { name: 'SEO' }).click();
      await view.getByLabel('Page title').fill(seoTitle);
      await view.getByLabel('Meta description').fill(seoDescription);
      await saveContent(page);

      // The HTML the gateway serves carries the new SEO title and description (no script needed).
      const servedHtml = async () => (await fetch(`${baseUrl}/`, { headers: { accept: 'text/html' } })).text();
      await expect.poll(servedHtml, { timeout: 30_000 }).toContain(`<title>${seoTitle.replace('&', '&amp;')}</title>`);
      expect(await servedHtml()).toContain(
        '<meta name="description" content="Coins &quot;struck&quot; for your unit, quoted within a day." />',
      );

      // The home page: the new hero title and "From $13.37" on the coin card.
      const shop = shopper.page;
      await shop.goto(`${baseUrl}/`);
      await expect.poll(() => shop.getByTestId('hero-title').textContent(), { timeout: 30_000 }).toBe(heroTitle);
      await expect
        .poll(() => shop.getByTestId('price-coin').textContent(), { timeout: 30_000 })
        .toBe(`From ${formatMoney(coinPrice)}`);

      // The flow: the item step's "From" and the estimate use the new price.
      await shop
        .locator('[data-item="coin"]')
        .getByRole('button', { name: /Start Order/ })
        .click();
      await flow(shop).waitFor();
      await choose(shop, /^Describe Your Design/);
      await clickContinue(shop);
      await flow(shop)
        .getByLabel('Describe your design')
        .fill('Round coin, eagle over crossed rifles, motto ALWAYS READY');
      await clickContinue(shop);
      const quantity = Number(await flow(shop).getByLabel('Quantity').inputValue());
      expect(quantity).toBeGreaterThan(0);
      const estimate = shop.getByTestId('estimate');
      await estimate.getByText(formatMoney(estimatedTotal('coin', quantity, coinPrice)), { exact: true }).waitFor();
      expect(formatMoney(estimatedTotal('coin', quantity, coinPrice))).not.toBe(
        formatMoney(estimatedTotal('coin', quantity)),
      );

      // All design methods are offered while the switches are on.
      await flow(shop).getByRole('button', { name: 'Back', exact: true }).click();
      await flow(shop).getByRole('button', { name: 'Back', exact: true }).click();
      for (const method of ['Upload Your Design', 'Describe Your Design', 'Let Our Team Design']) {
        await flow(shop)
          .getByRole('button', { name: new RegExp(`^${method}`) })
          .waitFor();
      }

      // The AI tool off, file upload off, "Message us" on.
      await view.getByRole('button', { name: 'Features' }).click();
      await view.getByLabel('AI design tool').uncheck();
      await view.getByLabel('File upload').uncheck();
      await view.getByLabel('Message us').check();
      await saveContent(page);

      // Upload disappears from the flow's design methods within seconds, no reload.
      await expect
        .poll(
          () =>
            flow(shop)
              .getByRole('button', { name: /^Upload Your Design/ })
              .count(),
          { timeout: 30_000 },
        )
        .toBe(0);
      await flow(shop)
        .getByRole('button', { name: /^Describe Your Design/ })
        .waitFor();

      // The home page's AI Design Tool button and the branch page's Start AI Design are gone.
      await shop.goto(`${baseUrl}/`);
      await shop.getByTestId('hero-title').waitFor();
      await expect
        .poll(() => shop.getByRole('button', { name: /AI Design Tool/ }).count(), { timeout: 30_000 })
        .toBe(0);
      await shop.goto(`${baseUrl}/navy-coins`);
      await shop.getByRole('link', { name: 'Manual Design' }).waitFor();
      await expect.poll(() => shop.getByRole('link', { name: 'Start AI Design' }).count(), { timeout: 30_000 }).toBe(0);

      // "Message us" on every page; it opens the support form.
      const messageUs = shop.getByTestId('message-us');
      await messageUs.waitFor({ timeout: 30_000 });
      await shop.goto(`${baseUrl}/track`);
      await messageUs.waitFor({ timeout: 30_000 });
      await messageUs.click();
      await expect.poll(() => new URL(shop.url()).pathname).toBe('/support');

      // Reset to Defaults in the back office, after its confirmation: the defaults are back on the site.
      await view.getByRole('button', { name: 'Reset to Defaults' }).click();
      await page
        .getByRole('dialog', { name: 'Reset to Defaults?' })
        .getByRole('button', { name: 'Reset to Defaults' })
        .click();
      await page.getByText('Content reset to defaults!').first().waitFor();
      await shop.goto(`${baseUrl}/navy-coins`);
      await shop.getByRole('link', { name: 'Start AI Design' }).waitFor({ timeout: 30_000 });
      await expect.poll(() => shop.getByTestId('message-us').count(), { timeout: 30_000 }).toBe(0);
      await shop.goto(`${baseUrl}/`);
      await expect
        .poll(() => shop.getByTestId('hero-title').textContent(), { timeout: 30_000 })
        .toBe(defaultSiteContent.homepage.heroTitle);

      expect(admin.pageErrors).toEqual([]);
      expect(shopper.pageErrors).toEqual([]);
      await admin.close();
      await shopper.close();
    },
  );
});
