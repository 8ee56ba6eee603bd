// Forwarding one call to its service over a keep-alive connection pool (undici), and its answer back to
// the client. In place of @fastify/http-proxy and @fastify/reply-from, which per call parsed and rebuilt
// the address (a URL object and a querystring round trip), copied the headers into several objects, ran
// a retry wrapper and piped the answer through a stream into Fastify's reply: on the proxied read they
// cost more than the gateway's own checks (load-tests/RESULTS.md, Gateway). Here the address is passed
// on as received, the request headers are copied once into the flat list undici sends, and a small
// answer (nearly all of them) is written in one go with its headers.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Pool, type Dispatcher } from 'undici';
import { adminIdentityHeaderPrefix, adminSessionCookie, gatewayTokenHeader } from '@shop/contracts';
import { requestIdHeader, signGatewayToken, traceHeadersFor, type GatewaySigningKey } from '@shop/service-kit/edge';
import { signedAdmin } from './admin-auth.js';
import { clientIpOf } from './bans.js';
import { upstreamFailure } from './errors.js';

/** Headers that concern only one connection (RFC 9110 7.6.1), in either direction. */
const hopByHopHeaders = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
];

/**
 * Request headers that are not passed on: hop-by-hop ones (undici refuses several of them), `expect`
 * (the gateway answers it itself: proxy.ts), the caller's trace context (the gateway's span continues
 * it and sends its own), and what the gateway sets itself (request id, forwarded address, the signed
 * identity), so a client cannot forge them.
 */
const notForwarded = new Set([
  ...hopByHopHeaders,
  'http2-settings',
  'host',
  'expect',
  'traceparent',
  'tracestate',
  requestIdHeader,
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  gatewayTokenHeader,
]);

/** Answer headers that concern only the connection between the service and the gateway. */
const hopByHopAnswerHeaders = new Set(hopByHopHeaders);

/** Header names a `Connection` header lists (they are hop-by-hop too), lower case. */
function connectionListed(value: string | string[] | undefined): Set<string> | undefined {
  if (typeof value !== 'string' || value === '' || value === 'keep-alive' || value === 'close') return undefined;
  const names = value
    .toLowerCase()
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length ? new Set(names) : undefined;
}

/** The cookie header without the admin session (only the security service needs it), or undefined. */
function cookieFor(service: string, cookie: string): string | undefined {
  if (service === 'security' || !cookie.includes(`${adminSessionCookie}=`)) return cookie;
  const kept = cookie
    .split(';')
    .map((c) => c.trim())
    .filter((c) => c && !c.startsWith(`${adminSessionCookie}=`));
  return kept.length ? kept.join('; ') : undefined;
}

/**
 * The headers the service gets, as undici's flat [name, value, ...] list: the client's, minus what only
 * the gateway may say (every x-admin-* header and any gateway token the client sent: the service learns
 * the admin from the signed token alone) and the hop-by-hop ones; the admin session cookie only to the
 * security service; then the request id, the trace context, the forwarded address and the signed identity.
 */
export function serviceRequestHeaders(
  request: FastifyRequest,
  service: string,
  signingKey: GatewaySigningKey,
): string[] {
  const headers = request.headers;
  const listed = connectionListed(headers.connection);
  const out: string[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || notForwarded.has(name) || name.startsWith(adminIdentityHeaderPrefix)) continue;
    if (listed?.has(name)) continue;
    if (name === 'cookie') {
      const kept = cookieFor(service, value as string);
      if (kept !== undefined) out.push(name, kept);
    } else if (typeof value === 'string') out.push(name, value);
    // Only set-cookie arrives as a list (Node joins every other repeated header).
    else for (const item of value) out.push(name, item);
  }
  const clientIp = clientIpOf(request);
  out.push(requestIdHeader, request.id);
  // The caller's trace context is not copied: the gateway's span continues it, and this call carries
  // that span's traceparent (service-kit/server-spans.ts).
  const trace = traceHeadersFor(request.raw);
  for (const name in trace) out.push(name, trace[name]);
  // The identity the service trusts: the verified admin (admin calls) and the client's address as the
  // gateway decided it (honouring TRUST_PROXY), signed for this request only.
  out.push(
    gatewayTokenHeader,
    signGatewayToken(signingKey, { sub: signedAdmin(request), ip: clientIp, rid: request.id }),
    // For readers of the service's traffic; services never trust it (only the signed token).
    'x-forwarded-for',
    clientIp,
    'x-forwarded-proto',
    request.protocol,
    'x-forwarded-host',
    request.host,
  );
  return out;
}

/** Answers up to this size (by Content-Length) are collected and written with their headers at once. */
const collectUpToBytes = 64 * 1024;

export interface ForwardSettings {
  service: string;
  /** Headers and body timeouts of this route, ms. */
  timeoutMs: number;
  signingKey: GatewaySigningKey;
  /** Headers the gateway adds to every answer (security headers), as [name, value, ...], lower case. */
  answerHeaders: readonly string[];
  /** True while the gateway drains before stopping: answers tell the client to close the connection. */
  draining: () => boolean;
}

/**
 * One forwarded call: undici's dispatch handler. The service's answer goes to the client as it is
 * (status, headers, body), with the gateway's headers where the service set none of the same name (a
 * service may send a stricter policy, e.g. the sandboxed CSP of an uploaded file).
 */
class ForwardedCall implements Dispatcher.DispatchHandler {
  private readonly res: ServerResponse;
  private chunks: Buffer[] | undefined;
  private statusCode = 0;
  private headers: unknown[] = [];
  private started = false;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly settings: ForwardSettings,
  ) {
    this.res = reply.raw;
  }

  /** undici tells the handler API by this method; nothing to do when the call goes out. */
  onRequestStart(): void {}

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // Informational answers (103 Early Hints) are not passed on; the final answer follows.
    if (statusCode < 200) return;
    // The client went away while the service worked: nothing to answer.
    if (this.res.destroyed) {
      controller.abort(new Error('the client closed the connection'));
      return;
    }
    this.statusCode = statusCode;
    this.headers = this.answerHeaders(headers);
    const length = headers['content-length'];
    if (length !== undefined && Number(length) <= collectUpToBytes) {
      this.chunks = [];
      return;
    }
    // A large or open-ended answer (a file, a stream) is passed on as it arrives, as fast as the client reads.
    if (!this.writeHead()) return controller.abort(new Error('the service sent headers the gateway cannot pass on'));
    this.res.on('drain', () => controller.resume());
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.chunks) this.chunks.push(chunk);
    else if (!this.res.write(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    const chunks = this.chunks;
    if (!chunks) {
      this.res.end();
      return;
    }
    if (this.res.destroyed || !this.writeHead()) return;
    if (chunks.length === 0) return void this.res.end();
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    // As a latin1 string (byte for byte, whatever the body holds) Node sends the head and the body in
    // one plain write; a Buffer goes out beside the head in a gathered write that costs more per answer.
    this.res.end(body.toString('latin1'), 'latin1');
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  /** The call failed: the gateway's error answer, or a broken connection once the answer has begun. */
  private fail(error: Error): void {
    if (this.started) {
      // Part of the answer is out already: the client sees the connection break, not a wrong answer.
      this.res.destroy(error);
      return;
    }
    if (this.reply.sent || this.res.destroyed) return;
    const failure = upstreamFailure(this.settings.service, error);
    if (failure.statusCode >= 500)
      this.request.log.warn({ err: error, service: this.settings.service }, 'service call failed');
    this.reply.send(failure);
  }

  /** Writes the status and headers; false (and a 502 sent instead) when Node refuses a header. */
  private writeHead(): boolean {
    try {
      this.res.writeHead(this.statusCode, this.headers as string[]);
    } catch (error) {
      this.fail(new Error('the service sent headers the gateway cannot pass on', { cause: error }));
      return false;
    }
    this.started = true;
    // From here the answer is written here, not by Fastify (its onResponse hooks still run on finish).
    this.reply.hijack();
    return true;
  }

  /** The service's headers minus hop-by-hop ones, then the gateway's that the service did not set. */
  private answerHeaders(headers: IncomingHttpHeaders): unknown[] {
    const out: unknown[] = [];
    const listed = connectionListed(headers.connection);
    for (const name in headers) {
      if (hopByHopAnswerHeaders.has(name) || listed?.has(name)) continue;
      out.push(name, headers[name]);
    }
    const gateway = this.settings.answerHeaders;
    for (let i = 0; i < gateway.length; i += 2) if (!(gateway[i] in headers)) out.push(gateway[i], gateway[i + 1]);
    // What the gateway's hooks put on the reply: the request id, the rate limit's counters.
    const set = this.reply.getHeaders();
    for (const name in set) if (!(name in headers) && set[name] !== undefined) out.push(name, set[name]);
    // An answer sent before the service read the whole body leaves that connection unusable; and
    // a draining gateway asks its clients to reconnect elsewhere.
    if (!this.request.raw.complete || this.settings.draining()) out.push('connection', 'close');
    return out;
  }
}

/** The request body to send: a collected Buffer, the body stream, or none. */
function bodyOf(request: FastifyRequest): Buffer | Readable | null {
  const body = request.body;
  if (Buffer.isBuffer(body)) return body;
  if (body && typeof (body as Readable).pipe === 'function') return body as Readable;
  return null;
}

/** One keep-alive pool per service; every route to that service shares it. */
export class ServicePools {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly connectTimeoutMs: number) {}

  poolFor(upstream: string): Pool {
    let pool = this.pools.get(upstream);
    if (!pool) {
      pool = new Pool(upstream, { connect: { timeout: this.connectTimeoutMs } });
      this.pools.set(upstream, pool);
    }
    return pool;
  }

  /** Forwards the request to `pool`; the answer (or the gateway's error answer) is sent from the handler. */
  forward(pool: Pool, request: FastifyRequest, reply: FastifyReply, settings: ForwardSettings): void {
    const raw: IncomingMessage = request.raw;
    pool.dispatch(
      {
        path: raw.url ?? '/',
        method: raw.method as Dispatcher.HttpMethod,
        headers: serviceRequestHeaders(request, settings.service, settings.signingKey),
        body: bodyOf(request),
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
      },
      new ForwardedCall(request, reply, settings),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
  }
}
