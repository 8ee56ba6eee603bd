// Headless Chromium for the browser tests: the Debian chromium driven by playwright-core. Each launch
// gets a fresh profile directory (Playwright creates and removes a temporary --user-data-dir), and
// every page opens in its own context, so no cache, cookie, storage or fake clock leaks between tests.
import { chromium, type Browser as PlaywrightBrowser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Flags that keep Chromium quiet and offline apart from the pages under test (TOOLCHAIN-NOTES.md).
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ShopPage {
  page: Page;
  /** Uncaught exceptions thrown in the page. */
  pageErrors: string[];
  /** Closes the page and its context (a function of its own: tests take it apart from the page). */
  close: () => Promise<void>;
}

export interface Browser {
  /** A new tab in a new, empty context. */
  newPage(options?: {
    reducedMotion?: 'reduce' | 'no-preference';
    width?: number;
    bypassCSP?: boolean;
    /** False: the page as it is before (or without) its scripts. */
    javaScriptEnabled?: boolean;
  }): Promise<ShopPage>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const browser: PlaywrightBrowser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return {
    async newPage(options = {}) {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1280, height: 900 },
        reducedMotion: options.reducedMotion ?? 'no-preference',
        // Only for injecting test tooling (axe) past the gateway's script-src 'self'.
        bypassCSP: options.bypassCSP ?? false,
        javaScriptEnabled: options.javaScriptEnabled ?? true,
      });
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      return { page, pageErrors, close: () => context.close() };
    },
    close: () => browser.close(),
  };
}

/**
 * The test file's browser, for files that need nothing else set up around it: launched before the
 * file's tests and closed after them (vitest hooks). Use it inside tests only.
 */
export function browserForTests(): Browser {
  let launched: Browser | undefined;
  beforeAll(async () => {
    launched = await launchBrowser();
  });
  afterAll(async () => {
    await launched?.close();
  });
  const current = () => {
    if (!launched) throw new Error('The browser starts before the tests: use it inside a test.');
    return launched;
  };
  return { newPage: (options) => current().newPage(options), close: () => current().close() };
}

/** The shell's own chrome: header with the three spec links, and the footer. */
export async function expectShellChrome(page: Page): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Home' }).waitFor();
  await nav.getByRole('link', { name: 'Track Order' }).waitFor();
  await nav.getByRole('link', { name: 'Admin' }).waitFor();
  await page.locator('footer').waitFor();
}

/** Current path of the page (no origin). */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}
