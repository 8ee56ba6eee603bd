// One measurement of the bench: autocannon from this process against one target (a 1 s warm-up, then the
// timed run), with every response's latency kept for p50/p99 (autocannon itself reports p97.5, not p95).
import autocannon, { type Result as LoadResult } from 'autocannon';
import { percentile } from './args.js';

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Made for each request: a new quote request with its own Idempotency-Key each time. */
  fresh?: () => { body: string; headers: Record<string, string> };
}

export interface Measurement {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers 2xx during the timed run. */
  ok: number;
  /** Non-2xx answers, errors and timeouts during the timed run. */
  failures: number;
  total: number;
  /** The timed run's start and end (ms since the epoch). */
  startedAt: number;
  endedAt: number;
}

export interface LoadShape {
  connections: number;
  durationSeconds: number;
}

function run(
  baseUrl: string,
  request: LoadRequest,
  connections: number,
  seconds: number,
  latencies?: number[],
): Promise<LoadResult> {
  const headers = {
    ...(request.body || request.fresh ? { 'content-type': 'application/json' } : {}),
    ...request.headers,
  };
  const { body, fresh } = request;
  const requests = [
    {
      method: request.method ?? 'GET',
      path: request.path,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(fresh
        ? {
            setupRequest: (r: { headers?: Record<string, string> }) => {
              const made = fresh();
              return { ...r, headers: { ...r.headers, ...made.headers }, body: made.body };
            },
          }
        : {}),
    },
  ];
  return new Promise<LoadResult>((resolve, reject) => {
    const instance = autocannon({ url: baseUrl, connections, duration: seconds, requests }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    if (latencies)
      instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  });
}

export async function measure(
  baseUrl: string,
  request: LoadRequest,
  shape: LoadShape,
  options: { warmup?: boolean } = {},
): Promise<Measurement> {
  if (options.warmup !== false) await run(baseUrl, request, shape.connections, 1); // connections, JIT, keep-alive pools
  const latencies: number[] = [];
  const startedAt = Date.now();
  const result = await run(baseUrl, request, shape.connections, shape.durationSeconds, latencies);
  const endedAt = Date.now();
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: result.requests.average,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ok: result['2xx'],
    failures: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
    startedAt,
    endedAt,
  };
}
