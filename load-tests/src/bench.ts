// `npm run bench` (issue 20): every row of the issue's table in one run, each beside a baseline measured
// in the same run, with the issue's goals as thresholds; printed and put at the top of its section of
// RESULTS.md. A report: a missed goal never fails (exit 1 only when a row could not be measured).
//   1. gateway proxying a read to a stand-in service, beside bare Fastify, @fastify/http-proxy and nginx
//   2. /api/health through the gateway (seven service calls), beside bare Fastify
//   3. the whole shop from the local runner (bench-stack.ts): tracking reads, quote requests, the
//      confirmation emails reaching the mailbox, the stack's memory idle and after the quote load
//   4. storefront/admin first-load weights (src/frontend-weight.ts, when present)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Stack } from '@shop/local';
import { startNats } from '@shop/test-support';
import { parseBenchArgs, USAGE, type BenchOptions } from './args.js';
import { measure, type Measurement } from './bench-measure.js';
import {
  findNginx,
  repoRoot,
  startGateway,
  startNginx,
  startProxyPeer,
  startStandIns,
  stopChild,
  type Child,
} from './bench-peers.js';
import { int, markdownTable, ms, pct, perSecond, recordRun, runMarkdown, type ReportRow } from './bench-report.js';
import { measureStack, startBenchStack, type StackRows } from './bench-stack.js';

const resultsPath = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const GiB = 2 ** 30;
const log = (line: string) => console.log(line);

const figure = (m: Measurement) =>
  `${perSecond(m.requestsPerSecond)}, p50 ${ms(m.p50)} ms, p99 ${ms(m.p99)} ms${m.failures ? `, ${m.failures} of ${m.total} failed` : ''}`;

function notMeasured(path: string, goal: string, why: string): ReportRow {
  return { path, figure: `not measured: ${why}`, beside: '', goal, met: undefined };
}

/** Rows 1 and 2: the gateway in front of the stand-in services, beside bare Fastify and two proxies. */
async function gatewayRows(
  baselineUrl: string,
  services: Record<string, string>,
  options: BenchOptions,
  notes: string[],
): Promise<ReportRow[]> {
  const shape = { connections: options.connections, durationSeconds: options.durationSeconds };
  const children: Child[] = [];
  let nats: { url: string; stop: () => Promise<void> } | undefined;
  try {
    nats = await startNats();
    const gateway = await startGateway(services, nats.url);
    children.push(gateway.child);
    if (!gateway.fromBuild)
      notes.push(
        'The gateway ran from its TypeScript sources (no build): run `npx turbo run build` first to bench what ships.',
      );
    const proxyPeer = await startProxyPeer(services.orders);
    children.push(proxyPeer.child);
    const nginxBinary = findNginx();
    let nginx: { url: string } | undefined;
    if (nginxBinary) {
      try {
        const started = await startNginx(nginxBinary, services.orders);
        children.push(started.child);
        nginx = started;
      } catch (error) {
        notes.push(`nginx did not start, its peer figure is missing: ${(error as Error).message.split('\n')[0]}`);
      }
    } else {
      notes.push('nginx is not installed (Debian: `apt-get install nginx-light`): the nginx peer was skipped.');
    }

    const read = { path: '/api/orders/_service' };
    log('proxied read: bare Fastify, the gateway, @fastify/http-proxy, nginx...');
    const bare = await measure(baselineUrl, read, shape);
    const viaGateway = await measure(gateway.url, read, shape);
    const viaProxy = await measure(proxyPeer.url, read, shape);
    const viaNginx = nginx ? await measure(nginx.url, read, shape) : undefined;
    log('health: bare Fastify, the gateway...');
    const healthBare = await measure(baselineUrl, { path: '/api/health' }, shape);
    const health = await measure(gateway.url, { path: '/api/health' }, shape);

    const peers = [
      `bare Fastify ${perSecond(bare.requestsPerSecond)}`,
      `minimal @fastify/http-proxy ${pct(viaProxy.requestsPerSecond, bare.requestsPerSecond)}`,
    ];
    if (viaNginx) peers.push(`nginx, 1 worker, ${pct(viaNginx.requestsPerSecond, bare.requestsPerSecond)}`);
    return [
      {
        path: 'gateway proxying a read to a stand-in service (`GET /api/orders/_service`)',
        figure: `${pct(viaGateway.requestsPerSecond, bare.requestsPerSecond)} of bare Fastify: ${figure(viaGateway)}`,
        beside: peers.join('; '),
        goal: 'at least 30% of bare Fastify',
        met: viaGateway.failures === 0 && viaGateway.requestsPerSecond >= 0.3 * bare.requestsPerSecond,
      },
      {
        path: '`GET /api/health` through the gateway (seven service calls)',
        figure: `${pct(health.requestsPerSecond, healthBare.requestsPerSecond)} of bare Fastify: ${figure(health)}`,
        beside: `bare Fastify ${perSecond(healthBare.requestsPerSecond)}`,
        goal: 'at least 25% of bare Fastify',
        met: health.failures === 0 && health.requestsPerSecond >= 0.25 * healthBare.requestsPerSecond,
      },
    ];
  } catch (error) {
    const why = (error as Error).message.split('\n')[0];
    return [
      notMeasured('gateway proxying a read to a stand-in service', 'at least 30% of bare Fastify', why),
      notMeasured('`GET /api/health` through the gateway', 'at least 25% of bare Fastify', why),
    ];
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    await nats?.stop();
  }
}

/** Row 3: the whole shop. */
function stackReportRows(r: StackRows): ReportRow[] {
  const e = r.emails;
  return [
    {
      path: '`POST /api/orders/track` through the whole stack (gateway, orders, embedded MongoDB)',
      figure: `${pct(r.track.requestsPerSecond, r.trackBaseline.requestsPerSecond)} of bare Fastify: ${figure(r.track)}`,
      beside: `bare Fastify with the same answer ${perSecond(r.trackBaseline.requestsPerSecond)}`,
      goal: 'at least 12% of bare Fastify, p99 under 30 ms',
      met:
        r.track.failures === 0 &&
        r.track.requestsPerSecond >= 0.12 * r.trackBaseline.requestsPerSecond &&
        r.track.p99 < 30,
    },
    {
      path: '`POST /api/orders` quote requests (write, outbox), a new customer each',
      figure: `${int(r.quote.requestsPerSecond)} per second (${int(r.quote.ok)} accepted), p50 ${ms(r.quote.p50)} ms, p99 ${ms(r.quote.p99)} ms${r.quote.failures ? `, ${r.quote.failures} of ${r.quote.total} failed` : ''}`,
      beside: `bare Fastify with the same answer ${perSecond(r.quoteBaseline.requestsPerSecond)} (the stack: ${pct(r.quote.requestsPerSecond, r.quoteBaseline.requestsPerSecond)})`,
      goal: 'at least 400 per second, p99 under 100 ms',
      met: r.quote.failures === 0 && r.quote.requestsPerSecond >= 400 && r.quote.p99 < 100,
    },
    {
      path: `confirmation emails after ${int(r.quote.ok)} quote requests (reaching the development mailbox)`,
      figure:
        e.perQuote === 0
          ? 'no email arrived for a quote request within 15 s'
          : `${int(e.emailsPerSecond)} per second: ${int(e.delivered)} emails (${e.perQuote} per quote request) from the load's start to the last one; ${int(e.backlogAtLoadEnd)} still to arrive when the load ended, ${e.drainAfterLoadMs === null ? `${int(e.expected - e.delivered)} missing 60 s later` : `the last ${(e.drainAfterLoadMs / 1000).toFixed(1)} s later`}`,
      beside: `the quote load itself: ${int((r.quote.ok * e.perQuote) / ((r.quote.endedAt - r.quote.startedAt) / 1000))} emails per second to send`,
      goal: 'at least 200 per second (keeps up)',
      met: e.perQuote > 0 && e.drainAfterLoadMs !== null && e.emailsPerSecond >= 200,
    },
    {
      path: 'whole local stack memory (RSS sum of its processes)',
      figure: `${(r.idleRss.bytes / GiB).toFixed(2)} GiB idle, ${(r.loadedRss.bytes / GiB).toFixed(2)} GiB after the quote load (${r.loadedRss.processes} processes)`,
      beside: '',
      goal: 'under 1.2 GiB after the quote load',
      met: r.loadedRss.bytes < 1.2 * GiB,
    },
  ];
}

/**
 * Row 4: first-load weights of the storefront home and the admin, from src/frontend-weight.ts
 * (bench:frontend, issue 20's "light storefront"): its `measureFirstLoadWeights(baseUrl)` answers
 * `{ storefront: { scriptGzipBytes, compressed, lcpMs }, admin: { scriptGzipBytes, compressed, lcpMs } }`
 * for the shop at baseUrl, measured here on this run's stack (headless Chromium, empty cache, median of
 * 3 loads). Lighthouse stays with bench:frontend (its own section of RESULTS.md). The file is checked
 * before it is imported so that a checkout without it still reports the other rows.
 */
async function frontendRows(stackUrl: string | undefined, notes: string[]): Promise<ReportRow[]> {
  const storefrontGoal = 'at most 150 KiB of compressed script, served compressed, LCP under 800 ms';
  const adminGoal = 'at most 300 KiB compressed';
  const module = fileURLToPath(new URL('./frontend-weight.ts', import.meta.url));
  const exported =
    existsSync(module) && /export (async )?function measureFirstLoadWeights\b/.test(readFileSync(module, 'utf8'));
  if (!exported) {
    const why = existsSync(module)
      ? 'see `npm run bench:frontend` (src/frontend-weight.ts does not export measureFirstLoadWeights(baseUrl) for this run yet)'
      : 'src/frontend-weight.ts (bench:frontend) is not in this checkout yet';
    notes.push(`First-load weights: ${why}.`);
    return [
      notMeasured('storefront home, first load', storefrontGoal, why),
      notMeasured('admin, first load', adminGoal, why),
    ];
  }
  try {
    if (!stackUrl) throw new Error('the stack did not start');
    const weights = (await import(pathToFileURL(module).href)) as {
      measureFirstLoadWeights: (
        baseUrl: string,
      ) => Promise<Record<'storefront' | 'admin', { scriptGzipBytes: number; compressed: boolean; lcpMs: number }>>;
    };
    const w = await weights.measureFirstLoadWeights(stackUrl);
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
    return [
      {
        path: 'storefront home, first load',
        figure: `${kib(w.storefront.scriptGzipBytes)} of compressed script, served ${w.storefront.compressed ? 'compressed' : 'uncompressed'}; LCP ${w.storefront.lcpMs.toFixed(0)} ms`,
        beside: '',
        goal: storefrontGoal,
        met: w.storefront.scriptGzipBytes <= 150 * 1024 && w.storefront.compressed && w.storefront.lcpMs < 800,
      },
      {
        path: 'admin, first load',
        figure: `${kib(w.admin.scriptGzipBytes)} compressed`,
        beside: '',
        goal: adminGoal,
        met: w.admin.scriptGzipBytes <= 300 * 1024,
      },
    ];
  } catch (error) {
    const why = (error as Error).message.split('\n')[0];
    return [
      notMeasured('storefront home, first load', storefrontGoal, why),
      notMeasured('admin, first load', adminGoal, why),
    ];
  }
}

/** With --url: someone's running gateway, each --path beside bare Fastify; printed, not recorded. */
async function measureRunningGateway(url: string, baselineUrl: string, options: BenchOptions): Promise<void> {
  const shape = { connections: options.connections, durationSeconds: options.durationSeconds };
  const rows: Record<string, string>[] = [];
  for (const path of options.paths) {
    const bare = await measure(baselineUrl, { path }, shape);
    const gateway = await measure(url, { path }, shape);
    rows.push({
      path,
      gateway: figure(gateway),
      'bare Fastify': figure(bare),
      'vs bare Fastify': pct(gateway.requestsPerSecond, bare.requestsPerSecond),
    });
  }
  console.table(rows);
}

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const t0 = Date.now();
  const loadStart = loadavg();
  const standIns = await startStandIns();
  if (options.url) {
    try {
      await measureRunningGateway(options.url, standIns.urls.baseline, options);
    } finally {
      await stopChild(standIns.child);
    }
    return;
  }

  const notes: string[] = [];
  const rows: ReportRow[] = [];
  let stack: Stack | undefined;
  try {
    rows.push(...(await gatewayRows(standIns.urls.baseline, standIns.urls.services, options, notes)));
    log('starting the whole shop (local runner)...');
    try {
      stack = await startBenchStack();
      rows.push(...stackReportRows(await measureStack(stack, standIns.urls.baseline, options, log)));
    } catch (error) {
      const why = (error as Error).message.split('\n')[0];
      for (const [path, goal] of [
        ['`POST /api/orders/track` through the whole stack', 'at least 12% of bare Fastify, p99 under 30 ms'],
        ['`POST /api/orders` quote requests', 'at least 400 per second, p99 under 100 ms'],
        ['confirmation emails after the quote load', 'at least 200 per second'],
        ['whole local stack memory', 'under 1.2 GiB after the quote load'],
      ] as const) {
        rows.push(notMeasured(path, goal, why));
      }
    }
    rows.push(...(await frontendRows(stack?.url, notes)));
  } finally {
    await stack?.stop();
    await stopChild(standIns.child);
  }

  const commit = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })();
  const run = runMarkdown(rows, {
    date: new Date().toISOString().replace(/:\d\d\.\d+Z$/, 'Z'),
    commit,
    cores: availableParallelism(),
    node: process.versions.node,
    loadStart,
    loadEnd: loadavg(),
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    totalSeconds: (Date.now() - t0) / 1000,
    notes,
  });
  console.log(`\n${markdownTable(rows)}\n`);
  for (const note of notes) console.log(`note: ${note}`);
  if (options.record) {
    await recordRun(resultsPath, run);
    console.log(`recorded at the top of its section of ${resultsPath}`);
  }
  const unmeasured = rows.filter((r) => r.met === undefined);
  if (unmeasured.length) {
    console.error(`not measured: ${unmeasured.map((r) => `${r.path} (${r.figure})`).join('; ')}`);
    process.exit(1);
  }
}

await main();
