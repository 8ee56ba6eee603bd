// One remote down never blanks the shell: a second gateway (the built gateway, as its own process)
// serves a copy of the built frontends without the admin remote's files, in front of the shared
// stack's services.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY, ManagedChild, REPO_ROOT, freePort, inheritedEnv, serviceUrlVar, waitReady } from '@shop/local';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectShellChrome, launchBrowser, pathOf, type Browser } from './support/browser.js';

const frontendsDir = join(REPO_ROOT, 'frontends');
const services = inject('services');
const natsUrl = inject('natsUrl');
const gatewaySigningKey = inject('gatewaySigningKey');

let browser: Browser;
let gateway: ManagedChild | undefined;
let copyDir: string;
let baseUrl: string;

async function startGateway(frontends: string): Promise<{ child: ManagedChild; url: string }> {
  const port = await freePort();
  const env: Record<string, string> = {
    ...inheritedEnv(process.env),
    HOST: '127.0.0.1',
    PORT: String(port),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    FRONTENDS_DIR: frontends,
    // Admin session checks go to the shared stack's NATS; the services trust only calls signed with the
    // stack's key (a production gateway refuses to start without one).
    NATS_URL: natsUrl,
    GATEWAY_SIGNING_KEY: gatewaySigningKey,
  };
  for (const [name, url] of Object.entries(services)) env[serviceUrlVar(name)] = url;
  const child = new ManagedChild({
    name: 'gateway (no admin remote)',
    command: process.execPath,
    args: ['dist/main.js'],
    cwd: join(REPO_ROOT, GATEWAY.dir),
    env,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(child, url, { timeoutMs: 60_000, startedAt: Date.now() });
  return { child, url };
}

beforeAll(async () => {
  copyDir = await mkdtemp(join(tmpdir(), 'shop-e2e-frontends-'));
  for (const app of ['shell', 'storefront']) {
    await cp(join(frontendsDir, app, 'dist'), join(copyDir, app, 'dist'), { recursive: true });
  }
  const started = await startGateway(copyDir);
  gateway = started.child;
  baseUrl = started.url;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  if (copyDir) await rm(copyDir, { recursive: true, force: true });
});

describe('with the admin remote missing', () => {
  it('still serves / with the storefront', async () => {
    const { page, close } = await browser.newPage();
    await page.goto(`${baseUrl}/`);
    await expectShellChrome(page);
    await page.locator('[data-remote="storefront"] [data-item="coin"]').waitFor();
    await close();
  });

  it('shows a clear error on /admin with Retry, keeps the shell working, and recovers once the files are back', async () => {
    const { page, close } = await browser.newPage();
    await page.goto(`${baseUrl}/admin`);
    await expectShellChrome(page);
    const alert = page.locator('[data-remote-error]');
    await alert.getByRole('heading', { name: 'The admin area could not be loaded' }).waitFor();
    expect(await alert.innerText()).toContain('The rest of the site still works');
    expect(await page.locator('[data-remote="admin"]').count()).toBe(0);

    // The rest of the shell keeps working: navigate to the storefront and back.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Track Order' }).click();
    await page.getByRole('heading', { name: 'Track Your Order' }).waitFor();
    expect(pathOf(page)).toBe('/track');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await alert.getByRole('heading', { name: 'The admin area could not be loaded' }).waitFor();

    // Retry fetches the remote again: with its files deployed, the admin area appears in place.
    await cp(join(frontendsDir, 'admin', 'dist'), join(copyDir, 'admin', 'dist'), { recursive: true });
    await alert.getByRole('button', { name: 'Retry' }).click();
    // The admin area is there: its sign-in screen (signing in is admin-auth.test.ts's subject).
    await page.locator('[data-remote="admin"]').getByRole('form', { name: 'Admin sign-in' }).waitFor();
    expect(pathOf(page)).toBe('/admin');
    await close();
  });
});
