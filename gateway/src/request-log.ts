// The request log: every request the gateway answered (time, client address as the gateway
// determined it, method, path without query secrets, user agent, status, response time, risk level)
// goes to the security service, batched off the request path. The onResponse hook only appends to a
// bounded in-memory buffer; a timer flushes it at least every 250 ms as `gateway.requests_logged`
// events on JetStream (at most 500 entries each: a few messages a second per replica, durable while
// the security service restarts). When NATS is away nothing waits on it: the buffer fills, the oldest
// entries are dropped, and the number dropped travels with the next batch (the security service
// raises an alert and shows it on the dashboard) and in a warning log line.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  maxRequestLogBatch,
  type GatewayRequestsLoggedData,
  type RequestLogEntry,
  type RequestSignal,
  type RiskLevel,
} from '@shop/contracts';
import type { Logger } from '@shop/service-kit';
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
const traversalPatterns = [/(^|[/\\])\.\.([/\\]|$)/, /%2e%2e|%252e/i, /\/etc\/(passwd|shadow)|\/proc\/self|win\.ini|boot\.ini/i, /(^|\/)\.(env|git|aws|ssh|htaccess)(\/|$)/i];

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

/**
 * The risk level of one request and the signals behind it:
 * high: injection or traversal patterns, a banned address retrying, an admin call refused (401/403);
 * medium: failed admin sign-ins, refused verification codes, rate-limited requests, 404 bursts;
 * low: everything else (a lone 404 is low, but marked so the 404-burst alert can count it).
 */
export function assessRequest(facts: RequestFacts): { riskLevel: RiskLevel; signals: RequestSignal[] } {
  const signals: RequestSignal[] = [];
  const path = facts.url.split('?', 1)[0]!;
  const decoded = decodeForMatching(facts.url);
  if (injectionPatterns.some((p) => p.test(decoded))) signals.push('injection');
  if (traversalPatterns.some((p) => p.test(facts.url) || p.test(decoded))) signals.push('traversal');
  if (facts.banned) signals.push('banned');
  const status = facts.statusCode;
  const method = facts.method.toUpperCase();
  if (path === '/api/auth/login' && method === 'POST' && (status === 401 || status === 429)) signals.push('failed_sign_in');
  else if (path === '/api/customers/verify' && method === 'POST' && (status === 400 || status === 401 || status === 429)) signals.push('code_guess');
  else if (!facts.banned && (status === 401 || status === 403) && path !== '/api/auth/me' && accessFor(method, path).access === 'admin') signals.push('admin_refused');
  if (status === 429) signals.push('rate_limited');
  if (status === 404) signals.push(facts.recentNotFound >= NOT_FOUND_BURST ? 'not_found_burst' : 'not_found');
  const high: RequestSignal[] = ['injection', 'traversal', 'banned', 'admin_refused'];
  const medium: RequestSignal[] = ['failed_sign_in', 'code_guess', 'rate_limited', 'not_found_burst'];
  // A 404 burst also counts towards the 404 alert.
  if (signals.includes('not_found_burst')) signals.push('not_found');
  const riskLevel: RiskLevel = signals.some((s) => high.includes(s)) ? 'high' : signals.some((s) => medium.includes(s)) ? 'medium' : 'low';
  return { riskLevel, signals };
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

export class RequestLogBuffer {
  private entries: RequestLogEntry[] = [];
  private droppedSinceReport = 0;
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
  }

  get pending() {
    return this.entries.length;
  }

  start() {
    this.timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  push(entry: RequestLogEntry) {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.drop(this.entries.length - this.capacity);
  }

  private drop(count: number) {
    this.entries.splice(0, count);
    this.droppedSinceReport += count;
    this.droppedTotal += count;
    const now = Date.now();
    if (now - this.lastWarnAt > 10_000) {
      this.lastWarnAt = now;
      this.log.warn({ droppedTotal: this.droppedTotal, capacity: this.capacity }, 'request log entries dropped: NATS cannot take them now');
    }
  }

  /** Publishes what is buffered, a batch at a time; stops at the first failure (the rest waits). */
  flush(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.entries.length === 0 && this.droppedSinceReport === 0) return Promise.resolve();
    this.inFlight = (async () => {
      try {
        while (this.entries.length > 0 || this.droppedSinceReport > 0) {
          const batch = this.entries.slice(0, maxRequestLogBatch);
          const dropped = this.droppedSinceReport;
          const data: GatewayRequestsLoggedData = { gateway: this.sink.gatewayName, entries: batch, dropped };
          // Built by hand rather than parsed: the entries were made by this file, and the security
          // service checks every event against the contract anyway.
          const event = { id: randomUUID(), type: 'gateway.requests_logged', occurredAt: new Date().toISOString(), source: 'gateway', data };
          try {
            await this.sink.publish(event, JSON.stringify(event));
          } catch {
            return;
          }
          // Entries pushed meanwhile went to the end; entries dropped meanwhile came off the front.
          const stillThere = Math.max(0, batch.length - (this.droppedSinceReport - dropped));
          this.entries.splice(0, Math.min(stillThere, this.entries.length));
          this.droppedSinceReport -= dropped;
          this.published += batch.length;
        }
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

/** Builds one entry from a finished request. */
export function entryFor(request: FastifyRequest, reply: FastifyReply, recentNotFound: number, now: number): RequestLogEntry {
  const statusCode = reply.statusCode;
  const elapsed = reply.elapsedTime;
  const { riskLevel, signals } = assessRequest({ method: request.method, url: request.url, statusCode, banned: bannedRequests.has(request), recentNotFound });
  const userAgent = request.headers['user-agent'];
  return {
    timestamp: new Date(now - elapsed).toISOString(),
    ip: clientIpOf(request),
    method: request.method.slice(0, 16),
    path: redactPath(request.url),
    ...(userAgent ? { userAgent: userAgent.slice(0, 512) } : {}),
    statusCode: statusCode >= 100 && statusCode <= 599 ? statusCode : 500,
    responseTime: Math.round(elapsed * 100) / 100,
    riskLevel,
    signals,
    requestId: String(request.id).slice(0, 128),
  };
}

/** The onResponse hook: one entry per answered request, appended to the buffer (no I/O here). */
export function registerRequestLog(app: FastifyInstance, buffer: RequestLogBuffer) {
  const notFound = new NotFoundCounter();
  app.addHook('onResponse', (request, reply, done) => {
    const path = request.url.split('?', 1)[0]!;
    if (!probePaths.has(path)) {
      const now = Date.now();
      const recent = reply.statusCode === 404 ? notFound.hit(clientIpOf(request), now) : 0;
      buffer.push(entryFor(request, reply, recent, now));
    }
    done();
  });
  buffer.start();
  app.addHook('onClose', async () => buffer.close());
}
