// createService(): everything a shop service has in common, so its app.ts only adds routes, models and
// event handlers. Building (`createService`) does no I/O, so tests can inject requests before or after
// `start()`; `start()` connects MongoDB and NATS, starts the outbox relay and consumers, then listens.
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject, type ZodTypeProvider } from 'fastify-type-provider-zod';
import mongoose, { type ClientSession, type Connection } from 'mongoose';
import {
  errorCodes,
  errorEnvelopeSchema,
  healthSchema,
  readinessSchema,
  serviceInfoPath,
  serviceInfoSchema,
  type Readiness,
  type ServiceName,
} from '@shop/contracts';
import type { ServiceConfig } from './config.js';
import { AppError, installErrorHandling } from './errors.js';
import { installGatewayIdentity } from './gateway-token.js';
import { installJsonBodyParser, installZodAndRequestIds, requestIdFrom, requestLogController } from './http.js';
import { createLogger, type Logger } from './logger.js';
import { lazyRequestLogger } from './request-logger.js';
import { startServerSpan, withRequestSpan } from './server-spans.js';
import { connectionPoolOptions, databaseName, pingMongo } from './mongo.js';
import { EventBus } from './bus/bus.js';
import type { EventConsumer } from './bus/consumers.js';
import type { Outbox, RelayOptions } from './bus/outbox.js';
import type { RpcHandler } from './bus/rpc.js';
import { currentTelemetry } from './telemetry-state.js';
import { registerReadinessFacts, type ReadinessFactsHook } from './readiness-facts.js';

/** The Fastify instance a service adds its routes to (zod schemas type the handlers). */
export type ServiceApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface ServiceContext<M = Record<string, never>> {
  name: ServiceName;
  version: string;
  config: ServiceConfig;
  log: Logger;
  /** The service's own database connection (`shop_<name>`). */
  connection: Connection;
  models: M;
  bus: EventBus;
  /** Shorthand for `bus.withOutbox`: a transaction whose events are published after it commits. */
  withOutbox<R>(work: (session: ClientSession, outbox: Outbox) => Promise<R>): Promise<R>;
}

export interface ServiceDefinition<M> {
  name: ServiceName;
  version?: string;
  config: ServiceConfig;
  /** Registers the service's mongoose models on its connection and returns them. */
  models?: (connection: Connection) => M;
  /** The service's own routes (health, readiness, OpenAPI and the info route are always there). */
  routes?: (app: ServiceApp, ctx: ServiceContext<M>) => void | Promise<void>;
  consumers?: (ctx: ServiceContext<M>) => EventConsumer[];
  replies?: (ctx: ServiceContext<M>) => RpcHandler[];
  /** Runs once MongoDB is connected and the models' indexes exist, before NATS (e.g. seed data). A throw fails start(). */
  afterConnect?: (ctx: ServiceContext<M>) => Promise<void>;
  openapi?: { title?: string; description?: string };
  /** Facts only this service knows, for the production check (`GET /readyz/facts`, readiness-facts.ts). */
  readinessFacts?: ReadinessFactsHook<M>;
  /** Test hooks: a log destination and faster outbox sweeps. */
  logDestination?: import('pino').DestinationStream;
  relay?: RelayOptions;
}

export interface Service<M> {
  app: ServiceApp;
  ctx: ServiceContext<M>;
  /** Listens, connects MongoDB and NATS, starts relay and consumers. Resolves with the base URL once ready. */
  start(): Promise<string>;
  /** Stops accepting requests, stops consumers and the relay, drains NATS, closes mongoose. */
  stop(): Promise<void>;
  /** start() plus SIGTERM/SIGINT handling for main.ts: graceful stop, exit 0; a failed start exits 1. */
  run(): Promise<void>;
  readiness(): Promise<{ ready: boolean; body: Readiness }>;
}

export async function createService<M = Record<string, never>>(def: ServiceDefinition<M>): Promise<Service<M>> {
  const version = def.version ?? '0.0.0';
  const log = createLogger({ service: def.name, level: def.config.logLevel, destination: def.logDestination });
  const connection = mongoose.createConnection();
  const models = (def.models?.(connection) ?? {}) as M;
  const bus = new EventBus({
    service: def.name,
    natsUrl: def.config.natsUrl,
    connection,
    log,
    relay: def.relay,
    streamReplicas: def.config.natsStreamReplicas,
  });
  const ctx: ServiceContext<M> = {
    name: def.name,
    version,
    config: def.config,
    log,
    connection,
    models,
    bus,
    withOutbox: (work) => bus.withOutbox(work),
  };

  const app = Fastify({
    loggerInstance: log,
    genReqId: requestIdFrom,
    logController: requestLogController(),
    // The request's child logger is made only when it writes a line (request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
    // Forwarded headers are not trusted: the client's address comes only from the gateway's signed
    // identity (gateway-token.ts), so a pod that reaches the service cannot claim another address.
    trustProxy: false,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>() as unknown as ServiceApp;

  // Tracing: one lean server span per request (server-spans.ts), as the gateway makes it, in place of the
  // http instrumentation's server side (telemetry.ts). The handlers run in its context, so the NATS
  // calls, outbox events and outgoing calls they make carry the request's trace. Entered after the body
  // is read: its events come from the connection's context, not the request listener's.
  app.server.prependListener('request', startServerSpan);
  app.addHook('preHandler', (request, _reply, done) => withRequestSpan(request.raw, done));
  installZodAndRequestIds(app);
  installJsonBodyParser(app);
  installErrorHandling(app);
  installGatewayIdentity(app, def.config.gatewayKeys);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: def.openapi?.title ?? `Shop ${def.name} service`,
        description: def.openapi?.description,
        version,
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  const startedAt = new Date().toISOString();

  async function readiness(): Promise<{ ready: boolean; body: Readiness }> {
    const mongoUp = await pingMongo(connection);
    const natsUp = bus.isUp();
    // Ready only once start() has finished (streams, relay and consumers are up), so nothing routes
    // traffic to, or signals, a service that is still half-started.
    const ready = startCompleted && mongoUp && natsUp;
    return {
      ready,
      body: {
        status: ready ? 'ready' : 'not_ready',
        checks: { mongo: mongoUp ? 'up' : 'down', nats: natsUp ? 'up' : 'down' },
      },
    };
  }

  app.get(
    '/healthz',
    { logLevel: 'warn', schema: { tags: ['ops'], summary: 'Alive', response: { 200: healthSchema } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      logLevel: 'warn',
      schema: {
        tags: ['ops'],
        summary: 'Ready: MongoDB and NATS reachable',
        response: { 200: readinessSchema, 503: readinessSchema },
      },
    },
    async (_request, reply) => {
      const { ready, body } = await readiness();
      return reply.status(ready ? 200 : 503).send(body);
    },
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerReadinessFacts(app, ctx, def.readinessFacts);
  app.get(
    serviceInfoPath(def.name),
    {
      schema: {
        tags: ['ops'],
        summary: 'Which service answers, and its version',
        response: { 200: serviceInfoSchema, 500: errorEnvelopeSchema },
      },
    },
    async () => ({ service: def.name, version, startedAt }),
  );

  let started = false;
  let databaseReady = false;
  let startCompleted = false;

  if (def.routes) {
    const routes = def.routes;
    await app.register(async (scope) => {
      // The port opens before MongoDB is reached (start() below). A call arriving in that window (a
      // restarted pod, the gateway's pooled connection) is answered 503 at once, instead of waiting on
      // mongoose's buffering until the gateway's 15 s upstream timeout. Once MongoDB is there the API
      // answers, NATS or not (writes wait in the outbox). Ops routes above stay answered throughout.
      scope.addHook('onRequest', (_request, reply, done) => {
        if (!started || databaseReady) return done();
        void reply.header('retry-after', '1');
        done(
          new AppError(
            503,
            errorCodes.SERVICE_UNAVAILABLE,
            `The ${def.name} service is starting. Try again in a moment.`,
          ),
        );
      });
      await routes(scope, ctx);
    });
  }

  async function start(): Promise<string> {
    const { config } = def;
    // Listen first: /healthz answers while MongoDB and NATS are still being reached, and /readyz says
    // which of them is not there yet (503), instead of a silent port during a slow start.
    const address = await app.listen({ host: config.host, port: config.port });
    started = true;
    if (!def.config.gatewayKeys.current)
      log.warn(
        'GATEWAY_SIGNING_KEY is not set: admin calls will be refused (401) until the gateway and this service share a key',
      );
    log.info({ db: databaseName(def.name) }, 'connecting to MongoDB');
    await connection.openUri(config.mongoUrl, {
      dbName: databaseName(def.name),
      appName: `shop-${def.name}`,
      serverSelectionTimeoutMS: 10_000,
      ...connectionPoolOptions(config.mongoUrl),
    });
    // Collections and indexes exist before the first transaction (collections cannot be created
    // implicitly inside one on every server).
    await Promise.all(Object.values(connection.models).map((model) => model.init()));
    if (def.afterConnect) await def.afterConnect(ctx);
    databaseReady = true;
    await bus.connect();
    for (const handler of def.replies?.(ctx) ?? []) bus.reply(handler);
    bus.startRelay();
    bus.startConsumers(def.consumers?.(ctx) ?? []);
    startCompleted = true;
    log.info({ address, version }, `${def.name} service ready`);
    return address;
  }

  async function stop() {
    log.info('shutting down');
    await app.close().catch((err) => log.error({ err }, 'HTTP server close failed'));
    await bus.close().catch((err) => log.error({ err }, 'NATS close failed'));
    await connection.close().catch((err) => log.error({ err }, 'MongoDB close failed'));
    started = false;
    databaseReady = false;
    startCompleted = false;
    log.info('stopped');
  }

  async function run() {
    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'signal received');
      // A stuck dependency must not keep the pod in Terminating forever.
      const force = setTimeout(() => {
        log.error('graceful shutdown took too long; exiting');
        process.exit(1);
      }, 20_000);
      force.unref();
      await stop();
      await currentTelemetry()
        ?.shutdown()
        .catch(() => undefined);
      process.exit(0);
    };
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    process.once('SIGINT', () => void shutdown('SIGINT'));
    try {
      await start();
    } catch (err) {
      // A signal during start-up closes what start() was using; the shutdown then exits 0.
      if (stopping) return;
      log.fatal({ err }, 'service failed to start');
      if (started) await stop().catch(() => undefined);
      await currentTelemetry()
        ?.shutdown()
        .catch(() => undefined);
      process.exit(1);
    }
  }

  return { app, ctx, start, stop, run, readiness };
}
