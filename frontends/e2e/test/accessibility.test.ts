// WCAG 2 A/AA checks (axe-core, including colour contrast) on every screen the shell draws today.
import { describe, expect, inject, it } from 'vitest';
import { axeViolations } from './support/axe.js';
import { browserForTests } from './support/browser.js';

const baseUrl = inject('baseUrl');

const browser = browserForTests();

describe('accessibility (axe, WCAG 2.1 A and AA)', () => {
  const screens = [
    { path: '/', ready: '[data-remote="storefront"] [data-item="coin"]' },
    { path: '/track', ready: '[data-remote="storefront"] form' },
    { path: '/navy-coins', ready: '[data-branch="navy"]' },
    { path: '/admin', ready: '[data-testid="admin-sign-in"] form' },
    { path: '/no/such/mission', ready: 'text=Mission Not Found' },
  ];

  it.each(screens)('$path has no violations', async ({ path, ready }) => {
    const { page, close } = await browser.newPage({ bypassCSP: true, reducedMotion: 'reduce' });
    await page.goto(`${baseUrl}${path}`);
    await page.locator(ready).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });

  it('the Track Your Order error message is tied to the form and announced', async () => {
    const { page, close } = await browser.newPage({ bypassCSP: true });
    await page.goto(`${baseUrl}/track`);
    await page.getByRole('button', { name: 'Track Order' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('Please enter both order number and email address.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });
});
