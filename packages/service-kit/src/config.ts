// Service configuration. Services read their environment with literal `process.env.NAME` expressions
// in their own src/config.ts (the Helm chart test scans for them) and hand the raw strings here to be
// checked and defaulted in one place.
import { z } from 'zod';
import { gatewayKeyRing, type GatewayKeyRing } from './gateway-token.js';

export interface RawServiceEnv {
  HOST?: string | undefined;
  PORT?: string | undefined;
  MONGO_URL?: string | undefined;
  NATS_URL?: string | undefined;
  LOG_LEVEL?: string | undefined;
  NODE_ENV?: string | undefined;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  NATS_STREAM_REPLICAS?: string | undefined;
  /** The key the gateway signs identities with (gateway-token.ts); read from the process when not given. */
  GATEWAY_SIGNING_KEY?: string | undefined;
  /** The key before the last rotation, still accepted while gateways move to the new one. */
  GATEWAY_SIGNING_KEY_PREVIOUS?: string | undefined;
}

export interface ServiceConfig {
  host: string;
  port: number;
  mongoUrl: string;
  natsUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  nodeEnv: string;
  otlpEndpoint: string | undefined;
  /** Copies JetStream keeps of each stream: 1 on one server, 3 in the chart's NATS cluster. */
  natsStreamReplicas: number;
  /** Keys of the gateway's signed identity that this service accepts. */
  gatewayKeys: GatewayKeyRing;
}

export const defaultMongoUrl = 'mongodb://127.0.0.1:27017/?replicaSet=rs0';
export const defaultNatsUrl = 'nats://127.0.0.1:4222';

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const envSchema = z.object({
  HOST: z.preprocess(blankToUndefined, z.string().default('127.0.0.1')),
  PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  MONGO_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'MONGO_URL must start with mongodb:// or mongodb+srv://')
      .default(defaultMongoUrl),
  ),
  NATS_URL: z.preprocess(blankToUndefined, z.string().default(defaultNatsUrl)),
  LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  NODE_ENV: z.preprocess(blankToUndefined, z.string().default('development')),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(blankToUndefined, z.url().optional()),
  // JetStream refuses more replicas than the cluster has servers, and a cluster has at most 5 voters.
  NATS_STREAM_REPLICAS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(5).default(1)),
});

/** Checks the raw environment; throws one error listing every bad variable. */
export function loadServiceConfig(env: RawServiceEnv, defaults: { port: number }): ServiceConfig {
  // A setting of the NATS deployment every service shares: read here rather than in each config.ts.
  const parsed = envSchema.safeParse({
    ...env,
    NATS_STREAM_REPLICAS: env.NATS_STREAM_REPLICAS ?? process.env.NATS_STREAM_REPLICAS,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid service configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    port: e.PORT ?? defaults.port,
    mongoUrl: e.MONGO_URL,
    natsUrl: e.NATS_URL,
    logLevel: e.LOG_LEVEL,
    nodeEnv: e.NODE_ENV,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    natsStreamReplicas: e.NATS_STREAM_REPLICAS,
    // Every service shares the gateway's key, so the kit reads it here and no service's config repeats it.
    gatewayKeys: gatewayKeyRing({
      current: env.GATEWAY_SIGNING_KEY ?? process.env.GATEWAY_SIGNING_KEY,
      previous: env.GATEWAY_SIGNING_KEY_PREVIOUS ?? process.env.GATEWAY_SIGNING_KEY_PREVIOUS,
      nodeEnv: e.NODE_ENV,
    }),
  };
}
