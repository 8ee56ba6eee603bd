// The payments service's configuration. Env is read here only, as literal `process.env.NAME` reads
// (the Helm chart test scans for them), and checked by the service kit (plus the Stripe settings here).
import { defaultServicePorts, type PaymentMode } from '@shop/contracts';
import { loadServiceConfig, type RawServiceEnv, type ServiceConfig } from '@shop/service-kit';

export interface RawPaymentsEnv extends RawServiceEnv {
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_PUBLISHABLE_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  STRIPE_API_URL?: string | undefined;
}

/** Stripe's keys, and where its API is (unset: api.stripe.com; tests point it at a local fake). */
export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  apiUrl: { host: string; port: number; protocol: 'http' | 'https' } | undefined;
}

export interface PaymentsConfig extends ServiceConfig {
  /** stripe when STRIPE_SECRET_KEY is set; else the service's own test-mode provider. */
  mode: PaymentMode;
  stripe: StripeConfig | undefined;
}

export function readEnv(): RawPaymentsEnv {
  return {
    HOST: process.env.HOST,
    PORT: process.env.PORT,
    MONGO_URL: process.env.MONGO_URL,
    NATS_URL: process.env.NATS_URL,
    LOG_LEVEL: process.env.LOG_LEVEL,
    NODE_ENV: process.env.NODE_ENV,
    OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: process.env.STRIPE_PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: process.env.STRIPE_API_URL,
  };
}

const blank = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

function parseApiUrl(value: string, problems: string[]): StripeConfig['apiUrl'] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push('STRIPE_API_URL must be an http(s) URL, e.g. http://127.0.0.1:12111');
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push('STRIPE_API_URL must be an http(s) URL, e.g. http://127.0.0.1:12111');
    return undefined;
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

export function loadConfig(env: RawPaymentsEnv = readEnv()): PaymentsConfig {
  const base = loadServiceConfig(env, { port: defaultServicePorts.payments });
  const secretKey = blank(env.STRIPE_SECRET_KEY);
  const publishableKey = blank(env.STRIPE_PUBLISHABLE_KEY);
  const webhookSecret = blank(env.STRIPE_WEBHOOK_SECRET);
  const apiUrlText = blank(env.STRIPE_API_URL);
  const problems: string[] = [];

  if (!secretKey) {
    // A shop in production must not take pretend payments.
    if (base.nodeEnv === 'production') {
      problems.push(
        'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are required when NODE_ENV=production (test mode takes no real payments)',
      );
    } else if (publishableKey || webhookSecret) {
      problems.push('STRIPE_SECRET_KEY is required when STRIPE_PUBLISHABLE_KEY or STRIPE_WEBHOOK_SECRET is set');
    }
    if (problems.length) throw new Error(`Invalid service configuration: ${problems.join('; ')}`);
    return { ...base, mode: 'test_mode', stripe: undefined };
  }

  if (!/^(sk|rk)_/.test(secretKey)) problems.push('STRIPE_SECRET_KEY must be a Stripe secret key (sk_... or rk_...)');
  if (!publishableKey) problems.push('STRIPE_PUBLISHABLE_KEY is required when STRIPE_SECRET_KEY is set');
  else if (!publishableKey.startsWith('pk_'))
    problems.push('STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_...)');
  if (!webhookSecret)
    problems.push('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set (webhooks are verified with it)');
  else if (!webhookSecret.startsWith('whsec_'))
    problems.push('STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_...)');
  const apiUrl = apiUrlText ? parseApiUrl(apiUrlText, problems) : undefined;
  if (problems.length) throw new Error(`Invalid service configuration: ${problems.join('; ')}`);

  return {
    ...base,
    mode: 'stripe',
    stripe: { secretKey, publishableKey: publishableKey!, webhookSecret: webhookSecret!, apiUrl },
  };
}
