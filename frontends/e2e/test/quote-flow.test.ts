// The guided quote flow in Chromium on a 375 px phone, as a new customer would use it: a coin order
// through every step, a shirt order with a size breakdown, an upload order, then /track with the
// order number and email (order view, history, back to search). One page is reused throughout.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser, type ShopPage } from './support/browser.js';
import { ORDER_SUBMIT_ATTEMPTS } from '../../storefront/src/api/shop.js';
import {
  choose,
  clickContinue,
  continueButton,
  expectStep,
  fillContact,
  fillShipping,
  flow,
  requestQuote,
  tinyPng,
  tinySvg,
  uniqueEmail,
  waitForMail,
} from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
const email = uniqueEmail('quote.flow');

let browser: Browser;
let shop: ShopPage;
let page: Page;
const placed: Array<{ orderNumber: string; item: string }> = [];
const orderPosts: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  shop = await browser.newPage({ width: 375 });
  page = shop.page;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/orders')
      orderPosts.push(r.headers()['idempotency-key'] ?? '');
  });
});

afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

describe('guided quote flow (/)', () => {
  it('orders challenge coins through every step to the confirmation', async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByRole('button', { name: 'Start Order for Challenge Coins' }).click();

    // Step 1: the design method; Continue appears only once one is chosen.
    await expectStep(page, 1, 20);
    for (const label of ['Design', 'Details', 'Options', 'Contact', 'Done'])
      await flow(page).getByText(label, { exact: true }).first().waitFor();
    expect(await continueButton(page).count()).toBe(0);
    await choose(page, /Describe Your Design/);
    await clickContinue(page);

    // Step 2: a description of at least 5 characters after trimming.
    await expectStep(page, 2, 40);
    const description = flow(page).getByLabel('Describe your design');
    await description.fill('   abc   ');
    expect(await continueButton(page).isDisabled()).toBe(true);
    await description.fill('Round coin, eagle over crossed rifles, motto ALWAYS READY');
    expect(await continueButton(page).getAttribute('data-highlight')).toBe('true');
    await clickContinue(page);

    // Step 3: size, colors, finish, edge, features, quantity and the estimate.
    await expectStep(page, 3, 60);
    expect(await continueButton(page).isDisabled()).toBe(true);
    for (const size of ['Mini', 'Small', 'Medium', 'Large', 'XL', 'XXL'])
      await flow(page)
        .getByRole('button', { name: new RegExp(`^${size}\\b`) })
        .first()
        .waitFor();
    await choose(page, /^Medium/);
    await choose(page, 'Shield');
    await choose(page, 'Gold');
    await choose(page, 'Black');
    expect(await continueButton(page).isDisabled()).toBe(true);
    await choose(page, 'Antique Gold');
    await choose(page, 'Rope');
    await choose(page, 'Spinner');
    const estimate = page.getByTestId('estimate');
    await estimate.getByText('Bulk Pricing Available').waitFor();
    await estimate.getByText('$1,170.00').waitFor();
    const quantity = flow(page).getByLabel('Quantity');
    await quantity.fill('49');
    await estimate.getByText('Standard Pricing').waitFor();
    await quantity.fill('120');
    await estimate.getByText('Volume Discount Applied').waitFor();
    await estimate.getByText('$2,495.00').waitFor();
    await quantity.fill('20000');
    await quantity.blur();
    expect(await quantity.inputValue()).toBe('10000');
    await quantity.fill('120');
    await clickContinue(page);

    // Step 4: shipping with the 50 states, US/Canada, and the military notes.
    await expectStep(page, 4, 80);
    expect(await flow(page).getByLabel('State').locator('option').count()).toBe(51);
    expect(await flow(page).getByLabel('Country').locator('option').allInnerTexts()).toEqual([
      'United States',
      'Canada',
    ]);
    expect(await flow(page).getByLabel('Postal code').getAttribute('maxlength')).toBe('10');
    await fillShipping(page, {
      line1: '100 Fort Rd',
      city: 'Killeen',
      state: 'TX',
      postalCode: '76544',
      category: 'Military Personnel',
    });
    await flow(page).getByText('APO/FPO addresses are supported.').waitFor();
    await clickContinue(page);

    // Step 5: contact; the SMS box appears only with a phone number.
    await expectStep(page, 4, 80);
    expect(await continueButton(page).isDisabled()).toBe(true);
    expect(await flow(page).getByLabel('Text me order updates by SMS').count()).toBe(0);
    await fillContact(page, { first: 'Marcus', last: 'Reed', email, phone: '555-0100' });
    await flow(page).getByLabel('Text me order updates by SMS').check();
    await clickContinue(page);

    // Step 6: review, then Request Quote (double-clicked: one order only).
    await flow(page).getByRole('heading', { name: 'Review your request' }).waitFor();
    await flow(page).getByText('Military Personnel (tax exemption requested)').waitFor();
    const before = orderPosts.length;
    await flow(page).getByRole('button', { name: 'Request Quote' }).dblclick();
    const confirmation = page.getByTestId('order-confirmation');
    await confirmation.waitFor({ timeout: 30_000 });
    await confirmation.getByText('Quote Pending', { exact: true }).waitFor();
    await expectStep(page, 5, 100);
    expect(orderPosts.length - before).toBe(1);
    expect(orderPosts.at(-1)).toMatch(/^[0-9a-f-]{32,36}$/);
    const orderNumber = (await page.getByTestId('order-number').innerText()).trim();
    expect(orderNumber).toMatch(/^[A-Z0-9-]{4,}$/);
    placed.push({ orderNumber, item: 'coin' });
    expect(shop.pageErrors).toEqual([]);
  });

  it('orders tactical shirts with a count per size', async () => {
    // Place Another Order starts again at the item choice.
    await page.getByRole('button', { name: 'Place Another Order' }).click();
    await flow(page).getByRole('heading', { name: 'Choose your item' }).waitFor();
    await expectStep(page, 1, 20);
    await choose(page, /Tactical Shirts/);
    await clickContinue(page);
    await choose(page, /Let Our Team Design/);
    await clickContinue(page);
    await flow(page)
      .getByLabel('Tell our design team what you need')
      .fill('Unit crest on the chest, call sign on the back');
    await clickContinue(page);

    await flow(page).getByText('Chest 38-40"').waitFor();
    await flow(page).getByLabel('M quantity', { exact: true }).fill('4');
    await flow(page).getByLabel('XL quantity', { exact: true }).fill('6');
    await flow(page).getByLabel('S quantity', { exact: true }).fill('-2');
    await flow(page).getByLabel('S quantity', { exact: true }).blur();
    expect(await flow(page).getByLabel('S quantity', { exact: true }).inputValue()).toBe('0');
    await choose(page, 'Performance');
    await choose(page, 'Black');
    const estimate = page.getByTestId('estimate');
    await estimate.getByText('10 pieces').waitFor();
    await estimate.getByText('Standard Pricing').waitFor();
    await estimate.getByText('$400.00').waitFor();
    await clickContinue(page);

    await fillShipping(page, {
      line1: '12 Station St',
      city: 'Denver',
      state: 'CO',
      postalCode: '80202',
      category: 'First Responder',
    });
    await clickContinue(page);
    await fillContact(page, { first: 'Dana', last: 'Lopez', email });
    await clickContinue(page);
    await flow(page).getByText('M: 4, XL: 6').waitFor();

    // The connection drops on every try: the storefront sends the request again by itself (same
    // Idempotency-Key, 1 s, 2 s and 4 s apart), then shows the generic message; the customer's next click
    // goes through with that same key, so the shop makes one order.
    let dropping = true;
    await page.route('**/api/orders', (route) => (dropping ? route.abort('connectionreset') : route.fallback()));
    const before = orderPosts.length;
    await flow(page).getByRole('button', { name: 'Request Quote' }).click();
    await flow(page)
      .getByRole('alert')
      .getByText('Error submitting order. Please try again or contact support.')
      .waitFor({ timeout: 30_000 });
    expect(orderPosts.length - before).toBe(ORDER_SUBMIT_ATTEMPTS);
    dropping = false;
    const { orderNumber, body } = await requestQuote(page);
    await page.unroute('**/api/orders');
    expect(orderPosts.length - before).toBe(ORDER_SUBMIT_ATTEMPTS + 1);
    expect(new Set(orderPosts.slice(before)).size).toBe(1);
    expect(body).toMatchObject({
      itemType: 'shirt',
      quantity: 10,
      sizeBreakdown: { M: 4, XL: 6 },
      finish: 'performance',
      customerCategory: 'first_responder',
      taxExempt: false,
    });
    expect(body).not.toHaveProperty('size');
    placed.push({ orderNumber, item: 'shirt' });
  });

  it('orders patches from uploaded artwork (files uploaded first, then the order)', async () => {
    await page.getByRole('button', { name: 'Back to Main Menu' }).click();
    await page.getByRole('button', { name: 'Start Order for Custom Patches' }).click();
    await choose(page, /Upload Your Design/);
    await clickContinue(page);

    const input = page.getByTestId('upload-input');
    await page.getByText('max 10MB each', { exact: false }).waitFor();
    await input.setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not artwork') }]);
    await page
      .getByText('Some files were rejected. Please upload only JPG, PNG, PDF, AI, EPS, or SVG files.')
      .waitFor();
    expect(await continueButton(page).isDisabled()).toBe(true);

    // A text file renamed .png passes the browser (by name) but not the server (by content): the
    // upload failure blocks the order with its reason.
    await input.setInputFiles([
      { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('this is not a picture at all') },
    ]);
    await page.getByText('1 file selected').waitFor();
    await clickContinue(page);

    await choose(page, /^3" x 3"/);
    await choose(page, 'Embroidered');
    await choose(page, 'Green');
    await flow(page).getByLabel('Quantity').fill('100');
    await page.getByTestId('estimate').getByText('Volume Discount Applied').waitFor();
    await clickContinue(page);
    await fillShipping(page, { line1: '5 Range Rd', city: 'Fayetteville', state: 'NC', postalCode: '28301' });
    await clickContinue(page);
    await fillContact(page, { first: 'Kevin', last: 'Marsh', email });
    await clickContinue(page);
    const postsBefore = orderPosts.length;
    await flow(page).getByRole('button', { name: 'Request Quote' }).click();
    await flow(page)
      .getByRole('alert')
      .getByText(/^File upload failed: .+/)
      .waitFor({ timeout: 30_000 });
    expect(orderPosts.length).toBe(postsBefore);

    // Back to the artwork (every answer kept), real files this time.
    for (let i = 0; i < 4; i++) await flow(page).getByRole('button', { name: 'Back' }).click();
    await page.getByText('1 file selected').waitFor();
    await page.getByRole('button', { name: 'Clear All' }).click();
    await input.setInputFiles([
      { name: 'crest.png', mimeType: 'image/png', buffer: tinyPng },
      { name: 'tab.svg', mimeType: 'image/svg+xml', buffer: tinySvg },
      { name: 'extra.png', mimeType: 'image/png', buffer: tinyPng },
    ]);
    await page.getByText('3 files selected').waitFor();
    await page.getByRole('button', { name: 'Remove extra.png' }).click();
    await page.getByText('2 files selected').waitFor();
    for (let i = 0; i < 4; i++) await clickContinue(page);
    await flow(page).getByText('crest.png, tab.svg').waitFor();

    const uploaded = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/upload',
    );
    const { orderNumber, body } = await requestQuote(page);
    expect((await uploaded).ok()).toBe(true);
    expect(body.designMethod).toBe('upload');
    const files = body.files ?? [];
    expect(files.map((f) => f.originalName)).toEqual(['crest.png', 'tab.svg']);
    // The description was left empty: the default names the files.
    expect(body.description).toBe('Custom patch design from uploaded files: crest.png, tab.svg');
    const served = await page.request.get(`${baseUrl}${files[0].url}`);
    expect(served.ok()).toBe(true);
    expect(served.headers()['content-type']).toContain('image/png');
    placed.push({ orderNumber, item: 'patch' });
  });
});

describe('emails', () => {
  it('the confirmation email of each order arrives in the local mailbox', async () => {
    expect(placed.length).toBeGreaterThan(0);
    for (const { orderNumber } of placed) {
      const mail = await waitForMail(baseUrl, email, (m) => `${m.subject}\n${m.text}`.includes(orderNumber));
      expect(mail.to).toContain(email.toLowerCase());
    }
  });
});

describe('tracking (/track) with the orders just placed', () => {
  it('finds the coin order by number (typed in lower case) and email, then shows the history', async () => {
    expect(placed.length).toBeGreaterThan(0);
    const coin = placed[0];
    await page.goto(`${baseUrl}/track`);
    await page.getByLabel('Order number').fill(coin.orderNumber.toLowerCase());
    expect(await page.getByLabel('Order number').inputValue()).toBe(coin.orderNumber);
    await page.getByLabel('Email address').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Track Order' }).click();

    const order = page.getByTestId('tracked-order');
    await order.waitFor();
    expect(await page.getByTestId('tracked-order-number').innerText()).toBe(coin.orderNumber);
    expect(await page.getByTestId('status-badge').innerText()).toMatch(/quote pending/i);
    // A quote request has been received: the first of the five steps.
    expect(await page.getByTestId('progress-percent').innerText()).toBe('20%');
    await order.getByText('Custom Challenge Coins').waitFor();
    await order.getByText('Round coin, eagle over crossed rifles', { exact: false }).waitFor();
    expect(await order.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toBe('/support');

    // The other orders of this email, asked for with the order number just proven.
    const others = placed.length - 1;
    if (others > 0) {
      const historyButton = page.getByRole('button', { name: `Order History (${others})` });
      await historyButton.click();
      const history = page.getByTestId('order-history');
      for (const p of placed.slice(1)) await history.getByText(p.orderNumber).waitFor();
      expect(await history.getByText(coin.orderNumber).count()).toBe(0);
      await page.getByRole('button', { name: 'Back to Current Order' }).click();
      await order.waitFor();
      await historyButton.click();
      await page.getByRole('button', { name: 'Track Different Order' }).click();
    } else {
      await page.getByRole('button', { name: 'Track Another Order' }).click();
    }
    expect(await page.getByLabel('Order number').inputValue()).toBe('');
    expect(await page.getByLabel('Email address').inputValue()).toBe('');
  });

  it('does not find an order with another email', async () => {
    await page.getByLabel('Order number').fill(placed[0].orderNumber);
    await page.getByLabel('Email address').fill(uniqueEmail('stranger'));
    await page.getByRole('button', { name: 'Track Order' }).click();
    await page.getByRole('alert').getByText('Order not found', { exact: false }).waitFor();
    expect(shop.pageErrors).toEqual([]);
  });
});
