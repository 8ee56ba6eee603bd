// The fault suite (issue 21): the whole shop from the local runner, a steady load through the gateway,
// and one fault after another: SIGKILL of each part (the runner restarts it with back-off by itself), or
// SIGSTOP for 10 s then SIGCONT. After each fault it checks every call (checks.ts) and measures how long
// after the restart (or the SIGCONT) the shop answers again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICES, signalGroup, startStack, type RestartEvent, type Stack } from '@shop/local';
import { Judge, type CheckResult } from './checks.js';
import { SteadyLoad } from './load.js';
import { ShopClient, type Outcome } from './shop-client.js';

export interface Fault {
  /** e.g. "kill orders", "pause nats 10 s" */
  name: string;
  part: string;
  how: 'kill' | 'pause';
  pauseMs?: number;
}

const PARTS = [...SERVICES.map((service) => service.name), 'gateway', 'nats', 'mongodb'];

/** Every part killed in turn, then a service and NATS paused for 10 s. */
export const ALL_FAULTS: Fault[] = [
  ...PARTS.map((part): Fault => ({ name: `kill ${part}`, part, how: 'kill' })),
  { name: 'pause orders 10 s', part: 'orders', how: 'pause', pauseMs: 10_000 },
  { name: 'pause nats 10 s', part: 'nats', how: 'pause', pauseMs: 10_000 },
];

/** The CI version: a service, NATS and the database, each killed once. */
export const SHORT_FAULTS: Fault[] = ALL_FAULTS.filter((fault) =>
  ['kill orders', 'kill nats', 'kill mongodb'].includes(fault.name),
);

export interface FaultRow {
  fault: string;
  /** Calls started from the fault until the shop answered again (plus a few seconds after). */
  requests: number;
  answered2xx: number;
  /** Finally answered 503 (the quick, clear "not now"), after the client's retries. */
  answered503: number;
  /** Every attempt, retries included; of them answered 503, and answered 502/504 or not at all. */
  attempts: number;
  attempts503: number;
  attemptsOther: number;
  /** Attempts not answered 2xx, by operation and status (0 = no answer), e.g. "support 503". */
  failedAttempts: Record<string, number>;
  /** Other failures as the customer finally saw them (after the client's retries), by status. */
  otherFailures: Record<string, number>;
  lost: number;
  duplicates: number;
  undelivered: number;
  acceptedDespiteFailure: number;
  /** Longest single attempt (the gateway must answer within its upstream timeout). */
  longestAttemptMs: number;
  /** From the restart (kill) or SIGCONT (pause) until a probe round succeeded. */
  recoveryMs: number | null;
  /** From the SIGKILL until the runner had the part running again. */
  restartedAfterMs: number | null;
  problems: string[];
}

export interface SuiteOptions {
  faults: Fault[];
  /** Load before the fault and after the recovery, per fault. */
  steadyMs?: number;
  /** How long events and emails may take to arrive before they count as undelivered. */
  settleMs?: number;
  workers?: number;
  log?: (line: string) => void;
}

export interface SuiteResult {
  rows: FaultRow[];
  startMs: number;
  totalMs: number;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One probe round: every service ready (/api/health) and a real read through orders and its database. */
async function probe(client: ShopClient, known: { orderNumber: string; email: string }): Promise<boolean> {
  const health = await client.call('GET', '/api/health');
  if (health.status !== 200) return false;
  const track = await client.call('POST', '/api/orders/track', known);
  return track.status === 200;
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<number | null> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if (await condition()) return Date.now();
    await delay(everyMs);
  }
  return null;
}

export async function runFaultSuite(options: SuiteOptions): Promise<SuiteResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const t0 = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-faults-'));
  const restarts: RestartEvent[] = [];
  let stack: Stack | undefined;
  let judge: Judge | undefined;
  let load: SteadyLoad | undefined;
  try {
    stack = await startStack({
      quiet: true,
      // A data directory, so MongoDB keeps its journal on disk and comes back with every acknowledged write.
      dataDir,
      readyTimeoutMs: 120_000,
      mailboxMaxMessages: 100_000,
      // One client address sends everything: lift the gateway's per-address limit for this run.
      env: { ...process.env, RATE_LIMIT_MAX: '1000000', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
      onRestart: (event) => {
        restarts.push(event);
        log(
          `  runner: ${event.name} ${event.phase === 'scheduled' ? `exited; restart ${event.attempt} in ${event.delayMs} ms` : `restarted (pid ${event.pid})`}`,
        );
      },
    });
    const startMs = Date.now() - t0;
    log(`shop ready in ${(startMs / 1000).toFixed(1)} s at ${stack.url}`);
    const client = new ShopClient(stack.url);
    judge = new Judge(stack.mongoUrl, stack.mailbox!.httpUrl);
    const login = await client.signIn();
    if (login.status !== 200) throw new Error(`admin sign-in answered ${login.status}`);

    // A known order for the probes, then the load.
    const first = await client.quote('probe');
    if (first.status !== 201 && first.status !== 200)
      throw new Error(`the first quote request answered ${first.status}: ${first.error}`);
    const known = { orderNumber: first.orderNumber!, email: first.email };
    load = new SteadyLoad(client, { workers: options.workers });
    load.start();
    await delay(options.steadyMs ?? 3_000);

    const rows: FaultRow[] = [];
    for (const fault of options.faults) {
      rows.push(await runFault(stack, load, judge, client, known, fault, restarts, options, log));
    }
    await load.stop();
    return { rows, startMs, totalMs: Date.now() - t0 };
  } finally {
    await load?.stop();
    await judge?.close().catch(() => {});
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function runFault(
  stack: Stack,
  load: SteadyLoad,
  judge: Judge,
  client: ShopClient,
  known: { orderNumber: string; email: string },
  fault: Fault,
  restarts: RestartEvent[],
  options: SuiteOptions,
  log: (line: string) => void,
): Promise<FaultRow> {
  log(`\n== ${fault.name}`);
  const child = stack.child(fault.part);
  if (!child?.pid)
    throw new Error(`${fault.part} is not running (the runner did not start it, or it did not come back)`);
  const pid = child.pid;
  load.setFault(fault.name);
  const injectedAt = Date.now();
  let backAt: number;
  let restartedAfterMs: number | null = null;
  if (fault.how === 'kill') {
    signalGroup(pid, 'SIGKILL');
    const restarted = await waitUntil(
      async () =>
        restarts.some((event) => event.name === fault.part && event.phase === 'restarted' && event.at >= injectedAt),
      60_000,
    );
    if (restarted === null) throw new Error(`${fault.part} was not restarted within 60 s`);
    backAt = restarts.find(
      (event) => event.name === fault.part && event.phase === 'restarted' && event.at >= injectedAt,
    )!.at;
    restartedAfterMs = backAt - injectedAt;
  } else {
    signalGroup(pid, 'SIGSTOP');
    await delay(fault.pauseMs ?? 10_000);
    signalGroup(pid, 'SIGCONT');
    backAt = Date.now();
  }
  const recoveredAt = await waitUntil(() => probe(client, known), 60_000);
  const recoveryMs = recoveredAt === null ? null : recoveredAt - backAt;
  log(
    `  back after ${(((recoveredAt ?? Date.now()) - injectedAt) / 1000).toFixed(1)} s; answering ${recoveryMs === null ? 'NOT within 60 s' : `${(recoveryMs / 1000).toFixed(1)} s after the ${fault.how === 'kill' ? 'restart' : 'SIGCONT'}`}`,
  );
  // Load on the recovered shop still counts for this fault (late retries, backed-up events).
  await delay(options.steadyMs ?? 3_000);
  load.setFault(`after ${fault.name}`);
  // Calls started during the fault may still be retrying: let them end before judging.
  const outcomes = await load.settledOutcomesOf(fault.name);
  const result = await judge.settle(outcomes, options.settleMs ?? 30_000);
  const row = summarise(fault, outcomes, result, recoveryMs, restartedAfterMs);
  log(
    `  ${row.requests} calls (${row.answered2xx} 2xx, ${row.answered503} 503; attempts ${row.attempts}: ${row.attempts503} answered 503, ${row.attemptsOther} 502/504/no answer), lost ${row.lost}, duplicates ${row.duplicates}, undelivered ${row.undelivered}, longest wait ${(row.longestAttemptMs / 1000).toFixed(1)} s`,
  );
  const failed = Object.entries(row.failedAttempts);
  if (failed.length)
    log(`  attempts not answered 2xx: ${failed.map(([what, count]) => `${what} x${count}`).join(', ')}`);
  const other = Object.entries(row.otherFailures);
  if (other.length) log(`  other answers: ${other.map(([what, count]) => `${what} x${count}`).join(', ')}`);
  for (const outcome of outcomes.filter((o) => o.status !== 503 && (o.status < 200 || o.status >= 300)).slice(0, 5)) {
    log(`    ${outcome.operation} ${outcome.status}: ${outcome.error ?? ''}`.slice(0, 300));
  }
  for (const problem of result.problems.slice(0, 20)) log(`  ! ${problem.kind}: ${problem.what}`);
  return row;
}

function summarise(
  fault: Fault,
  outcomes: Outcome[],
  result: CheckResult,
  recoveryMs: number | null,
  restartedAfterMs: number | null,
): FaultRow {
  const otherFailures: Record<string, number> = {};
  for (const outcome of outcomes) {
    if ((outcome.status >= 200 && outcome.status < 300) || outcome.status === 503) continue;
    const key = `${outcome.operation} ${outcome.status || 'no answer'}`;
    otherFailures[key] = (otherFailures[key] ?? 0) + 1;
  }
  const failedAttempts: Record<string, number> = {};
  for (const outcome of outcomes) {
    for (const status of outcome.attemptStatuses.filter((status) => status < 200 || status >= 300)) {
      const key = `${outcome.operation} ${status || 'no answer'}`;
      failedAttempts[key] = (failedAttempts[key] ?? 0) + 1;
    }
  }
  return {
    fault: fault.name,
    failedAttempts,
    requests: outcomes.length,
    answered2xx: outcomes.filter((o) => o.status >= 200 && o.status < 300).length,
    answered503: outcomes.filter((o) => o.status === 503).length,
    attempts: outcomes.reduce((sum, o) => sum + o.attemptStatuses.length, 0),
    attempts503: outcomes.reduce((sum, o) => sum + o.attemptStatuses.filter((status) => status === 503).length, 0),
    attemptsOther: outcomes.reduce(
      (sum, o) => sum + o.attemptStatuses.filter((status) => status === 0 || status === 502 || status === 504).length,
      0,
    ),
    otherFailures,
    lost: result.lost,
    duplicates: result.duplicates,
    undelivered: result.undelivered,
    acceptedDespiteFailure: result.acceptedDespiteFailure,
    longestAttemptMs: Math.max(0, ...outcomes.map((o) => o.longestAttemptMs)),
    recoveryMs,
    restartedAfterMs,
    problems: result.problems.map((p) => `${p.kind}: ${p.what}`),
  };
}

/** The RESULTS.md table. */
export function resultsTable(rows: FaultRow[]): string {
  const seconds = (ms: number | null) => (ms === null ? 'not recovered' : `${(ms / 1000).toFixed(1)} s`);
  const lines = [
    '| fault | requests during it (answered 2xx / 503 / other) | attempts (503 / 502, 504 or none) | lost (goal 0) | duplicates (goal 0) | events or emails undelivered | longest wait | part back after | recovery after restart (goal < 5 s) |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const other = Object.values(row.otherFailures).reduce((a, b) => a + b, 0);
    lines.push(
      `| ${row.fault} | ${row.requests} (${row.answered2xx} / ${row.answered503} / ${other}) | ${row.attempts} (${row.attempts503} / ${row.attemptsOther}) | ${row.lost} | ${row.duplicates} | ${row.undelivered} | ${seconds(row.longestAttemptMs)} | ${row.restartedAfterMs === null ? 'paused 10 s' : seconds(row.restartedAfterMs)} | ${seconds(row.recoveryMs)} |`,
    );
  }
  return lines.join('\n');
}

export { PARTS };
