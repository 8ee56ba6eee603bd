// Quote payment (issue 6) in Chromium against the shared stack, in test mode (no Stripe keys: the
// payments service is the provider), as a new customer would: a quote request through the guided
// flow, the admin's quote, the payment link from the quote email, the payment page with its summary
// and tax, a 4242 card, the success screen, the order paid for the admin and the receipt email. Then a
// declined card, an incomplete card, an expired quote, an order not yet quoted, a paid order's link, a
// bad link, Stripe.js failing to load, and axe on the page.
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  contactConfigPaths,
  defaultSupportEmail,
  orderPaymentPath,
  ordersAdminPaths,
  paymentMessages,
  paymentPaths,
} from '@shop/contracts';
import { adminApiHeaders } from './support/admin.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, pathOf, type Browser } from './support/browser.js';
import { stripeStubSource } from './support/stripe-stub.js';
import {
  choose,
  clickContinue,
  fillContact,
  fillShipping,
  flow,
  requestQuote,
  uniqueEmail,
  waitForMail,
  type MailboxMessage,
} from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
const mongoUrl = inject('mongoUrl');

let browser: Browser;
let admin: Record<string, string>;
let mongo: MongoClient;

beforeAll(async () => {
  [browser, admin] = await Promise.all([launchBrowser(), adminApiHeaders(baseUrl)]);
  mongo = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 10_000 });
});

afterAll(async () => {
  await mongo?.close();
  await browser?.close();
});

interface Placed {
  id: string;
  orderNumber: string;
  email: string;
}

/** A quote request as the storefront sends it (POST /api/orders is public). */
async function placeOrder(opts: {
  name: string;
  state: string;
  military?: boolean;
  quantity?: number;
}): Promise<Placed> {
  const email = uniqueEmail('pay');
  const response = await fetch(`${baseUrl}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({
      customerName: opts.name,
      email,
      phone: '555-0177',
      itemType: 'patch',
      designMethod: 'describe',
      description: 'Subdued unit patch, crossed sabers over the battalion number',
      quantity: opts.quantity ?? 200,
      size: '3x3',
      colors: ['Black'],
      finish: 'embroidered',
      features: [],
      files: [],
      aiGenerated: false,
      subscribeEmail: false,
      subscribeSMS: false,
      shippingAddress: {
        line1: '1 Garrison Way',
        city: 'Springfield',
        state: opts.state,
        postalCode: '22150',
        country: 'US',
      },
      customerCategory: opts.military ? 'military' : 'general',
      taxExempt: Boolean(opts.military),
    }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  const { order } = JSON.parse(text) as { order: { id: string; orderNumber: string } };
  return { id: order.id, orderNumber: order.orderNumber, email };
}

/** The admin's Apply Quote (its browser side is covered in admin-orders.test.ts). */
async function applyQuote(id: string, quoteAmount: number, quoteNotes?: string): Promise<void> {
  const response = await fetch(`${baseUrl}${ordersAdminPaths.generateQuote(id)}`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ quoteAmount, ...(quoteNotes ? { quoteNotes } : {}) }),
  });
  expect(response.status, await response.text()).toBe(200);
}

async function adminOrder(id: string): Promise<{ status: string; [key: string]: unknown }> {
  const response = await fetch(`${baseUrl}${ordersAdminPaths.details(id)}`, { headers: admin });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (JSON.parse(text) as { order: { status: string } }).order;
}

/** Moves the quote's expiry (no call can: quotes expire 30 days after they are sent). */
async function setQuoteExpiry(id: string, expiresAt: Date): Promise<void> {
  const result = await mongo
    .db('shop_orders')
    .collection<{ _id: string }>('orders')
    .updateOne({ _id: id }, { $set: { 'quote.expiresAt': expiresAt } });
  expect(result.matchedCount).toBe(1);
}

function payButton(page: Page) {
  return page.getByRole('button', { name: /^Pay \$/ });
}

function cardForm(page: Page) {
  return page.getByRole('form', { name: 'Card payment' });
}

async function fillCard(page: Page, card: { number: string; expiry: string; cvc: string }): Promise<void> {
  const form = cardForm(page);
  await form.getByLabel('Card number').fill(card.number);
  await form.getByLabel('Expiry (MM / YY)').pressSequentially(card.expiry);
  await form.getByLabel('CVC').fill(card.cvc);
}

const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0');
const goodExpiry = `12${nextYear}`;

describe('quote payment (/order/pay/{orderId}), test mode', () => {
  it('the whole loop: quote request, admin quote, link from the email, pay with 4242, success, paid for the admin, receipt email', async () => {
    const shop = await browser.newPage({ width: 375 });
    const { page } = shop;
    const email = uniqueEmail('pay.loop');

    // A new customer asks for a quote through the guided flow, shipping to California.
    await page.goto(`${baseUrl}/`);
    await page.getByRole('button', { name: 'Start Order for Challenge Coins' }).click();
    await choose(page, /Describe Your Design/);
    await clickContinue(page);
    await flow(page).getByLabel('Describe your design').fill('Round coin, bear and star, motto EUREKA on the rim');
    await clickContinue(page);
    await choose(page, /^Medium/);
    await choose(page, 'Gold');
    await choose(page, 'Antique Gold');
    await clickContinue(page);
    await fillShipping(page, { line1: '400 Presidio Blvd', city: 'San Francisco', state: 'CA', postalCode: '94129' });
    await clickContinue(page);
    await fillContact(page, { first: 'Rosa', last: 'Delgado', email });
    await clickContinue(page);
    const submitted = await requestQuote(page);
    const created = (await (await submitted.request.response())!.json()) as {
      order: { id: string; orderNumber: string };
    };
    const { id, orderNumber } = created.order;
    expect(orderNumber).toBe(submitted.orderNumber);

    // The team quotes $1,200.00; California's 7.25% comes on top.
    await applyQuote(id, 1200, 'Includes a two-sided die and velvet pouches.');
    const quoteMail = await waitForMail(baseUrl, email, (m) => m.text.includes(orderPaymentPath(id)));
    const link = new RegExp(`https?://[^\\s"<>]+${orderPaymentPath(id)}`).exec(
      `${quoteMail.text}\n${quoteMail.html}`,
    )?.[0];
    expect(link, quoteMail.text).toBeTruthy();

    // The page says it is loading while the order is on its way.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const orderPath = `/api/orders/${id}`;
    await page.route(
      (url) => url.pathname === orderPath,
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto(`${baseUrl}${new URL(link!).pathname}`);
    await page.getByText(paymentMessages.loadingOrder).first().waitFor();
    release();
    await page.getByRole('heading', { name: 'Complete Your Payment' }).waitFor();
    await page.unroute((url) => url.pathname === orderPath);

    const summary = page.getByTestId('order-summary');
    await summary.getByText(orderNumber, { exact: true }).waitFor();
    await summary.getByText('50 x Custom Challenge Coins').waitFor();
    await summary.getByText('Rosa Delgado').waitFor();
    await summary.getByText('Includes a two-sided die and velvet pouches.').waitFor();
    await summary.getByText('Round coin, bear and star, motto EUREKA on the rim').waitFor();
    const details = page.getByTestId('payment-details');
    expect(await details.innerText()).toMatch(
      /Subtotal\s+\$1,200\.00\s+Tax \(7\.25%\)\s+\$87\.00\s+Total\s+\$1,287\.00/,
    );
    await page.getByText(paymentMessages.testModeNotice).waitFor();
    await page.getByText(/4242 4242 4242 4242.*4000 0000 0000 0002/).waitFor();
    const help = page.getByTestId('pay-help');
    // The local stack runs with the support service's default address and no phone configured.
    await help.getByRole('link', { name: defaultSupportEmail }).waitFor();
    expect(await help.getByRole('link', { name: defaultSupportEmail }).getAttribute('href')).toBe(
      `mailto:${defaultSupportEmail}`,
    );
    expect(await help.innerText()).toMatch(/Quotes & support:/);
    expect(await help.locator('a[href^="tel:"]').count()).toBe(0);
    await help.getByText(/card details are never stored on our servers/i).waitFor();

    // Pay stays disabled until the card is complete.
    const pay = payButton(page);
    expect(await pay.textContent()).toMatch(/Pay \$1,287\.00/);
    expect(await pay.isDisabled()).toBe(true);
    await fillCard(page, { number: '4242424242424242', expiry: goodExpiry, cvc: '123' });
    expect(await cardForm(page).getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    expect(await cardForm(page).getByLabel('Expiry (MM / YY)').inputValue()).toBe(`12 / ${nextYear}`);
    await expect.poll(() => pay.isEnabled()).toBe(true);

    // "Processing Payment..." while it works; the browser's figure is the spec's body in cents.
    let releasePay!: () => void;
    const heldPay = new Promise<void>((resolve) => (releasePay = resolve));
    await page.route(
      (url) => url.pathname === paymentPaths.createIntent,
      async (route) => {
        await heldPay;
        await route.continue();
      },
    );
    const intentRequest = page.waitForRequest((r) => new URL(r.url()).pathname === paymentPaths.createIntent);
    const statusUpdate = page.waitForRequest(
      (r) => r.method() === 'PATCH' && new URL(r.url()).pathname === `/api/orders/${id}/status`,
    );
    await pay.click();
    await page.getByRole('button', { name: /Processing Payment\.\.\./ }).waitFor();
    expect(await page.getByRole('button', { name: /Processing Payment\.\.\./ }).isDisabled()).toBe(true);
    expect((await intentRequest).postDataJSON()).toMatchObject({
      amount: 128700,
      currency: 'usd',
      customerInfo: { name: 'Rosa Delgado' },
      orderNumber,
      metadata: { orderId: id, orderNumber },
    });
    releasePay();
    const patch = (await statusUpdate).postDataJSON() as { status: string; paymentIntentId: string; notes: string };
    expect(patch.status).toBe('paid');
    expect(patch.paymentIntentId).toBeTruthy();
    expect(patch.notes).toMatch(/^Payment completed on [A-Z][a-z]+ \d{1,2}, \d{4}$/);

    const success = page.getByTestId('pay-success');
    await success.getByRole('heading', { name: paymentMessages.successTitle }).waitFor();
    await success.getByText(/email confirmation will follow/i).waitFor();

    // The server saw the provider confirm it: the admin sees the order paid.
    await expect.poll(async () => (await adminOrder(id)).status, { timeout: 15_000 }).toBe('paid');

    // The receipt email arrives.
    const receipt = await waitForMail(
      baseUrl,
      email,
      (m: MailboxMessage) =>
        m.id !== quoteMail.id &&
        m.text.includes(orderNumber) &&
        /receipt|payment/i.test(m.subject) &&
        !/quote/i.test(m.subject),
    );
    expect(`${receipt.subject}\n${receipt.text}`).toMatch(/1,287\.00/);

    // Continue leads home; the link now shows the success screen.
    await success.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => pathOf(page)).toBe('/');
    await page.goto(`${baseUrl}${orderPaymentPath(id)}`);
    await page.getByTestId('pay-success').getByRole('heading', { name: paymentMessages.successTitle }).waitFor();
    expect(await payButton(page).count()).toBe(0);
    expect(shop.pageErrors).toEqual([]);
    await shop.close();
  });

  it('a declined card shows its message under the card field and the order stays unpaid; an incomplete card keeps Pay disabled; axe finds nothing', async () => {
    // A military order: tax exempt, so the tax shows without a percent.
    const order = await placeOrder({ name: 'Sgt. Lee Park', state: 'TX', military: true });
    await applyQuote(order.id, 640.25);
    const shop = await browser.newPage({ width: 375, bypassCSP: true });
    const { page } = shop;
    await page.goto(`${baseUrl}${orderPaymentPath(order.id)}`);
    await page.getByRole('heading', { name: 'Complete Your Payment' }).waitFor();
    const details = page.getByTestId('payment-details');
    expect(await details.innerText()).toMatch(/Subtotal\s+\$640\.25\s+Tax\s+\$0\.00\s+Total\s+\$640\.25/);
    expect(await details.getByText('%').count()).toBe(0);

    const pay = payButton(page);
    await pay.waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Incomplete or wrong cards: the button stays disabled.
    const form = cardForm(page);
    await form.getByLabel('Card number').fill('4242 4242 42');
    await form.getByLabel('Expiry (MM / YY)').pressSequentially(goodExpiry);
    await form.getByLabel('CVC').fill('123');
    expect(await pay.isDisabled()).toBe(true);
    await page.getByTestId('card-error').getByText('Your card number is incomplete.').waitFor();
    await form.getByLabel('Card number').fill('4242424242424241');
    await page.getByTestId('card-error').getByText('Your card number is invalid.').waitFor();
    expect(await pay.isDisabled()).toBe(true);
    await form.getByLabel('Card number').fill('4242424242424242');
    await form.getByLabel('CVC').fill('12');
    expect(await pay.isDisabled()).toBe(true);
    await form.getByLabel('Expiry (MM / YY)').fill('');
    await form.getByLabel('Expiry (MM / YY)').pressSequentially('0120');
    await form.getByLabel('CVC').fill('123');
    await page.getByTestId('card-error').getByText("Your card's expiration year is in the past.").waitFor();
    expect(await pay.isDisabled()).toBe(true);

    // The declined test card: its message inline, under the card field, and the button back.
    await form.getByLabel('Expiry (MM / YY)').fill('');
    await form.getByLabel('Expiry (MM / YY)').pressSequentially(goodExpiry);
    await form.getByLabel('Card number').fill('4000000000000002');
    await expect.poll(() => pay.isEnabled()).toBe(true);
    const confirmed = page.waitForResponse((r) => new URL(r.url()).pathname === paymentPaths.testModeConfirm);
    await pay.click();
    expect((await confirmed).status()).toBe(402);
    const cardError = page.getByTestId('card-error');
    await cardError.getByText(paymentMessages.cardDeclined).waitFor();
    expect(await cardError.getAttribute('role')).toBe('alert');
    expect(await form.getByLabel('Card number').getAttribute('aria-describedby')).toBe(
      await cardError.getAttribute('id'),
    );
    await expect.poll(() => pay.isEnabled()).toBe(true);
    expect(await page.getByTestId('pay-success').count()).toBe(0);
    expect((await adminOrder(order.id)).status).toBe('quote_sent');
    expect(await axeViolations(page)).toEqual([]);
    // Editing the card clears the message.
    await form.getByLabel('Card number').fill('4242424242424242');
    await expect.poll(() => cardError.innerText()).toBe('');
    expect(shop.pageErrors).toEqual([]);
    await shop.close();
  });

  it('an expired quote shows the red "Quote Expired" box with its date, and no card field', async () => {
    const order = await placeOrder({ name: 'Avery Stone', state: 'VA' });
    await applyQuote(order.id, 310);
    await setQuoteExpiry(order.id, new Date('2026-03-14T15:00:00Z'));
    const shop = await browser.newPage({ width: 375, bypassCSP: true });
    const { page } = shop;
    await page.goto(`${baseUrl}${orderPaymentPath(order.id)}`);
    const expired = page.getByTestId('quote-expired');
    await expired.getByRole('heading', { name: paymentMessages.quoteExpiredTitle }).waitFor();
    await expired.getByText('March 14, 2026').waitFor();
    await expired.getByRole('link', { name: defaultSupportEmail }).waitFor();
    expect(await expired.innerText()).toContain(`contact us at ${defaultSupportEmail} for an updated quote`);
    await page.getByTestId('payment-details').waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    expect(await payButton(page).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // The boxes name what the admin's contact config says: a shown phone becomes a tel: link in both.
    await page.route(
      (url) => url.pathname === contactConfigPaths.public,
      (route) =>
        route.fulfill({
          json: {
            supportEmail: 'desk@coins.example',
            supportPhone: '+1 (512) 555-0100',
            supportHours: { weekday: 'Mon-Fri 8am-6pm CT', weekend: 'Closed' },
          },
        }),
    );
    await page.reload();
    await expired.getByRole('link', { name: 'desk@coins.example' }).waitFor();
    expect(await expired.getByRole('link', { name: '+1 (512) 555-0100' }).getAttribute('href')).toBe(
      'tel:+15125550100',
    );
    const help = page.getByTestId('pay-help');
    expect(await help.getByRole('link', { name: '+1 (512) 555-0100' }).getAttribute('href')).toBe('tel:+15125550100');
    expect(await page.getByTestId('pay-help-hours').innerText()).toMatch(
      /Weekdays: Mon-Fri 8am-6pm CT\s+Weekends: Closed/,
    );
    await page.unroute((url) => url.pathname === contactConfigPaths.public);

    // The contact config failing to load is only logged: the page points to the quote email, no made-up address.
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    await page.route(
      (url) => url.pathname === contactConfigPaths.public,
      (route) => route.fulfill({ status: 503, json: { error: 'Service unavailable' } }),
    );
    await page.reload();
    await page.getByTestId('pay-help-reply').waitFor({ timeout: 15_000 });
    expect(await expired.innerText()).toContain('reply to your quote email for an updated quote');
    expect(await help.locator('a[href^="mailto:"], a[href^="tel:"]').count()).toBe(0);
    expect(logged.some((text) => /Contact config could not be loaded/.test(text))).toBe(true);
    expect(shop.pageErrors).toEqual([]);
    await shop.close();
  });

  it('an order without a quote cannot be paid; a bad link shows "Unable to Load Order" with Return Home', async () => {
    const order = await placeOrder({ name: 'Jordan Blake', state: 'OR' });
    const shop = await browser.newPage({ width: 375 });
    const { page } = shop;
    await page.goto(`${baseUrl}${orderPaymentPath(order.id)}`);
    await page.getByTestId('not-payable').getByText('This order cannot be paid right now').waitFor();
    await page.getByTestId('order-summary').getByText(order.orderNumber).waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    expect(await payButton(page).count()).toBe(0);

    await page.goto(`${baseUrl}${orderPaymentPath('no-such-order-0000')}`);
    const failure = page.getByTestId('pay-load-error');
    await failure.getByRole('heading', { name: paymentMessages.loadErrorTitle }).waitFor();
    await failure.getByText(paymentMessages.loadOrderFailed).waitFor();
    await failure.getByRole('button', { name: 'Return Home' }).click();
    await expect.poll(() => pathOf(page)).toBe('/');
    await shop.close();
  });

  it('in Stripe mode the card goes through Stripe Elements: a card error inline, a declined card, a payment not completed, then paid', async () => {
    // Florida: 6% on $250.00.
    const order = await placeOrder({ name: 'Morgan Reyes', state: 'FL' });
    await applyQuote(order.id, 250);
    const shop = await browser.newPage({ width: 375 });
    const { page } = shop;
    // The shop as configured with Stripe keys; Stripe.js is the stand-in (test/support/stripe-stub.ts).
    await page.route(
      (url) => url.pathname === paymentPaths.config,
      (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ success: true, mode: 'stripe', publishableKey: 'pk_test_offline' }),
        }),
    );
    await page.route('https://js.stripe.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'application/javascript', body: stripeStubSource }),
    );
    await page.goto(`${baseUrl}${orderPaymentPath(order.id)}`);
    const card = page.getByLabel('Stripe card number');
    await card.waitFor();
    expect(await page.getByRole('group', { name: 'Card details' }).count()).toBe(1);
    expect(await page.getByText(paymentMessages.testModeNotice).count()).toBe(0);
    const pay = payButton(page);
    expect(await pay.textContent()).toMatch(/Pay \$265\.00/);
    expect(await pay.isDisabled()).toBe(true);
    const cardError = page.getByTestId('card-error');

    // Stripe's own validation message shows under the field, and Pay stays disabled.
    await card.fill('1111111111111111');
    await cardError.getByText('Your card number is invalid.').waitFor();
    expect(await pay.isDisabled()).toBe(true);

    // A decline from the provider: inline, nothing paid.
    await card.fill('4000000000000002');
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await pay.click();
    await cardError.getByText(paymentMessages.cardDeclined).waitFor();

    // A payment that needs more than the card (3-D Secure): not succeeded, so not paid.
    await card.fill('4000002500003155');
    await expect.poll(() => cardError.innerText()).toBe('');
    await pay.click();
    await page.getByTestId('pay-error').getByText(paymentMessages.notSucceeded).waitFor();
    expect((await adminOrder(order.id)).status).toBe('quote_sent');

    await card.fill('4242424242424242');
    const statusUpdate = page.waitForRequest(
      (r) => r.method() === 'PATCH' && new URL(r.url()).pathname === `/api/orders/${order.id}/status`,
    );
    await pay.click();
    await page.getByTestId('pay-success').getByRole('heading', { name: paymentMessages.successTitle }).waitFor();
    const calls = (await page.evaluate(
      () => (window as unknown as { __stripeCalls: unknown[] }).__stripeCalls,
    )) as Array<Record<string, unknown>>;
    expect(calls[0]).toEqual({ call: 'Stripe', publishableKey: 'pk_test_offline' });
    const confirms = calls.filter((c) => c.call === 'confirmCardPayment');
    expect(confirms).toHaveLength(3);
    for (const c of confirms) {
      expect(c.clientSecret).toMatch(/_secret_/);
      expect(c.billing_details).toEqual({ name: 'Morgan Reyes' });
      expect(c.hasCard).toBe(true);
    }
    const patch = (await statusUpdate).postDataJSON() as { status: string; paymentIntentId: string };
    expect(patch.status).toBe('paid');
    expect(String(confirms.at(-1)!.clientSecret).startsWith(`${patch.paymentIntentId}_secret_`)).toBe(true);
    await expect.poll(async () => (await adminOrder(order.id)).status, { timeout: 15_000 }).toBe('paid');
    expect(shop.pageErrors).toEqual([]);
    await shop.close();
  });

  it('in Stripe mode, Stripe.js failing to load says "Payment system unavailable" and offers no payment', async () => {
    const order = await placeOrder({ name: 'Casey Nguyen', state: 'WA' });
    await applyQuote(order.id, 99.5);
    const shop = await browser.newPage({ width: 375 });
    const { page } = shop;
    // The shop as configured with Stripe keys; Stripe's host is unreachable (we never go online).
    await page.route(
      (url) => url.pathname === paymentPaths.config,
      (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ success: true, mode: 'stripe', publishableKey: 'pk_test_offline' }),
        }),
    );
    const stripeRequests: string[] = [];
    await page.route('https://js.stripe.com/**', (route) => {
      stripeRequests.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    await page.goto(`${baseUrl}${orderPaymentPath(order.id)}`);
    await page.getByText(paymentMessages.scriptLoadFailed).waitFor();
    expect(stripeRequests.length).toBeGreaterThan(0);
    expect(await page.getByText(paymentMessages.testModeNotice).count()).toBe(0);
    expect(await payButton(page).isDisabled()).toBe(true);
    await shop.close();
  });
});
