// The journey runner for machines without k6: runs the same journey definitions as k6/journeys.js
// (journeys/journeys.js, judged by journeys/engine.js) with Node's fetch, a number of virtual users each
// repeating every journey, and reports per step: requests, failures, p50/p99. Exit 1 on any failed check
// (and, with --thresholds, on a missed latency goal).
//   npm run journeys -w load-tests -- --url http://127.0.0.1:8080 [--vus 5] [--iterations 10] [--journey tracking]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { judge, prepare, stepName, uniqueId, type PreparedRequest } from '../journeys/engine.js';
import { journeys as allJourneys, thresholds, type Journey } from '../journeys/journeys.js';
import { percentile } from './args.js';

export interface StepOutcome {
  step: string;
  status: number;
  ms: number;
  failures: string[];
}

export interface JourneyCredentials {
  adminEmail: string;
  adminPassword: string;
}

async function send(
  request: PreparedRequest,
  cookies: Map<string, string>,
): Promise<{ status: number; body: string; ms: number }> {
  const headers = { ...request.headers };
  if (cookies.size) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let body: string | FormData | undefined;
  if (request.json !== undefined) body = JSON.stringify(request.json);
  if (request.multipart) {
    const form = new FormData();
    for (const [name, value] of Object.entries(request.multipart.fields ?? {})) form.append(name, value);
    for (const file of request.multipart.files) {
      form.append(
        file.field,
        new Blob([Buffer.from(file.base64, 'base64')], { type: file.contentType }),
        file.filename,
      );
    }
    body = form; // fetch sets the multipart content-type with its boundary
  }
  const t0 = performance.now();
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return { status: response.status, body: text, ms: performance.now() - t0 };
  } catch (error) {
    const cause = (error as Error).cause ? ` (${String((error as Error).cause)})` : '';
    return { status: 0, body: `no answer: ${(error as Error).message}${cause}`, ms: performance.now() - t0 };
  }
}

/** One run of a journey, as one visitor (own cookies, own unique value). Stops at the first failed step. */
export async function runJourney(
  baseUrl: string,
  journey: Journey,
  credentials: JourneyCredentials,
  unique: string,
): Promise<StepOutcome[]> {
  const vars: Record<string, unknown> & { baseUrl: string } = { baseUrl, unique, ...credentials };
  const cookies = new Map<string, string>();
  const outcomes: StepOutcome[] = [];
  for (const step of journey.steps) {
    let request: PreparedRequest;
    try {
      request = prepare(step, vars);
    } catch (error) {
      outcomes.push({ step: stepName(journey, step), status: 0, ms: 0, failures: [(error as Error).message] });
      break;
    }
    const answer = await send(request, cookies);
    const { failures, saved } = judge(step, answer);
    Object.assign(vars, saved);
    outcomes.push({ step: stepName(journey, step), status: answer.status, ms: answer.ms, failures });
    if (failures.length) break;
  }
  return outcomes;
}

export interface StepSummary {
  step: string;
  requests: number;
  failed: number;
  p50: number;
  p99: number;
  /** Failure messages seen (at most 5 distinct). */
  errors: string[];
}

export interface RunOptions {
  url: string;
  credentials: JourneyCredentials;
  /** Virtual users, each running every selected journey `iterations` times. */
  vus: number;
  iterations: number;
  journeys?: Journey[];
}

/** Runs the journeys with `vus` concurrent visitors and summarises each step. */
export async function runJourneys(options: RunOptions): Promise<StepSummary[]> {
  const selected = options.journeys ?? allJourneys;
  const outcomes: StepOutcome[] = [];
  await Promise.all(
    Array.from({ length: options.vus }, async (_, vu) => {
      for (let iteration = 0; iteration < options.iterations; iteration++) {
        for (const journey of selected)
          outcomes.push(
            ...(await runJourney(options.url, journey, options.credentials, uniqueId(`vu${vu}`, iteration))),
          );
      }
    }),
  );
  // Every step has a row, also one never reached because an earlier step of its journey failed.
  const order = selected.flatMap((journey) => journey.steps.map((step) => stepName(journey, step)));
  return order.map((step) => {
    const mine = outcomes.filter((o) => o.step === step);
    const times = mine.map((o) => o.ms).sort((a, b) => a - b);
    const errors = [...new Set(mine.flatMap((o) => o.failures))].slice(0, 5);
    return {
      step,
      requests: mine.length,
      failed: mine.filter((o) => o.failures.length).length,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      errors,
    };
  });
}

/** The latency goals of journeys.js's k6 thresholds (p(99)<N on a step) that a summary misses. */
export function missedLatencyGoals(summary: StepSummary[]): string[] {
  const missed: string[] = [];
  for (const [metric, rules] of Object.entries(thresholds)) {
    const step = /^http_req_duration\{name:(.+)\}$/.exec(metric)?.[1];
    if (!step) continue;
    const row = summary.find((r) => r.step === step);
    if (!row || row.requests === 0) continue;
    for (const rule of rules) {
      const goal = /^p\((\d+)\)<(\d+)$/.exec(rule);
      if (!goal) continue;
      const times = Number(goal[1]) === 99 ? row.p99 : row.p50;
      if (times >= Number(goal[2]))
        missed.push(`${step}: p${goal[1]} ${times.toFixed(1)} ms, goal under ${goal[2]} ms`);
    }
  }
  return missed;
}

const USAGE = `npm run journeys -w load-tests -- --url http://127.0.0.1:8080 [--vus 5] [--iterations 10] [--journey NAME ...] [--thresholds]

  --url          the shop's gateway (required)
  --vus          concurrent visitors (default 1)
  --iterations   journeys each visitor runs, each of them (default 1)
  --journey      only this journey, repeatable (${allJourneys.map((j) => j.name).join(', ')})
  --thresholds   also exit 1 when a latency goal of the k6 thresholds is missed
  ADMIN_EMAIL / ADMIN_PASSWORD: the admin to sign in as (default the local development admin)`;

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        vus: { type: 'string', default: '1' },
        iterations: { type: 'string', default: '1' },
        journey: { type: 'string', multiple: true },
        thresholds: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const vus = Number(values.vus);
  const iterations = Number(values.iterations);
  const unknown = (values.journey ?? []).filter((name) => !allJourneys.some((j) => j.name === name));
  if (!values.url || !/^https?:\/\//.test(values.url) || !(vus >= 1) || !(iterations >= 1) || unknown.length) {
    console.error(`${unknown.length ? `unknown journey: ${unknown.join(', ')}\n` : ''}${USAGE}`);
    process.exit(2);
  }
  const { DEV_ADMIN } = await import('@shop/local');
  const summary = await runJourneys({
    url: values.url.replace(/\/+$/, ''),
    credentials: {
      adminEmail: process.env.ADMIN_EMAIL || DEV_ADMIN.email,
      adminPassword: process.env.ADMIN_PASSWORD || DEV_ADMIN.password,
    },
    vus,
    iterations,
    journeys: values.journey ? allJourneys.filter((j) => values.journey!.includes(j.name)) : undefined,
  });
  console.table(
    summary.map((r) => ({
      step: r.step,
      requests: r.requests,
      failed: r.failed,
      'p50 ms': r.p50.toFixed(1),
      'p99 ms': r.p99.toFixed(1),
    })),
  );
  const failed = summary.filter((r) => r.failed > 0);
  for (const row of failed) console.error(`${row.step}: ${row.failed} failed: ${row.errors.join(' | ')}`);
  const missed = values.thresholds ? missedLatencyGoals(summary) : [];
  for (const line of missed) console.error(`goal missed: ${line}`);
  process.exit(failed.length || missed.length ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
