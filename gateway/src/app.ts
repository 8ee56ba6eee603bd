// Builds the gateway from a config object (no environment reads here), so tests can start it
// against their own upstream servers. The order of registration is the order requests meet things:
// request id -> security headers -> rate limit -> admin check -> gateway routes / service proxies / frontends.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { errorCodes } from '@shop/contracts';
import {
  type Logger,
  installErrorHandling,
  requestIdFrom,
  requestIdHeader,
  sendError,
  startServerSpan,
} from '@shop/service-kit/edge';
import type { GatewayConfig } from './config.js';
import { registerDocsRoutes } from './docs.js';
import { registerFrontends } from './frontends.js';
import { registerHealthRoutes } from './health.js';
import { registerProductionCheck } from './production-check.js';
import { honourExpectContinue, registerServiceProxies } from './proxy.js';
import { registerSecurity } from './security.js';
import { registerAdminAuth } from './admin-auth.js';
import { NatsSessionChecker, type SessionChecker } from './admin-bus.js';
import { GatewaySecurityLink, registerBanCheck } from './bans.js';
import { GatewayNats } from './nats-connection.js';
import { RequestLogBuffer, registerRequestLog, type RequestLogOptions } from './request-log.js';
import { lazyRequestLogger } from './request-logger.js';

export interface BuildOptions {
  /** A ready pino logger (production), or Fastify logger options / false (tests). */
  logger?: FastifyBaseLogger | FastifyServerOptions['logger'];
  /** Admin session checks and audit events; default: over NATS at config.natsUrl. */
  sessionChecker?: SessionChecker;
  /** Bans in, request logs out (bans.ts); default: over NATS at config.natsUrl, connected at start. */
  securityLink?: GatewaySecurityLink;
  /** Request log buffer settings, or false to log no requests (benchmarks compare both). */
  requestLog?: RequestLogOptions | false;
}

function isLoggerInstance(logger: BuildOptions['logger']): logger is FastifyBaseLogger {
  return typeof logger === 'object' && logger !== null && typeof (logger as FastifyBaseLogger).child === 'function';
}

export async function buildApp(config: GatewayConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const logger = options.logger ?? { level: config.logLevel };
  const app = Fastify({
    ...(isLoggerInstance(logger) ? { loggerInstance: logger } : { logger }),
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    genReqId: requestIdFrom,
    // The request's log lines carry its trace ids as bindings of its child logger (the span is not
    // made the active context: see startServerSpan below); the child is made only when a line is
    // written (request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
    // Let in-flight requests finish on shutdown; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Errors Fastify raises before routing (a broken %-escape in the address, a bad content type)
    // leave in the envelope too.
    frameworkErrors: (error, request, reply) => {
      const message =
        error.code === 'FST_ERR_BAD_URL'
          ? 'The address is not valid: it contains a broken %-escape.'
          : 'The request could not be read. Please check its headers and body.';
      void sendError(request, reply, 400, errorCodes.BAD_REQUEST, message);
    },
  }) as unknown as FastifyInstance;
  // Tracing: one server span per request, started before Fastify sees the request and handed on to
  // the service it is forwarded to (proxy.ts), in place of the http and undici instrumentations
  // (service-kit/server-spans.ts says why).
  app.server.prependListener('request', startServerSpan);

  // One NATS connection for every gateway feature (nats-connection.ts), opened in the background at
  // start. Its close hook is added first so it runs last (Fastify runs onClose hooks in reverse): the
  // request log's final flush and queued audit events go out before it drains.
  const nats = new GatewayNats(config.natsUrl, app.log as unknown as Logger);
  app.addHook('onClose', async () => nats.close());
  // Bans before anything else (bans.ts); every answered request to the request log (request-log.ts).
  const securityLink = options.securityLink ?? new GatewaySecurityLink(nats, app.log as unknown as Logger);
  registerBanCheck(app, securityLink.bans);
  if (options.requestLog !== false)
    registerRequestLog(app, new RequestLogBuffer(securityLink, app.log as unknown as Logger, options.requestLog));
  if (!options.securityLink) {
    securityLink.start();
    app.addHook('onClose', async () => securityLink.close());
  }

  // Hooks that do not wait on anything take Fastify's callback form: an async hook costs a promise
  // and a microtask turn per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(requestIdHeader, request.id);
    done();
  });
  // "100 Continue" only once the request passed the checks that need no body (proxy.ts).
  honourExpectContinue(app);
  // Graceful stop: answers still being written when close() starts tell the client to hang up,
  // so their keep-alive connections do not hold the process open after the last request (answers
  // forwarded from a service: forward.ts).
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  // The shop's one error envelope for every failure, the gateway's own included.
  installErrorHandling(app);

  const securityHeaders = await registerSecurity(app, config);
  // After the rate limit (a flood of admin guesses is limited first), before any proxy.
  const checker = options.sessionChecker ?? new NatsSessionChecker(nats, app.log as unknown as Logger);
  app.addHook('onClose', async () => checker.close());
  registerAdminAuth(app, config, checker);
  registerHealthRoutes(app, config);
  registerProductionCheck(app, config);
  registerDocsRoutes(app, config);
  await registerServiceProxies(app, config, { answerHeaders: securityHeaders, draining: () => draining });
  await registerFrontends(app, config);

  return app;
}
