// Admin sign-in in the browser, against the shared stack (real security service, gateway, MongoDB,
// NATS): the sign-in screen, a wrong password, signing in, reload, sign-out that really ends the
// session on the server, and the audit trail of it all.
import { describe, expect, inject, it } from 'vitest';
import { DEV_ADMIN, adminApiHeaders, adminGet, signInAsAdmin, submitAdminSignIn } from './support/admin.js';
import { axeViolations } from './support/axe.js';
import { browserForTests, expectShellChrome, pathOf } from './support/browser.js';

const baseUrl = inject('baseUrl');

const browser = browserForTests();

describe('admin sign-in (/admin)', () => {
  it('shows the sign-in screen instead of the back office: email, password with show/hide, Sign In, the logged-access notice', async () => {
    const { page, pageErrors, close } = await browser.newPage();
    await page.goto(`${baseUrl}/admin`);
    await expectShellChrome(page);
    const form = page.getByRole('form', { name: 'Admin sign-in' });
    await form.waitFor();
    await page.getByRole('heading', { name: 'Admin Access' }).waitFor();
    expect(await page.getByTestId('access-notice').innerText()).toMatch(/logged/);
    expect(await page.getByRole('heading', { name: 'System status' }).count()).toBe(0);

    const password = form.getByLabel(/^Password/);
    await password.fill('secret-words');
    expect(await password.getAttribute('type')).toBe('password');
    await form.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await form.getByRole('button', { name: 'Hide password' }).click();
    expect(await password.getAttribute('type')).toBe('password');
    expect(pageErrors).toEqual([]);
    await close();
  });

  it("a wrong password shows 'Invalid email or password' and no back office", async () => {
    const { page, close } = await browser.newPage();
    await page.goto(`${baseUrl}/admin`);
    await submitAdminSignIn(page, 'Not-The-Password-1');
    await expect.poll(() => page.getByTestId('sign-in-error').innerText()).toBe('Invalid email or password');
    expect(await page.getByRole('button', { name: 'Sign Out' }).count()).toBe(0);
    const cookies = await page.context().cookies();
    expect(cookies.some((c) => c.name === 'shop_admin_session')).toBe(false);
    await close();
  });

  it("signs in ('Authenticating...' while waiting), shows the back office with the view switch, and keeps the session on reload", async () => {
    const { page, pageErrors, close } = await browser.newPage();
    await page.goto(`${baseUrl}/admin`);
    // Hold the answer a moment so the waiting state can be seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/login', async (route) => {
      await held;
      await route.continue();
    });
    await submitAdminSignIn(page);
    const form = page.getByRole('form', { name: 'Admin sign-in' });
    await form.getByRole('button', { name: /Authenticating\.\.\./ }).waitFor();
    release();
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    await page.unroute('**/api/auth/login');

    const views = page.getByRole('navigation', { name: 'Back office views' });
    await views.getByRole('button', { name: 'System' }).waitFor();
    // A sign-in lands on the orders dashboard (the spec's default view).
    await page.getByTestId('orders-dashboard').waitFor();
    expect(await page.getByTestId('signed-in-as').innerText()).toContain(DEV_ADMIN.email);

    // The cookie: HttpOnly, SameSite=Strict, not readable by page scripts.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'shop_admin_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('shop_admin_session');

    await page.reload();
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    await page.getByTestId('orders-dashboard').waitFor();
    expect(await page.getByRole('form', { name: 'Admin sign-in' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await close();
  });

  it('the signed-in back office has no accessibility violations (axe, WCAG 2.1 A and AA)', async () => {
    const { page, close } = await browser.newPage({ bypassCSP: true, reducedMotion: 'reduce' });
    await signInAsAdmin(page, baseUrl);
    await page.getByRole('navigation', { name: 'Back office views' }).getByRole('button', { name: 'System' }).click();
    await page.getByTestId('service-list').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });

  it('the logo leads to the site root', async () => {
    const { page, close } = await browser.newPage();
    await signInAsAdmin(page, baseUrl);
    const logo = page.locator('[data-remote="admin"]').getByRole('link', { name: /Admin Command Center/ });
    expect(await logo.getAttribute('href')).toBe('/');
    await logo.click();
    await expect.poll(() => pathOf(page)).toBe('/');
    await close();
  });

  it('sign-out returns to the sign-in screen and ends the session on the server (the old cookie is refused)', async () => {
    const { page, close } = await browser.newPage();
    await signInAsAdmin(page, baseUrl);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'shop_admin_session')!;
    const headers = { cookie: `shop_admin_session=${cookie.value}` };
    expect((await fetch(`${baseUrl}/api/security/audit?limit=1`, { headers })).status).toBe(200);

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByRole('form', { name: 'Admin sign-in' }).waitFor();
    expect((await page.context().cookies()).some((c) => c.name === 'shop_admin_session')).toBe(false);

    // Replaying the saved cookie gets nothing, in the security service and at the gateway.
    expect((await fetch(`${baseUrl}/api/auth/me`, { headers })).status).toBe(401);
    expect((await fetch(`${baseUrl}/api/security/audit?limit=1`, { headers })).status).toBe(401);
    await page.reload();
    await page.getByRole('form', { name: 'Admin sign-in' }).waitFor();
    await close();
  });
});

describe('admin APIs on the shared stack', () => {
  it('refuse calls without a session (401) and writes from another site (403)', async () => {
    expect((await fetch(`${baseUrl}/api/security/audit`)).status).toBe(401);
    expect((await fetch(`${baseUrl}/api/admin/settings`)).status).toBe(401);
    const headers = await adminApiHeaders(baseUrl);
    const crossSite = await fetch(`${baseUrl}/api/admin/settings`, {
      method: 'PUT',
      headers: { ...headers, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('keep the local mailbox (verification codes, payment links) for signed-in admins only', async () => {
    const path = '/api/debug/mailbox?to=nobody%40shop.test';
    const anonymous = await fetch(`${baseUrl}${path}`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const signedIn = await adminGet(baseUrl, path);
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toMatchObject({ messages: [] });
  });

  it('record sign-ins and admin calls in the audit trail, with who, what, when and from where', async () => {
    const headers = await adminApiHeaders(baseUrl);
    const first = await fetch(`${baseUrl}/api/security/audit?limit=50`, { headers });
    expect(first.status).toBe(200);
    type Record = {
      actorEmail: string | null;
      action: string;
      method: string | null;
      path: string | null;
      ip: string | null;
      outcome: string;
      at: string;
    };
    let records: Record[] = [];
    await expect
      .poll(
        async () => {
          records = (
            (await (await fetch(`${baseUrl}/api/security/audit?limit=100`, { headers })).json()) as {
              records: Record[];
            }
          ).records;
          return records.some(
            (r) => r.action === 'admin.call' && r.path === '/api/security/audit' && r.actorEmail === DEV_ADMIN.email,
          );
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(
      records.some((r) => r.action === 'auth.login' && r.outcome === 'success' && r.actorEmail === DEV_ADMIN.email),
    ).toBe(true);
    expect(records.some((r) => r.action === 'auth.login' && r.outcome === 'failure')).toBe(true);
    expect(records.some((r) => r.action === 'auth.logout')).toBe(true);
    const call = records.find((r) => r.action === 'admin.call')!;
    expect(call.ip).toBeTruthy();
    expect(Date.parse(call.at)).not.toBeNaN();
    expect(JSON.stringify(records)).not.toContain(DEV_ADMIN.password);
  });
});
