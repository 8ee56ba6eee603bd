// The admin remote inside the shell, reading the real aggregated health of the shop's services.
import { describe, expect, inject, it } from 'vitest';
import { signInAsAdmin } from './support/admin.js';
import { browserForTests, expectShellChrome, pathOf } from './support/browser.js';

const baseUrl = inject('baseUrl');
const SERVICE_NAMES = ['orders', 'payments', 'customers', 'support', 'marketing', 'security', 'email'];

const browser = browserForTests();

describe('admin (/admin)', () => {
  it('shows the admin remote inside the shell with the seven services ready', async () => {
    const { page, pageErrors, close } = await browser.newPage();
    await page.goto(`${baseUrl}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    expect(pathOf(page)).toBe('/admin');
    await expectShellChrome(page);
    await page.locator('[data-remote="admin"]').waitFor();
    await signInAsAdmin(page, baseUrl);
    // The back office opens on the orders dashboard; the service status is the System view.
    await page.getByTestId('orders-dashboard').waitFor();
    await page.getByRole('navigation', { name: 'Back office views' }).getByRole('button', { name: 'System' }).click();
    await page.getByRole('heading', { name: 'System status' }).waitFor();

    const list = page.getByTestId('service-list');
    await list.waitFor();
    const rows = list.locator('[data-service]');
    expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-service')))).toEqual(SERVICE_NAMES);
    expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).toEqual(
      SERVICE_NAMES.map(() => 'ready'),
    );
    for (const name of SERVICE_NAMES) {
      expect(await list.locator(`[data-service="${name}"]`).innerText()).toMatch(/\d+ ms[\s\S]*Ready/i);
    }
    await page.getByTestId('overall-status').getByText('All systems ready').waitFor();
    expect(pageErrors).toEqual([]);
    await close();
  });

  it('shows an error with Retry when the health report cannot be reached, and recovers on Retry', async () => {
    const { page, close } = await browser.newPage();
    // The browser loses its connection to the gateway's health route (the page itself still loads).
    await page.route('**/api/health', (route) => route.abort('connectionrefused'));
    await signInAsAdmin(page, baseUrl);
    await page.getByRole('navigation', { name: 'Back office views' }).getByRole('button', { name: 'System' }).click();
    const panel = page.locator('[data-remote="admin"]');
    await panel.getByRole('heading', { name: 'System status unavailable' }).waitFor();
    await panel.getByText('The gateway could not be reached').waitFor();
    await page.unroute('**/api/health');
    await panel.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => panel.locator('[data-service][data-status="ready"]').count(), { timeout: 15_000 }).toBe(7);
    await close();
  });

  it('serves deep links below /admin from the same remote', async () => {
    const { page, close } = await browser.newPage();
    await page.goto(`${baseUrl}/admin/orders`);
    await page.locator('[data-remote="admin"]').waitFor();
    await close();
  });

  it("keeps the shell header's responsive spacing once the admin's stylesheet is in", async () => {
    const { page, close } = await browser.newPage({ width: 1280 });
    await page.goto(`${baseUrl}/admin`);
    await page.locator('[data-remote="admin"]').waitFor();
    await page.waitForFunction(() =>
      [...document.styleSheets].some((sheet) => sheet.href?.includes('/remotes/admin/')),
    );
    // The admin's own px-2 and gap-0.5 (its Tailwind build) must not beat the shell's sm:px-3 and sm:gap-2:
    // the admin sheet sits in the cascade layer under the shell's utilities (frontends/admin/src/styles.css).
    const nav = await page.evaluate(() => {
      const link = document.querySelector('header nav a') as HTMLElement;
      const list = document.querySelector('header nav ul') as HTMLElement;
      return { padding: getComputedStyle(link).paddingLeft, gap: getComputedStyle(list).columnGap };
    });
    expect(nav).toEqual({ padding: '12px', gap: '8px' });
    await close();
  });
});
