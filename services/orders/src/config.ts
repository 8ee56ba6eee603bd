// The orders service's configuration. Env is read here only, as literal `process.env.NAME` reads
// (the Helm chart test scans for them), and checked by the service kit (plus the AI settings here).
import { defaultServicePorts } from '@shop/contracts';
import { loadServiceConfig, type RawServiceEnv, type ServiceConfig } from '@shop/service-kit';

export interface RawOrdersEnv extends RawServiceEnv {
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  OPENAI_IMAGE_MODEL?: string | undefined;
  UPLOAD_RETENTION_HOURS?: string | undefined;
}

/** Image generation: with an API key the openai SDK is used, without one the offline SVG generator. */
export interface AiConfig {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  imageModel: string;
}

export interface OrdersConfig extends ServiceConfig {
  ai: AiConfig;
  /** Uploads and generated designs that no order uses are deleted once older than this. */
  uploadRetentionHours: number;
}

export const defaultUploadRetentionHours = 24;

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
    UPLOAD_RETENTION_HOURS: process.env.UPLOAD_RETENTION_HOURS,
  };
}

const blank = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

export function loadConfig(env: RawOrdersEnv = readEnv()): OrdersConfig {
  const base = loadServiceConfig(env, { port: defaultServicePorts.orders });
  const baseUrl = blank(env.OPENAI_BASE_URL);
  if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(baseUrl)) {
    throw new Error('Invalid service configuration: OPENAI_BASE_URL must be an http(s) URL');
  }
  const retention = blank(env.UPLOAD_RETENTION_HOURS);
  const uploadRetentionHours = retention === undefined ? defaultUploadRetentionHours : Number(retention);
  // At least an hour: a customer fills in the quote form after uploading, and a shorter value is a typo.
  if (!Number.isFinite(uploadRetentionHours) || uploadRetentionHours < 1) {
    throw new Error('Invalid service configuration: UPLOAD_RETENTION_HOURS must be a number of hours, at least 1');
  }
  return {
    ...base,
    uploadRetentionHours,
    ai: { apiKey: blank(env.OPENAI_API_KEY), baseUrl, imageModel: blank(env.OPENAI_IMAGE_MODEL) ?? defaultImageModel },
  };
}
