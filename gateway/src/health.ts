// GET /api/health: the readiness of every service, asked in parallel with a short timeout, so one
// slow or dead service shows up as such instead of hanging the answer.
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from './config.js';
import { SERVICE_NAMES, type ServiceName } from './routes.js';

export interface ServiceHealth {
  status: 'ready' | 'not_ready' | 'unreachable';
  checks: Record<string, unknown>;
  latencyMs: number;
  /** Why the service is not ready, in words. */
  error?: string;
}

export interface ShopHealth {
  status: 'ready' | 'degraded';
  services: Record<ServiceName, ServiceHealth>;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  if (code === 'ECONNREFUSED') return 'not running (connection refused)';
  return `could not be reached${code ? ` (${code})` : ''}`;
}

async function checkService(baseUrl: string, timeoutMs: number, requestId: string): Promise<ServiceHealth> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(`${baseUrl}/readyz`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json', 'x-request-id': requestId },
    });
    const body = (await response.json().catch(() => null)) as { status?: unknown; checks?: unknown } | null;
    const checks =
      body && typeof body.checks === 'object' && body.checks !== null ? (body.checks as Record<string, unknown>) : {};
    if (response.ok && body?.status === 'ready') return { status: 'ready', checks, latencyMs: elapsed() };
    const failing = Object.entries(checks)
      .filter(([, v]) => v !== 'up')
      .map(([k]) => k);
    return {
      status: 'not_ready',
      checks,
      latencyMs: elapsed(),
      error: failing.length
        ? `not ready: ${failing.join(', ')} down`
        : `answered ${response.status} to its readiness check`,
    };
  } catch (error) {
    return { status: 'unreachable', checks: {}, latencyMs: elapsed(), error: describeFailure(error, timeoutMs) };
  }
}

export async function shopHealth(config: GatewayConfig, requestId: string): Promise<ShopHealth> {
  const results = await Promise.all(
    SERVICE_NAMES.map(
      async (name) => [name, await checkService(config.services[name], config.healthTimeoutMs, requestId)] as const,
    ),
  );
  const services = Object.fromEntries(results) as Record<ServiceName, ServiceHealth>;
  const allReady = results.every(([, health]) => health.status === 'ready');
  return { status: allReady ? 'ready' : 'degraded', services };
}

/**
 * The shop's health, asked of the services at most once per `cacheMs` (HEALTH_CACHE_MS): callers while
 * a round is in flight, and for `cacheMs` after it answered, share that round, so a burst of polls from
 * dashboards and probes costs the services seven calls, not seven per poll.
 */
export function cachedShopHealth(config: GatewayConfig): (requestId: string) => Promise<ShopHealth> {
  let round: { answer: Promise<ShopHealth>; answeredAt?: number } | undefined;
  return (requestId) => {
    const fresh =
      round && (round.answeredAt === undefined || performance.now() - round.answeredAt < config.healthCacheMs);
    if (!fresh) {
      const current: NonNullable<typeof round> = { answer: shopHealth(config, requestId) };
      void current.answer.then(() => (current.answeredAt = performance.now()));
      round = current;
    }
    return round!.answer;
  };
}

export function registerHealthRoutes(app: FastifyInstance, config: GatewayConfig): void {
  const currentHealth = cachedShopHealth(config);
  // Health checks are exempt from rate limiting (security.ts): probes and dashboards poll them.
  app.get('/api/health', async (request, reply) => {
    const health = await currentHealth(request.id);
    reply.header('cache-control', 'no-store');
    return reply.code(health.status === 'ready' ? 200 : 503).send(health);
  });
  // The gateway's own probes: alive while the process serves; ready once listening. They do not
  // depend on the services, so one service down never takes the storefront's pages offline.
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => ({ status: 'ready', checks: {} }));
}
