// Calls from the back office to the gateway. The admin session lives in an HttpOnly cookie the browser
// sends by itself (same origin); nothing about it is kept in browser storage. A 401 on any admin call
// means the session ended (logout elsewhere, expiry): the sign-in screen comes back.
import { authUserResponseSchema, type AdminPublic } from '@shop/contracts';

export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

/** Fired on window when an admin call answers 401, so the sign-in screen replaces the back office. */
export const SESSION_ENDED_EVENT = 'shop:admin-session-ended';

const NETWORK_MESSAGE = 'The shop could not be reached. Check your connection and try again.';

/**
 * fetch() for admin calls: JSON in and out, the shop's error envelope turned into an AdminApiError
 * with the server's own message. `signal` and other RequestInit fields pass through.
 */
export async function adminFetch<T = unknown>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: 'same-origin',
      cache: 'no-store',
      ...rest,
      headers: {
        accept: 'application/json',
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new AdminApiError(NETWORK_MESSAGE, 0, 'NETWORK');
  }
  const body = (await response.json().catch(() => null)) as { error?: string; code?: string; details?: unknown } | null;
  if (!response.ok) {
    if (response.status === 401 && !path.startsWith('/api/auth/')) window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
    throw new AdminApiError(
      body?.error ?? `The request failed (HTTP ${response.status}).`,
      response.status,
      body?.code,
      body?.details,
    );
  }
  return body as T;
}

/** The signed-in admin, or null when there is no live session. */
export async function fetchCurrentAdmin(signal?: AbortSignal): Promise<AdminPublic | null> {
  try {
    return authUserResponseSchema.parse(await adminFetch('/api/auth/me', { signal })).user;
  } catch (error) {
    if (error instanceof AdminApiError && error.status === 401) return null;
    throw error;
  }
}

export async function signIn(email: string, password: string): Promise<AdminPublic> {
  return authUserResponseSchema.parse(
    await adminFetch('/api/auth/login', { method: 'POST', json: { email, password } }),
  ).user;
}

export async function signOut(): Promise<void> {
  await adminFetch('/api/auth/logout', { method: 'POST' });
}
