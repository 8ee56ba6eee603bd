// Order management in the back office, in Chromium against the shared stack (real orders, email and
// security services, gateway, MongoDB, NATS, the local mailbox): a customer's quote request shows up
// on the dashboard, the admin applies a quote (the customer gets the quote email with the payment
// link), adds tracking (the customer sees it when tracking the order), exports the CSV and changes
// the status of several orders at once.
import { readFile } from 'node:fs/promises';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { adminCsvColumns, formatMoney, orderPaymentPath, ordersAdminPaths, refundDueMessages } from '@shop/contracts';
import { signInAsAdmin } from './support/admin.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, type Browser, type ShopPage } from './support/browser.js';
import { uniqueEmail, waitForMail } from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
const mongoUrl = inject('mongoUrl');
const email = uniqueEmail('admin.orders');
const customerName = 'Dana Whitfield';

interface Placed {
  id: string;
  orderNumber: string;
}
const placed: Placed[] = [];

let browser: Browser;
let shop: ShopPage;
let page: Page;

/** A quote request as the storefront sends it (POST /api/orders is public). */
async function placeOrder(description: string, quantity: number): Promise<Placed> {
  const response = await fetch(`${baseUrl}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({
      customerName,
      email,
      phone: '555-0199',
      itemType: 'coin',
      designMethod: 'describe',
      description,
      quantity,
      size: '1.75',
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
  const { order } = JSON.parse(text) as { order: Placed };
  return { id: order.id, orderNumber: order.orderNumber };
}

/** A small RFC 4180 reader: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function ordersView(p: Page) {
  return p.getByRole('navigation', { name: 'Back office views' }).getByRole('button', { name: 'Orders' });
}

function row(p: Page, orderNumber: string) {
  return p.locator(`tr[data-order-number="${orderNumber}"]`);
}

/** Shows only this customer's orders (the search box asks the server). */
async function searchCustomer(p: Page): Promise<void> {
  await p.getByLabel('Search orders').fill(email);
  for (const o of placed) await row(p, o.orderNumber).waitFor();
}

beforeAll(async () => {
  placed.push(await placeOrder('Unit coin with the regimental crest and the motto on the reverse', 150));
  placed.push(await placeOrder('Retirement coin, eagle and flag, engraved name on the back', 40));
  placed.push(await placeOrder('Squad coin, skull and crossed sabers, dates around the rim', 75));
  browser = await launchBrowser();
  shop = await browser.newPage();
  page = shop.page;
  await signInAsAdmin(page, baseUrl);
  await ordersView(page).click();
  await page.getByTestId('orders-dashboard').waitFor();
});

// A test that failed half-way may leave a dialog open; the next one starts from the plain dashboard.
beforeEach(async () => {
  for (let i = 0; i < 3 && (await page.getByRole('dialog').count()) > 0; i++) await page.keyboard.press('Escape');
});

afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

describe('the orders dashboard', () => {
  it('shows the order a customer just submitted, with its status, summary cards and tab counts', async () => {
    const first = placed[0];
    await page.getByLabel('Search orders').fill(first.orderNumber);
    const line = row(page, first.orderNumber);
    await line.waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await line.innerText()).toContain(customerName);
    // The row's status dropdown is drawn as its status badge.
    expect(await line.locator('[data-status]').getAttribute('data-status')).toBe('pending_quote');
    expect(await line.getByLabel(`Status of order #${first.orderNumber}`).inputValue()).toBe('pending_quote');
    await line.getByRole('button', { name: `Apply Quote to order #${first.orderNumber}` }).waitFor();
    await line.getByRole('button', { name: `More Info for order #${first.orderNumber}` }).waitFor();
    expect(await page.getByTestId('count-all').innerText()).toBe('1');
    expect(await page.getByTestId('count-pending_quote').innerText()).toBe('1');
    expect(
      Number((await page.getByTestId('summary-total-orders').innerText()).replaceAll(',', '')),
    ).toBeGreaterThanOrEqual(3);

    // The details overlay: sections of the spec, closed with Escape.
    await line.getByRole('button', { name: `Details of order #${first.orderNumber}` }).click();
    const details = page.getByTestId('order-details');
    await details.getByRole('heading', { name: `Order #${first.orderNumber}` }).waitFor();
    await details.getByTestId('details-customer').getByText(email).waitFor();
    await details.getByTestId('details-product').getByText('describe').waitFor();
    await details.getByTestId('details-description').getByText('regimental crest', { exact: false }).waitFor();
    await details.getByTestId('details-files').getByText('No files attached.').waitFor();
    await details.getByRole('form', { name: 'Compose email' }).waitFor();
    expect(await details.getByLabel('Subject').inputValue()).toBe(`Update on your order #${first.orderNumber}`);
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
  });

  it("the 'Pending Review' card counts what the Pending Review tab counts (status pending, not pending_quote)", async () => {
    await page.getByLabel('Search orders').fill('');
    await expect.poll(() => page.getByTestId('count-pending').innerText()).toMatch(/^\d/);
    // Unfiltered, the tab counts every order, as the cards do.
    await expect
      .poll(
        async () =>
          (await page.getByTestId('summary-pending').innerText()) ===
          (await page.getByTestId('count-pending').innerText()),
      )
      .toBe(true);
  });

  it('a failed load shows the error with Retry, and Retry loads the orders', async () => {
    const isList = (url: URL) => url.pathname === ordersAdminPaths.list;
    await page.route(isList, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Orders service unavailable', code: 'UNAVAILABLE' }),
      }),
    );
    await page.getByLabel('Search orders').fill(`${placed[1].orderNumber}`);
    await page.getByText('Orders fetch failed: Orders service unavailable').waitFor({ timeout: 15_000 });
    await page.unroute(isList);
    await page.getByRole('button', { name: 'Retry' }).click();
    await row(page, placed[1].orderNumber).waitFor();
  });

  it("applies a quote ('Applying...'), and the customer gets the quote email with a working payment link", async () => {
    const first = placed[0];
    await page.getByLabel('Search orders').fill(first.orderNumber);
    const line = row(page, first.orderNumber);
    await line.getByRole('button', { name: `Apply Quote to order #${first.orderNumber}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply Quote' });
    // Spec: Apply Quote shows item, quantity, current estimate and description (rows do not carry it: loaded).
    await dialog
      .getByTestId('order-description')
      .getByText('regimental crest and the motto', { exact: false })
      .waitFor();
    const amount = dialog.getByLabel('Quote Amount');
    await amount.fill('0');
    expect(await dialog.getByRole('button', { name: 'Send Quote' }).isDisabled()).toBe(true);
    await amount.fill('1875.50');
    await dialog.getByLabel('Quote Notes').fill('Includes two-sided die, rope edge and velvet pouches.');

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const quotePath = ordersAdminPaths.generateQuote(first.id);
    await page.route(
      (url) => url.pathname === quotePath,
      async (route) => {
        await held;
        await route.continue();
      },
    );
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === quotePath);
    await dialog.getByRole('button', { name: 'Send Quote' }).click();
    await dialog.getByRole('button', { name: /Applying\.\.\./ }).waitFor();
    release();
    const answer = await answered;
    expect(answer.status(), await answer.text()).toBe(200);
    await dialog.waitFor({ state: 'detached' });
    await page.unroute((url) => url.pathname === quotePath);
    await page.getByText(`Quote of $1,875.50 sent to ${email}`).waitFor();
    await expect.poll(() => line.locator('[data-status]').getAttribute('data-status')).toBe('quote_sent');

    const mail = await waitForMail(
      baseUrl,
      email,
      (m) => m.text.includes(first.orderNumber) && m.text.includes(orderPaymentPath(first.id)),
    );
    const link = new RegExp(`https?://[^\\s"<>]+${orderPaymentPath(first.id)}`).exec(`${mail.text}\n${mail.html}`)?.[0];
    expect(link, mail.text).toBeTruthy();
    expect(mail.text).toContain('1,875.50');
    // The link leads to this order's payment page on the shop itself.
    expect(new URL(link!).pathname).toBe(orderPaymentPath(first.id));
    // The email is in the order's history.
    await line.getByRole('button', { name: `Details of order #${first.orderNumber}` }).click();
    const details = page.getByTestId('order-details');
    await details.getByTestId('details-quote').getByText('$1,875.50').first().waitFor();
    await details.getByTestId('email-history').locator('li').first().waitFor();
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
  });

  it('adds tracking from the more-actions menu, and the customer sees it when tracking the order', async () => {
    const first = placed[0];
    await page.getByLabel('Search orders').fill(first.orderNumber);
    const line = row(page, first.orderNumber);
    await line.getByRole('button', { name: `More actions for order #${first.orderNumber}` }).click();
    await page.getByRole('menuitem', { name: 'Add Tracking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Tracking Information' });
    expect(await dialog.getByLabel('Carrier').inputValue()).toBe('UPS');
    await dialog.getByRole('button', { name: 'Save Tracking' }).click();
    await dialog.getByText('Tracking number is required').waitFor();
    await dialog.getByLabel('Carrier').selectOption('FEDEX');
    await dialog.getByLabel('Tracking Number').fill('7712 3456 9081');
    await dialog.getByLabel('Estimated Delivery').fill('2026-12-18');
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === ordersAdminPaths.tracking(first.id));
    await dialog.getByRole('button', { name: 'Save Tracking' }).click();
    const answer = await saved;
    expect(answer.status(), await answer.text()).toBe(200);
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Tracking saved for order #${first.orderNumber}`).waitFor();

    const tracked = await fetch(`${baseUrl}/api/orders/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderNumber: first.orderNumber, email }),
    });
    expect(tracked.status).toBe(200);
    const { order } = (await tracked.json()) as {
      order: { tracking: { carrier: string; trackingNumber: string; estimatedDelivery: string | null } };
    };
    expect(order.tracking).toMatchObject({ carrier: 'FEDEX', trackingNumber: '7712 3456 9081' });
    expect(order.tracking.estimatedDelivery?.slice(0, 10)).toBe('2026-12-18');

    // The customer's /track page finds the order.
    const customer = await browser.newPage();
    await customer.page.goto(`${baseUrl}/track`);
    await customer.page.getByLabel('Order number').fill(first.orderNumber);
    await customer.page.getByLabel('Email address').fill(email);
    await customer.page.getByRole('button', { name: 'Track Order' }).click();
    await customer.page.getByTestId('tracked-order').waitFor();
    expect(await customer.page.getByTestId('tracked-order-number').innerText()).toBe(first.orderNumber);
    // ...and shows the shipment the admin just added.
    const shipment = await customer.page.getByTestId('tracked-shipment').innerText();
    expect(shipment).toContain('FedEx');
    expect(shipment).toContain('7712 3456 9081');
    await customer.close();
  });

  it("requests more information: the email goes out with the subject 'Additional Information Needed - Order #...'", async () => {
    const second = placed[1];
    await page.getByLabel('Search orders').fill(second.orderNumber);
    await row(page, second.orderNumber)
      .getByRole('button', { name: `More Info for order #${second.orderNumber}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Request More Information' });
    await dialog.getByText(customerName).waitFor();
    await dialog
      .getByTestId('order-description')
      .getByText('Retirement coin, eagle and flag', { exact: false })
      .waitFor();
    expect(await dialog.getByTestId('info-request-subject').innerText()).toContain(
      `Additional Information Needed - Order #${second.orderNumber}`,
    );
    const message = dialog.getByLabel('Message');
    expect(await message.inputValue()).toMatch(/more details about your requirements/);
    await message.fill('   ');
    expect(await dialog.getByRole('button', { name: 'Send Request' }).isDisabled()).toBe(true);
    await message.fill('Which year should go on the rim, and do you want the names engraved?');
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Information request sent to ${email}`).waitFor();
    const mail = await waitForMail(
      baseUrl,
      email,
      (m) => m.subject === `Additional Information Needed - Order #${second.orderNumber}`,
    );
    expect(mail.text).toContain('Which year should go on the rim');
  });

  it('edits an order in the details view (invalid quantity becomes 0, total read as a decimal), saves admin notes and emails the customer from the compose form', async () => {
    const third = placed[2];
    await page.getByLabel('Search orders').fill(third.orderNumber);
    await row(page, third.orderNumber)
      .getByRole('button', { name: `Details of order #${third.orderNumber}` })
      .click();
    const details = page.getByTestId('order-details');
    await details.getByTestId('details-product').waitFor();

    await details.getByRole('button', { name: 'Edit Order' }).click();
    const form = details.getByTestId('edit-order-form');
    await form.getByLabel('Quantity').fill('lots');
    await form.getByLabel('Total').fill('1234.567');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await form.waitFor({ state: 'detached' });
    const product = details.getByTestId('details-product');
    await expect.poll(() => product.innerText()).toContain('$1,234.57');
    expect(await product.innerText()).toMatch(/Quantity\s+0\b/);
    // Edit, then cancel: nothing changes.
    await details.getByRole('button', { name: 'Edit Order' }).click();
    await form.getByLabel('Quantity').fill('80');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    expect(await product.innerText()).toMatch(/Quantity\s+0\b/);

    await details.getByTestId('details-admin-notes').getByRole('button', { name: 'Update Notes' }).click();
    const notes = page.getByRole('dialog', { name: 'Admin Notes' });
    await notes
      .getByRole('textbox', { name: 'Notes' })
      .fill('Customer called: wants delivery before the change of command.');
    await notes.getByRole('button', { name: 'Save Notes' }).click();
    await notes.waitFor({ state: 'detached' });
    await details.getByTestId('details-admin-notes').getByText('wants delivery before the change of command').waitFor();

    const compose = details.getByRole('form', { name: 'Compose email' });
    await compose.getByLabel('Message').fill('Your proof will be ready on Friday.');
    await compose.getByRole('button', { name: 'Send Email' }).click();
    const history = details.getByTestId('email-history');
    await history.getByText(`Update on your order #${third.orderNumber}`).waitFor();
    await history.getByText('Your proof will be ready on Friday.').waitFor();
    await waitForMail(baseUrl, email, (m) => m.subject === `Update on your order #${third.orderNumber}`);
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
  });

  it("exports the filtered orders as the server's CSV and its rows can be read", async () => {
    await searchCustomer(page);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    // Spec §9: {product}-orders-{date}; the product is the shop.
    expect(download.suggestedFilename()).toMatch(/^tactical-gear-co-orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parseCsv((await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '')).filter((r) =>
      r.some((f) => f !== ''),
    );
    expect(rows[0]).toEqual([...adminCsvColumns]);
    expect(rows).toHaveLength(1 + placed.length);
    const byNumber = new Map(rows.slice(1).map((r) => [r[0], r]));
    for (const o of placed) expect(byNumber.has(o.orderNumber), o.orderNumber).toBe(true);
    const first = byNumber.get(placed[0].orderNumber)!;
    expect(first.slice(1, 5)).toEqual([customerName, email, 'coin', '150']);
    expect(first[5]).toMatch(/quote sent|quote_sent/i);
    // The quoted order's total is the same in the file and in the table (the quote's final amount; this
    // military order is tax exempt, so it is the quote itself).
    const shown = await row(page, placed[0].orderNumber).getByTestId('order-total').innerText();
    expect(formatMoney(Number(first[6]))).toBe(shown);
    expect(Number(first[6])).toBe(1875.5);
  });

  it("sets one order's status from its row dropdown and emails the customer from the Send Email modal", async () => {
    const first = placed[0];
    await page.getByLabel('Search orders').fill(first.orderNumber);
    const line = row(page, first.orderNumber);
    const dropdown = line.getByLabel(`Status of order #${first.orderNumber}`);
    await expect.poll(() => dropdown.inputValue()).toBe('quote_sent');
    expect(await dropdown.locator('option').count()).toBe(11);
    await dropdown.selectOption('shipped');
    await page.getByText(`Order #${first.orderNumber} is now Shipped`).waitFor();
    await expect.poll(() => line.locator('[data-status]').getAttribute('data-status')).toBe('shipped');

    await line.getByRole('button', { name: `More actions for order #${first.orderNumber}` }).click();
    await page.getByRole('menuitem', { name: 'Send Email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Email' });
    expect(await dialog.getByLabel('Recipient email').inputValue()).toBe(email);
    expect(await dialog.getByLabel('Subject').inputValue()).toBe(`Update on your order #${first.orderNumber}`);
    expect(await dialog.getByLabel('Email type').inputValue()).toBe('status_update');
    expect(await dialog.getByRole('button', { name: 'Send Email' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Subject').fill(`Shipped: order #${first.orderNumber}`);
    await dialog.getByLabel('Message').fill('Your coins left our workshop today.');
    await dialog.getByRole('button', { name: 'Send Email' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Email for order #${first.orderNumber} sent to ${email}`).waitFor();
    const mail = await waitForMail(baseUrl, email, (m) => m.subject === `Shipped: order #${first.orderNumber}`);
    expect(mail.text).toContain('Your coins left our workshop today.');
  });

  it('changes the status of the selected orders at once (every status but Pending Review and Cancelled)', async () => {
    await searchCustomer(page);
    await page.getByLabel('Select every order on this page').check();
    await expect.poll(() => page.getByTestId('selected-count').innerText()).toBe(`${placed.length} selected`);
    const bulk = page.getByLabel('New status for the selected orders');
    const offered = await bulk
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(offered).not.toContain('pending');
    expect(offered).not.toContain('cancelled');
    expect(offered).toHaveLength(9);
    await bulk.selectOption('production');
    await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Apply' }).click();
    await page.getByText(`${placed.length} orders set to In Production`).waitFor();
    for (const o of placed)
      await expect
        .poll(() => row(page, o.orderNumber).locator('[data-status]').getAttribute('data-status'))
        .toBe('production');
    await expect.poll(() => page.getByTestId('count-production').innerText()).toBe(String(placed.length));
    expect(await page.getByTestId('selected-count').count()).toBe(0);
    expect(shop.pageErrors).toEqual([]);
  });
  it('sorts by a column on the server (Qty ascending, then descending)', async () => {
    await searchCustomer(page);
    const header = page.getByRole('columnheader', { name: /Qty/ });
    const numbers = () =>
      page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-number')));
    await header.getByRole('button').click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    // Quantities now: the third order was edited to 0, the second is 40, the first 150.
    await expect.poll(numbers).toEqual([placed[2].orderNumber, placed[1].orderNumber, placed[0].orderNumber]);
    await header.getByRole('button').click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(numbers).toEqual([placed[0].orderNumber, placed[1].orderNumber, placed[2].orderNumber]);
  });

  it('deletes one order from the more-actions menu and several at once, each after a confirmation', async () => {
    const otherEmail = uniqueEmail('admin.orders.delete');
    const created: Placed[] = [];
    for (const text of [
      'Coin to delete from its menu',
      'First coin of the bulk delete',
      'Second coin of the bulk delete',
    ]) {
      const response = await fetch(`${baseUrl}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({
          customerName: 'Morgan Reyes',
          email: otherEmail,
          phone: '555-0123',
          itemType: 'patch',
          designMethod: 'describe',
          description: text,
          quantity: 50,
          size: '3x3',
          colors: ['Black'],
          finish: 'embroidered',
          features: [],
          files: [],
          aiGenerated: false,
          subscribeEmail: false,
          subscribeSMS: false,
          customerCategory: 'general',
          taxExempt: false,
          shippingAddress: { line1: '1 Depot St', city: 'Norfolk', state: 'VA', postalCode: '23511', country: 'US' },
        }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      created.push(((await response.json()) as { order: Placed }).order);
    }
    await page.getByLabel('Search orders').fill(otherEmail);
    for (const o of created) await row(page, o.orderNumber).waitFor();

    const [single, ...bulk] = created as [Placed, ...Placed[]];
    await row(page, single.orderNumber)
      .getByRole('button', { name: `More actions for order #${single.orderNumber}` })
      .click();
    await page.getByRole('menuitem', { name: 'Delete Order' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Order' });
    await confirm.getByRole('button', { name: 'Delete Order' }).click();
    await page.getByText(`Order #${single.orderNumber} deleted`).waitFor();
    await row(page, single.orderNumber).waitFor({ state: 'detached' });

    await page.getByLabel('Select every order on this page').check();
    await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Delete Selected' }).click();
    const confirmBulk = page.getByRole('dialog', { name: 'Delete Orders' });
    // Cancel first: nothing is deleted.
    await confirmBulk.getByRole('button', { name: 'Cancel' }).click();
    await confirmBulk.waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(bulk.length);
    await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Delete Selected' }).click();
    await confirmBulk.getByRole('button', { name: `Delete ${bulk.length} Orders` }).click();
    await page.getByText(`${bulk.length} orders deleted`).waitFor();
    await page.getByTestId('orders-empty').waitFor();
  });

  it('the dashboard and the details overlay have no accessibility violations at 1024 px (axe, WCAG 2.1 A and AA)', async () => {
    const narrow = await browser.newPage({ width: 1024, bypassCSP: true, reducedMotion: 'reduce' });
    await signInAsAdmin(narrow.page, baseUrl);
    await ordersView(narrow.page).click();
    await narrow.page.getByLabel('Search orders').fill(email);
    await row(narrow.page, placed[0].orderNumber).waitFor();
    await narrow.page.getByRole('button', { name: 'Filters' }).click();
    await narrow.page.getByLabel('Item type').waitFor();
    expect(await axeViolations(narrow.page)).toEqual([]);
    await row(narrow.page, placed[0].orderNumber)
      .getByRole('button', { name: `Details of order #${placed[0].orderNumber}` })
      .click();
    await narrow.page.getByTestId('details-product').waitFor();
    expect(await axeViolations(narrow.page)).toEqual([]);
    expect(narrow.pageErrors).toEqual([]);
    await narrow.close();
  });

  it("saves the notification settings in the email service ('Settings saved successfully!')", async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Admin Settings' });
    const address = dialog.getByLabel('Notification email');
    await expect.poll(() => address.inputValue()).toMatch(/@/);
    const original = await address.inputValue();
    const toggle = dialog.getByRole('switch', { name: /Email notifications/ });
    const wasOn = (await toggle.getAttribute('aria-checked')) === 'true';

    await address.fill('not an address');
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await dialog.getByText('Notification email must be a valid email address').waitFor();
    await address.fill('orders-desk@example.com');
    await toggle.click();
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Settings saved successfully!').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const stored = await page.evaluate(
      async () => (await fetch('/api/admin/settings')).json() as Promise<{ settings: unknown }>,
    );
    expect(stored.settings).toEqual({
      notificationEmail: 'orders-desk@example.com',
      emailNotificationsEnabled: !wasOn,
    });

    // Put back what the other tests expect.
    const restored = await page.evaluate(
      async (body) =>
        (
          await fetch('/api/admin/settings', {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).status,
      { notificationEmail: original, emailNotificationsEnabled: wasOn },
    );
    expect(restored).toBe(200);
  });

  it('shows the analytics of the chosen period with the orders just updated among the recent activity', async () => {
    await page
      .getByRole('navigation', { name: 'Back office views' })
      .getByRole('button', { name: 'Analytics' })
      .click();
    const view = page.getByTestId('analytics-view');
    await view.waitFor();
    const periods = view.getByRole('group', { name: 'Period' });
    for (const label of ['7 days', '30 days', '6 months', '1 year', 'All time'])
      await periods.getByRole('button', { name: label }).waitFor();
    await periods.getByRole('button', { name: '7 days' }).click();
    await expect.poll(() => periods.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    await view.getByTestId('analytics-revenue').waitFor();
    await view.getByTestId('analytics-pending').waitFor();
    const recent = view.getByTestId('recent-activity');
    await recent.waitFor();
    expect(await recent.locator('li').count()).toBeLessThanOrEqual(5);
    await recent.getByText(placed[2].orderNumber, { exact: false }).waitFor();
    await view.getByTestId('status-distribution').getByText('In Production').waitFor();
    // No fixed badges: every change shown is a signed figure from the server.
    for (const badge of await view.getByTestId('change-badge').allInnerTexts())
      expect(badge).toMatch(/^[+-]?\d+\.\d%$/);
    await page.getByRole('navigation', { name: 'Back office views' }).getByRole('button', { name: 'Orders' }).click();
    await page.getByTestId('orders-dashboard').waitFor();
    expect(shop.pageErrors).toEqual([]);
  });
});

describe('payments due for a refund', () => {
  it('lists a payment Stripe took that did not pay its order above the orders, and Mark refunded clears it', async () => {
    const order = await placeOrder('Coin paid on a page whose total changed before the card went through', 60);
    // What the payments webhook records for such a payment (its rules are tested in the payments service;
    // no browser can make Stripe take the old total): the team must refund it.
    const paymentIntentId = `pi_e2e_${crypto.randomUUID().replaceAll('-', '')}`;
    const now = new Date();
    const mongo = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 10_000 });
    try {
      await mongo
        .db('shop_payments')
        .collection<{ _id: string; [field: string]: unknown }>('payment_intents')
        .insertOne({
          _id: paymentIntentId,
          provider: 'stripe',
          idempotencyKey: `external:${paymentIntentId}`,
          orderId: order.id,
          orderNumber: order.orderNumber,
          amount: 31875,
          currency: 'usd',
          status: 'succeeded',
          attempts: [],
          succeededAt: now,
          refundDue: {
            reason:
              "$318.75 was charged but the order's total is now $286.88: the total changed after this payment was started.",
            amount: 31875,
            orderTotal: 28688,
            stripeEventId: 'evt_e2e',
            recordedAt: now,
            refundedAt: null,
            refundedBy: null,
          },
          createdAt: now,
          updatedAt: now,
        });
    } finally {
      await mongo.close();
    }

    await page.reload();
    await ordersView(page).click();
    const panel = page.getByRole('region', { name: /due for a refund/ });
    const line = panel.locator(`tr[data-payment-intent="${paymentIntentId}"]`);
    await line.waitFor();
    expect(await line.innerText()).toContain(`#${order.orderNumber}`);
    expect(await line.innerText()).toContain(formatMoney(318.75));
    expect(await line.innerText()).toContain(formatMoney(286.88));
    expect(await line.getByRole('link', { name: /Open in Stripe/ }).getAttribute('href')).toBe(
      `https://dashboard.stripe.com/payments/${paymentIntentId}`,
    );
    await line.getByRole('button', { name: `Mark the payment for order #${order.orderNumber} refunded` }).click();
    await page.getByText(refundDueMessages.markedRefunded(order.orderNumber)).waitFor();
    await line.waitFor({ state: 'detached' });
    expect(shop.pageErrors).toEqual([]);
  });
});
