// Issue 10 "Storefront", in Chromium on a 375 px phone as a customer would meet it: the quantity field
// edits like a number field; a Canadian address (provinces, postal code format, the ISO code sent, the
// server refusing "Halifax, AL"); then that order on /track once quoted ($2,400.00 with a thousands
// separator, the coin size with its label and unit, the bar at Quote Sent) and once paid (not 0%).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { orderPaymentPath, ordersAdminPaths } from '@shop/contracts';
import { adminApiHeaders } from './support/admin.js';
import { launchBrowser, type Browser, type ShopPage } from './support/browser.js';
import {
  choose,
  clickContinue,
  continueButton,
  fillContact,
  flow,
  requestQuote,
  uniqueEmail,
  type Submitted,
} from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
const email = uniqueEmail('storefront.fixes');

let browser: Browser;
let shop: ShopPage;
let page: Page;
let admin: Record<string, string>;
let placed: Pick<Submitted, 'orderNumber' | 'body'> | null = null;

beforeAll(async () => {
  [browser, admin] = await Promise.all([launchBrowser(), adminApiHeaders(baseUrl)]);
  shop = await browser.newPage({ width: 375 });
  page = shop.page;
});

afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

async function trackOrder(orderNumber: string): Promise<void> {
  await page.goto(`${baseUrl}/track`);
  await page.getByLabel('Order number').fill(orderNumber);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Track Order' }).click();
  await page.getByTestId('tracked-order').waitFor();
}

async function reachedSteps(): Promise<string[]> {
  return page.getByTestId('tracking-steps').locator('li[data-reached="true"]').allInnerTexts();
}

describe('quantity on the specifications step', () => {
  it('Backspace twice on "50" leaves the field empty, then 75 is 75 (was 1, then 175)', async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByRole('button', { name: 'Start Order for Challenge Coins' }).click();
    await choose(page, /Describe Your Design/);
    await clickContinue(page);
    await flow(page).getByLabel('Describe your design').fill('Round coin, maple leaf over crossed anchors');
    await clickContinue(page);

    const quantity = flow(page).getByLabel('Quantity');
    const estimate = page.getByTestId('estimate');
    expect(await quantity.inputValue()).toBe('50');
    await quantity.click();
    await quantity.press('End');
    await quantity.press('Backspace');
    expect(await quantity.inputValue()).toBe('5');
    await quantity.press('Backspace');
    expect(await quantity.inputValue()).toBe('');
    await quantity.pressSequentially('75');
    expect(await quantity.inputValue()).toBe('75');
    await estimate.getByText('75 pieces').waitFor();
    // 25.99 x 75 less 10% = 1,754.33, a whole number of dollars.
    await estimate.getByText('$1,754.00').waitFor();

    // The spec's rules apply on leaving the field: empty becomes 1, above 10000 becomes 10000.
    await quantity.fill('');
    await quantity.blur();
    expect(await quantity.inputValue()).toBe('1');
    await quantity.fill('20000');
    await quantity.blur();
    expect(await quantity.inputValue()).toBe('10000');
    await quantity.fill('75');
    await quantity.blur();
    expect(await quantity.inputValue()).toBe('75');
    await estimate.getByText('$1,754.00').waitFor();
    expect(shop.pageErrors).toEqual([]);
  });
});

describe('a Canadian address', () => {
  it('offers provinces and territories, checks the A1A 1A1 format, and sends CA', async () => {
    await choose(page, /^Large/);
    await choose(page, 'Gold');
    await choose(page, 'Antique Gold');
    await clickContinue(page);

    const f = flow(page);
    expect(await f.getByLabel('State').locator('option').count()).toBe(51);
    await f.getByLabel('Country').selectOption('CA');
    const province = f.getByLabel('Province or territory');
    const names = await province.locator('option').allInnerTexts();
    expect(names).toHaveLength(14);
    expect(names).toContain('Nova Scotia');
    expect(names).not.toContain('Alabama');
    expect(await f.getByLabel('State', { exact: true }).count()).toBe(0);

    await f.getByLabel('Address line 1').fill('1 Barrington St');
    await f.getByLabel('City').fill('Halifax');
    await province.selectOption('NS');
    const postal = f.getByLabel('Postal code');
    await postal.fill('36104');
    await postal.blur();
    await f.getByRole('alert').getByText('Postal code must be a Canadian postal code (A1A 1A1)').waitFor();
    expect(await continueButton(page).isDisabled()).toBe(true);
    await postal.fill('b3h1a1');
    await postal.blur();
    expect(await postal.inputValue()).toBe('B3H 1A1');
    expect(await f.getByRole('alert').count()).toBe(0);

    // Back to the US: a province is no state, so the picker asks again.
    await f.getByLabel('Country').selectOption('US');
    expect(await f.getByLabel('State').inputValue()).toBe('');
    expect(await continueButton(page).isDisabled()).toBe(true);
    await f.getByLabel('Country').selectOption('CA');
    await f.getByLabel('Province or territory').selectOption('NS');
    await clickContinue(page);

    await fillContact(page, { first: 'Claire', last: 'Boudreau', email });
    await clickContinue(page);
    await f.getByText('1 Barrington St, Halifax, NS B3H 1A1, Canada').waitFor();
    await f.getByText('Large (2")').waitFor();
    placed = await requestQuote(page);
    expect(placed.body.shippingAddress).toEqual({
      line1: '1 Barrington St',
      line2: '',
      city: 'Halifax',
      state: 'NS',
      postalCode: 'B3H 1A1',
      country: 'CA',
    });
    expect(placed.body.quantity).toBe(75);
  });

  it('the server refuses "Halifax, AL" and a ZIP code in Canada', async () => {
    expect(placed).not.toBeNull();
    for (const [address, field] of [
      [{ ...placed!.body.shippingAddress, state: 'AL' }, 'shippingAddress.state'],
      [{ ...placed!.body.shippingAddress, postalCode: '36104' }, 'shippingAddress.postalCode'],
    ] as const) {
      const response = await fetch(`${baseUrl}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ ...placed!.body, shippingAddress: address }),
      });
      const answer = (await response.json()) as { details?: Array<{ field: string; message: string }> };
      expect(response.status).toBe(400);
      expect(answer.details?.map((d) => d.field)).toContain(field);
    }
  });
});

describe('tracking the order', () => {
  it('once quoted: Quote Sent on the first step, $2,400.00 in the timeline, the size with its unit', async () => {
    expect(placed).not.toBeNull();
    const lookup = await fetch(`${baseUrl}/api/orders/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderNumber: placed!.orderNumber, email }),
    });
    const { order } = (await lookup.json()) as { order: { id: string } };
    const quote = await fetch(`${baseUrl}${ordersAdminPaths.generateQuote(order.id)}`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ quoteAmount: 2400 }),
    });
    expect(quote.status, await quote.text()).toBe(200);

    await trackOrder(placed!.orderNumber);
    const tracked = page.getByTestId('tracked-order');
    expect(await page.getByTestId('status-badge').innerText()).toMatch(/quote sent/i);
    expect(await page.getByTestId('progress-percent').innerText()).toBe('20%');
    expect(await reachedSteps()).toEqual(['Pending Review']);
    await tracked.getByText('Your quote has been sent by email.').waitFor();
    await tracked.getByText('Quote sent: $2,400.00').waitFor();
    expect(await page.getByTestId('tracked-size').innerText()).toBe('Large (2")');
    // No US sales tax on an order shipped to Canada: the total is the quote.
    await tracked.getByText('$2,400.00', { exact: true }).waitFor();

    // Paid with a test card on the payment page, as the customer would.
    await page.goto(`${baseUrl}${orderPaymentPath(order.id)}`);
    const card = page.getByRole('form', { name: 'Card payment' });
    await card.getByLabel('Card number').fill('4242424242424242');
    await card
      .getByLabel('Expiry (MM / YY)')
      .pressSequentially(`12${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`);
    await card.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay $2,400.00' }).click();
    await page.getByText('Payment Successful!').waitFor({ timeout: 30_000 });
  });

  it('once paid: not 0%, past the first step, in plain words', async () => {
    await trackOrder(placed!.orderNumber);
    expect(await page.getByTestId('status-badge').innerText()).toMatch(/^paid$/i);
    expect(await page.getByTestId('progress-percent').innerText()).toBe('30%');
    expect(await reachedSteps()).toEqual(['Pending Review']);
    await page
      .getByTestId('tracked-order')
      .getByText('Your payment has been received. Work on your order begins now.')
      .waitFor();
    expect(shop.pageErrors).toEqual([]);
  });
});
