// No secret in any log line of the whole stack (issue 19): a short journey through the gateway that
// handles every kind of secret the shop has (the admin's sign-in, a returning customer's verification
// code, a test-mode card payment with its client secret), then every line the seven services and the
// gateway logged since the stack started (global-setup.ts keeps them in one file) is searched for them,
// and for the gateway signing key. HTTP only, no browser: it takes a few seconds.
import { readFileSync } from 'node:fs';
import { expect, inject, it } from 'vitest';
import {
  ordersAdminPaths,
  paymentPaths,
  type CreateIntentResponse,
  type CreateOrderResponse,
  type CustomerLookupResponse,
} from '@shop/contracts';
import { DEV_ADMIN } from '@shop/local';
import { adminApiHeaders, adminGet } from './support/admin.js';
import { uniqueEmail, verificationCode } from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
const logFile = inject('stackLogFile');
const signingKey = inject('gatewaySigningKey');

/** One POST through the gateway; the body typed as the caller says the route answers (unknown unless told). */
async function send<Body = unknown>(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${path}: ${text}`).toBeLessThan(300);
  return JSON.parse(text) as Body;
}

it('no service and not the gateway logs a password, a session id, a verification code, a client secret, a card or the signing key', async () => {
  // The admin signs in (password in, session cookie out).
  const admin = await adminApiHeaders(baseUrl);
  const sessionId = admin.cookie.split('=')[1];

  // A quote request, the admin's quote, a returning-customer lookup (a code by email) and its verification.
  const email = uniqueEmail('secrets');
  const quoteRequest = {
    customerName: 'Sam Secret',
    email,
    phone: '555-0142',
    itemType: 'patch',
    designMethod: 'describe',
    description: 'Subdued patch with a vault door',
    quantity: 200,
    size: '3x3',
    colors: ['Black'],
    finish: 'embroidered',
    features: [],
    files: [],
    aiGenerated: false,
    subscribeEmail: false,
    subscribeSMS: false,
    shippingAddress: { line1: '9 Strongroom Rd', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    customerCategory: 'general',
    taxExempt: false,
  };
  const { order } = await send<CreateOrderResponse>('/api/orders', quoteRequest, {
    'idempotency-key': crypto.randomUUID(),
  });
  await send(ordersAdminPaths.generateQuote(order.id), { quoteAmount: 250 }, admin);

  const askedAt = new Date(Date.now() - 1_000).toISOString();
  // The customer profile is a projection of order.created: wait for it (admin list, no lookup limits).
  await expect
    .poll(
      async () =>
        (
          (await (await adminGet(baseUrl, `/api/customers?search=${encodeURIComponent(email)}`)).json()) as {
            customers: unknown[];
          }
        ).customers.length,
      { timeout: 20_000, interval: 500 },
    )
    .toBe(1);
  expect((await send<CustomerLookupResponse>('/api/customers/lookup', { email })).verificationSent).toBe(true);
  const code = await verificationCode(baseUrl, email, askedAt);
  await send('/api/customers/verify', { email, verificationCode: code });

  // A test-mode card payment (the client secret travels to the page and back).
  const created = await send<CreateIntentResponse>(paymentPaths.createIntent, {
    amount: 1,
    currency: 'usd',
    customerInfo: { name: 'Sam Secret', email },
    orderNumber: order.orderNumber,
    metadata: { orderId: order.id, orderNumber: order.orderNumber },
  });
  const intent = created.paymentIntent;
  await send(paymentPaths.testModeConfirm, {
    paymentIntentId: intent.id,
    clientSecret: intent.client_secret,
    card: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '917' },
  });

  // Logs are written as the calls finish; give the last lines a moment to reach the file.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const lines = readFileSync(logFile, 'utf8').split('\n');
  expect(lines.length).toBeGreaterThan(50);
  // The journey did reach the logs (this test reads the right file).
  expect(lines.some((line) => line.includes(paymentPaths.testModeConfirm))).toBe(true);

  const secrets: Record<string, string> = {
    'the admin password': DEV_ADMIN.password,
    'the admin session id': sessionId,
    'the payment client secret': intent.client_secret,
    'the card number': '4242424242424242',
    'the gateway signing key': signingKey,
  };
  for (const [what, secret] of Object.entries(secrets)) {
    const leaks = lines.filter((line) => line.includes(secret));
    expect(leaks, `${what} appears in the logs`).toEqual([]);
  }
  // Six digits may occur inside longer numbers (durations, ids): only the code on its own counts.
  const codeAlone = new RegExp(`(^|\\D)${code}(\\D|$)`);
  expect(
    lines.filter((line) => codeAlone.test(line)),
    'the verification code appears in the logs',
  ).toEqual([]);
});
