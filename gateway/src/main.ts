// Starts the gateway: telemetry first (it must patch http and undici before fastify loads them),
// then the app, then waits for SIGTERM/SIGINT to drain in-flight requests and stop.
import { startTelemetry } from '@shop/service-kit/telemetry';
import { loadConfig, type GatewayConfig } from './config.js';

let config: GatewayConfig;
try {
  config = loadConfig();
} catch (error) {
  console.error(`The gateway cannot start: ${(error as Error).message}`);
  process.exit(1);
}

// No per-hook Fastify spans, and no http/undici instrumentations: the gateway makes one server span per
// request itself and hands its trace on to the service (service-kit/server-spans.ts, app.ts, proxy.ts).
const telemetry = startTelemetry('gateway', {
  otlpEndpoint: config.otlpEndpoint,
  fastifySpans: false,
  httpInstrumentation: false,
});
const { createLogger } = await import('@shop/service-kit/edge');
const { buildApp } = await import('./app.js');

const logger = createLogger({ service: 'gateway', level: config.logLevel });
const app = await buildApp(config, { logger });

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'gateway stopping: finishing requests in flight');
  const force = setTimeout(() => {
    logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'gateway did not stop in time; exiting');
    process.exit(1);
  }, config.shutdownTimeoutMs);
  force.unref();
  try {
    await app.close();
    await telemetry.shutdown();
    logger.info('gateway stopped');
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, 'gateway stopped with an error');
    process.exit(1);
  }
}
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));

try {
  const url = await app.listen({ host: config.host, port: config.port });
  logger.info({ url, frontendsDir: config.frontendsDir, services: config.services }, 'gateway listening');
} catch (error) {
  logger.fatal({ err: error }, `the gateway could not listen on ${config.host}:${config.port}`);
  process.exit(1);
}
