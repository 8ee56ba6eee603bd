// Reads the gateway's aggregated GET /api/health (gateway/src/health.ts): every service's readiness.
import { serviceNames, type ServiceName } from '@shop/contracts';
import { AdminApiError } from './api.js';

export interface ServiceHealth {
  status: 'ready' | 'not_ready' | 'unreachable';
  checks: Record<string, unknown>;
  latencyMs: number;
  error?: string;
}

export interface ShopHealth {
  status: 'ready' | 'degraded';
  services: Partial<Record<ServiceName, ServiceHealth>>;
}

/** 200 (all ready) and 503 (some not ready) both carry the per-service report; anything else is an error. */
export async function fetchShopHealth(signal?: AbortSignal): Promise<ShopHealth> {
  let response: Response;
  try {
    response = await fetch('/api/health', { headers: { accept: 'application/json' }, cache: 'no-store', signal });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new AdminApiError('The gateway could not be reached. Check that the shop is running.', 0, 'NETWORK');
  }
  const body = (await response.json().catch(() => null)) as (Partial<ShopHealth> & { error?: string }) | null;
  if ((response.ok || response.status === 503) && body && typeof body.services === 'object' && body.services) {
    return { status: body.status === 'ready' ? 'ready' : 'degraded', services: body.services };
  }
  throw new AdminApiError(
    body?.error ?? `The health report could not be read (HTTP ${response.status}).`,
    response.status,
  );
}

/** The seven services in the order the shop names them, with what the gateway said about each. */
export function serviceRows(health: ShopHealth): Array<{ name: ServiceName; health: ServiceHealth | undefined }> {
  return serviceNames.map((name) => ({ name, health: health.services[name] }));
}
