// Forwards every row of the routing table to its service with @fastify/http-proxy. Bodies are
// streamed through untouched (multipart uploads and the Stripe webhook's signed raw body arrive
// byte for byte), within the route's size limit and the route's timeout.
import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import { gatewayTokenHeader } from '@shop/contracts';
import { nameRequestSpan, signGatewayToken, traceHeadersFor } from '@shop/service-kit';
import type { GatewayConfig } from './config.js';
import { forwardedIdentity, signedAdmin } from './admin-auth.js';
import { clientIpOf } from './bans.js';
import { bodyTooLarge, upstreamFailure } from './errors.js';
import { ROUTES, type RouteRow } from './routes.js';

/** Per-route settings the gateway's hooks read from `request.routeOptions.config`. */
export interface ProxyRouteConfig {
  service: string;
  bodyLimitBytes: number;
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

function routeConfig(request: FastifyRequest): Partial<ProxyRouteConfig> {
  return (request.routeOptions.config ?? {}) as Partial<ProxyRouteConfig>;
}

export async function registerServiceProxies(app: FastifyInstance, config: GatewayConfig): Promise<void> {
  // Refuse an oversized body before a single byte reaches a service.
  app.addHook('onRequest', (request, _reply, done) => {
    const limit = routeConfig(request).bodyLimitBytes;
    const length = request.headers['content-length'];
    if (limit && length !== undefined) {
      const declared = Number(length);
      if (Number.isFinite(declared) && declared > limit) return done(bodyTooLarge(limit));
    }
    done();
  });
  // A chunked body (no Content-Length) is counted as it streams. A request with neither header has
  // no body at all (RFC 9112 6.3): no counting stream for it (every GET).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const limit = routeConfig(request).bodyLimitBytes;
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if (!limit || !chunked || request.headers['content-length'] !== undefined) return done(null, payload);
    done(null, payload.pipe(new BodyLimit(limit)));
  });

  for (const row of ROUTES) {
    const timeout = row.timeout === 'slow' ? config.slowUpstreamTimeoutMs : config.upstreamTimeoutMs;
    const routeSettings: ProxyRouteConfig = { service: row.service, bodyLimitBytes: bodyLimitFor(row, config) };
    await app.register(httpProxy, {
      upstream: config.services[row.service],
      prefix: row.prefix,
      rewritePrefix: row.prefix,
      config: routeSettings,
      undici: {
        connect: { timeout: Math.min(timeout, 5_000) },
        headersTimeout: timeout,
        bodyTimeout: timeout,
      },
      replyOptions: {
        rewriteRequestHeaders: (request, { traceparent: _parent, tracestate: _state, expect: _expect, ...headers }) => {
          const req = request as unknown as FastifyRequest;
          const clientIp = clientIpOf(req);
          nameRequestSpan(req.raw, row.prefix);
          return {
            // The caller's trace context is not copied: the gateway's span continues it, and this
            // call carries that span's traceparent (service-kit/server-spans.ts).
            ...traceHeadersFor(req.raw),
            // The client's own x-admin-* and gateway token never pass (forwardedIdentity removes them).
            ...forwardedIdentity(headers, row.service),
            'x-request-id': request.id,
            // The identity the service trusts: the verified admin (admin calls) and the client's address
            // as the gateway decided it (honouring TRUST_PROXY), signed for this request only.
            [gatewayTokenHeader]: signGatewayToken(config.signingKey, {
              sub: signedAdmin(request),
              ip: clientIp,
              rid: request.id,
            }),
            // For readers of the service's traffic; services never trust it (only the signed token).
            'x-forwarded-for': clientIp,
            'x-forwarded-proto': request.protocol,
            'x-forwarded-host': request.host,
          };
        },
        onError: (reply, { error }) => {
          const failure = upstreamFailure(row.service, error);
          if (failure.statusCode >= 500)
            reply.request.log.warn({ err: error, service: row.service }, 'service call failed');
          reply.send(failure);
        },
      },
    });
  }
}
