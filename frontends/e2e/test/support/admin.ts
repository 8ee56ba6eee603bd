// Signing in to the back office in browser tests, with the documented development admin the local
// runner gives the security service (DEV_ADMIN in @shop/local).
import type { Page } from 'playwright-core';
import { DEV_ADMIN } from '@shop/local';

export { DEV_ADMIN };

/**
 * Fills the sign-in form the page shows (the back office or an admin-only page such as /debug/email) with
 * the development admin's email and `password` (the right one unless a test wants a wrong one), and presses
 * Sign In. Waits for nothing after: the caller knows what the answer should bring.
 */
export async function submitAdminSignIn(page: Page, password: string = DEV_ADMIN.password): Promise<void> {
  const form = page.getByRole('form', { name: 'Admin sign-in' });
  await form.getByLabel('Email').fill(DEV_ADMIN.email);
  await form.getByLabel(/^Password/).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

/** Opens /admin (or `path`), signs in through the real form, and waits for the back office. */
export async function signInAsAdmin(page: Page, baseUrl: string, path = '/admin'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await submitAdminSignIn(page);
  await page.getByRole('button', { name: 'Sign Out' }).waitFor();
}

/**
 * Headers for calling admin APIs from a test process (not the browser): the session cookie of a fresh
 * sign-in and the gateway's own Origin (admin writes from anywhere else are refused).
 */
export async function adminApiHeaders(baseUrl: string): Promise<Record<string, string>> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email: DEV_ADMIN.email, password: DEV_ADMIN.password }),
  });
  if (res.status !== 200) throw new Error(`admin sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = /shop_admin_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error('admin sign-in set no session cookie');
  return { cookie, origin: baseUrl };
}

/** One admin session per stack for this test file's own reads of admin APIs (see adminGet). */
const sessions = new Map<string, Promise<Record<string, string>>>();

/**
 * GET of an admin API from the test process (not the browser), such as the local mailbox, which only
 * admins may read. Signs in once per stack and again when that session has ended (a test signed out).
 */
export async function adminGet(baseUrl: string, path: string): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let headers = sessions.get(baseUrl);
    if (!headers) {
      headers = adminApiHeaders(baseUrl);
      sessions.set(baseUrl, headers);
      headers.catch(() => sessions.delete(baseUrl));
    }
    const response = await fetch(`${baseUrl}${path}`, { headers: await headers });
    if (response.status !== 401 || attempt > 0) return response;
    sessions.delete(baseUrl);
  }
}
