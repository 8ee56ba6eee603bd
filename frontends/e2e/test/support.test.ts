// The support desk, returns and the information pages in a real browser against the whole stack:
// every page renders its spec title with no 404 (and no axe violations); a visitor sends a support
// message (failure alert first, then the MSG- reference) and a return with photos for a shipped order
// (RET- reference); the confirmation emails arrive; the admin finds both in the Support view, replies
// (the reply email arrives), changes the status, marks it resolved, deletes it after confirming, and
// approves the return (the customer's status email arrives).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ordersAdminPaths, supportTexts } from '@shop/contracts';
import { adminApiHeaders, signInAsAdmin } from './support/admin.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, type Browser, type ShopPage } from './support/browser.js';
import { tinyPng, uniqueEmail, waitForMail } from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
let browser: Browser;
let shop: ShopPage;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  shop = await browser.newPage({ bypassCSP: true });
  page = shop.page;
}, 60_000);
afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

const pages: [string, string, string[]][] = [
  ['/support', 'Contact Support', ['Reach Us Directly']],
  [
    '/faq',
    'Frequently Asked Questions',
    [
      'Ordering Process',
      'Pricing & Payment',
      'Production & Timeline',
      'Shipping & Delivery',
      'Quality & Specifications',
    ],
  ],
  ['/returns', 'Returns and Exchanges', ['Label within 24 hours']],
  ['/privacy', 'Privacy Policy', ['Last updated August 24, 2025']],
  [
    '/terms',
    'Terms of Service',
    [
      'Last Updated: January 2025',
      'Governing law and arbitration',
      'AI-generated designs',
      'Military and government orders',
    ],
  ],
  ['/sitemap', 'Sitemap', ['12 pages', '3 product lines', '3 support pages', '3 legal pages', 'Key Features']],
  ['/legal', 'Legal Disclaimers', ['No government affiliation', 'Tax estimates', 'Legal contact']],
  [
    '/business',
    'Business Information',
    ['Company overview', 'Licences', 'Tax compliance', 'Pricing and quotes', 'Quality standards'],
  ],
];

describe('information pages', () => {
  it.each(pages)('%s renders "%s" and its sections, with no 404 and no axe violations', async (path, title, texts) => {
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.getByText('Mission Not Found').count()).toBe(0);
    for (const text of texts) await page.getByText(text, { exact: false }).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(shop.pageErrors).toEqual([]);
  });

  it('the FAQ search narrows the questions and says when nothing matches', async () => {
    await page.goto(`${baseUrl}/faq`);
    await page.getByTestId('faq-entry').first().waitFor();
    const all = await page.getByTestId('faq-entry').count();
    await page.getByLabel('Search the FAQ').fill('rush');
    await expect.poll(() => page.getByTestId('faq-entry').count()).toBeLessThan(all);
    await page.getByText('Can I get a rush order?').waitFor();
    await page.getByLabel('Search the FAQ').fill('zeppelin');
    await page.getByTestId('faq-empty').waitFor();
  });

  it('the footer reaches every page', async () => {
    await page.goto(`${baseUrl}/`);
    await page.locator('footer').getByRole('link', { name: 'Returns & Exchanges' }).click();
    await page.getByRole('heading', { level: 1, name: 'Returns and Exchanges' }).waitFor();
  });
});

describe('a visitor and the support desk', () => {
  const email = uniqueEmail('support.desk');
  const subject = `Edge options ${Date.now()}`;

  it('a failed send shows the spec alert and keeps the form; then the message goes and the MSG- reference shows', async () => {
    await page.goto(`${baseUrl}/support`);
    const form = page.getByRole('form', { name: 'Contact Support' });
    await form.getByRole('button', { name: 'Send Message' }).click();
    await form.getByText('Please enter your name').waitFor();

    await form.getByLabel('Name').fill('Pat Doe');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Order Number').fill('cc-abc12345');
    await form.getByLabel('Priority').selectOption('high');
    await form.getByLabel('Subject').fill(subject);
    await form.getByLabel('Message').fill('Can the coin edge be diamond cut?');

    await page.route('**/api/support', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"down"}' }),
    );
    await form.getByRole('button', { name: 'Send Message' }).click();
    await form.getByRole('alert').filter({ hasText: supportTexts.sendFailed }).waitFor();
    expect(await form.getByLabel('Subject').inputValue()).toBe(subject);
    await page.unroute('**/api/support');

    const sent = page.waitForResponse((r) => r.url().endsWith('/api/support') && r.request().method() === 'POST');
    await form.getByRole('button', { name: 'Send Message' }).click();
    expect((await sent).status()).toBe(201);
    const reference = (await page.getByTestId('support-reference').textContent())!;
    expect(reference).toMatch(/^MSG-\d{6}-[A-Z0-9]{4}$/);
    await page.getByText(supportTexts.responsePromise).first().waitFor();

    const mail = await waitForMail(baseUrl, email, (m) => m.subject === `We received your message (${reference})`);
    expect(mail.text).toContain(supportTexts.responsePromise);
  });

  it('the admin finds it, replies (emailed), changes the status, marks it resolved and deletes it after confirming', async () => {
    await signInAsAdmin(page, baseUrl);
    await page.getByRole('button', { name: 'Support' }).click();
    await page.getByTestId('support-summary').waitFor();
    await page.getByLabel('Search messages').fill(email);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: subject }).click();

    const detail = page.getByTestId('support-detail');
    await detail.getByText('Can the coin edge be diamond cut?').waitFor();
    expect(await detail.getByRole('button', { name: 'Send Reply' }).isDisabled()).toBe(true);
    await detail.getByLabel('Reply').fill('Yes, diamond cut edges are available.');
    await detail.getByRole('button', { name: 'Send Reply' }).click();
    await detail.getByTestId('support-response').filter({ hasText: 'Yes, diamond cut edges are available.' }).waitFor();
    const reply = await waitForMail(baseUrl, email, (m) => m.subject.startsWith(`Re: ${subject}`));
    expect(reply.text).toContain('Yes, diamond cut edges are available.');

    await detail.getByLabel('Status').selectOption('in_progress');
    await expect.poll(() => detail.getByLabel('Status').inputValue()).toBe('in_progress');
    await detail.getByRole('button', { name: 'Mark Resolved' }).click();
    await expect.poll(() => detail.getByLabel('Status').inputValue()).toBe('resolved');

    await detail.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this message?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await detail.waitFor();
    await detail.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete Message' }).click();
    await page.getByTestId('support-summary').waitFor();
    await expect.poll(() => page.getByRole('button', { name: subject }).count()).toBe(0);
  });

  it('a failing inbox shows "Failed to fetch messages" in the list', async () => {
    const inbox = (url: URL) => url.pathname === '/api/support' && url.search !== '';
    await page.route(inbox, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    await page.getByRole('button', { name: 'Orders' }).click();
    await page.getByRole('button', { name: 'Support' }).click();
    await page.getByTestId('support-error').filter({ hasText: supportTexts.fetchFailed }).waitFor();
    await page.unroute(inbox);
  });
});

describe('returns', () => {
  const email = uniqueEmail('support.returns');

  /** A quote request placed through the public API, then shipped by the admin through the admin API. */
  async function shippedOrder(): Promise<string> {
    const res = await fetch(`${baseUrl}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({
        customerName: 'Casey Ray',
        email,
        phone: '555-0142',
        itemType: 'coin',
        designMethod: 'describe',
        description: 'Unit coin with an eagle and our motto',
        quantity: 50,
        size: '2',
        shape: 'Round',
        colors: ['Gold'],
        finish: 'antique_gold',
        edge: 'rope',
        features: [],
        files: [],
        aiGenerated: false,
        subscribeEmail: false,
        subscribeSMS: false,
        shippingAddress: { line1: '12 Garrison Way', city: 'Killeen', state: 'TX', postalCode: '76541', country: 'US' },
        customerCategory: 'general',
        taxExempt: false,
      }),
    });
    expect(res.status).toBe(201);
    const { order } = (await res.json()) as { order: { id: string; orderNumber: string } };
    const headers = { ...(await adminApiHeaders(baseUrl)), 'content-type': 'application/json' };
    const shipped = await fetch(`${baseUrl}${ordersAdminPaths.status(order.id)}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ status: 'shipped' }),
    });
    expect(shipped.status, await shipped.text()).toBe(200);
    return order.orderNumber;
  }

  it('a customer returns a shipped order with photos; the admin approves it and the customer is emailed', async () => {
    const orderNumber = await shippedOrder();
    await shop.close();
    shop = await browser.newPage({ bypassCSP: true });
    page = shop.page;
    await page.goto(`${baseUrl}/returns`);
    const form = page.getByRole('form', { name: 'Return request' });
    await form.getByRole('button', { name: 'Submit Return Request' }).click();
    await form.getByText('Please choose a reason for the return').waitFor();
    await form.getByLabel('Order Number').fill(orderNumber.toLowerCase());
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Damaged in shipping' }).click();
    await form.getByLabel('Item Condition').selectOption('shipping_damage');
    await form.getByLabel('Description').fill('Two coins arrived bent.');
    await page.locator('#return-photos').setInputFiles([
      { name: 'bent.png', mimeType: 'image/png', buffer: tinyPng },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') },
    ]);
    await page.getByText('Only image files can be attached.').waitFor();
    expect(await page.getByTestId('return-photos').locator('li').count()).toBe(1);

    // The order may take a moment to reach support's projection of orders (events): retry like a customer would.
    let reference = '';
    await expect
      .poll(
        async () => {
          await form
            .getByRole('button', { name: 'Submit Return Request' })
            .click({ timeout: 1000 })
            .catch(() => undefined);
          const ref = page.getByTestId('return-reference');
          if (await ref.count()) reference = (await ref.textContent()) ?? '';
          return reference;
        },
        { timeout: 30_000, interval: 1500 },
      )
      .toMatch(/^RET-\d{6}-[A-Z0-9]{4}$/);
    await page.getByText(supportTexts.returnPromise).waitFor();
    const confirmation = await waitForMail(
      baseUrl,
      email,
      (m) => m.subject === `Return request ${reference} received for order #${orderNumber}`,
    );
    expect(confirmation.text).toContain('Photos: 1');

    await signInAsAdmin(page, baseUrl);
    await page.getByRole('button', { name: 'Support' }).click();
    await page.getByRole('tab', { name: 'Returns' }).click();
    const card = page.getByTestId('return-card').filter({ hasText: reference });
    await card.getByRole('link', { name: 'bent.png' }).waitFor();
    await card.getByLabel('Note for the customer (optional)').fill('Your label is attached.');
    await card.getByRole('button', { name: 'Approve and Send Label' }).click();
    await expect.poll(() => card.getByTestId('return-status').textContent()).toBe('Approved (label sent)');
    const update = await waitForMail(
      baseUrl,
      email,
      (m) => m.subject === `Return ${reference} for order #${orderNumber}: Approved (label sent)`,
    );
    expect(update.text).toContain('Your label is attached.');
    expect(await axeViolations(page)).toEqual([]);
  });
});
