// The orders service's configuration. Env is read here only, as literal `process.env.NAME` reads
// (the Helm chart test scans for them), and checked by the service kit (plus the AI settings here).
import { defaultServicePorts } from '@shop/contracts';
import { loadServiceConfig, type RawServiceEnv, type ServiceConfig } from '@shop/service-kit';

export interface RawOrdersEnv extends RawServiceEnv {
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  OPENAI_IMAGE_MODEL?: string | undefined;
}

/** Image generation: with an API key the openai SDK is used, without one the offline SVG generator. */
export interface AiConfig {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  imageModel: string;
}

export interface OrdersConfig extends ServiceConfig {
  ai: AiConfig;
}

export const defaultImageModel = 'gpt-image-1';

export function readEnv(): RawOrdersEnv {
  return {
    HOST: process.env.HOST,
    PORT: process.env.PORT,
    MONGO_URL: process.env.MONGO_URL,
    NATS_URL: process.env.NATS_URL,
    LOG_LEVEL: process.env.LOG_LEVEL,
    NODE_ENV: process.env.NODE_ENV,
    OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    OPENAI_API_KEY: process.env.OPENAI_API_KEY,
    OPENAI_BASE_URL: process.env.OPENAI_BASE_URL,
    OPENAI_IMAGE_MODEL: process.env.OPENAI_IMAGE_MODEL,
  };
}

const blank = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

export function loadConfig(env: RawOrdersEnv = readEnv()): OrdersConfig {
  const base = loadServiceConfig(env, { port: defaultServicePorts.orders });
  const baseUrl = blank(env.OPENAI_BASE_URL);
  if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(baseUrl)) {
    throw new Error('Invalid service configuration: OPENAI_BASE_URL must be an http(s) URL');
  }
  return {
    ...base,
    ai: { apiKey: blank(env.OPENAI_API_KEY), baseUrl, imageModel: blank(env.OPENAI_IMAGE_MODEL) ?? defaultImageModel },
  };
}
