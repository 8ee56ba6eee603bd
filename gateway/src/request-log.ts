// The request log: every request the gateway answered (time, client address as the gateway
// determined it, method, path without query secrets, user agent, status, response time, risk level)
// goes to the security service, batched off the request path. The onResponse hook only copies the
// request's raw facts into a bounded ring of preallocated columns (no object, no string built per
// request, so nothing for the garbage collector to promote); the rules, the redaction and the formatting
// run at flush time, a batch at a time, and once per distinct address of a batch. A timer flushes at least
// every 250 ms as `gateway.requests_logged` events on JetStream: columns with each repeated text written
// once (about 60 bytes an entry), up to 2,000 entries each, so usually one small message per flush and
// replica (each publish costs the gateway far more than its bytes), durable while the security service
// restarts. When NATS is away nothing waits on it: the buffer fills, the oldest
// entries are dropped, and the number dropped travels with the next batch (the security service
// raises an alert and shows it on the dashboard) and in a warning log line.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  maxRequestLogBatch,
  maxRequestLogBatchText,
  RequestLogColumnsBuilder,
  requestSignals,
  riskLevelOfSignals,
  signalMaskOf,
  signalsOfMask,
  type GatewayRequestsLoggedData,
  type RequestSignal,
  type RiskLevel,
} from '@shop/contracts';
import type { Logger } from '@shop/service-kit/edge';
import { accessFor } from './admin-routes.js';
import { bannedRequests, clientIpOf } from './bans.js';

// ---------------------------------------------------------------------------------------------
// Risk rules (the table in services/security/README.md): pure, unit-tested alone
// ---------------------------------------------------------------------------------------------

/** SQL, script and command injection shapes, looked for in the decoded path and query. */
const injectionPatterns = [
  /\bunion\b[\s+/*]+(all[\s+/*]+)?select\b/i,
  /'\s*(or|and)\s*'?\d+'?\s*=\s*'?\d+/i,
  /\b(or|and)\s+\d+\s*=\s*\d+\s*(--|#|$)/i,
  /;\s*(drop|delete|insert|update|shutdown)\b/i,
  /\bsleep\s*\(\s*\d+\s*\)|\bbenchmark\s*\(|\bwaitfor\s+delay\b/i,
  /<\s*script\b|javascript:|\bon(error|load|mouseover)\s*=/i,
  /\$\{jndi:/i,
  /\$where|\$ne\b|\$gt\b|\$regex\b/,
  /(;|\||&&|`|\$\()\s*(cat|ls|id|whoami|wget|curl|nc|bash|sh)\b/i,
];
/** Path traversal and probes for files no shop serves. */
const traversalPatterns = [
  /(^|[/\\])\.\.([/\\]|$)/,
  /%2e%2e|%252e/i,
  /\/etc\/(passwd|shadow)|\/proc\/self|win\.ini|boot\.ini/i,
  /(^|\/)\.(env|git|aws|ssh|htaccess)(\/|$)/i,
];
/** Each list as one expression per flag set (one pass over the text instead of one per pattern). */
const combine = (patterns: RegExp[]) =>
  ['i', ''].flatMap((flags) => {
    const group = patterns.filter((p) => p.flags === flags);
    return group.length ? [new RegExp(group.map((p) => `(?:${p.source})`).join('|'), flags)] : [];
  });
const injectionAny = combine(injectionPatterns);
const traversalAny = combine(traversalPatterns);
const matchesAny = (expressions: RegExp[], text: string) => expressions.some((e) => e.test(text));

export interface RequestFacts {
  method: string;
  /** The raw request target (path and query) as received. */
  url: string;
  statusCode: number;
  /** The gateway refused it because the address is banned. */
  banned: boolean;
  /** 404 answers to this address in the current minute, this one included. */
  recentNotFound: number;
}

/** At this many 404s in a minute from one address, each further 404 is a burst (medium). */
export const NOT_FOUND_BURST = 10;

function decodeForMatching(url: string): string {
  let text = url.replace(/\+/g, ' ');
  // Twice: double-encoded payloads (%253C) are a classic way around one decode.
  for (let i = 0; i < 2; i++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text;
}

/** Each signal's bit (`signalMaskOf`). */
const signal = Object.fromEntries(requestSignals.map((name) => [name, signalMaskOf([name])])) as Record<
  RequestSignal,
  number
>;

/** The signals found in the request's address itself (injection, traversal): once per distinct address. */
function addressSignals(url: string): number {
  // Most addresses have nothing to decode: then the raw text is the decoded one, matched once.
  const encoded = url.includes('%') || url.includes('+');
  const decoded = encoded ? decodeForMatching(url) : url;
  let mask = 0;
  if (matchesAny(injectionAny, decoded)) mask |= signal.injection;
  if (matchesAny(traversalAny, url) || (encoded && matchesAny(traversalAny, decoded))) mask |= signal.traversal;
  return mask;
}

/** The signals of how the request was answered; `path` is the address without its query. */
function outcomeSignals(method: string, path: string, status: number, banned: boolean, recentNotFound: number): number {
  let mask = banned ? signal.banned : 0;
  if (status < 400) return mask;
  const upper = method.toUpperCase();
  if (path === '/api/auth/login' && upper === 'POST' && (status === 401 || status === 429))
    mask |= signal.failed_sign_in;
  else if (path === '/api/customers/verify' && upper === 'POST' && (status === 400 || status === 401 || status === 429))
    mask |= signal.code_guess;
  else if (
    !banned &&
    (status === 401 || status === 403) &&
    path !== '/api/auth/me' &&
    accessFor(upper, path).access === 'admin'
  )
    mask |= signal.admin_refused;
  if (status === 429) mask |= signal.rate_limited;
  // A 404 burst also counts towards the 404 alert.
  if (status === 404)
    mask |= recentNotFound >= NOT_FOUND_BURST ? signal.not_found_burst | signal.not_found : signal.not_found;
  return mask;
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/**
 * The risk level of one request and the signals behind it:
 * high: injection or traversal patterns, a banned address retrying, an admin call refused (401/403);
 * medium: failed admin sign-ins, refused verification codes, rate-limited requests, 404 bursts;
 * low: everything else (a lone 404 is low, but marked so the 404-burst alert can count it).
 * The level follows from the signals (`riskLevelOfSignals`, shared with the security service).
 */
export function assessRequest(facts: RequestFacts): { riskLevel: RiskLevel; signals: RequestSignal[] } {
  const mask =
    addressSignals(facts.url) |
    outcomeSignals(facts.method, pathOf(facts.url), facts.statusCode, facts.banned, facts.recentNotFound);
  return { riskLevel: riskLevelOfSignals(mask), signals: signalsOfMask(mask) };
}

/** Query parameters whose values are never logged (tokens, codes, passwords, keys, emails). */
const secretParameter = /token|code|pass|secret|key|session|auth|sig|email|otp|pin/i;

/** The path with the values of secret-bearing query parameters replaced by "[redacted]". */
export function redactPath(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url.slice(0, 2048);
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // keep the raw name
      }
      return secretParameter.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`.slice(0, 2048);
}

// ---------------------------------------------------------------------------------------------
// The buffer and its flusher
// ---------------------------------------------------------------------------------------------

export interface RequestLogSink {
  readonly gatewayName: string;
  /** Publishes one event; rejects when it cannot now (the entries stay in the buffer). */
  publish(event: { id: string; type: string }, body: string): Promise<void>;
}

export interface RequestLogOptions {
  /** Most entries held while NATS is away (default 10,000); beyond it the oldest are dropped. */
  capacity?: number;
  /** Flush period (default 250 ms). */
  flushMs?: number;
}

/** What the flush knows of one distinct address of a batch: its logged form and its own signals. */
interface AddressFacts {
  /** Index of the redacted address in the batch's strings. */
  path: number;
  /** The address without its query (what the outcome rules compare). */
  route: string;
  signals: number;
}

/**
 * A ring of the last `capacity` requests' raw facts in preallocated columns. Entries are numbered in
 * arrival order; `first` is the oldest still held, `next` the number the next one gets. When full, the
 * newest overwrites the oldest and the oldest counts as dropped, unless it is in the batch being
 * published (counted as dropped only if that publish fails).
 */
export class RequestLogBuffer {
  private readonly finishedAt: Float64Array;
  private readonly elapsed: Float64Array;
  private readonly statusCode: Uint16Array;
  private readonly recentNotFound: Uint32Array;
  private readonly banned: Uint8Array;
  private readonly ip: string[];
  private readonly method: string[];
  private readonly url: string[];
  private readonly userAgent: Array<string | undefined>;
  private readonly requestId: string[];
  private first = 0;
  private next = 0;
  private droppedSinceReport = 0;
  /** The entries of the batch being published: [start, end), and how many were overwritten meanwhile. */
  private publishing: { start: number; end: number; overwritten: number } | undefined;
  /** Entries dropped since start (tests and the warning line read it). */
  droppedTotal = 0;
  /** Entries published since start. */
  published = 0;
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastWarnAt = 0;
  readonly capacity: number;
  readonly flushMs: number;

  constructor(
    private readonly sink: RequestLogSink,
    private readonly log: Logger,
    options: RequestLogOptions = {},
  ) {
    this.capacity = options.capacity ?? 10_000;
    this.flushMs = options.flushMs ?? 250;
    const n = this.capacity;
    this.finishedAt = new Float64Array(n);
    this.elapsed = new Float64Array(n);
    this.statusCode = new Uint16Array(n);
    this.recentNotFound = new Uint32Array(n);
    this.banned = new Uint8Array(n);
    this.ip = new Array<string>(n).fill('');
    this.method = new Array<string>(n).fill('');
    this.url = new Array<string>(n).fill('');
    this.userAgent = new Array<string | undefined>(n).fill(undefined);
    this.requestId = new Array<string>(n).fill('');
  }

  get pending() {
    return this.next - this.first;
  }

  start() {
    this.timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /** Copies one request's facts in (the hook's only work); the oldest is dropped when full. */
  record(
    finishedAt: number,
    elapsed: number,
    ip: string,
    method: string,
    url: string,
    userAgent: string | undefined,
    statusCode: number,
    banned: boolean,
    recentNotFound: number,
    requestId: string,
  ) {
    if (this.next - this.first === this.capacity) this.dropOldest();
    const i = this.next % this.capacity;
    this.next += 1;
    this.finishedAt[i] = finishedAt;
    this.elapsed[i] = elapsed;
    this.ip[i] = ip;
    this.method[i] = method;
    this.url[i] = url;
    this.userAgent[i] = userAgent;
    this.statusCode[i] = statusCode;
    this.banned[i] = banned ? 1 : 0;
    this.recentNotFound[i] = recentNotFound;
    this.requestId[i] = requestId;
  }

  private dropOldest() {
    const n = this.first;
    this.first += 1;
    const p = this.publishing;
    if (p && n >= p.start && n < p.end) {
      p.overwritten += 1;
      return;
    }
    this.countDropped(1);
  }

  private countDropped(count: number) {
    this.droppedSinceReport += count;
    this.droppedTotal += count;
    const now = Date.now();
    if (now - this.lastWarnAt > 10_000) {
      this.lastWarnAt = now;
      this.log.warn(
        { droppedTotal: this.droppedTotal, capacity: this.capacity },
        'request log entries dropped: NATS cannot take them now',
      );
    }
  }

  /**
   * The columns of entries from `start` on, at most up to `end` and `maxRequestLogBatchText` of text:
   * risk rules, redaction and formatting, the address-bound part once per distinct address of the batch.
   * Answers the columns and the number after the last entry taken.
   */
  private columnsOf(start: number, end: number) {
    const first = start % this.capacity;
    const builder = new RequestLogColumnsBuilder(Math.round(this.finishedAt[first] - this.elapsed[first]));
    const addresses = new Map<string, AddressFacts>();
    let n = start;
    for (; n < end && builder.textLength < maxRequestLogBatchText; n++) {
      const i = n % this.capacity;
      const url = this.url[i];
      let address = addresses.get(url);
      if (!address) {
        address = { path: builder.intern(redactPath(url)), route: pathOf(url), signals: addressSignals(url) };
        addresses.set(url, address);
      }
      const status = this.statusCode[i];
      const method = this.method[i];
      const elapsed = this.elapsed[i];
      const userAgent = this.userAgent[i];
      builder.add(
        Math.round(this.finishedAt[i] - elapsed),
        this.ip[i],
        method.length > 16 ? method.slice(0, 16) : method,
        address.path,
        userAgent && userAgent.length > 512 ? userAgent.slice(0, 512) : userAgent,
        status >= 100 && status <= 599 ? status : 500,
        Math.round(elapsed * 100) / 100,
        address.signals | outcomeSignals(method, address.route, status, this.banned[i] === 1, this.recentNotFound[i]),
        this.requestId[i].length > 128 ? this.requestId[i].slice(0, 128) : this.requestId[i],
      );
    }
    return { log: builder.build(), end: n };
  }

  /**
   * Publishes what is held now, a batch at a time; stops at the first failure (the rest waits).
   * Requests answered meanwhile wait for the next flush: going on with them made a busy gateway publish
   * back to back, a small batch per round trip (76-183 messages a second of 5-11 KiB at 13,000 requests
   * a second, instead of 8 of 100 KiB), each costing the gateway and nats-server far more than its entries.
   */
  flush(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.pending === 0 && this.droppedSinceReport === 0) return Promise.resolve();
    const until = this.next;
    this.inFlight = (async () => {
      try {
        do {
          const start = this.first;
          const { log, end } = this.columnsOf(start, Math.min(until, start + maxRequestLogBatch));
          const dropped = this.droppedSinceReport;
          const data: GatewayRequestsLoggedData = { gateway: this.sink.gatewayName, log, dropped };
          // Built by hand rather than parsed: the entries were made by this file, and the security
          // service checks every event against the contract anyway.
          const event = {
            id: randomUUID(),
            type: 'gateway.requests_logged',
            occurredAt: new Date().toISOString(),
            source: 'gateway',
            data,
          };
          this.publishing = { start, end, overwritten: 0 };
          try {
            await this.sink.publish(event, JSON.stringify(event));
          } catch {
            // Entries of this batch overwritten meanwhile are lost after all: count them.
            const lost = this.publishing.overwritten;
            this.publishing = undefined;
            if (lost) this.countDropped(lost);
            return;
          }
          this.publishing = undefined;
          this.first = Math.max(this.first, end);
          this.droppedSinceReport -= dropped;
          this.published += end - start;
        } while (this.first < until);
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  async close() {
    clearInterval(this.timer);
    this.timer = undefined;
    // One last try for what is buffered, bounded so a stop never hangs on NATS.
    await Promise.race([this.flush(), new Promise((r) => setTimeout(r, 1_000).unref())]);
  }
}

/** Requests that are not visitors' (the platform's probes): not logged. */
const probePaths = new Set(['/healthz', '/readyz']);

/** 404s per address in the current minute (cleared each minute, bounded). */
class NotFoundCounter {
  private minute = 0;
  private counts = new Map<string, number>();
  hit(ip: string, now: number): number {
    const minute = Math.floor(now / 60_000);
    if (minute !== this.minute || this.counts.size > 50_000) {
      this.minute = minute;
      this.counts = new Map();
    }
    const count = (this.counts.get(ip) ?? 0) + 1;
    this.counts.set(ip, count);
    return count;
  }
}

/** The onResponse hook: one request's raw facts copied into the buffer (no I/O, no formatting here). */
export function registerRequestLog(app: FastifyInstance, buffer: RequestLogBuffer) {
  const notFound = new NotFoundCounter();
  app.addHook('onResponse', (request, reply, done) => {
    const url = request.url;
    if (!(url.startsWith('/healthz') || url.startsWith('/readyz')) || !probePaths.has(url.split('?', 1)[0])) {
      const now = Date.now();
      const ip = clientIpOf(request);
      const status = reply.statusCode;
      const ua = request.headers['user-agent'];
      buffer.record(
        now,
        reply.elapsedTime,
        ip,
        request.method,
        url,
        ua,
        status,
        bannedRequests.has(request),
        status === 404 ? notFound.hit(ip, now) : 0,
        String(request.id),
      );
    }
    done();
  });
  buffer.start();
  app.addHook('onClose', async () => buffer.close());
}
