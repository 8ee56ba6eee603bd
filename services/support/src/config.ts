// The support service's configuration. Env is read here only, as literal `process.env.NAME` reads
// (the Helm chart test scans for them), and checked by the service kit.
import { defaultServicePorts } from '@shop/contracts';
import { loadServiceConfig, type RawServiceEnv, type ServiceConfig } from '@shop/service-kit';

export function readEnv(): RawServiceEnv {
  return {
    HOST: process.env.HOST,
    PORT: process.env.PORT,
    MONGO_URL: process.env.MONGO_URL,
    NATS_URL: process.env.NATS_URL,
    LOG_LEVEL: process.env.LOG_LEVEL,
    NODE_ENV: process.env.NODE_ENV,
    OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
  };
}

export function loadConfig(env: RawServiceEnv = readEnv()): ServiceConfig {
  return loadServiceConfig(env, { port: defaultServicePorts.support });
}
