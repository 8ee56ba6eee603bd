// The one fetch helper of the storefront (spec §7): it never throws, and answers ok, status, the
// parsed JSON (data), the raw text, and an error: the server's own message when it sent one, else
// "HTTP {status}: ..." or the network failure's message (status 0).
export interface HttpResult<T> {
  ok: boolean;
  status: number;
  data: T | null;
  rawText: string;
  error: string | null;
  /** Set when the request never got an answer (offline, connection refused, aborted). */
  networkError: boolean;
}

/** Fields our services put in an error answer (the shared error envelope, plus `success: false`). */
export interface ErrorBody {
  success?: boolean;
  error?: string;
  message?: string;
  details?: unknown;
}

export async function request<T>(url: string, init: RequestInit = {}): Promise<HttpResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, status: 0, data: null, rawText: '', error: message || 'Network error', networkError: true };
  }
  const rawText = await response.text().catch(() => '');
  let data: T | null = null;
  try {
    data = rawText ? (JSON.parse(rawText) as T) : null;
  } catch {
    data = null;
  }
  let error: string | null = null;
  if (!response.ok) {
    const body = (data ?? {}) as ErrorBody;
    error = body.error || body.message || `HTTP ${response.status}: ${rawText.slice(0, 200) || response.statusText}`;
  }
  return { ok: response.ok, status: response.status, data, rawText, error, networkError: false };
}

export function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
  return request<T>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
