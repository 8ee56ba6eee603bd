// Security management in the back office, in Chromium against the shared stack: the admin sees the
// requests of the last minutes in the 24-hour trend and in the logs, bans another loopback address
// (refused at the gateway at once, the admin's own address untouched), sees the alert a scripted
// sign-in brute force from yet another loopback address raised, resolves it, and unbans. Every tab is
// axe-clean. The requests travel gateway -> NATS batches -> security service.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bannedAddressMessage, securityMessages } from '@shop/contracts';
import { signInAsAdmin } from './support/admin.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, type Browser, type ShopPage } from './support/browser.js';

const baseUrl = inject('baseUrl');
/** The address the test bans, and the one the brute force comes from (the browser is 127.0.0.1). */
const BANNED = '127.0.0.77';
const ATTACKER = '127.0.0.78';

let browser: Browser;
let shop: ShopPage;
let page: Page;

/** A request from a chosen loopback client address. */
function requestFrom(
  localAddress: string,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${path}`,
      { localAddress, method: init.method ?? 'GET', headers: init.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const tab = (name: string) => page.getByRole('tablist', { name: 'Security' }).getByRole('tab', { name });

beforeAll(async () => {
  browser = await launchBrowser();
  // axe is injected as a script: the shop's CSP would refuse it.
  shop = await browser.newPage({ bypassCSP: true, width: 1280 });
  page = shop.page;
  await signInAsAdmin(page, baseUrl);
  await page.getByRole('navigation', { name: 'Back office views' }).getByRole('button', { name: 'Security' }).click();
  await page.getByRole('heading', { name: 'Security Management' }).waitFor();
});

afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

describe('the Security view', () => {
  it('shows the requests of the last minutes in the 24-hour trend and the counters', async () => {
    const counters = page.getByTestId('security-counters');
    await counters.waitFor();
    // The browser's own requests (sign-in, the views) were logged: the current hour has them.
    await expect
      .poll(
        async () =>
          Number(
            (await page.getByTestId('request-trends').locator('tbody tr').last().locator('td').first().textContent()) ??
              0,
          ),
        { timeout: 20_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    expect(await page.getByTestId('request-trends').locator('tbody tr').count()).toBe(24);
    expect(await counters.innerText()).toMatch(/Requests \(24h\)/i);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('lists the requests in the logs, filtered by address and risk', async () => {
    await requestFrom(ATTACKER, '/api/orders?id=1%27%20OR%20%271%27=%271', {
      headers: { 'user-agent': 'e2e-scanner/1.0' },
    });
    await tab('Logs').click();
    const table = page.getByTestId('security-logs');
    await table.waitFor({ timeout: 20_000 });
    await page.getByLabel('IP address').fill(ATTACKER);
    await expect
      .poll(async () => table.locator(`tr[data-ip="${ATTACKER}"]`).count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    const row = table.locator(`tr[data-ip="${ATTACKER}"]`).first();
    expect(await row.innerText()).toContain('e2e-scanner/1.0');
    expect((await row.innerText()).toLowerCase()).toContain('high');
    await page.getByLabel('Risk level').selectOption('low');
    await expect
      .poll(async () => page.getByText('No requests match these filters.').count(), { timeout: 10_000 })
      .toBe(1);
    await page.getByLabel('Risk level').selectOption('all');
    await page.getByLabel('IP address').fill('');
    await expect
      .poll(async () => table.locator('tr[data-ip="127.0.0.1"]').count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('bans an address with the Ban IP modal: refused at the gateway at once, the admin untouched', async () => {
    expect((await requestFrom(BANNED, '/api/support/_service')).status).toBe(200);
    await tab('Bans').click();
    await page.getByRole('button', { name: 'Ban IP' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ban IP Address' });
    const submit = dialog.getByRole('button', { name: 'Ban IP' });
    expect(await submit.isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Duration').inputValue()).toBe('1h');
    await dialog.getByLabel(/^IP address/).fill(BANNED);
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel(/^Reason/).fill('Scripted scanning from the e2e test');
    expect(await axeViolations(page)).toEqual([]);
    await submit.click();
    await page.getByText(securityMessages.banned).waitFor();
    const row = page.getByTestId('banned-ips').locator(`tr[data-ip="${BANNED}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain('Scripted scanning from the e2e test');
    // Within a second on the gateway; the admin's own address is not affected.
    await expect
      .poll(async () => (await requestFrom(BANNED, '/api/support/_service')).status, { timeout: 1_000, interval: 50 })
      .toBe(403);
    expect((await requestFrom(BANNED, '/admin', { headers: { accept: 'text/html' } })).body).toContain(
      bannedAddressMessage,
    );
    expect((await requestFrom('127.0.0.1', '/api/support/_service')).status).toBe(200);
    // A permanent ban shows "Never"; banning one's own address is refused with the reason.
    await page.getByRole('button', { name: 'Ban IP' }).click();
    await dialog.getByLabel(/^IP address/).fill('127.0.0.1');
    await dialog.getByLabel(/^Reason/).fill('mistake');
    await dialog.getByLabel('Duration').selectOption('permanent');
    await dialog.getByRole('button', { name: 'Ban IP' }).click();
    await page.getByText(/^Failed to ban IP: You cannot ban 127\.0\.0\.1/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('shows the alert of a scripted brute force from another address and resolves it', async () => {
    for (let i = 0; i < 6; i++) {
      const res = await requestFrom(ATTACKER, '/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl },
        body: JSON.stringify({ email: 'intruder@shop.test', password: `guess-${i}` }),
      });
      expect([401, 429]).toContain(res.status);
    }
    await tab('Alerts').click();
    const alert = page.getByTestId('security-alert').filter({ hasText: `failed admin sign-ins from ${ATTACKER}` });
    await expect
      .poll(
        async () => {
          if ((await alert.count()) > 0) return 1;
          // Opening the tab again loads the alerts again.
          await tab('Dashboard').click();
          await tab('Alerts').click();
          await page.getByLabel('Show').waitFor();
          return alert.count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(1);
    expect((await alert.innerText()).toLowerCase()).toContain('high');
    expect(await axeViolations(page)).toEqual([]);
    await alert.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => alert.count(), { timeout: 10_000 }).toBe(0);
    await page.getByLabel('Show').selectOption('true');
    const resolved = page.getByTestId('security-alert').filter({ hasText: `failed admin sign-ins from ${ATTACKER}` });
    await resolved.waitFor();
    expect(await resolved.getByTestId('resolved-by').innerText()).toMatch(/^Resolved by admin@shop\.local on /);
  });

  it('unbans the address', async () => {
    await tab('Bans').click();
    await page.getByRole('button', { name: `Unban ${BANNED}` }).click();
    await page.getByText(securityMessages.unbanned).waitFor();
    await expect
      .poll(async () => (await requestFrom(BANNED, '/api/support/_service')).status, { timeout: 1_000, interval: 50 })
      .toBe(200);
  });
});
