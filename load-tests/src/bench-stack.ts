// The bench's whole-stack rows (issue 20): the shop from the local runner (startStack, as the fault suite
// starts it: gateway, seven services, embedded MongoDB, nats-server, the development mailbox), measured
// through its gateway: tracking reads, quote requests, the confirmation emails they cause reaching the
// mailbox, and the stack's memory idle and after the quote load. Each figure beside the bare Fastify
// baseline answering the same status and payload.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { idempotencyKeyHeader, type CreateOrderResponse } from '@shop/contracts';
import { startStack, type Stack, type StackOptions } from '@shop/local';
import { coinOrder } from '@shop/test-support';
import { measure, type LoadRequest, type LoadShape, type Measurement } from './bench-measure.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PAGE_BYTES = 4096; // /proc/<pid>/statm counts pages; 4 KiB on this machine's kernels (x86-64, arm64 default)

export async function startBenchStack(
  extra: Pick<StackOptions, 'nodeArgs' | 'localNodeFlags' | 'log'> = {},
): Promise<Stack> {
  return startStack({
    ...extra,
    // With a log sink the parts' lines go to it (stack-memory.ts reads their inspector addresses there).
    quiet: !extra.log,
    readyTimeoutMs: 120_000,
    // The quote load's confirmations must all stay readable to be counted.
    mailboxMaxMessages: 200_000,
    // One client address sends everything: lift the gateway's per-address limit for this run.
    env: { ...process.env, RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'warn' },
  });
}

/** Resident memory of one part of the stack: its process group (the part's own children included). */
export interface PartRss {
  /** The part's name in the runner (mongodb, nats, orders, ..., gateway). */
  name: string;
  /** The part's process id (and process group). */
  pid: number;
  bytes: number;
  /** Of `bytes`, anonymous memory (heaps, stacks; /proc/<pid>/status RssAnon): what the process itself allocated. */
  anonBytes: number;
  processes: number;
}

export interface StackRss {
  bytes: number;
  processes: number;
  /** Per part, largest first. */
  parts: PartRss[];
}

function procField(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * Resident memory of the stack's processes: every process in the process group of each part the runner
 * started (a part's own children included), per part and summed. The development mailbox runs inside the
 * runner's process (here, the bench's, beside the load generator), so it is not in the sum.
 */
export function stackRss(stack: Stack): StackRss {
  const parts = new Map<number, PartRss>();
  for (const child of stack.children()) {
    const pid = child.process.pid;
    if (pid !== undefined) parts.set(pid, { name: child.name, pid, bytes: 0, anonBytes: 0, processes: 0 });
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 5 of /proc/<pid>/stat is the process group; the command name (field 2) may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const part = parts.get(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]));
      if (!part) continue;
      const residentPages = Number(readFileSync(`/proc/${entry}/statm`, 'utf8').split(' ')[1]);
      part.bytes += residentPages * PAGE_BYTES;
      part.anonBytes += procField(readFileSync(`/proc/${entry}/status`, 'utf8'), 'RssAnon');
      part.processes++;
    } catch {
      // The process ended while being read.
    }
  }
  const list = [...parts.values()].filter((part) => part.processes > 0).sort((a, b) => b.bytes - a.bytes);
  return {
    bytes: list.reduce((sum, part) => sum + part.bytes, 0),
    processes: list.reduce((sum, part) => sum + part.processes, 0),
    parts: list,
  };
}

interface Answer<Body = unknown> {
  status: number;
  body: Body;
}

async function post<Body = unknown>(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer<Body>> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as Body };
}

/** The baseline answers POSTs to `path` with what the real shop answered (stand-ins.ts). */
async function recordOnBaseline(baselineUrl: string, path: string, answer: Answer): Promise<void> {
  const recorded = await post(baselineUrl, '/_bench/answers', { path, status: answer.status, body: answer.body });
  if (recorded.status !== 200)
    throw new Error(`the baseline refused the recorded answer for ${path}: ${JSON.stringify(recorded.body)}`);
}

let quoteCounter = 0;
/** A new customer's quote request with its own Idempotency-Key, as the storefront sends it. */
function freshQuote(run: string): { body: string; headers: Record<string, string> } {
  const email = `bench-${run}-${++quoteCounter}@example.com`;
  return {
    body: JSON.stringify(coinOrder({ email, customerName: 'Bench Customer', subscribeEmail: false })),
    headers: { [idempotencyKeyHeader]: randomUUID() },
  };
}

/** User and system CPU (ms) of each part of the stack so far: every process in the part's process group. */
export function stackCpuMs(stack: Stack): Map<string, number> {
  const byGroup = new Map<number, string>();
  for (const child of stack.children()) if (child.process.pid !== undefined) byGroup.set(child.process.pid, child.name);
  const ticksPerMs = 100 / 1000; // USER_HZ is 100 on Linux
  const cpu = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // After the command name: state, ppid, pgrp (index 2), ... utime (11), stime (12).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = byGroup.get(Number(fields[2]));
      if (name) cpu.set(name, (cpu.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / ticksPerMs);
    } catch {
      // The process ended while being read.
    }
  }
  return cpu;
}

/**
 * Places one quote request through the stack and tracks it once; the baseline then answers the tracking
 * read with the same status and payload. Returns the placed order's answer and the tracking request.
 */
export async function placeTrackableOrder(
  stack: Stack,
  baselineUrl: string,
  run: string,
): Promise<{ placed: Answer<CreateOrderResponse>; trackRequest: LoadRequest }> {
  const first = freshQuote(run);
  const placed = await post<CreateOrderResponse>(stack.url, '/api/orders', JSON.parse(first.body), first.headers);
  if (placed.status !== 201 && placed.status !== 200)
    throw new Error(`the first quote request answered ${placed.status}: ${JSON.stringify(placed.body)}`);
  const trackBody = {
    orderNumber: placed.body.order.orderNumber,
    email: (JSON.parse(first.body) as { email: string }).email,
  };
  const tracked = await post(stack.url, '/api/orders/track', trackBody);
  if (tracked.status !== 200)
    throw new Error(`tracking the first order answered ${tracked.status}: ${JSON.stringify(tracked.body)}`);
  await recordOnBaseline(baselineUrl, '/api/orders/track', tracked);
  return {
    placed,
    trackRequest: {
      method: 'POST',
      path: '/api/orders/track',
      body: JSON.stringify(trackBody),
      headers: { origin: stack.url },
    },
  };
}

async function mailboxTotal(mailboxUrl: string): Promise<number> {
  const response = await fetch(`${mailboxUrl}/messages?limit=1`);
  return ((await response.json()) as { total: number }).total;
}

async function clearMailbox(mailboxUrl: string): Promise<void> {
  await fetch(`${mailboxUrl}/messages`, { method: 'DELETE' });
}

/** Waits until the mailbox's count stays the same for `quietMs` (or `maxMs` passed); returns it. */
async function settledMailbox(mailboxUrl: string, quietMs: number, maxMs: number): Promise<number> {
  const deadline = Date.now() + maxMs;
  let last = await mailboxTotal(mailboxUrl);
  let since = Date.now();
  while (Date.now() < deadline) {
    await delay(250);
    const now = await mailboxTotal(mailboxUrl);
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (last > 0 && Date.now() - since >= quietMs) break;
  }
  return last;
}

export interface EmailDrain {
  /** Emails one quote request causes (measured with one request before the load). */
  perQuote: number;
  expected: number;
  delivered: number;
  /** Not yet in the mailbox when the quote load ended. */
  backlogAtLoadEnd: number;
  /** From the load's end until the last expected email arrived; null when not all arrived in time. */
  drainAfterLoadMs: number | null;
  /** delivered / (last arrival - load start): the rate the email service kept up with. */
  emailsPerSecond: number;
}

export interface StackRows {
  track: Measurement;
  trackBaseline: Measurement;
  quote: Measurement;
  quoteBaseline: Measurement;
  emails: EmailDrain;
  idleRss: StackRss;
  loadedRss: StackRss;
}

export async function measureStack(
  stack: Stack,
  baselineUrl: string,
  shape: LoadShape,
  log: (line: string) => void,
): Promise<StackRows> {
  const mailboxUrl = stack.mailbox?.httpUrl;
  if (!mailboxUrl)
    throw new Error('the stack has no development mailbox (SMTP_URL is set): the email row needs it; unset SMTP_URL');
  const run = Date.now().toString(36);

  // Idle: nothing asked of the shop yet but the readiness checks; let start-up work settle first.
  await delay(5_000);
  const idleRss = stackRss(stack);
  log(`stack idle: ${(idleRss.bytes / 2 ** 30).toFixed(2)} GiB over ${idleRss.processes} processes`);

  // One order to track, and one quote request to learn how many emails a quote request causes.
  await clearMailbox(mailboxUrl);
  const { placed, trackRequest } = await placeTrackableOrder(stack, baselineUrl, run);
  const perQuote = await settledMailbox(mailboxUrl, 1_500, 15_000);
  await recordOnBaseline(baselineUrl, '/api/orders', placed);

  log('tracking read: bare Fastify with the same answer...');
  const trackBaseline = await measure(baselineUrl, trackRequest, shape);
  log('tracking read: through the whole stack...');
  const track = await measure(stack.url, trackRequest, shape);

  log('quote request: bare Fastify with the same answer...');
  const quoteBaseline = await measure(
    baselineUrl,
    { method: 'POST', path: '/api/orders', fresh: () => freshQuote(run) },
    shape,
  );
  await clearMailbox(mailboxUrl);
  log('quote requests: through the whole stack (no warm-up: every request is a real order)...');
  const quote = await measure(
    stack.url,
    { method: 'POST', path: '/api/orders', headers: { origin: stack.url }, fresh: () => freshQuote(run) },
    shape,
    { warmup: false },
  );

  // The confirmations: wait until all of them are in and no more arrive for 2 s (requests still in flight
  // when autocannon stopped placed orders too), at most 60 s after the load; note when the last arrived.
  const expected = quote.ok * perQuote;
  let delivered = await mailboxTotal(mailboxUrl);
  const backlogAtLoadEnd = Math.max(0, expected - delivered);
  let lastArrival = quote.endedAt;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && (delivered < expected || Date.now() - lastArrival < 2_000)) {
    await delay(200);
    const now = await mailboxTotal(mailboxUrl);
    if (now > delivered) lastArrival = Date.now();
    delivered = now;
  }
  const drained = delivered >= expected;
  const emails: EmailDrain = {
    perQuote,
    expected,
    delivered,
    backlogAtLoadEnd,
    drainAfterLoadMs: drained ? Math.max(0, lastArrival - quote.endedAt) : null,
    emailsPerSecond: (delivered / (Math.max(lastArrival, quote.endedAt) - quote.startedAt)) * 1000,
  };
  const loadedRss = stackRss(stack);
  log(
    `stack after the quote load: ${(loadedRss.bytes / 2 ** 30).toFixed(2)} GiB over ${loadedRss.processes} processes`,
  );
  return { track, trackBaseline, quote, quoteBaseline, emails, idleRss, loadedRss };
}
