// Forwards every row of the routing table to its service (forward.ts). Bodies pass through untouched
// (multipart uploads and the Stripe webhook's signed raw body arrive byte for byte), within the
// route's size limit and the route's timeout.
import type { IncomingMessage } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preParsingHookHandler,
} from 'fastify';
import { nameRequestSpan } from '@shop/service-kit/edge';
import type { GatewayConfig } from './config.js';
import { bodyTooLarge } from './errors.js';
import { ServicePools, type ForwardSettings } from './forward.js';
import { ROUTES, type RouteRow } from './routes.js';

/** Per-route settings, in `request.routeOptions.config` (the admin check reads `service`). */
export interface ProxyRouteConfig {
  service: string;
  bodyLimitBytes: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The service a forwarded route goes to (absent on the gateway's own routes). */
    service?: string;
    /** The forwarded route's body size limit, bytes. */
    bodyLimitBytes?: number;
  }
}

export function bodyLimitFor(row: RouteRow, config: GatewayConfig): number {
  return row.body === 'upload' ? config.uploadBodyLimitBytes : config.bodyLimitBytes;
}

/** Counts bytes of a chunked body (no Content-Length) and stops it at the route's limit. */
class BodyLimit extends Transform {
  private seen = 0;
  constructor(private readonly limitBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limitBytes) done(bodyTooLarge(this.limitBytes));
    else done(null, chunk);
  }
}

/** Marks a request whose client waits for "100 Continue" before sending its body. */
const awaitingContinue = Symbol('awaitingContinue');
type MaybeAwaiting = IncomingMessage & { [awaitingContinue]?: boolean };

/**
 * `Expect: 100-continue` (curl sends it for bodies over 1 MiB): the gateway answers the expectation
 * itself, and only once the request has passed every check that needs no body (size limit, admin
 * session, same-origin, rate limit), right before the body is read. A refused request gets its 4xx
 * before the client sends a byte of its body. The header is not forwarded: the service gets a plain
 * request (undici refuses to send `expect`, which made every such call a 502).
 */
export function honourExpectContinue(app: FastifyInstance): void {
  app.server.on('checkContinue', (req: MaybeAwaiting, res) => {
    req[awaitingContinue] = true;
    app.server.emit('request', req, res);
  });
  app.addHook('preParsing', (request, reply, payload, done) => {
    const raw = request.raw as MaybeAwaiting;
    if (raw[awaitingContinue]) {
      raw[awaitingContinue] = false;
      reply.raw.writeContinue();
    }
    done(null, payload);
  });
}

/** The methods forwarded to a service (those a browser or a webhook sends). */
const FORWARDED_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];

/**
 * The body as the service will get it: a body of declared length within the small-body size is read
 * whole (it then goes out in one write with its headers), anything else is handed on as the stream it
 * is (uploads, chunked bodies: counted by BodyLimit). The bytes are never parsed or re-encoded, so
 * multipart boundaries, webhook signatures and compressed bodies arrive as sent.
 */
function readBody(request: FastifyRequest, payload: Readable, done: (err: Error | null, body?: unknown) => void) {
  const length = request.headers['content-length'];
  if (length === undefined || Number(length) > collectBodyUpToBytes) return done(null, payload);
  const chunks: Buffer[] = [];
  payload.on('data', (chunk: Buffer) => chunks.push(chunk));
  payload.once('error', done);
  payload.once('end', () => {
    payload.off('error', done);
    done(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  });
}

/** A forwarded route's body size limit, as its two hooks. */
function bodyLimitHooks(limit: number): { onRequest: onRequestHookHandler; preParsing: preParsingHookHandler } {
  return {
    // Refuse an oversized body before a single byte reaches a service.
    onRequest(request, _reply, done) {
      const length = request.headers['content-length'];
      if (length !== undefined) {
        const declared = Number(length);
        if (Number.isFinite(declared) && declared > limit) return done(bodyTooLarge(limit));
      }
      done();
    },
    // A chunked body (no Content-Length) is counted as it streams. A request with neither header has
    // no body at all (RFC 9112 6.3): no counting stream for it (every GET).
    preParsing(request, _reply, payload, done) {
      const chunked = request.headers['transfer-encoding'] !== undefined;
      if (!chunked || request.headers['content-length'] !== undefined) return done(null, payload);
      done(null, payload.pipe(new BodyLimit(limit)));
    },
  };
}

/** Bodies up to this size (by Content-Length) are read whole before forwarding. */
const collectBodyUpToBytes = 64 * 1024;

export interface ProxyOptions {
  /** Headers added to every forwarded answer (security.ts), as [name, value, ...], lower case. */
  answerHeaders: readonly string[];
  /** True once the gateway is stopping (app.ts). */
  draining: () => boolean;
}

export async function registerServiceProxies(
  app: FastifyInstance,
  config: GatewayConfig,
  options: ProxyOptions,
): Promise<void> {
  // One connection pool per service, shared by its routes; closed when the gateway stops.
  const pools = new ServicePools(Math.min(config.upstreamTimeoutMs, 5_000));
  app.addHook('onClose', async () => pools.close());

  await app.register(async (proxied) => {
    // Bodies pass through unparsed, whatever their type (readBody).
    proxied.removeAllContentTypeParsers();
    proxied.addContentTypeParser('*', (request, payload, done) => readBody(request, payload, done));
    for (const row of ROUTES) {
      const pool = pools.poolFor(config.services[row.service]);
      const settings: ForwardSettings = {
        service: row.service,
        timeoutMs: row.timeout === 'slow' ? config.slowUpstreamTimeoutMs : config.upstreamTimeoutMs,
        signingKey: config.signingKey,
        answerHeaders: options.answerHeaders,
        draining: options.draining,
      };
      const limit = bodyLimitFor(row, config);
      const routeSettings: ProxyRouteConfig = { service: row.service, bodyLimitBytes: limit };
      const handler = (request: FastifyRequest, reply: FastifyReply) => {
        nameRequestSpan(request.raw, row.prefix);
        pools.forward(pool, request, reply, settings);
      };
      // The size limit's hooks belong to the route, its limit known here: a global hook read it from
      // `request.routeOptions`, which builds a fresh object of a dozen fields on every read. Route hooks
      // run after every global one (ban, rate limit, admin check; "100 Continue"), as these did.
      // (A limit of 0 set no limit, as before.)
      const hooks = limit ? bodyLimitHooks(limit) : {};
      for (const url of [row.prefix, `${row.prefix}/*`])
        proxied.route({ method: FORWARDED_METHODS, url, config: routeSettings, ...hooks, handler });
    }
  });
}
