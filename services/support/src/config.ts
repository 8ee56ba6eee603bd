// The support service's configuration. Env is read here only, as literal `process.env.NAME` reads
// (the Helm chart test scans for them), and checked by the service kit (common settings) and below
// (the default contact details shown until an administrator saves the contact config).
import { contactConfigSchema, defaultSupportEmail, defaultServicePorts } from '@shop/contracts';
import { loadServiceConfig, type RawServiceEnv, type ServiceConfig } from '@shop/service-kit';

export interface RawSupportEnv extends RawServiceEnv {
  SUPPORT_EMAIL?: string | undefined;
  SUPPORT_PHONE?: string | undefined;
}

/** The contact details used until an administrator saves the contact config. */
export interface ContactDefaults {
  supportEmail: string;
  /** Empty when SUPPORT_PHONE is unset: no phone is shown unless one is configured. */
  supportPhone: string;
}

export interface SupportConfig extends ServiceConfig {
  contactDefaults: ContactDefaults;
}

export function readEnv(): RawSupportEnv {
  return {
    HOST: process.env.HOST,
    PORT: process.env.PORT,
    MONGO_URL: process.env.MONGO_URL,
    NATS_URL: process.env.NATS_URL,
    LOG_LEVEL: process.env.LOG_LEVEL,
    NODE_ENV: process.env.NODE_ENV,
    OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    SUPPORT_EMAIL: process.env.SUPPORT_EMAIL,
    SUPPORT_PHONE: process.env.SUPPORT_PHONE,
  };
}

const blank = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

export function loadConfig(env: RawSupportEnv = readEnv()): SupportConfig {
  const base = loadServiceConfig(env, { port: defaultServicePorts.support });
  const email = blank(env.SUPPORT_EMAIL);
  const phone = blank(env.SUPPORT_PHONE) ?? '';
  // Customers are told to write to this address: a shop in production must name its real one.
  if (!email && base.nodeEnv === 'production') {
    throw new Error(
      'Invalid service configuration: SUPPORT_EMAIL is required when NODE_ENV=production (the address customers write to)',
    );
  }
  // The same rules as an administrator's save, so a default can never be something an admin could not enter.
  const checked = contactConfigSchema.safeParse({
    supportEmail: email ?? defaultSupportEmail,
    supportPhone: phone,
    showPhone: phone !== '',
  });
  if (!checked.success) {
    const problems = checked.error.issues.map((i) =>
      i.path[0] === 'supportEmail' ? 'SUPPORT_EMAIL must be an email address' : `SUPPORT_PHONE: ${i.message}`,
    );
    throw new Error(`Invalid service configuration: ${problems.join('; ')}`);
  }
  return {
    ...base,
    contactDefaults: { supportEmail: checked.data.supportEmail, supportPhone: checked.data.supportPhone },
  };
}
