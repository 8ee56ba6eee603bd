// The gateway's whole configuration, read from the environment in one place. Every variable is
// read as a literal `process.env.NAME` so the Helm chart test can find them all.
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { defaultGatewayPort, defaultServicePorts } from '@shop/contracts';
import { gatewayKeyRing, gatewaySigningKey, type GatewaySigningKey } from '@shop/service-kit/edge';
import type { ServiceName } from './routes.js';

export interface GatewayConfig {
  host: string;
  port: number;
  logLevel: string;
  nodeEnv: string;
  /** OTLP/HTTP endpoint for traces; unset: no export (trace ids still appear in logs). */
  otlpEndpoint: string | undefined;
  /** Base URL of each service (no trailing slash). */
  services: Record<ServiceName, string>;
  /** Folder holding `shell/dist`, `storefront/dist` and `admin/dist`. */
  frontendsDir: string;
  /** Fastify `trustProxy`: false, true, a hop count, or a list of addresses/CIDRs of trusted proxies. */
  trustProxy: boolean | string[] | ((address: string, hop: number) => boolean);
  rateLimit: { max: number; windowMs: number };
  /** Largest request body for ordinary API calls, in bytes. */
  bodyLimitBytes: number;
  /** Largest request body for upload routes (multipart files), in bytes. */
  uploadBodyLimitBytes: number;
  upstreamTimeoutMs: number;
  /** Timeout for routes known to be slow (AI image generation, uploads). */
  slowUpstreamTimeoutMs: number;
  healthTimeoutMs: number;
  /** How long one round of readiness calls answers /api/health (0: every call asks the services). */
  healthCacheMs: number;
  shutdownTimeoutMs: number;
  /** NATS server: admin session checks and audit events (the public shop works without it). */
  natsUrl: string;
  /**
   * The shop's public origin(s), e.g. https://shop.example.com: admin writes must come from one of
   * them. Empty: the origin the request's Host header names (right whenever the Host is not rewritten).
   */
  publicOrigins: string[];
  /**
   * The key the gateway signs each forwarded call's identity with (GATEWAY_SIGNING_KEY, from a Secret
   * the services share). Outside production, unset: a random key for this process, which no service
   * accepts, so admin calls answer 401 until the key is shared (the local runner always sets one).
   */
  signingKey: GatewaySigningKey;
  /** True when signingKey is that random per-process key. */
  signingKeyIsEphemeral: boolean;
}

type Env = Record<string, string | undefined>;

class ConfigError extends Error {}

function integer(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${raw}"`);
  }
  return value;
}

function url(name: string, raw: string | undefined, fallback: string): string {
  const value = raw === undefined || raw.trim() === '' ? fallback : raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL such as ${fallback}, got "${value}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http(s) URL such as ${fallback}, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

function trustProxy(raw: string | undefined): GatewayConfig['trustProxy'] {
  if (raw === undefined || raw.trim() === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) {
    // A hop count: trust that many proxies in front of the gateway (e.g. 1 for an ingress).
    const hops = Number(raw);
    return (_address, hop) => hop < hops;
  }
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function natsUrl(raw: string | undefined): string {
  const value = raw?.trim() || 'nats://127.0.0.1:4222';
  // A comma list of servers is allowed (a cluster); each must be a nats:// or tls:// address.
  for (const server of value.split(',')) {
    if (!/^(nats|tls|ws|wss):\/\/[^\s/]+$/.test(server.trim()))
      throw new ConfigError(`NATS_URL must be like nats://127.0.0.1:4222, got "${raw}"`);
  }
  return value;
}

function publicOrigins(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((item) => {
    const value = item.trim();
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(`PUBLIC_ORIGIN must be an origin such as https://shop.example.com, got "${value}"`);
    }
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== value.replace(/\/+$/, '')) {
      throw new ConfigError(
        `PUBLIC_ORIGIN must be an origin such as https://shop.example.com (no path), got "${value}"`,
      );
    }
    return parsed.origin.toLowerCase();
  });
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(raw: string | undefined): string {
  const value = raw?.trim() || 'info';
  if (!LOG_LEVELS.includes(value))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return value;
}

const local = (service: ServiceName) => `http://127.0.0.1:${defaultServicePorts[service]}`;

const defaultFrontendsDir = fileURLToPath(new URL('../../frontends', import.meta.url));

/** Reads the configuration from the process environment; tests use `configFromEnv` with their own values. */
export function loadConfig(): GatewayConfig {
  const env: Env = {
    HOST: process.env.HOST,
    PORT: process.env.PORT,
    LOG_LEVEL: process.env.LOG_LEVEL,
    NODE_ENV: process.env.NODE_ENV,
    OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    ORDERS_URL: process.env.ORDERS_URL,
    PAYMENTS_URL: process.env.PAYMENTS_URL,
    CUSTOMERS_URL: process.env.CUSTOMERS_URL,
    SUPPORT_URL: process.env.SUPPORT_URL,
    MARKETING_URL: process.env.MARKETING_URL,
    SECURITY_URL: process.env.SECURITY_URL,
    EMAIL_URL: process.env.EMAIL_URL,
    FRONTENDS_DIR: process.env.FRONTENDS_DIR,
    TRUST_PROXY: process.env.TRUST_PROXY,
    RATE_LIMIT_MAX: process.env.RATE_LIMIT_MAX,
    RATE_LIMIT_WINDOW_MS: process.env.RATE_LIMIT_WINDOW_MS,
    BODY_LIMIT_BYTES: process.env.BODY_LIMIT_BYTES,
    UPLOAD_BODY_LIMIT_BYTES: process.env.UPLOAD_BODY_LIMIT_BYTES,
    UPSTREAM_TIMEOUT_MS: process.env.UPSTREAM_TIMEOUT_MS,
    SLOW_UPSTREAM_TIMEOUT_MS: process.env.SLOW_UPSTREAM_TIMEOUT_MS,
    HEALTH_TIMEOUT_MS: process.env.HEALTH_TIMEOUT_MS,
    HEALTH_CACHE_MS: process.env.HEALTH_CACHE_MS,
    SHUTDOWN_TIMEOUT_MS: process.env.SHUTDOWN_TIMEOUT_MS,
    NATS_URL: process.env.NATS_URL,
    PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN,
    GATEWAY_SIGNING_KEY: process.env.GATEWAY_SIGNING_KEY,
  };
  return configFromEnv(env);
}

/** The signing key: strong and set in production (the start stops otherwise), random per process when unset elsewhere. */
function signingKey(env: Env): { signingKey: GatewaySigningKey; signingKeyIsEphemeral: boolean } {
  let ring;
  try {
    ring = gatewayKeyRing({ current: env.GATEWAY_SIGNING_KEY, nodeEnv: env.NODE_ENV?.trim() || 'development' });
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (ring.current) return { signingKey: ring.current, signingKeyIsEphemeral: false };
  return { signingKey: gatewaySigningKey(randomBytes(32).toString('base64url')), signingKeyIsEphemeral: true };
}

export function configFromEnv(env: Env): GatewayConfig {
  return {
    ...signingKey(env),
    host: env.HOST?.trim() || '127.0.0.1',
    port: integer('PORT', env.PORT, defaultGatewayPort, 0),
    logLevel: logLevel(env.LOG_LEVEL),
    nodeEnv: env.NODE_ENV?.trim() || 'development',
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()
      ? url('OTEL_EXPORTER_OTLP_ENDPOINT', env.OTEL_EXPORTER_OTLP_ENDPOINT, 'http://127.0.0.1:4318')
      : undefined,
    services: {
      orders: url('ORDERS_URL', env.ORDERS_URL, local('orders')),
      payments: url('PAYMENTS_URL', env.PAYMENTS_URL, local('payments')),
      customers: url('CUSTOMERS_URL', env.CUSTOMERS_URL, local('customers')),
      support: url('SUPPORT_URL', env.SUPPORT_URL, local('support')),
      marketing: url('MARKETING_URL', env.MARKETING_URL, local('marketing')),
      security: url('SECURITY_URL', env.SECURITY_URL, local('security')),
      email: url('EMAIL_URL', env.EMAIL_URL, local('email')),
    },
    frontendsDir: env.FRONTENDS_DIR?.trim() || defaultFrontendsDir,
    trustProxy: trustProxy(env.TRUST_PROXY),
    rateLimit: {
      max: integer('RATE_LIMIT_MAX', env.RATE_LIMIT_MAX, 300),
      windowMs: integer('RATE_LIMIT_WINDOW_MS', env.RATE_LIMIT_WINDOW_MS, 60_000),
    },
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', env.BODY_LIMIT_BYTES, 1024 * 1024),
    uploadBodyLimitBytes: integer('UPLOAD_BODY_LIMIT_BYTES', env.UPLOAD_BODY_LIMIT_BYTES, 60 * 1024 * 1024),
    upstreamTimeoutMs: integer('UPSTREAM_TIMEOUT_MS', env.UPSTREAM_TIMEOUT_MS, 15_000),
    slowUpstreamTimeoutMs: integer('SLOW_UPSTREAM_TIMEOUT_MS', env.SLOW_UPSTREAM_TIMEOUT_MS, 120_000),
    healthTimeoutMs: integer('HEALTH_TIMEOUT_MS', env.HEALTH_TIMEOUT_MS, 1_500),
    healthCacheMs: integer('HEALTH_CACHE_MS', env.HEALTH_CACHE_MS, 1_000, 0),
    shutdownTimeoutMs: integer('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000),
    natsUrl: natsUrl(env.NATS_URL),
    publicOrigins: publicOrigins(env.PUBLIC_ORIGIN),
  };
}
