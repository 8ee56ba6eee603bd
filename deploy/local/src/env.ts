import { randomBytes } from 'node:crypto';
import { serviceUrlVar } from './catalogue.js';

export type Env = Record<string, string>;

/**
 * Variables of the runner's own environment that must not leak into the children: the runner's PORT is
 * the gateway's, and test-runner markers would switch services into test behaviour.
 */
const NOT_INHERITED = [/^PORT$/, /^HOST$/, /^VITEST/, /^TEST$/, /^NODE_OPTIONS$/, /^TSX_/, /^npm_/];

/** The parent environment without what belongs to the runner itself. */
export function inheritedEnv(parent: NodeJS.ProcessEnv): Env {
  const env: Env = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined || NOT_INHERITED.some((pattern) => pattern.test(key))) continue;
    env[key] = value;
  }
  return env;
}

export interface CommonSettings {
  mongoUrl: string;
  natsUrl: string;
  nodeEnv: string;
  /** Colour-free logs for pipes; pino reads LOG_LEVEL through service-kit. */
  logLevel?: string;
}

/**
 * The key the gateway signs each forwarded call's identity with, shared by every service (service-kit
 * gateway-token.ts): a new random one for each run of the runner, unless GATEWAY_SIGNING_KEY is exported.
 */
export const runGatewaySigningKey = randomBytes(32).toString('base64url');

/**
 * Environment of one service (COMMON.md contract): MONGO_URL, NATS_URL, HOST, PORT, LOG_LEVEL, NODE_ENV,
 * GATEWAY_SIGNING_KEY. Everything else the user exported (Stripe, OpenAI, SMTP, OTEL_EXPORTER_OTLP_ENDPOINT...)
 * passes through.
 */
export function serviceEnv(parent: NodeJS.ProcessEnv, common: CommonSettings, port: number): Env {
  return {
    ...inheritedEnv(parent),
    GATEWAY_SIGNING_KEY: parent.GATEWAY_SIGNING_KEY || runGatewaySigningKey,
    NODE_ENV: common.nodeEnv,
    LOG_LEVEL: common.logLevel ?? parent.LOG_LEVEL ?? 'info',
    MONGO_URL: common.mongoUrl,
    NATS_URL: common.natsUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
  };
}

/** Environment of the gateway: the service env plus one `<NAME>_URL` per service and FRONTENDS_DIR. */
export function gatewayEnv(
  parent: NodeJS.ProcessEnv,
  common: CommonSettings,
  port: number,
  serviceUrls: Record<string, string>,
  frontendsDir: string,
  extra: Env = {},
): Env {
  const env = serviceEnv(parent, common, port);
  for (const [name, url] of Object.entries(serviceUrls)) env[serviceUrlVar(name)] = url;
  env.FRONTENDS_DIR = frontendsDir;
  return { ...env, ...extra };
}

/**
 * The documented development admin (services/security/README.md). Local runs are development: the
 * security service creates this first admin when none exists, and the browser tests sign in with it.
 */
export const DEV_ADMIN = { email: 'admin@shop.local', password: 'Shop-Local-Dev-2026!' } as const;

/** Extra env of the security service: the development admin, unless you exported your own or run production. */
export function securityEnv(parent: NodeJS.ProcessEnv, nodeEnv: string): Env {
  if (nodeEnv === 'production') return {};
  return {
    ADMIN_EMAIL: parent.ADMIN_EMAIL || DEV_ADMIN.email,
    ADMIN_PASSWORD: parent.ADMIN_PASSWORD || DEV_ADMIN.password,
  };
}
