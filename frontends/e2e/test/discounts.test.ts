// Discount codes end to end (issue 13) in Chromium against the shared stack: an admin creates a military
// code in Marketing > Discount Codes, applies it to a quoted order with the Apply Discount modal from the
// row menu, sees the new total in the order details; the customer gets an email, sees it on /track and
// on the payment page, and pays the discounted total in test mode.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ordersAdminPaths, orderPaymentPath } from '@shop/contracts';
import { adminApiHeaders, signInAsAdmin } from './support/admin.js';
import { launchBrowser, type Browser } from './support/browser.js';
import { uniqueEmail, waitForMail } from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
const email = uniqueEmail('discounts');
const codeTyped = `hero20x${Date.now().toString(36)}`;
const code = codeTyped.toUpperCase();

let browser: Browser;
let admin: Record<string, string>;
let order: { id: string; orderNumber: string };

/** A military customer's patch order (tax-exempt), quoted at $500.00 by the admin's API call. */
async function quotedMilitaryOrder(): Promise<{ id: string; orderNumber: string }> {
  const response = await fetch(`${baseUrl}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({
      customerName: 'Sgt. Maria Alvarez',
      email,
      phone: '555-0142',
      itemType: 'patch',
      designMethod: 'describe',
      description: 'Subdued platoon patch with the unit motto under crossed rifles',
      quantity: 100,
      size: '3x3',
      colors: ['Black'],
      finish: 'embroidered',
      features: [],
      files: [],
      aiGenerated: false,
      subscribeEmail: false,
      subscribeSMS: false,
      shippingAddress: { line1: '12 Fort Rd', city: 'Killeen', state: 'TX', postalCode: '76541', country: 'US' },
      customerCategory: 'military',
      taxExempt: true,
    }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  const placed = (JSON.parse(text) as { order: { id: string; orderNumber: string } }).order;
  const quote = await fetch(`${baseUrl}${ordersAdminPaths.generateQuote(placed.id)}`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ quoteAmount: 500 }),
  });
  expect(quote.status, await quote.text()).toBe(200);
  return placed;
}

function view(p: Page, name: string) {
  return p.getByRole('navigation', { name: 'Back office views' }).getByRole('button', { name });
}

beforeAll(async () => {
  [browser, admin] = await Promise.all([launchBrowser(), adminApiHeaders(baseUrl)]);
  order = await quotedMilitaryOrder();
});

afterAll(async () => {
  await browser?.close();
});

describe('discount codes', () => {
  it('creates a military code, applies it with the modal, and the customer pays the discounted total', async () => {
    const shop = await browser.newPage();
    const { page } = shop;
    await signInAsAdmin(page, baseUrl);

    // Marketing > Discount Codes: create the code (typed in lower case, kept upper case).
    await view(page, 'Marketing').click();
    await page.getByRole('tab', { name: 'Discount Codes' }).click();
    const tab = page.getByTestId('discount-codes-tab');
    await tab.waitFor();
    await tab.getByRole('button', { name: 'Create Discount Code' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create Discount Code' });
    // An empty value is refused in the form, with the schema's words.
    await form.getByLabel(/^Code/).fill(codeTyped);
    await form.getByLabel(/^Category/).selectOption('military');
    await form.getByLabel(/^Description/).fill('Thank you for your service: 20% off');
    await form.getByLabel(/^Type/).selectOption('percentage');
    await form.getByRole('button', { name: 'Create Discount Code' }).click();
    await form.getByText('Value must be a number').or(form.getByText('Value must be at least 1')).first().waitFor();
    await form.getByLabel(/^Value/).fill('20');
    await form.getByLabel(/^Max uses/).fill('5');
    await form.getByRole('button', { name: 'Create Discount Code' }).click();
    await form.waitFor({ state: 'detached' });
    const row = tab.getByTestId(`discount-row-${code}`);
    await row.waitFor();
    expect(await row.getByTestId('discount-uses').innerText()).toBe('0 / 5');
    expect(await row.getByTestId('discount-expires').innerText()).toBe('Never expires');

    // Orders: the row's more-actions menu opens Apply Discount.
    await view(page, 'Orders').click();
    await page.getByLabel('Search orders').fill(order.orderNumber);
    const line = page.locator(`tr[data-order-number="${order.orderNumber}"]`);
    await line.waitFor();
    await line.getByRole('button', { name: `More actions for order #${order.orderNumber}` }).click();
    await page.getByRole('menuitem', { name: 'Apply Discount' }).click();
    const modal = page.getByRole('dialog', { name: 'Apply Discount' });
    await modal.waitFor();
    const apply = modal.getByRole('button', { name: 'Apply Discount' });
    expect(await apply.isDisabled()).toBe(true);
    await modal.getByLabel('Customer category').selectOption('military');
    await modal.getByTestId('discount-picker').getByText(code, { exact: false }).first().click();
    expect(await modal.getByTestId('discount-summary').innerText()).toMatch(/\$500\.00/);
    // Changing the category clears the chosen code.
    await modal.getByLabel('Customer category').selectOption('first_responder');
    await expect.poll(() => apply.isDisabled()).toBe(true);
    expect(await modal.getByTestId('discount-picker').getByText(code).count()).toBe(0);
    await modal.getByLabel('Customer category').selectOption('military');
    await modal.getByTestId('discount-picker').getByText(code, { exact: false }).first().click();
    const request = page.waitForRequest(
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === `/api/orders/${order.id}/discount`,
    );
    await apply.click();
    expect((await request).postDataJSON()).toEqual({ discountCode: code, customerCategory: 'military' });
    await modal.waitFor({ state: 'detached' });

    // The details show the discount and the new total (tax-exempt: $500 - 20% = $400).
    await line.getByRole('button', { name: `Details of order #${order.orderNumber}` }).click();
    const details = page.getByTestId('order-details');
    await details.waitFor();
    const applied = details.getByTestId('details-discount');
    await applied.waitFor();
    expect(await applied.innerText()).toMatch(new RegExp(`${code}[\\s\\S]*\\$100\\.00`));
    expect(await details.getByTestId('details-quote').innerText()).toMatch(/\$400\.00/);
    // The header's Apply Discount opens the same modal with the current discount in its summary.
    await details.getByRole('button', { name: 'Apply Discount' }).click();
    const again = page.getByRole('dialog', { name: 'Apply Discount' });
    expect(await again.getByTestId('discount-summary').innerText()).toMatch(new RegExp(`-\\$100\\.00 \\(${code}\\)`));
    await again.getByRole('button', { name: 'Cancel' }).click();
    await shop.close();

    // The customer is emailed about the discount, with the new total.
    const mail = await waitForMail(
      baseUrl,
      email,
      (m) => m.subject === `A discount was applied to your order #${order.orderNumber}`,
    );
    expect(mail.text).toContain(
      `Good news: the discount code ${code} takes $100.00 off your order. Your new total, tax included, is $400.00.`,
    );

    // The customer: /track shows the code and the discounted total.
    const customer = await browser.newPage({ width: 375 });
    const cp = customer.page;
    await cp.goto(`${baseUrl}/track`);
    await cp.getByLabel(/^Order number/).fill(order.orderNumber);
    await cp.getByLabel(/^Email address/).fill(email);
    await cp.getByRole('button', { name: 'Track Order' }).click();
    const tracked = cp.getByTestId('tracked-order');
    await tracked.waitFor();
    expect(await tracked.innerText()).toMatch(new RegExp(`${code} \\(-\\$100\\.00\\)`));
    expect(await tracked.innerText()).toMatch(/Total\s+\$400\.00/);

    // The payment page: the discount line and the new total; pay it with the test card.
    await cp.goto(`${baseUrl}${orderPaymentPath(order.id)}`);
    await cp.getByRole('heading', { name: 'Complete Your Payment' }).waitFor();
    const figures = await cp.getByTestId('payment-details').innerText();
    expect(figures).toMatch(/Discount\s+-\$100\.00/);
    expect(figures).toMatch(/Total\s+\$400\.00/);
    const cardForm = cp.getByRole('form', { name: 'Card payment' });
    await cardForm.getByLabel('Card number').fill('4242424242424242');
    await cardForm
      .getByLabel('Expiry (MM / YY)')
      .pressSequentially(`12${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`);
    await cardForm.getByLabel('CVC').fill('123');
    const pay = cp.getByRole('button', { name: /^Pay \$400\.00/ });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    const intent = cp.waitForResponse((r) => new URL(r.url()).pathname === '/api/payments/create-intent');
    await pay.click();
    expect(((await (await intent).json()) as { paymentIntent: { amount: number } }).paymentIntent.amount).toBe(40000);
    await cp.getByTestId('pay-success').waitFor();
    await customer.close();

    await expect
      .poll(
        async () => {
          const res = await fetch(`${baseUrl}${ordersAdminPaths.details(order.id)}`, { headers: admin });
          return ((await res.json()) as { order: { status: string } }).order.status;
        },
        { timeout: 15_000 },
      )
      .toBe('paid');
    // The code counted one use.
    const list = await fetch(`${baseUrl}/api/marketing/discounts`, { headers: admin });
    const discount = ((await list.json()) as { discounts: { code: string; usedCount: number }[] }).discounts.find(
      (d) => d.code === code,
    );
    expect(discount?.usedCount).toBe(1);
  });
});
