// Steps of the storefront's guided quote flow, driven as a customer would (labels and button names),
// shared by the quote-*.test.ts browser tests.
import type { Page, Request } from 'playwright-core';
import type { OrderRequest } from '@shop/contracts';
import { expect } from 'vitest';
import { adminGet } from './admin.js';

/** A 1x1 PNG (real magic bytes: the server checks file content, not only the name). */
export const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
export const tinySvg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#d4a93c"/></svg>',
);

/** A mailbox nobody else uses in this run. */
export function uniqueEmail(tag: string): string {
  return `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

export function flow(page: Page) {
  return page.getByTestId('order-flow');
}

export async function expectStep(page: Page, phase: number, percent: number): Promise<void> {
  const progress = page.getByTestId('flow-progress');
  await progress.getByText(`Step ${phase} of 5`, { exact: true }).waitFor();
  await progress.getByText(`${percent}%`, { exact: true }).waitFor();
}

export function continueButton(page: Page) {
  return flow(page).getByRole('button', { name: 'Continue' });
}

export async function clickContinue(page: Page): Promise<void> {
  const button = continueButton(page);
  await expect.poll(() => button.isEnabled()).toBe(true);
  await button.click();
}

export async function choose(page: Page, name: string | RegExp): Promise<void> {
  await flow(page)
    .getByRole('button', { name, exact: typeof name === 'string' })
    .first()
    .click();
}

export interface Shipping {
  line1: string;
  city: string;
  state: string;
  postalCode: string;
  category?: 'Military Personnel' | 'First Responder' | 'General Customer';
}

export async function fillShipping(page: Page, s: Shipping): Promise<void> {
  const f = flow(page);
  await f.getByLabel('Address line 1').fill(s.line1);
  await f.getByLabel('City').fill(s.city);
  await f.getByLabel('State').selectOption(s.state);
  await f.getByLabel('Postal code').fill(s.postalCode);
  if (s.category) await choose(page, s.category);
}

export async function fillContact(
  page: Page,
  c: { first: string; last: string; email: string; phone?: string },
): Promise<void> {
  const f = flow(page);
  await f.getByLabel('First name').fill(c.first);
  await f.getByLabel('Last name').fill(c.last);
  await f.getByLabel('Email address').fill(c.email);
  if (c.phone) await f.getByLabel('Phone number').fill(c.phone);
}

export interface Submitted {
  orderNumber: string;
  /** The order request the storefront sent. */
  body: OrderRequest;
  request: Request;
}

/** Presses Request Quote and waits for the confirmation; returns the order number and the sent body. */
export async function requestQuote(page: Page): Promise<Submitted> {
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/orders'),
    flow(page).getByRole('button', { name: 'Request Quote' }).click(),
  ]);
  const confirmation = page.getByTestId('order-confirmation');
  await confirmation.waitFor({ timeout: 30_000 });
  await confirmation.getByText('Quote Pending', { exact: true }).waitFor();
  const orderNumber = (await page.getByTestId('order-number').innerText()).trim();
  expect(orderNumber).toMatch(/^[A-Z0-9-]{4,}$/);
  return { orderNumber, body: request.postDataJSON() as OrderRequest, request };
}

export interface MailboxMessage {
  id: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

/** The local dev mailbox (GET /api/debug/mailbox, admin only), newest first, for one recipient. */
export async function mailbox(baseUrl: string, to: string): Promise<MailboxMessage[]> {
  const response = await adminGet(baseUrl, `/api/debug/mailbox?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`mailbox answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { messages: MailboxMessage[] }).messages;
}

/** Waits (emails are sent asynchronously: event -> queue -> SMTP) for a message that matches. */
export async function waitForMail(
  baseUrl: string,
  to: string,
  match: (m: MailboxMessage) => boolean,
  timeoutMs = 30_000,
): Promise<MailboxMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailbox(baseUrl, to)).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching email to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The 6-digit code of the newest verification email newer than `after` (ISO time). */
export async function verificationCode(baseUrl: string, to: string, after: string): Promise<string> {
  const message = await waitForMail(
    baseUrl,
    to,
    (m) => m.receivedAt > after && /verification code/i.test(`${m.subject} ${m.text}`),
  );
  const code = /verification code is:?\s*(\d{6})/i.exec(message.text)?.[1] ?? /\b(\d{6})\b/.exec(message.text)?.[1];
  if (!code) throw new Error(`no 6-digit code in: ${message.text}`);
  return code;
}
