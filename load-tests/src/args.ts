// Command-line options of the bench runner.
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** A running gateway to measure; undefined: the bench starts one with stand-in services. */
  url: string | undefined;
  durationSeconds: number;
  connections: number;
  /** Paths measured on the baseline and on the gateway given with --url. */
  paths: string[];
  /** Put the run at the top of its section of RESULTS.md (not with --url: that is someone's own gateway). */
  record: boolean;
}

export const DEFAULT_PATHS = ['/api/health', '/api/orders/_service'];

export const USAGE = `npm run bench -w load-tests -- [--duration 10] [--connections 50] [--no-record]
npm run bench -w load-tests -- --url http://127.0.0.1:8080 [--path /api/health ...]

  --duration     seconds per measurement (default 10; e.g. 3 for a quick look)
  --connections  concurrent connections (default 50)
  --no-record    print the table only, leave RESULTS.md as it is
  --url          only measure this running gateway's --path list beside bare Fastify (nothing recorded)
  --path         with --url: a path to measure, repeatable (default: ${DEFAULT_PATHS.join(', ')})`;

function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a whole number of at least 1, got "${raw}"`);
  return value;
}

export function parseBenchArgs(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      path: { type: 'string', multiple: true },
      'no-record': { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  let url: string | undefined;
  if (values.url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(values.url);
    } catch {
      throw new Error(`--url must be an http(s) URL such as http://127.0.0.1:8080, got "${values.url}"`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(`--url must be an http(s) URL such as http://127.0.0.1:8080, got "${values.url}"`);
    }
    url = parsed.origin;
  }
  if (values.path !== undefined && url === undefined)
    throw new Error('--path goes with --url (the full run measures the issue-20 rows)');
  const paths = values.path ?? DEFAULT_PATHS;
  for (const path of paths) {
    if (!path.startsWith('/')) throw new Error(`--path must start with "/", got "${path}"`);
  }
  return {
    url,
    durationSeconds: positiveInteger('duration', values.duration, 10),
    connections: positiveInteger('connections', values.connections, 50),
    paths,
    record: url === undefined && !values['no-record'],
  };
}

/** The p-th percentile (0-100) of latencies, nearest-rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
