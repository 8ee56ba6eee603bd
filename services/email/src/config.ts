// The email service's configuration. Env is read here only, as literal `process.env.NAME` reads
// (the Helm chart test scans for them), and checked by the service kit (common settings) and below
// (SMTP, sender, admin address, queue retries, the development mailbox).
import { z } from 'zod';
import { defaultServicePorts, shopName } from '@shop/contracts';
import { loadServiceConfig, type RawServiceEnv, type ServiceConfig } from '@shop/service-kit';

export interface RawEmailEnv extends RawServiceEnv {
  SMTP_URL?: string | undefined;
  SMTP_FROM?: string | undefined;
  ADMIN_NOTIFICATION_EMAIL?: string | undefined;
  SHOP_URL?: string | undefined;
  EMAIL_MAX_ATTEMPTS?: string | undefined;
  EMAIL_RETRY_BASE_MS?: string | undefined;
  EMAIL_RETRY_MAX_MS?: string | undefined;
  EMAIL_POLL_INTERVAL_MS?: string | undefined;
  EMAIL_CLAIM_LEASE_MS?: string | undefined;
  EMAIL_SEND_CONCURRENCY?: string | undefined;
  EMAIL_SMTP_MAX_MESSAGES?: string | undefined;
  EMAIL_CLAIM_BATCH_SIZE?: string | undefined;
  DEV_MAILBOX_URL?: string | undefined;
}

export interface EmailSettings {
  /** smtp://[user:pass@]host:port or smtps://... */
  smtpUrl: string;
  from: string;
  /** Default admin address until an administrator saves another one. */
  adminNotificationEmail: string;
  /** Public address of the shop, for links in emails (tracking page). */
  shopUrl: string;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  pollIntervalMs: number;
  /** How long a worker's claim on an email lasts; after a crash another worker takes the email over then. */
  claimLeaseMs: number;
  /** Sends in flight at once; also the number of pooled SMTP connections. */
  sendConcurrency: number;
  /** Messages one pooled SMTP connection carries before it is closed and replaced. */
  smtpMaxMessages: number;
  /** Queued emails claimed in one round trip. */
  claimBatchSize: number;
  /** The local runner's dev mailbox HTTP API; set only when it started one (never in a cluster). */
  devMailboxUrl: string | undefined;
}

export interface EmailConfig extends ServiceConfig {
  email: EmailSettings;
}

export function readEnv(): RawEmailEnv {
  return {
    HOST: process.env.HOST,
    PORT: process.env.PORT,
    MONGO_URL: process.env.MONGO_URL,
    NATS_URL: process.env.NATS_URL,
    LOG_LEVEL: process.env.LOG_LEVEL,
    NODE_ENV: process.env.NODE_ENV,
    OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    SMTP_URL: process.env.SMTP_URL,
    SMTP_FROM: process.env.SMTP_FROM,
    ADMIN_NOTIFICATION_EMAIL: process.env.ADMIN_NOTIFICATION_EMAIL,
    SHOP_URL: process.env.SHOP_URL,
    EMAIL_MAX_ATTEMPTS: process.env.EMAIL_MAX_ATTEMPTS,
    EMAIL_RETRY_BASE_MS: process.env.EMAIL_RETRY_BASE_MS,
    EMAIL_RETRY_MAX_MS: process.env.EMAIL_RETRY_MAX_MS,
    EMAIL_POLL_INTERVAL_MS: process.env.EMAIL_POLL_INTERVAL_MS,
    EMAIL_CLAIM_LEASE_MS: process.env.EMAIL_CLAIM_LEASE_MS,
    EMAIL_SEND_CONCURRENCY: process.env.EMAIL_SEND_CONCURRENCY,
    EMAIL_SMTP_MAX_MESSAGES: process.env.EMAIL_SMTP_MAX_MESSAGES,
    EMAIL_CLAIM_BATCH_SIZE: process.env.EMAIL_CLAIM_BATCH_SIZE,
    DEV_MAILBOX_URL: process.env.DEV_MAILBOX_URL,
  };
}

export const defaultSmtpUrl = 'smtp://127.0.0.1:2525';
export const defaultFrom = `${shopName} <orders@shop.local>`;
export const defaultAdminEmail = 'admin@shop.local';

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const whole = (name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    blank,
    z.coerce
      .number({ error: `${name} must be a whole number` })
      .int(`${name} must be a whole number`)
      .min(min, `${name} must be at least ${min}`)
      .max(max, `${name} must be at most ${max}`)
      .default(fallback),
  );
const loopback = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/;

const emailEnvSchema = z.object({
  SMTP_URL: z.preprocess(
    blank,
    z
      .string()
      .regex(/^smtps?:\/\/[^/]+/, 'SMTP_URL must look like smtp://host:port or smtps://user:password@host:port')
      .default(defaultSmtpUrl),
  ),
  SMTP_FROM: z.preprocess(blank, z.string().min(3).default(defaultFrom)),
  ADMIN_NOTIFICATION_EMAIL: z.preprocess(
    blank,
    z.email('ADMIN_NOTIFICATION_EMAIL must be an email address').default(defaultAdminEmail),
  ),
  SHOP_URL: z.preprocess(
    blank,
    z.url('SHOP_URL must be a URL such as https://shop.example.com').default('http://127.0.0.1:8080'),
  ),
  EMAIL_MAX_ATTEMPTS: whole('EMAIL_MAX_ATTEMPTS', 6, 1),
  EMAIL_RETRY_BASE_MS: whole('EMAIL_RETRY_BASE_MS', 30_000, 10),
  EMAIL_RETRY_MAX_MS: whole('EMAIL_RETRY_MAX_MS', 30 * 60_000, 10),
  EMAIL_POLL_INTERVAL_MS: whole('EMAIL_POLL_INTERVAL_MS', 1000, 10),
  // Longer than any one SMTP send (socket timeout 30 s), or a slow send could be taken over and sent twice.
  EMAIL_CLAIM_LEASE_MS: whole('EMAIL_CLAIM_LEASE_MS', 2 * 60_000, 1000),
  // SMTP servers limit connections per client; 8 reaches a few hundred emails per second on loopback.
  EMAIL_SEND_CONCURRENCY: whole('EMAIL_SEND_CONCURRENCY', 8, 1, 100),
  EMAIL_SMTP_MAX_MESSAGES: whole('EMAIL_SMTP_MAX_MESSAGES', 100, 1),
  EMAIL_CLAIM_BATCH_SIZE: whole('EMAIL_CLAIM_BATCH_SIZE', 50, 1, 1000),
  // The mailbox keeps every local email in clear: only ever reachable on this machine.
  DEV_MAILBOX_URL: z.preprocess(
    blank,
    z.string().regex(loopback, 'DEV_MAILBOX_URL must be a loopback http URL, e.g. http://127.0.0.1:2526').optional(),
  ),
});

export function loadConfig(env: RawEmailEnv = readEnv()): EmailConfig {
  const base = loadServiceConfig(env, { port: defaultServicePorts.email });
  const parsed = emailEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid service configuration: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  const e = parsed.data;
  return {
    ...base,
    email: {
      smtpUrl: e.SMTP_URL,
      from: e.SMTP_FROM,
      adminNotificationEmail: e.ADMIN_NOTIFICATION_EMAIL,
      shopUrl: e.SHOP_URL.replace(/\/+$/, ''),
      maxAttempts: e.EMAIL_MAX_ATTEMPTS,
      retryBaseMs: e.EMAIL_RETRY_BASE_MS,
      retryMaxMs: Math.max(e.EMAIL_RETRY_MAX_MS, e.EMAIL_RETRY_BASE_MS),
      pollIntervalMs: e.EMAIL_POLL_INTERVAL_MS,
      claimLeaseMs: e.EMAIL_CLAIM_LEASE_MS,
      sendConcurrency: e.EMAIL_SEND_CONCURRENCY,
      smtpMaxMessages: e.EMAIL_SMTP_MAX_MESSAGES,
      claimBatchSize: e.EMAIL_CLAIM_BATCH_SIZE,
      devMailboxUrl: e.DEV_MAILBOX_URL?.replace(/\/+$/, ''),
    },
  };
}
