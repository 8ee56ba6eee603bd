// The security service's configuration. Env is read here only, as literal `process.env.NAME` reads
// (the Helm chart test scans for them), and checked by the service kit plus the sign-in rules below.
import { defaultServicePorts } from '@shop/contracts';
import { loadServiceConfig, type RawServiceEnv, type ServiceConfig } from '@shop/service-kit';
import { passwordWeakness } from './domain/password-policy.js';

export interface RawSecurityEnv extends RawServiceEnv {
  ADMIN_EMAIL?: string | undefined;
  ADMIN_PASSWORD?: string | undefined;
  ADMIN_NAME?: string | undefined;
  SESSION_COOKIE_SECURE?: string | undefined;
  SECURITY_LOG_RETENTION_DAYS?: string | undefined;
}

/** Documented local-development admin (README): used only when NODE_ENV is not production. */
export const devAdmin = {
  email: 'admin@shop.local',
  password: 'Shop-Local-Dev-2026!',
  name: 'Shop Administrator',
} as const;

export interface SecurityConfig extends ServiceConfig {
  /** Who the first admin is when none exists yet. */
  firstAdmin: {
    email: string;
    password: string;
    name: string;
    /** True when the documented development credentials are in use (they are printed at start). */
    documentedDefault: boolean;
  };
  /** Secure attribute of the session cookie (HTTPS only). */
  cookieSecure: boolean;
  /** How long request log entries are kept (TTL), in days. */
  logRetentionDays: number;
}

export function readEnv(): RawSecurityEnv {
  return {
    HOST: process.env.HOST,
    PORT: process.env.PORT,
    MONGO_URL: process.env.MONGO_URL,
    NATS_URL: process.env.NATS_URL,
    LOG_LEVEL: process.env.LOG_LEVEL,
    NODE_ENV: process.env.NODE_ENV,
    OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    ADMIN_EMAIL: process.env.ADMIN_EMAIL,
    ADMIN_PASSWORD: process.env.ADMIN_PASSWORD,
    ADMIN_NAME: process.env.ADMIN_NAME,
    SESSION_COOKIE_SECURE: process.env.SESSION_COOKIE_SECURE,
    SECURITY_LOG_RETENTION_DAYS: process.env.SECURITY_LOG_RETENTION_DAYS,
  };
}

const blank = (value: string | undefined) => value === undefined || value.trim() === '';
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Checks the environment; throws one error naming every problem. In production the first admin must
 * come from ADMIN_EMAIL / ADMIN_PASSWORD, and the password must be strong: a shop reachable from the
 * internet never starts with a guessable back-office password.
 */
export function loadConfig(env: RawSecurityEnv = readEnv()): SecurityConfig {
  const base = loadServiceConfig(env, { port: defaultServicePorts.security });
  const production = base.nodeEnv === 'production';
  const problems: string[] = [];

  const email = blank(env.ADMIN_EMAIL) ? undefined : env.ADMIN_EMAIL!.trim().toLowerCase();
  const password = blank(env.ADMIN_PASSWORD) ? undefined : env.ADMIN_PASSWORD!;
  if (production && !email) problems.push("ADMIN_EMAIL is required when NODE_ENV=production (the first admin's email)");
  if (production && !password)
    problems.push("ADMIN_PASSWORD is required when NODE_ENV=production (the first admin's password)");
  if (email && !emailShape.test(email)) problems.push(`ADMIN_EMAIL must be an email address, got "${email}"`);
  const chosenEmail = email ?? devAdmin.email;
  // The development password is printed in the README: a production shop never takes it, however strong it looks.
  if (production && password === devAdmin.password)
    problems.push(
      'ADMIN_PASSWORD is the published development password (services/security/README.md); choose your own',
    );
  else if (password) {
    const weakness = passwordWeakness(password, chosenEmail);
    if (weakness && production) problems.push(`ADMIN_PASSWORD is too weak: ${weakness}`);
  }

  let cookieSecure = production;
  if (!blank(env.SESSION_COOKIE_SECURE)) {
    const raw = env.SESSION_COOKIE_SECURE!.trim().toLowerCase();
    if (raw === 'true' || raw === '1') cookieSecure = true;
    else if (raw === 'false' || raw === '0') cookieSecure = false;
    else problems.push(`SESSION_COOKIE_SECURE must be true or false, got "${env.SESSION_COOKIE_SECURE}"`);
  }

  let logRetentionDays = 30;
  if (!blank(env.SECURITY_LOG_RETENTION_DAYS)) {
    const days = Number(env.SECURITY_LOG_RETENTION_DAYS);
    if (Number.isInteger(days) && days >= 1 && days <= 3650) logRetentionDays = days;
    else
      problems.push(
        `SECURITY_LOG_RETENTION_DAYS must be a whole number of days from 1 to 3650, got "${env.SECURITY_LOG_RETENTION_DAYS}"`,
      );
  }

  if (problems.length) throw new Error(`Invalid security configuration: ${problems.join('; ')}`);

  const chosenPassword = password ?? devAdmin.password;
  return {
    ...base,
    firstAdmin: {
      email: chosenEmail,
      password: chosenPassword,
      name: blank(env.ADMIN_NAME) ? devAdmin.name : env.ADMIN_NAME!.trim(),
      documentedDefault: chosenPassword === devAdmin.password,
    },
    cookieSecure,
    logRetentionDays,
  };
}
