// Marketing & Communications end to end (issue 14) in Chromium against the shared stack, at 1024 px (the
// back office's narrowest width): an admin adds a subscriber (the form's own checks, then a duplicate
// refused with the server's words), turns SMS on for them, creates a campaign from the overview's quick
// action, sends it, and sees it sent with its counts; the subscriber's email arrives in the dev mailbox,
// its open image counts one open, and every tab is axe-clean with nothing overflowing sideways (1024 and
// 1280 px).
import { describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { marketingPaths, subscriberListResponseSchema } from '@shop/contracts';
import { adminGet, signInAsAdmin } from './support/admin.js';
import { axeViolations } from './support/axe.js';
import { browserForTests } from './support/browser.js';
import { uniqueEmail, waitForMail } from './support/quote-flow.js';

const baseUrl = inject('baseUrl');
const email = uniqueEmail('Marketing.Recruit');
const campaignName = `Veterans Day ${Date.now().toString(36)}`;
const subject = 'Veterans Day: 15% off challenge coins';

const browser = browserForTests();

function tab(page: Page, name: string): Locator {
  return page.getByRole('tablist', { name: 'Marketing' }).getByRole('tab', { name, exact: true });
}

/** What sticks out sideways: the page, or a scroll box hiding part of its content. */
function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > document.documentElement.clientWidth)
      found.push('the page scrolls sideways');
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const { overflowX } = getComputedStyle(el);
      if ((overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1)
        found.push(`${el.tagName} ${el.className} hides ${el.scrollWidth - el.clientWidth} px`);
    }
    return found;
  });
}

async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect
    .poll(
      () => page.locator('[data-remote="admin"] [aria-busy="true"], [data-remote="admin"] .animate-shimmer').count(),
      { timeout: 15_000 },
    )
    .toBe(0);
}

async function subscriberOnServer(address: string) {
  const response = await adminGet(baseUrl, marketingPaths.subscribers);
  expect(response.status).toBe(200);
  return subscriberListResponseSchema.parse(await response.json()).subscribers.find((s) => s.email === address);
}

describe('marketing', () => {
  it(
    'adds a subscriber, turns SMS on, creates and sends a campaign, and sees it sent with counts',
    { timeout: 120_000 },
    async () => {
      const { page, pageErrors, close } = await browser.newPage({
        width: 1024,
        bypassCSP: true,
        reducedMotion: 'reduce',
      });
      await signInAsAdmin(page, baseUrl);
      await page
        .getByRole('navigation', { name: 'Back office views' })
        .getByRole('button', { name: 'Marketing' })
        .click();
      await page.getByTestId('marketing-view').waitFor();
      expect(await page.getByRole('tab').allInnerTexts()).toEqual([
        'Overview',
        'Email Campaigns',
        'SMS & Notifications',
        'Subscribers',
        'Discount Codes',
        'Analytics',
      ]);
      expect(await tab(page, 'Overview').getAttribute('aria-selected')).toBe('true');
      await page.getByTestId('marketing-stats').waitFor();

      // Subscribers > Add Subscriber: the form checks with the contracts' schema before anything is sent.
      await tab(page, 'Subscribers').click();
      const subscribers = page.getByTestId('subscribers-tab');
      await subscribers.getByRole('button', { name: 'Add Subscriber' }).first().click();
      const form = page.getByRole('dialog', { name: 'Add Subscriber' });
      expect(await form.getByLabel('Subscribe to emails').isChecked()).toBe(true);
      expect(await form.getByLabel('Subscribe to SMS').isChecked()).toBe(false);
      expect(await form.getByLabel(/^Category/).inputValue()).toBe('general');
      await form.getByRole('button', { name: 'Add Subscriber' }).click();
      await form.getByText('Name is required').waitFor();
      await form.getByText('Email is required').waitFor();
      await form.getByLabel(/^Name/).fill('Cpl. Dana Whitfield');
      await form.getByLabel(/^Email/).fill('not-an-email');
      await form.getByRole('button', { name: 'Add Subscriber' }).click();
      await form.getByText('Email must be a valid email address').waitFor();
      await form.getByLabel(/^Email/).fill(email);
      await form.getByLabel(/^Phone/).fill('555-0199');
      await form.getByLabel(/^Category/).selectOption('military');
      await form.getByRole('button', { name: 'Add Subscriber' }).click();
      await form.waitFor({ state: 'detached' });
      const row = subscribers.locator(`[data-testid="subscriber-row"][data-email="${email.toLowerCase()}"]`);
      await row.waitFor();
      expect(await row.innerText()).toContain('Military Personnel');
      const smsSwitch = row.getByRole('switch', { name: 'SMS for Cpl. Dana Whitfield' });
      expect(
        await row.getByRole('switch', { name: 'Email for Cpl. Dana Whitfield' }).getAttribute('aria-checked'),
      ).toBe('true');
      expect(await smsSwitch.getAttribute('aria-checked')).toBe('false');

      // The same address again: the server's own words.
      await subscribers.getByRole('button', { name: 'Add Subscriber' }).first().click();
      await form.getByLabel(/^Name/).fill('Dana again');
      await form.getByLabel(/^Email/).fill(email.toUpperCase());
      await form.getByRole('button', { name: 'Add Subscriber' }).click();
      await form.getByRole('alert').filter({ hasText: 'A subscriber with this email already exists' }).waitFor();
      await form.getByRole('button', { name: 'Cancel' }).click();

      // Toggle SMS: on once the server said yes, email left alone.
      await smsSwitch.click();
      await expect.poll(() => smsSwitch.getAttribute('aria-checked')).toBe('true');
      await expect.poll(async () => (await subscriberOnServer(email.toLowerCase()))?.smsSubscribed).toBe(true);
      expect((await subscriberOnServer(email.toLowerCase()))?.emailSubscribed).toBe(true);

      // Overview's quick action opens Email Campaigns with Create Campaign open.
      await tab(page, 'Overview').click();
      await page.getByRole('button', { name: 'Create Campaign' }).click();
      const create = page.getByRole('dialog', { name: 'Create Campaign' });
      await create.waitFor();
      // (By id: while the dialog is open, the page behind it is hidden from the accessibility tree.)
      expect(await page.locator('#marketing-tab-emails').getAttribute('aria-selected')).toBe('true');
      await create.getByRole('button', { name: 'Create Campaign' }).click();
      await create.getByText('Name is required').waitFor();
      await create.getByLabel(/^Campaign name/).fill(campaignName);
      await create.getByLabel(/^Type/).selectOption('promotion');
      await create.getByLabel(/^Subject/).fill(subject);
      await create
        .getByLabel(/^Content/)
        .fill(
          'Thank you for your service.\n\nOrder your unit coin: https://example.com/coins\n<script>alert(1)</script>',
        );
      await create.getByRole('button', { name: 'Create Campaign' }).click();
      await create.waitFor({ state: 'detached' });
      const campaign = page.getByTestId('campaign-row').filter({ hasText: campaignName });
      await campaign.waitFor();
      expect(await campaign.getByTestId('campaign-status').innerText()).toMatch(/draft/i);

      // Send Now: sending, then sent once every email is settled, with the counts.
      await campaign.getByRole('button', { name: 'Send Now' }).click();
      await expect
        .poll(() => campaign.getByTestId('campaign-status').innerText(), { timeout: 60_000, interval: 500 })
        .toMatch(/sent/i);
      await expect(campaign.getByRole('button', { name: 'Send Now' }).count()).resolves.toBe(0);
      const cells = await campaign.locator('td').allInnerTexts();
      const [recipients, sent, opens, clicks] = cells.slice(2, 6).map((c) => Number(c.replaceAll(',', '')));
      expect(sent).toBeGreaterThanOrEqual(1);
      expect(sent).toBe(recipients);
      expect([opens, clicks]).toEqual([0, 0]);
      expect(cells.slice(6, 8)).toEqual(['0.0%', '0.0%']);

      // The subscriber got it, escaped; opening it (its tracking image) counts one open.
      const mail = await waitForMail(baseUrl, email.toLowerCase(), (m) => m.subject === subject);
      expect(mail.html).not.toContain('<script>alert(1)</script>');
      const openPath = /\/api\/marketing\/track\/open\/[A-Za-z0-9_-]+/.exec(mail.html)?.[0];
      expect(openPath, 'the open-tracking image').toBeTruthy();
      expect((await fetch(`${baseUrl}${openPath}`)).status).toBe(200);
      await tab(page, 'Analytics').click();
      const rates = page.getByTestId('campaign-rates').locator('tr').filter({ hasText: campaignName });
      await rates.waitFor();
      const expectedRate = `${(Math.round((1 / sent) * 1000) / 10).toFixed(1)}%`;
      await expect
        .poll(async () => (await rates.locator('td').allInnerTexts()).slice(2))
        .toEqual(['1', '0', expectedRate, '0.0%']);
      await page.getByTestId('subscriber-growth').waitFor();

      // The overview lists it among the 5 most recent, sent.
      await tab(page, 'Overview').click();
      const recent = page.getByTestId('recent-campaigns').locator('li').filter({ hasText: campaignName });
      await recent.waitFor();
      expect(await recent.innerText()).toMatch(/sent/i);

      // Every tab, with this data: axe finds nothing, nothing overflows at 1024 px and at 1280 px.
      const problems: string[] = [];
      for (const width of [1024, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        for (const name of [
          'Overview',
          'Email Campaigns',
          'SMS & Notifications',
          'Subscribers',
          'Discount Codes',
          'Analytics',
        ]) {
          await tab(page, name).click();
          await settled(page);
          for (const overflow of await horizontalOverflow(page)) problems.push(`${name} at ${width} px: ${overflow}`);
          for (const violation of await axeViolations(page, { rules: 'all' }))
            problems.push(`${name} at ${width} px: ${violation}`);
        }
      }
      expect(problems).toEqual([]);
      expect(pageErrors).toEqual([]);
      await close();
    },
  );

  it(
    'creates, edits, activates and deletes an SMS template with the keyboard-reachable tabs',
    { timeout: 60_000 },
    async () => {
      const { page, pageErrors, close } = await browser.newPage({ width: 1280 });
      await signInAsAdmin(page, baseUrl);
      await page
        .getByRole('navigation', { name: 'Back office views' })
        .getByRole('button', { name: 'Marketing' })
        .click();
      // Arrow keys move between the tabs (WAI-ARIA tabs).
      await tab(page, 'Overview').focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await tab(page, 'SMS & Notifications').getAttribute('aria-selected')).toBe('true');
      const sms = page.getByTestId('sms-tab');
      await sms.waitFor();

      const name = `Shipped ${Date.now().toString(36)}`;
      await sms.getByRole('button', { name: 'Create SMS Template' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Create SMS Template' });
      await dialog.getByLabel(/^Template name/).fill(name);
      await dialog.getByLabel(/^Trigger/).selectOption('order_shipped');
      await dialog.getByLabel(/^Message/).fill('Hi {name}, order {orderNumber} shipped: {trackingNumber}');
      await dialog.getByLabel('Active').uncheck();
      await dialog.getByRole('button', { name: 'Create Template' }).click();
      await dialog.waitFor({ state: 'detached' });
      const row = sms.getByTestId('sms-template-row').filter({ hasText: name });
      await row.waitFor();
      expect(await row.innerText()).toContain('Order shipped');
      const active = row.getByRole('switch', { name: `${name} active` });
      expect(await active.getAttribute('aria-checked')).toBe('false');

      await row.getByRole('button', { name: `Edit ${name}` }).click();
      const edit = page.getByRole('dialog', { name: 'Edit SMS Template' });
      await edit.getByLabel(/^Message/).fill('');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await edit.getByText('Message is required').waitFor();
      await edit.getByLabel(/^Message/).fill('{name}: order {orderNumber} is on its way ({trackingNumber}).');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await edit.waitFor({ state: 'detached' });
      await row.getByText('is on its way').waitFor();

      await active.click();
      await expect.poll(() => active.getAttribute('aria-checked')).toBe('true');
      // One active template per trigger: any other "Order shipped" template is now off.
      const others = sms
        .getByTestId('sms-template-row')
        .filter({ hasText: 'Order shipped' })
        .filter({ hasNotText: name });
      for (const other of await others.all())
        expect(await other.getByRole('switch').getAttribute('aria-checked')).toBe('false');

      await row.getByRole('button', { name: `Delete ${name}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete SMS Template' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await row.waitFor({ state: 'detached' });
      expect(pageErrors).toEqual([]);
      await close();
    },
  );
});
