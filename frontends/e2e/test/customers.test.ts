// Customer management in the back office, in Chromium against the shared stack: a customer who just
// ordered (two quote requests; one quoted and paid) appears in the Customers view with the right
// figures (the paid order's total as the orders table shows it), the detail view lists the order
// history, Export to CSV downloads every matching customer, and the empty and error states read as the
// spec says. The figures travel as order events from the orders service to the customers service.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { customerCsvColumns, formatMoney, ordersAdminPaths } from '@shop/contracts';
import { adminApiHeaders, signInAsAdmin } from './support/admin.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, type Browser, type ShopPage } from './support/browser.js';
import { uniqueEmail } from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
const email = uniqueEmail('customers.view');
const customerName = 'Morgan Delacroix';

interface Placed {
  id: string;
  orderNumber: string;
}

let browser: Browser;
let shop: ShopPage;
let page: Page;
let paid: Placed;
let open: Placed;
/** The paid order's total as the back office's orders table shows it (the quote with its tax). */
let paidTotal: number;

async function placeOrder(description: string, quantity: number): Promise<Placed> {
  const response = await fetch(`${baseUrl}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({
      customerName,
      email,
      phone: '555-0177',
      itemType: 'coin',
      designMethod: 'describe',
      description,
      quantity,
      size: '1.75',
      shape: 'Round',
      colors: ['Gold'],
      finish: 'antique_gold',
      edge: 'rope',
      features: [],
      files: [],
      aiGenerated: false,
      subscribeEmail: false,
      subscribeSMS: false,
      shippingAddress: { line1: '4 Fort Road', city: 'Fayetteville', state: 'NC', postalCode: '28301', country: 'US' },
      customerCategory: 'military',
      taxExempt: false,
    }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  const { order } = JSON.parse(text) as { order: Placed };
  return { id: order.id, orderNumber: order.orderNumber };
}

async function adminCall<Body = unknown>(path: string, method: string, body: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(await adminApiHeaders(baseUrl)), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as Body;
}

function customersView(p: Page) {
  return p.getByRole('navigation', { name: 'Back office views' }).getByRole('button', { name: 'Customers' });
}

async function search(p: Page, text: string) {
  await p.getByLabel('Search customers').fill(text);
  await p.getByRole('search').getByRole('button', { name: 'Search' }).click();
}

beforeAll(async () => {
  paid = await placeOrder('Battalion coin with the unit crest, numbered on the rim', 120);
  open = await placeOrder('Retirement coin with the flag and a name on the back', 30);
  // The first order is quoted and paid; the second stays a quote request (not counted as spent).
  await adminCall(ordersAdminPaths.generateQuote(paid.id), 'POST', {
    quoteAmount: 1650,
    quoteNotes: 'Two-sided, rope edge',
    sendEmail: true,
  });
  await adminCall(ordersAdminPaths.status(paid.id), 'PUT', { status: 'paid' });
  const list = await fetch(`${baseUrl}${ordersAdminPaths.list}?search=${paid.orderNumber}`, {
    headers: await adminApiHeaders(baseUrl),
  });
  const { orders } = (await list.json()) as { orders: { orderNumber: string; total: number }[] };
  paidTotal = orders.find((o) => o.orderNumber === paid.orderNumber)!.total;
  expect(paidTotal).toBeGreaterThanOrEqual(1650);

  browser = await launchBrowser();
  // axe is injected as a script: the shop's CSP would refuse it.
  shop = await browser.newPage({ bypassCSP: true });
  page = shop.page;
  await signInAsAdmin(page, baseUrl);
  await customersView(page).click();
  await page.getByRole('heading', { name: 'Customer Management' }).waitFor();
});

afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

describe('the Customers view', () => {
  it('shows the customer who just ordered with the right figures', async () => {
    await page.getByTestId('summary-total-customers').waitFor();
    await search(page, email);
    const row = page.getByTestId('customer-row').filter({ hasText: email });
    // The paid status travels as an event; Refresh until the customers service has it.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return row
            .getByTestId('customer-spent')
            .innerText()
            .catch(() => '');
        },
        { timeout: 15_000 },
      )
      .toBe(formatMoney(paidTotal));
    expect(await page.getByTestId('customer-row').count()).toBe(1);
    expect(await row.getByTestId('customer-orders').innerText()).toMatch(/^2\s+0 completed$/);
    const text = await row.innerText();
    expect(text).toContain(customerName);
    expect(text).toMatch(/active/i); // the badge is drawn in capitals
    // One paid order: its total is also the average order.
    expect(text.split(formatMoney(paidTotal)).length - 1).toBe(2);
    expect(text).toContain('Challenge Coins');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('opens the detail view with the figures, contact info and the order history', async () => {
    await page.getByRole('button', { name: `View details of ${customerName}` }).click();
    const detail = page.getByTestId('customer-detail');
    await detail.getByRole('heading', { name: customerName }).waitFor();
    expect(await detail.getByTestId('detail-total-spent').innerText()).toBe(formatMoney(paidTotal));
    expect(await detail.getByTestId('detail-total-orders').innerText()).toBe('2');
    expect(await detail.getByTestId('detail-average-order').innerText()).toBe(formatMoney(paidTotal));
    expect(await detail.getByTestId('detail-email').innerText()).toBe(email);
    const history = detail.getByTestId('customer-order-history');
    const paidLine = history.locator('tr').filter({ hasText: `#${paid.orderNumber}` });
    expect(await paidLine.innerText()).toContain('Paid');
    expect(await paidLine.innerText()).toContain(formatMoney(paidTotal));
    expect(await paidLine.innerText()).toContain('120');
    expect(
      await history
        .locator('tr')
        .filter({ hasText: `#${open.orderNumber}` })
        .innerText(),
    ).toContain('Quote Pending');
    expect(await axeViolations(page)).toEqual([]);
    await detail.getByRole('button', { name: 'Back to Customers' }).click();
    await page.getByTestId('customers-table').waitFor();
  });

  it('exports every matching customer to a CSV with the date in its name', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export to CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile(await download.path(), 'utf8')).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(customerCsvColumns.join(','));
    expect(lines).toHaveLength(2);
    const [name, mail, phone, status, orders, spent, first, last] = lines[1].split(',');
    expect({ name, mail, phone, status, orders, spent }).toEqual({
      name: customerName,
      mail: email,
      phone: '555-0177',
      status: 'Active',
      orders: '2',
      spent: paidTotal.toFixed(2),
    });
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(last).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('says "No customers found" with a hint about the filters', async () => {
    await search(page, `nobody-${crypto.randomUUID()}`);
    const empty = page.getByTestId('customers-empty');
    await empty.getByText('No customers found').waitFor();
    await empty.getByText('Try a different search or set the status filter to All customers.').waitFor();
  });

  it('shows "Error Loading Customers" when the list fails, and Retry loads it', async () => {
    const isList = (url: URL) => url.pathname === '/api/customers';
    await page.route(isList, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Customers service unavailable', code: 'UNAVAILABLE' }),
      }),
    );
    await search(page, email);
    await page.getByRole('heading', { name: 'Error Loading Customers' }).waitFor({ timeout: 15_000 });
    await page.getByText('Failed to fetch customers').waitFor();
    await page.unroute(isList);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('customer-row').filter({ hasText: email }).waitFor();
  });
});
