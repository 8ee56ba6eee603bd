// GET /api/health/production-check (admin part A §7: 30 s time-out, no-cache headers; §8 errors). The
// failure texts are the spec's: 'HTTP {status}: {text}', or the network message; a 401 also sends the
// back office back to its sign-in screen like every other admin call.
import {
  productionCheckPath,
  productionCheckReplySchema,
  productionCheckTimeoutMs,
  type ProductionReport,
} from '@shop/contracts';
import { AdminApiError, SESSION_ENDED_EVENT } from '../api.js';

export const networkFailedMessage =
  'Network connection failed. This might be due to browser extensions interfering with requests.';

export async function runProductionCheck(): Promise<ProductionReport> {
  let response: Response;
  try {
    response = await fetch(productionCheckPath, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { accept: 'application/json', 'cache-control': 'no-cache', pragma: 'no-cache' },
      signal: AbortSignal.timeout(productionCheckTimeoutMs),
    });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new AdminApiError(
        `The check did not answer within ${productionCheckTimeoutMs / 1000} seconds.`,
        0,
        'TIMEOUT',
      );
    throw new AdminApiError(networkFailedMessage, 0, 'NETWORK');
  }
  if (!response.ok) {
    if (response.status === 401) window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
    throw new AdminApiError(`HTTP ${response.status}: ${response.statusText || 'Error'}`, response.status);
  }
  return productionCheckReplySchema.parse(await response.json()).report;
}

/** Spec §4: when the check cannot connect, a critical report that says so and what to do. */
export function connectionFailureReport(message: string): ProductionReport {
  const recommendations = [
    'Check that the gateway and the services are running (npm start prints a readiness table).',
    'Disable browser extensions that block or rewrite requests to this site, then retry.',
    'Sign in again if your session ended.',
  ];
  return {
    overall: 'critical',
    summary: { total: 1, passed: 0, warnings: 0, failed: 1 },
    results: [{ category: 'Connection', test: 'Production check', status: 'fail', message, critical: true }],
    recommendations,
    timestamp: new Date().toISOString(),
    environment: 'unknown',
    durationMs: 0,
  };
}
