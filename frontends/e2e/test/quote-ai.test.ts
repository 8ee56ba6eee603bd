// The AI design generator (beta) in Chromium: prompt checks and counter, a generated design with its
// detail view (enlarge, download saved as a file), the item customizer (steps, price, its name/email
// rule), and Finalize Order entering the flow at the specifications step and ending in an order.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser, type ShopPage } from './support/browser.js';
import {
  choose,
  clickContinue,
  expectStep,
  fillContact,
  fillShipping,
  flow,
  requestQuote,
  uniqueEmail,
} from './support/quote-flow.js';

const baseUrl = inject('baseUrl');

let browser: Browser;
let shop: ShopPage;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  shop = await browser.newPage({ width: 375 });
  page = shop.page;
});

afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

describe('AI design generator (beta)', () => {
  const prompt = 'Navy challenge coin with an anchor and eagle, gold on dark blue, motto HONOR COURAGE';

  it('checks the prompt, generates a design and shows its detail view', async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByRole('button', { name: 'AI Design Tool (Beta)' }).click();
    const tool = page.getByTestId('ai-designer');
    await tool.waitFor();
    await tool.getByText('Tips for a better design').waitFor();

    const counter = page.getByTestId('prompt-counter');
    const box = tool.getByLabel('Describe your design');
    await box.fill('abc');
    expect(await counter.innerText()).toBe('3/500 (min 5)');
    expect(await counter.getAttribute('data-tone')).toBe('short');
    await tool.getByRole('button', { name: 'Generate Design' }).click();
    await tool
      .getByRole('alert')
      .getByText('Please provide a more detailed description (at least 5 characters)')
      .waitFor();

    await box.fill('x'.repeat(600));
    expect(await counter.innerText()).toBe('500/500');
    expect(await counter.getAttribute('data-tone')).toBe('full');

    await box.fill(prompt);
    await tool.getByRole('button', { name: 'Generate Design' }).click();
    await tool.getByRole('alert').getByText('Please select a valid item type').waitFor();

    await tool.getByRole('button', { name: /Challenge Coins/ }).click();
    const [request] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/api/ai/generate-design'),
      tool.getByRole('button', { name: 'Generate Design' }).click(),
    ]);
    expect(request.postDataJSON()).toEqual({ prompt, itemType: 'coin', style: 'military' });
    const detail = page.getByTestId('design-detail');
    await detail.waitFor({ timeout: 30_000 });
    const image = detail.getByRole('img');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await detail.getByText(prompt).waitFor();
    await page.getByRole('heading', { name: 'Recent designs' }).waitFor();

    await detail.getByRole('button', { name: 'Enlarge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your design' });
    await dialog.getByRole('img').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('downloads the design as a file', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^design-[A-Za-z0-9_-]+\.(jpg|png|svg|webp)$/);
    const path = await download.path();
    expect((await readFile(path)).length).toBeGreaterThan(100);
  });

  it('customizes the design: steps, colors, 100-character text, price, and the name/email rule', async () => {
    await page.getByRole('button', { name: 'Customize' }).click();
    const modal = page.getByRole('dialog', { name: 'Customize Custom Challenge Coins' });
    await modal.waitFor();
    for (const step of ['Design', 'Text', 'Specifications', 'Review'])
      await modal.getByText(step, { exact: true }).first().waitFor();
    await modal.getByText('AI Generated').waitFor();
    await modal.getByText('Ready to Use').waitFor();
    await modal.getByText('Choose Your Color').waitFor();
    await modal.getByRole('button', { name: 'Black Nickel' }).click();
    expect(await modal.getByRole('button', { name: 'Black Nickel' }).getAttribute('aria-pressed')).toBe('true');
    await modal.getByRole('button', { name: 'Next' }).click();

    const text = modal.getByPlaceholder('Enter text for your Custom Challenge Coins...');
    await text.fill('y'.repeat(120));
    await modal.getByText('100/100 characters').waitFor();
    await text.fill('USS ENTERPRISE');
    await modal.getByText('14/100 characters').waitFor();
    await modal.getByText('Military mottos and unit designations work best.').waitFor();
    await modal.getByRole('button', { name: 'Next' }).click();

    await modal.getByText('Choose Your Size').waitFor();
    await modal.getByRole('button', { name: '2 inch' }).click();
    await modal.getByRole('button', { name: 'Copper' }).click();
    await modal.getByRole('button', { name: 'Decrease quantity' }).isDisabled();
    await modal.getByRole('button', { name: 'Increase quantity' }).click();
    await modal.getByRole('button', { name: 'Increase quantity' }).click();
    await modal.getByRole('button', { name: 'Next' }).click();

    await modal.getByText('Order Summary').waitFor();
    // 25.99 x 3 x 1.5 (2 inch coin)
    expect(await modal.getByTestId('customizer-price').innerText()).toBe('$116.96');
    await modal.getByText('7-10 business days', { exact: false }).waitFor();
    await modal.getByRole('button', { name: 'Place Order' }).click();
    await modal
      .getByRole('alert')
      .getByText('Please fill in your name and email address in the customization form before submitting your order.')
      .waitFor();
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
  });

  it('Finalize Order enters the flow at the specifications step and ends in an order', async () => {
    await page.getByRole('button', { name: 'Finalize Order' }).click();
    await flow(page).getByRole('heading', { name: 'Specifications' }).waitFor();
    await expectStep(page, 3, 60);
    expect(await flow(page).getByLabel('Quantity').inputValue()).toBe('50');
    await choose(page, /^Large/);
    await choose(page, 'Gold');
    await choose(page, 'Polished Gold');
    await clickContinue(page);
    await fillShipping(page, { line1: '1 Pier Way', city: 'Norfolk', state: 'VA', postalCode: '23511' });
    await clickContinue(page);
    await fillContact(page, { first: 'Luis', last: 'Alvarez', email: uniqueEmail('quote.ai') });
    await clickContinue(page);
    await flow(page).getByText('AI generated design').waitFor();
    const { body } = await requestQuote(page);
    expect(body).toMatchObject({
      designMethod: 'ai',
      aiGenerated: true,
      description: prompt,
      quantity: 50,
      size: '2',
      itemType: 'coin',
    });
    expect(shop.pageErrors).toEqual([]);
  });
});
