// The customers service's configuration. Env is read here only, as literal `process.env.NAME` reads
// (the Helm chart test scans for them), and checked by the service kit (common settings) and below
// (the lookup's secret and limits).
import { z } from 'zod';
import { defaultServicePorts } from '@shop/contracts';
import { loadServiceConfig, type RawServiceEnv, type ServiceConfig } from '@shop/service-kit';

export interface RawCustomersEnv extends RawServiceEnv {
  VERIFICATION_CODE_SECRET?: string | undefined;
  LOOKUP_LIMIT_PER_EMAIL?: string | undefined;
  LOOKUP_LIMIT_PER_IP?: string | undefined;
  VERIFY_LIMIT_PER_IP?: string | undefined;
  LOOKUP_WINDOW_MINUTES?: string | undefined;
  VIP_MIN_SPENT?: string | undefined;
  VIP_MIN_ORDERS?: string | undefined;
  ACTIVE_WITHIN_MONTHS?: string | undefined;
}

export interface LookupSettings {
  /**
   * Server secret mixed into every code hash (HMAC key), so a copy of the database alone cannot be
   * brute-forced. Unset: a fixed development secret is used and a warning is logged at start.
   */
  secret: string;
  secretIsDevelopmentDefault: boolean;
  /** Codes requested per email address per window. */
  perEmail: number;
  /** Lookups per client address per window. */
  perIp: number;
  /** Verification attempts per client address per window (each code also locks after 5 wrong tries). */
  verifyPerIp: number;
  windowMs: number;
}

/** The customer status rule's thresholds (README "Customer status"; domain/customer-status.ts). */
export interface StatusSettings {
  /** VIP from this much spent (dollars, orders that count as spent). */
  vipMinSpent: number;
  /** ...or from this many orders that count as spent. */
  vipMinOrders: number;
  /** Active: an order within this many months; inactive otherwise. */
  activeWithinMonths: number;
}

export interface CustomersConfig extends ServiceConfig {
  lookup: LookupSettings;
  status: StatusSettings;
}

export function readEnv(): RawCustomersEnv {
  return {
    HOST: process.env.HOST,
    PORT: process.env.PORT,
    MONGO_URL: process.env.MONGO_URL,
    NATS_URL: process.env.NATS_URL,
    LOG_LEVEL: process.env.LOG_LEVEL,
    NODE_ENV: process.env.NODE_ENV,
    OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    VERIFICATION_CODE_SECRET: process.env.VERIFICATION_CODE_SECRET,
    LOOKUP_LIMIT_PER_EMAIL: process.env.LOOKUP_LIMIT_PER_EMAIL,
    LOOKUP_LIMIT_PER_IP: process.env.LOOKUP_LIMIT_PER_IP,
    VERIFY_LIMIT_PER_IP: process.env.VERIFY_LIMIT_PER_IP,
    LOOKUP_WINDOW_MINUTES: process.env.LOOKUP_WINDOW_MINUTES,
    VIP_MIN_SPENT: process.env.VIP_MIN_SPENT,
    VIP_MIN_ORDERS: process.env.VIP_MIN_ORDERS,
    ACTIVE_WITHIN_MONTHS: process.env.ACTIVE_WITHIN_MONTHS,
  };
}

/** Only ever used when VERIFICATION_CODE_SECRET is unset (local runs and tests); the chart requires the secret. */
export const developmentCodeSecret = 'shop-development-verification-secret';

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const count = (name: string, fallback: number) =>
  z.preprocess(
    blank,
    z.coerce
      .number({ error: `${name} must be a whole number` })
      .int(`${name} must be a whole number`)
      .min(1, `${name} must be at least 1`)
      .default(fallback),
  );

const lookupEnvSchema = z.object({
  VERIFICATION_CODE_SECRET: z.preprocess(
    blank,
    z.string().min(16, 'VERIFICATION_CODE_SECRET must be at least 16 characters').optional(),
  ),
  LOOKUP_LIMIT_PER_EMAIL: count('LOOKUP_LIMIT_PER_EMAIL', 3),
  LOOKUP_LIMIT_PER_IP: count('LOOKUP_LIMIT_PER_IP', 10),
  VERIFY_LIMIT_PER_IP: count('VERIFY_LIMIT_PER_IP', 30),
  LOOKUP_WINDOW_MINUTES: count('LOOKUP_WINDOW_MINUTES', 15),
  VIP_MIN_SPENT: z.preprocess(
    blank,
    z.coerce
      .number({ error: 'VIP_MIN_SPENT must be a number of dollars' })
      .positive('VIP_MIN_SPENT must be above 0')
      .default(5000),
  ),
  VIP_MIN_ORDERS: count('VIP_MIN_ORDERS', 5),
  ACTIVE_WITHIN_MONTHS: count('ACTIVE_WITHIN_MONTHS', 12),
});

export function loadConfig(env: RawCustomersEnv = readEnv()): CustomersConfig {
  const base = loadServiceConfig(env, { port: defaultServicePorts.customers });
  const parsed = lookupEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid service configuration: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  const e = parsed.data;
  return {
    ...base,
    lookup: {
      secret: e.VERIFICATION_CODE_SECRET ?? developmentCodeSecret,
      secretIsDevelopmentDefault: e.VERIFICATION_CODE_SECRET === undefined,
      perEmail: e.LOOKUP_LIMIT_PER_EMAIL,
      perIp: e.LOOKUP_LIMIT_PER_IP,
      verifyPerIp: e.VERIFY_LIMIT_PER_IP,
      windowMs: e.LOOKUP_WINDOW_MINUTES * 60_000,
    },
    status: {
      vipMinSpent: e.VIP_MIN_SPENT,
      vipMinOrders: e.VIP_MIN_ORDERS,
      activeWithinMonths: e.ACTIVE_WITHIN_MONTHS,
    },
  };
}
