// Builds the gateway from a config object (no environment reads here), so tests can start it
// against their own upstream servers. The order of registration is the order requests meet things:
// request id -> security headers -> rate limit -> gateway routes / service proxies / frontends.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { GatewayConfig } from './config.js';
import { registerDocsRoutes } from './docs.js';
import { handleError } from './errors.js';
import { registerFrontends } from './frontends.js';
import { registerHealthRoutes } from './health.js';
import { registerServiceProxies } from './proxy.js';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';
import { registerSecurity } from './security.js';

export interface BuildOptions {
  /** A ready pino logger (production), or Fastify logger options / false (tests). */
  logger?: FastifyBaseLogger | FastifyServerOptions['logger'];
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
    genReqId: requestIdFor,
    // Let in-flight requests finish on shutdown; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  }) as unknown as FastifyInstance;

  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.setErrorHandler(handleError);

  await registerSecurity(app, config);
  registerHealthRoutes(app, config);
  registerDocsRoutes(app, config);
  await registerServiceProxies(app, config);
  await registerFrontends(app, config);

  return app;
}
