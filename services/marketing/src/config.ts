// The marketing service's configuration. Env is read here only, as literal `process.env.NAME` reads
// (the Helm chart test scans for them), and checked by the service kit (common settings) and below
// (the SMS provider and the campaign sender).
import { z } from 'zod';
import { defaultServicePorts } from '@shop/contracts';
import { loadServiceConfig, type RawServiceEnv, type ServiceConfig } from '@shop/service-kit';

export interface RawMarketingEnv extends RawServiceEnv {
  TWILIO_ACCOUNT_SID?: string | undefined;
  TWILIO_AUTH_TOKEN?: string | undefined;
  TWILIO_FROM?: string | undefined;
  /** Only for tests and local fakes: where the twilio SDK's https://api.twilio.com requests go instead. */
  TWILIO_API_URL?: string | undefined;
  CAMPAIGN_BATCH_SIZE?: string | undefined;
  MARKETING_JOB_INTERVAL_MS?: string | undefined;
}

/** Twilio when all three are set; otherwise SMS go to the local development outbox. */
export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from: string;
  apiUrl: string | undefined;
}

export interface MarketingConfig extends ServiceConfig {
  twilio: TwilioSettings | undefined;
  /** Subscribers per campaign.send_requested event. */
  campaignBatchSize: number;
  /** How often the jobs look for due scheduled campaigns, unfinished sends and queued SMS. */
  jobIntervalMs: number;
}

export function readEnv(): RawMarketingEnv {
  return {
    HOST: process.env.HOST,
    PORT: process.env.PORT,
    MONGO_URL: process.env.MONGO_URL,
    NATS_URL: process.env.NATS_URL,
    LOG_LEVEL: process.env.LOG_LEVEL,
    NODE_ENV: process.env.NODE_ENV,
    OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    TWILIO_ACCOUNT_SID: process.env.TWILIO_ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: process.env.TWILIO_AUTH_TOKEN,
    TWILIO_FROM: process.env.TWILIO_FROM,
    TWILIO_API_URL: process.env.TWILIO_API_URL,
    CAMPAIGN_BATCH_SIZE: process.env.CAMPAIGN_BATCH_SIZE,
    MARKETING_JOB_INTERVAL_MS: process.env.MARKETING_JOB_INTERVAL_MS,
  };
}

const blank = (v: unknown) =>
  typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v;
const whole = (name: string, fallback: number, min: number, max: number) =>
  z.preprocess(
    blank,
    z.coerce
      .number({ error: `${name} must be a whole number` })
      .int(`${name} must be a whole number`)
      .min(min, `${name} must be at least ${min}`)
      .max(max, `${name} must be at most ${max}`)
      .default(fallback),
  );

const marketingEnvSchema = z.object({
  TWILIO_ACCOUNT_SID: z.preprocess(
    blank,
    z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'TWILIO_ACCOUNT_SID must look like AC followed by 32 hex digits')
      .optional(),
  ),
  TWILIO_AUTH_TOKEN: z.preprocess(blank, z.string().min(8, 'TWILIO_AUTH_TOKEN is too short').optional()),
  TWILIO_FROM: z.preprocess(
    blank,
    z
      .string()
      .regex(
        /^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/,
        'TWILIO_FROM must be an E.164 number such as +15005550006 or a messaging service SID',
      )
      .optional(),
  ),
  TWILIO_API_URL: z.preprocess(blank, z.url('TWILIO_API_URL must be a URL').optional()),
  CAMPAIGN_BATCH_SIZE: whole('CAMPAIGN_BATCH_SIZE', 200, 1, 500),
  MARKETING_JOB_INTERVAL_MS: whole('MARKETING_JOB_INTERVAL_MS', 5000, 20, 600_000),
});

export function loadConfig(env: RawMarketingEnv = readEnv()): MarketingConfig {
  const base = loadServiceConfig(env, { port: defaultServicePorts.marketing });
  const parsed = marketingEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid service configuration: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  const e = parsed.data;
  const twilioParts = [e.TWILIO_ACCOUNT_SID, e.TWILIO_AUTH_TOKEN, e.TWILIO_FROM];
  const someTwilio = twilioParts.some((v) => v !== undefined);
  if (someTwilio && twilioParts.some((v) => v === undefined)) {
    throw new Error(
      'Invalid service configuration: set all of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM, or none',
    );
  }
  return {
    ...base,
    twilio: someTwilio
      ? {
          accountSid: e.TWILIO_ACCOUNT_SID!,
          authToken: e.TWILIO_AUTH_TOKEN!,
          from: e.TWILIO_FROM!,
          apiUrl: e.TWILIO_API_URL,
        }
      : undefined,
    campaignBatchSize: e.CAMPAIGN_BATCH_SIZE,
    jobIntervalMs: e.MARKETING_JOB_INTERVAL_MS,
  };
}
