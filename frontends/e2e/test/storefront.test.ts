// The shell with the storefront remote in Chromium: home, tracking search view, branch pages, header
// navigation, redirects of the product-route variants, and the 404 screen.
import { describe, expect, inject, it } from 'vitest';
import { browserForTests, expectShellChrome, pathOf } from './support/browser.js';

const baseUrl = inject('baseUrl');

const browser = browserForTests();

describe('home (/)', () => {
  it('shows the storefront remote inside the shell: item cards with prices, trust banner, rating', async () => {
    const { page, pageErrors, close } = await browser.newPage();
    await page.goto(`${baseUrl}/`);
    await expectShellChrome(page);
    const remote = page.locator('[data-remote="storefront"]');
    await remote.waitFor();

    const cards = remote.locator('[data-item]');
    await expect.poll(() => cards.count()).toBe(3);
    expect(await cards.allInnerTexts()).toEqual([
      expect.stringMatching(/Challenge Coins[\s\S]*From \$25\.99/i),
      expect.stringMatching(/Custom Patches[\s\S]*From \$12\.99/i),
      expect.stringMatching(/Tactical Shirts[\s\S]*From \$39\.99/i),
    ]);
    await remote.getByText('Quote in 24 hours').waitFor();
    expect(await remote.getByText('4.9/5 (3,247 reviews)').count()).toBeGreaterThan(0);
    // The remote's styles (Tailwind utilities) applied: the card title uses the display font size.
    const titleSize = await cards
      .first()
      .locator('h3')
      .evaluate((el) => getComputedStyle(el).fontSize);
    expect(titleSize).toBe('20px');
    expect(pageErrors).toEqual([]);
    await close();
  });

  it('rotates the three testimonials every 3000 ms', async () => {
    const { page, close } = await browser.newPage();
    await page.clock.install();
    await page.goto(`${baseUrl}/`);
    const carousel = page.getByRole('region', { name: 'What our customers say' });
    const quote = page.getByTestId('testimonial');
    await quote.waitFor();
    // Freeze the page's clock, then restart the rotation from a known instant: hovering holds it,
    // leaving starts a fresh 3000 ms interval.
    // A second ahead: on a busy machine the page's clock may run on for a few ms before the pause arrives.
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 1_000);
    await carousel.hover();
    await page.mouse.move(5, 890);
    const seen = [await quote.innerText()];
    for (let i = 0; i < 3; i++) {
      await page.clock.runFor(2_990);
      expect(await quote.innerText(), 'no change before 3000 ms').toBe(seen.at(-1));
      await page.clock.runFor(10);
      await expect.poll(() => quote.innerText()).not.toBe(seen.at(-1));
      seen.push(await quote.innerText());
    }
    // Three different testimonials, then back to the first.
    expect(new Set(seen.slice(0, 3)).size).toBe(3);
    expect(seen[3]).toBe(seen[0]);
    await close();
  });

  it('holds the testimonials still under prefers-reduced-motion', async () => {
    const { page, close } = await browser.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install();
    await page.goto(`${baseUrl}/`);
    const quote = page.getByTestId('testimonial');
    await quote.waitFor();
    const first = await quote.innerText();
    await page.clock.runFor(10_000);
    expect(await quote.innerText()).toBe(first);
    // The visitor can still move through them by hand.
    await page.getByRole('button', { name: 'Testimonial 2 of 3' }).click();
    await expect.poll(() => quote.innerText()).not.toBe(first);
    await close();
  });
});

describe('tracking (/track)', () => {
  it('shows the search view and asks for both fields', async () => {
    const { page, close } = await browser.newPage();
    await page.goto(`${baseUrl}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Track Order' }).click();
    await page.getByRole('heading', { name: 'Track Your Order' }).waitFor();
    expect(pathOf(page)).toBe('/track');

    const orderNumber = page.getByLabel('Order number');
    const email = page.getByLabel('Email address');
    await page.getByText('No account required', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'Track Order' }).click();
    await page.getByText('Please enter both order number and email address.').waitFor();

    // Order numbers are upper case.
    await orderNumber.fill('cc-12ab');
    expect(await orderNumber.inputValue()).toBe('CC-12AB');
    await email.fill('someone@example.com');
    expect(await email.getAttribute('type')).toBe('email');
    await close();
  });
});

describe('branch landing pages', () => {
  const pages = [
    { path: '/army-patches', title: 'Custom Army Patches' },
    { path: '/navy-coins', title: 'Navy Challenge Coins' },
    { path: '/airforce-patches', title: 'Air Force Patches' },
  ];

  it.each(pages)(
    '$path: hero, three feature cards, rating, three testimonials, links to start an order',
    async ({ path, title }) => {
      const { page, pageErrors, close } = await browser.newPage();
      await page.goto(`${baseUrl}${path}`);
      await expectShellChrome(page);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      const remote = page.locator('[data-remote="storefront"]');
      expect(await remote.getByRole('list').first().getByRole('listitem').count()).toBe(3);
      expect(await remote.locator('figure').count()).toBe(3);
      await remote.getByText(/\d\.\d\/5 \([\d,]+ reviews\)/).waitFor();

      for (const name of ['Start AI Design', 'Manual Design']) {
        expect(await remote.getByRole('link', { name }).getAttribute('href')).toBe('/');
      }
      await remote.getByRole('link', { name: 'Manual Design' }).click();
      await page.locator('[data-item="coin"]').waitFor();
      expect(pathOf(page)).toBe('/');
      expect(pageErrors).toEqual([]);
      await close();
    },
  );
});

describe('redirects of product-route variants', () => {
  const redirects: Array<[string, string]> = [
    ['/ArmyPatches', '/army-patches'],
    ['/Army-Patches', '/army-patches'],
    ['/NavyCoins', '/navy-coins'],
    ['/Navy-Coins', '/navy-coins'],
    ['/AirForcePatches', '/airforce-patches'],
    ['/AirForce-Patches', '/airforce-patches'],
    ['/Air-Force-Patches', '/airforce-patches'],
  ];

  it('each variant lands on its canonical path, replacing the history entry', async () => {
    const { page, close } = await browser.newPage();
    await page.goto(`${baseUrl}/`);
    await page.locator('[data-remote="storefront"]').waitFor();
    for (const [from, to] of redirects) {
      const before = await page.evaluate(() => window.history.length);
      await page.goto(`${baseUrl}${from}`);
      await page.waitForURL(`${baseUrl}${to}`);
      await page.locator('[data-branch]').waitFor();
      // Loading the variant adds one entry; the redirect replaces it instead of pushing another.
      expect(await page.evaluate(() => window.history.length), from).toBe(before + 1);
    }
    await close();
  });
});

describe('unknown paths', () => {
  it('show "Mission Not Found"; Return to Base goes to /', async () => {
    const { page, close } = await browser.newPage();
    await page.goto(`${baseUrl}/no/such/mission`);
    await expectShellChrome(page);
    await page.getByRole('heading', { name: 'Mission Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Return to Base' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.locator('[data-remote="storefront"] [data-item="coin"]').waitFor();
    await close();
  });

  it('include spellings of the product routes that are not listed variants', async () => {
    const { page, close } = await browser.newPage();
    await page.goto(`${baseUrl}/ARMY-PATCHES`);
    await page.getByRole('heading', { name: 'Mission Not Found' }).waitFor();
    expect(pathOf(page)).toBe('/ARMY-PATCHES');
    await close();
  });
});

describe('on a 375 px wide phone', () => {
  it('no page of the shell scrolls sideways', async () => {
    const { page, close } = await browser.newPage({ width: 375 });
    for (const path of ['/', '/track', '/army-patches', '/navy-coins', '/airforce-patches', '/no/such/mission']) {
      await page.goto(`${baseUrl}${path}`);
      await page.locator('footer').waitFor();
      await page.locator('main h1').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
    }
    await close();
  });
});
