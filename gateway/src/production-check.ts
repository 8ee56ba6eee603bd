// GET /api/health/production-check (admin part A §2 Production readiness, §3 Production report): real
// probes of the running shop, each bounded in time and all run at once, so the report arrives within the
// page's 30 s even when a service or NATS is down (its checks then fail and name it). Facts a service
// owns come from its internal `GET /readyz/facts` (service kit); JetStream is asked directly; the
// gateway's own settings are read from its config. Every failure carries a recommendation.
import type { FastifyInstance } from 'fastify';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  defaultSupportEmail,
  eventStreams,
  permitExpiryWarningDays,
  productionCheckPath,
  readinessFactsPath,
  readinessFactsSchema,
  summarizeChecks,
  type CheckResult,
  type ProductionReport,
  type ReadinessFacts,
} from '@shop/contracts';
import type { GatewayConfig } from './config.js';
import { shopHealth, type ShopHealth } from './health.js';
import { SERVICE_NAMES, type ServiceName } from './routes.js';

/** Longest wait for any one probe; the probes run in parallel, so the whole stays far below 30 s. */
export const PROBE_TIMEOUT_MS = 5_000;
/** A consumer this far behind its stream is worth a look. */
export const CONSUMER_LAG_WARNING = 1_000;
/** The JetStream probe as a whole (connect plus every stream and its consumers). */
const JETSTREAM_DEADLINE_MS = 12_000;
/** Outbox events older than this are not being published. */
const OUTBOX_STALE_SECONDS = 60;

type Facts = Partial<Record<ServiceName, ReadinessFacts>>;
type FactsErrors = Partial<Record<ServiceName, string>>;

const pass = (category: string, test: string, message: string, details?: unknown): CheckResult => ({
  category,
  test,
  status: 'pass',
  message,
  details,
});
const warn = (
  category: string,
  test: string,
  message: string,
  recommendation: string,
  details?: unknown,
): CheckResult => ({
  category,
  test,
  status: 'warning',
  message,
  recommendation,
  details,
});
const fail = (
  category: string,
  test: string,
  message: string,
  recommendation: string,
  details?: unknown,
  critical = false,
): CheckResult => ({
  category,
  test,
  status: 'fail',
  message,
  recommendation,
  details,
  ...(critical ? { critical: true } : {}),
});

function reason(error: unknown): string {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${PROBE_TIMEOUT_MS} ms`;
  const code =
    (error as { cause?: { code?: string }; code?: string })?.cause?.code ?? (error as { code?: string })?.code;
  if (code === 'ECONNREFUSED') return 'not running (connection refused)';
  return error instanceof Error ? error.message : String(error);
}

function withDeadline<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

async function serviceFacts(config: GatewayConfig, requestId: string): Promise<{ facts: Facts; errors: FactsErrors }> {
  const facts: Facts = {};
  const errors: FactsErrors = {};
  await Promise.all(
    SERVICE_NAMES.map(async (name) => {
      try {
        const res = await fetch(`${config.services[name]}${readinessFactsPath}`, {
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
          headers: { accept: 'application/json', 'x-request-id': requestId },
        });
        if (!res.ok) throw new Error(`answered HTTP ${res.status}`);
        const parsed = readinessFactsSchema.safeParse(await res.json());
        if (!parsed.success) throw new Error('answered without readiness facts');
        facts[name] = parsed.data;
      } catch (error) {
        errors[name] = reason(error);
      }
    }),
  );
  return { facts, errors };
}

function serviceChecks(health: ShopHealth): CheckResult[] {
  return SERVICE_NAMES.map((name) => {
    const h = health.services[name];
    const details = { status: h.status, checks: h.checks, latencyMs: h.latencyMs };
    if (h.status === 'ready')
      return pass('Services', `${name} service`, `Ready (database and NATS up, ${h.latencyMs} ms)`, details);
    return fail(
      'Services',
      `${name} service`,
      `The ${name} service is ${h.status === 'unreachable' ? 'unreachable' : 'not ready'}: ${h.error ?? 'unknown reason'}`,
      `Start the ${name} service, or restore what its readiness names (MongoDB, NATS); its logs say why it stopped.`,
      details,
      true,
    );
  });
}

function databaseChecks(facts: Facts, errors: FactsErrors): CheckResult[] {
  const sets = SERVICE_NAMES.map((name) => [name, facts[name]?.mongo.replicaSet ?? null] as const);
  const unknown = SERVICE_NAMES.filter((name) => !facts[name]);
  const standalone = sets.filter(([name, set]) => facts[name] && facts[name].mongo.up && !set).map(([name]) => name);
  const names = [...new Set(sets.map(([, s]) => s).filter(Boolean))];
  if (standalone.length) {
    return [
      fail(
        'Database',
        'MongoDB replica set',
        `MongoDB is not a replica set for: ${standalone.join(', ')}`,
        'Run MongoDB as a replica set (MONGO_URL with ?replicaSet=...): the outbox writes each change and its event in one transaction, which needs one.',
        { replicaSets: Object.fromEntries(sets) },
        true,
      ),
    ];
  }
  if (unknown.length === SERVICE_NAMES.length) {
    return [
      fail(
        'Database',
        'MongoDB replica set',
        'No service could report its database',
        'Start the services; then run the check again.',
        errors,
        true,
      ),
    ];
  }
  const result = pass('Database', 'MongoDB replica set', `Replica set ${names.join(', ') || '(none reported)'}`, {
    replicaSets: Object.fromEntries(sets),
  });
  return unknown.length
    ? [
        result,
        warn(
          'Database',
          'MongoDB replica set (unreported)',
          `Not reported by: ${unknown.join(', ')}`,
          'Start the services that did not answer, then run the check again.',
          errors,
        ),
      ]
    : [result];
}

function outboxChecks(facts: Facts, errors: FactsErrors): CheckResult[] {
  return SERVICE_NAMES.map((name) => {
    const f = facts[name];
    const test = `${name} outbox`;
    if (!f)
      return fail(
        'Messaging',
        test,
        `Outbox backlog unknown: the ${name} service ${errors[name] ?? 'did not answer'}`,
        `Start the ${name} service; events it wrote wait in its outbox until then.`,
        undefined,
        false,
      );
    const { pending, oldestPendingAgeSeconds: age, failingAttempts } = f.outbox;
    if (pending < 0)
      return fail(
        'Messaging',
        test,
        'Outbox backlog unknown: the database did not answer',
        `Check the ${name} service's MongoDB connection.`,
      );
    if (pending === 0) return pass('Messaging', test, 'No events waiting', f.outbox);
    if ((age ?? 0) > OUTBOX_STALE_SECONDS * 10 || failingAttempts >= 5) {
      return fail(
        'Messaging',
        test,
        `${pending} event(s) waiting, the oldest for ${age} s (${failingAttempts} publish attempts)`,
        `The ${name} service cannot publish to JetStream: check NATS and the service's logs ("outbox").`,
        f.outbox,
      );
    }
    if ((age ?? 0) > OUTBOX_STALE_SECONDS) {
      return warn(
        'Messaging',
        test,
        `${pending} event(s) waiting, the oldest for ${age} s`,
        `Watch the ${name} service's outbox: events should leave within seconds.`,
        f.outbox,
      );
    }
    return pass('Messaging', test, `${pending} event(s) on their way (oldest ${age ?? 0} s)`, f.outbox);
  });
}

async function jetStreamChecks(config: GatewayConfig): Promise<CheckResult[]> {
  let nc: Awaited<ReturnType<typeof connect>> | undefined;
  try {
    nc = await connect({
      servers: config.natsUrl,
      name: 'shop-gateway-production-check',
      timeout: PROBE_TIMEOUT_MS,
      reconnect: false,
    });
    const jsm = await jetstreamManager(nc, { timeout: PROBE_TIMEOUT_MS });
    const results: CheckResult[] = [];
    for (const name of Object.keys(eventStreams)) {
      try {
        const info = await jsm.streams.info(name);
        const consumers = await jsm.consumers.list(name).next();
        const lag = consumers.map((c) => ({
          consumer: c.name,
          pending: c.num_pending,
          ackPending: c.num_ack_pending,
          redelivered: c.num_redelivered,
        }));
        const behind = lag.filter((c) => c.pending + c.ackPending >= CONSUMER_LAG_WARNING);
        const details = { messages: info.state.messages, consumers: lag };
        if (behind.length) {
          results.push(
            warn(
              'Messaging',
              `JetStream ${name}`,
              `${behind.map((c) => `${c.consumer} has ${c.pending + c.ackPending} pending`).join('; ')}`,
              `The consumers named are behind: check that their services run and their logs for failing events.`,
              details,
            ),
          );
        } else {
          const pending = lag.reduce((sum, c) => sum + c.pending + c.ackPending, 0);
          results.push(
            pass(
              'Messaging',
              `JetStream ${name}`,
              `${info.state.messages} message(s), ${lag.length} consumer(s), ${pending} pending`,
              details,
            ),
          );
        }
      } catch (error) {
        results.push(
          fail(
            'Messaging',
            `JetStream ${name}`,
            `Stream ${name} is missing or unreadable: ${reason(error)}`,
            'Start the services once with JetStream enabled (nats-server -js): each creates its streams at start.',
            undefined,
            true,
          ),
        );
      }
    }
    return results;
  } catch (error) {
    return [
      fail(
        'Messaging',
        'NATS and JetStream',
        `NATS at ${config.natsUrl} could not be reached: ${reason(error)}`,
        'Start nats-server with JetStream (-js) and check NATS_URL.',
        undefined,
        true,
      ),
    ];
  } finally {
    await nc?.close().catch(() => undefined);
  }
}

function own<T>(facts: Facts, service: ServiceName): T | undefined {
  return facts[service]?.own as T | undefined;
}

function emailChecks(facts: Facts, errors: FactsErrors, production: boolean): CheckResult[] {
  const email = own<{
    email: { transport: string; host: string; port: number };
    smtp: { ok: boolean; error: string | null };
    queue: { failedTotal: number; failedLast24h: number; pending: number };
  }>(facts, 'email');
  if (!email?.email) {
    const why = `the email service ${errors.email ?? 'did not report its settings'}`;
    return [
      fail(
        'Email',
        'SMTP',
        `Unknown: ${why}`,
        'Start the email service, then run the check again.',
        undefined,
        production,
      ),
      fail('Email', 'Failed emails', `Unknown: ${why}`, 'Start the email service, then run the check again.'),
    ];
  }
  const results: CheckResult[] = [];
  const where = `${email.email.host}:${email.email.port}`;
  if (email.email.transport === 'dev-mailbox') {
    results.push(
      production
        ? fail(
            'Email',
            'SMTP',
            'Email goes to the local development mailbox: no customer receives anything',
            'Set SMTP_URL to your mail provider (smtp://user:pass@host:587) and restart the email service.',
            email.email,
            true,
          )
        : pass('Email', 'SMTP', `Local development mailbox at ${where} (set SMTP_URL for real delivery)`, email.email),
    );
  } else if (!email.smtp.ok) {
    results.push(
      fail(
        'Email',
        'SMTP',
        `SMTP server ${where} does not answer: ${email.smtp.error}`,
        'Check SMTP_URL (host, port, user, password) and that the server accepts connections from the shop.',
        email.email,
        production,
      ),
    );
  } else {
    results.push(pass('Email', 'SMTP', `SMTP server ${where} answers`, email.email));
  }
  if (email.email.transport === 'dev-mailbox' && !email.smtp.ok) {
    results.push(
      fail(
        'Email',
        'SMTP answering',
        `The local mailbox at ${where} does not answer: ${email.smtp.error}`,
        'Restart the shop (npm start runs the mailbox).',
      ),
    );
  }
  const failed = email.queue.failedTotal;
  results.push(
    failed
      ? warn(
          'Email',
          'Failed emails',
          `${failed} email(s) failed after their last attempt (${email.queue.failedLast24h} in the last 24 hours)`,
          'Open /debug/email: check the failed emails, fix the cause (often SMTP), then Retry Failed.',
          email.queue,
        )
      : pass('Email', 'Failed emails', 'No failed emails', email.queue),
  );
  return results;
}

function paymentChecks(facts: Facts, errors: FactsErrors, production: boolean): CheckResult[] {
  const p = own<{
    paymentMode: string;
    stripe: { secretKey: string | null; publishableKey: string | null; webhookSecretSet: boolean };
  }>(facts, 'payments');
  if (!p?.paymentMode) {
    return [
      fail(
        'Payments',
        'Stripe keys',
        `Unknown: the payments service ${errors.payments ?? 'did not report its mode'}`,
        'Start the payments service (in production it refuses to start without the three Stripe keys).',
        undefined,
        true,
      ),
    ];
  }
  if (p.paymentMode === 'test_mode') {
    return production
      ? [
          fail(
            'Payments',
            'Stripe keys',
            'Payments are in test mode in production: no real charge is taken',
            'Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET (live keys) and restart payments.',
            p,
            true,
          ),
        ]
      : [pass('Payments', 'Stripe keys', 'Test mode (no real charge), as expected outside production', p)];
  }
  const results: CheckResult[] = [];
  const { secretKey, publishableKey, webhookSecretSet } = p.stripe;
  if (secretKey !== publishableKey) {
    results.push(
      fail(
        'Payments',
        'Stripe keys',
        `The secret key is a ${secretKey} key but the publishable key a ${publishableKey} key`,
        'Use a secret and publishable key pair from the same Stripe mode (both live or both test).',
        p,
        true,
      ),
    );
  } else if (production && secretKey !== 'live') {
    results.push(
      fail(
        'Payments',
        'Stripe keys',
        `Stripe ${secretKey} keys in production: payments are not real`,
        'Use your live keys (sk_live_..., pk_live_...) in production.',
        p,
        true,
      ),
    );
  } else if (!production && secretKey === 'live') {
    results.push(
      warn(
        'Payments',
        'Stripe keys',
        'Live Stripe keys outside production: real cards are charged',
        'Use test keys (sk_test_..., pk_test_...) outside production.',
        p,
      ),
    );
  } else {
    results.push(pass('Payments', 'Stripe keys', `Stripe ${secretKey} keys, as NODE_ENV expects`, p));
  }
  results.push(
    webhookSecretSet
      ? pass('Payments', 'Stripe webhook secret', 'Set: webhooks are signature-checked')
      : fail(
          'Payments',
          'Stripe webhook secret',
          'Not set',
          'Set STRIPE_WEBHOOK_SECRET (whsec_...) from the Stripe dashboard.',
          undefined,
          true,
        ),
  );
  return results;
}

function aiCheck(facts: Facts, errors: FactsErrors): CheckResult {
  const o = own<{ openaiKeySet: boolean }>(facts, 'orders');
  if (!o)
    return fail(
      'AI designs',
      'OpenAI key',
      `Unknown: the orders service ${errors.orders ?? 'did not report it'}`,
      'Start the orders service.',
    );
  return o.openaiKeySet
    ? pass('AI designs', 'OpenAI key', 'Set: designs are generated by OpenAI')
    : warn(
        'AI designs',
        'OpenAI key',
        'Not set: the local generator draws the designs',
        'Set OPENAI_API_KEY on the orders service for AI-generated designs.',
      );
}

function securityChecks(facts: Facts, errors: FactsErrors, config: GatewayConfig, production: boolean): CheckResult[] {
  const results: CheckResult[] = [];
  const s = own<{ cookieSecure: boolean; devPasswordAdmins: string[] }>(facts, 'security');
  if (!s) {
    results.push(
      fail(
        'Security',
        'Admin passwords',
        `Unknown: the security service ${errors.security ?? 'did not report it'}`,
        'Start the security service.',
        undefined,
        true,
      ),
    );
  } else {
    const dev = s.devPasswordAdmins;
    results.push(
      dev.length
        ? fail(
            'Security',
            'Admin passwords',
            `The documented development password still opens the back office for: ${dev.join(', ')}`,
            "Set a strong ADMIN_PASSWORD for a new first admin, or change these admins' passwords: the development password is public.",
            { admins: dev },
            production,
          )
        : pass('Security', 'Admin passwords', 'No admin uses the development password'),
    );
    results.push(
      s.cookieSecure
        ? pass('Security', 'Secure session cookie', 'The session cookie is Secure (HTTPS only)')
        : production
          ? fail(
              'Security',
              'Secure session cookie',
              'The session cookie is not Secure in production',
              'Serve the shop over HTTPS and unset SESSION_COOKIE_SECURE=false.',
              undefined,
              true,
            )
          : pass(
              'Security',
              'Secure session cookie',
              'Not Secure: fine over plain HTTP outside production (on by default in production)',
            ),
    );
  }
  const origins = config.publicOrigins;
  if (!origins.length) {
    results.push(
      production
        ? warn(
            'Security',
            'PUBLIC_ORIGIN',
            'Not set: admin writes are checked against the Host header',
            'Set PUBLIC_ORIGIN to the address customers use (https://shop.example.com).',
          )
        : pass('Security', 'PUBLIC_ORIGIN', 'Not set: the Host header names the origin (fine locally)'),
    );
  } else if (production && origins.some((o) => o.startsWith('http://'))) {
    results.push(
      fail(
        'Security',
        'PUBLIC_ORIGIN',
        `Not HTTPS: ${origins.join(', ')}`,
        'Serve the shop over HTTPS and set PUBLIC_ORIGIN to its https:// address.',
        { origins },
        true,
      ),
    );
  } else {
    results.push(pass('Security', 'PUBLIC_ORIGIN', origins.join(', '), { origins }));
  }
  const trust = config.trustProxy;
  if (trust === true) {
    results.push(
      warn(
        'Security',
        'TRUST_PROXY',
        'true: any client can forge its address (X-Forwarded-For)',
        'Set TRUST_PROXY to the number of proxies in front (1 behind one ingress) or their addresses.',
      ),
    );
  } else if (trust === false) {
    results.push(
      production
        ? warn(
            'Security',
            'TRUST_PROXY',
            "Not set: behind an ingress every client has the ingress's address (rate limits, bans, logs)",
            "Set TRUST_PROXY=1 behind one ingress (or the proxies' addresses).",
          )
        : pass('Security', 'TRUST_PROXY', 'Not set: clients connect directly (fine locally)'),
    );
  } else {
    results.push(
      pass(
        'Security',
        'TRUST_PROXY',
        typeof trust === 'function' ? 'A hop count of trusted proxies' : `Trusted proxies: ${trust.join(', ')}`,
      ),
    );
  }
  const { max, windowMs } = config.rateLimit;
  results.push(
    max > 10_000
      ? warn(
          'Security',
          'Rate limits',
          `${max} requests per ${windowMs / 1000} s per address: barely a limit`,
          'Lower RATE_LIMIT_MAX (default 300 per minute).',
          config.rateLimit,
        )
      : pass('Security', 'Rate limits', `On: ${max} requests per ${windowMs / 1000} s per address`, config.rateLimit),
  );
  return results;
}

async function siteConfigChecks(
  config: GatewayConfig,
  facts: Facts,
  errors: FactsErrors,
  production: boolean,
  requestId: string,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  try {
    const res = await fetch(`${config.services.support}/api/config/contact`, {
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      headers: { 'x-request-id': requestId },
    });
    if (!res.ok) throw new Error(`answered HTTP ${res.status}`);
    const contact = (await res.json()) as { supportEmail?: string; supportPhone?: string; showPhone?: boolean };
    if (!contact.supportEmail || contact.supportEmail === defaultSupportEmail) {
      const message = `The support email is ${contact.supportEmail ? `the local default ${defaultSupportEmail}` : 'missing'}`;
      const advice =
        'Open Site configuration > Contact & Support and save the real support address (or set SUPPORT_EMAIL).';
      results.push(
        production
          ? fail('Site configuration', 'Contact details', message, advice, contact)
          : warn('Site configuration', 'Contact details', message, advice, contact),
      );
    } else {
      results.push(
        pass(
          'Site configuration',
          'Contact details',
          `Support email ${contact.supportEmail}${contact.showPhone ? `, phone ${contact.supportPhone}` : ''}`,
          contact,
        ),
      );
    }
  } catch (error) {
    results.push(
      fail(
        'Site configuration',
        'Contact details',
        `Unknown: the support service ${reason(error)}`,
        'Start the support service, then run the check again.',
      ),
    );
  }
  const b = own<{
    business: {
      missing: string[];
      expiringPermits: { jurisdiction: string; permitNumber: string; expirationDate: string }[];
    };
  }>(facts, 'payments')?.business;
  if (!b) {
    results.push(
      fail(
        'Site configuration',
        'Business registration',
        `Unknown: the payments service ${errors.payments ?? 'did not report it'}`,
        'Start the payments service.',
      ),
    );
    return results;
  }
  results.push(
    b.missing.length
      ? warn(
          'Site configuration',
          'Business registration',
          `Incomplete: ${b.missing.join(', ')} missing`,
          'Open Site configuration > Business Registration and fill in the missing details.',
          b,
        )
      : pass('Site configuration', 'Business registration', 'Complete'),
  );
  const today = new Date().toISOString().slice(0, 10);
  const expired = b.expiringPermits.filter((p) => p.expirationDate < today);
  const soon = b.expiringPermits.filter((p) => p.expirationDate >= today);
  const list = (ps: typeof b.expiringPermits) =>
    ps.map((p) => `${p.jurisdiction} ${p.permitNumber} (${p.expirationDate})`).join(', ');
  if (expired.length) {
    results.push(
      fail(
        'Site configuration',
        'Tax permits',
        `Expired: ${list(expired)}`,
        'Renew the expired permits and update them in Business Registration (or mark them inactive).',
        b.expiringPermits,
      ),
    );
  } else if (soon.length) {
    results.push(
      warn(
        'Site configuration',
        'Tax permits',
        `Expiring within ${permitExpiryWarningDays} days: ${list(soon)}`,
        'Renew these permits before they expire, then update their dates in Business Registration.',
        b.expiringPermits,
      ),
    );
  } else {
    results.push(pass('Site configuration', 'Tax permits', `None expiring within ${permitExpiryWarningDays} days`));
  }
  return results;
}

function telemetryCheck(config: GatewayConfig, facts: Facts): CheckResult {
  const without = SERVICE_NAMES.filter((n) => facts[n] && !facts[n].telemetry.otlpEndpointSet);
  const parts = [...(config.otlpEndpoint ? [] : ['gateway']), ...without];
  if (!parts.length) return pass('Observability', 'Telemetry export', `Traces exported to ${config.otlpEndpoint}`);
  const all = parts.length === 1 + SERVICE_NAMES.filter((n) => facts[n]).length;
  return warn(
    'Observability',
    'Telemetry export',
    all ? 'No traces are exported (trace ids still appear in the logs)' : `No trace export from: ${parts.join(', ')}`,
    'Set OTEL_EXPORTER_OTLP_ENDPOINT (e.g. http://collector:4318) on the gateway and every service.',
    { withoutExport: parts },
  );
}

export async function productionReport(config: GatewayConfig, requestId: string): Promise<ProductionReport> {
  const started = performance.now();
  const production = config.nodeEnv === 'production';
  const factsAsked = serviceFacts(config, requestId);
  const [health, { facts, errors }, jetStream, site] = await Promise.all([
    shopHealth(config, requestId),
    factsAsked,
    // Eight streams asked one after another: bounded as a whole, so a stalling NATS cannot hold the report.
    withDeadline(jetStreamChecks(config), JETSTREAM_DEADLINE_MS, () => [
      fail(
        'Messaging',
        'NATS and JetStream',
        `JetStream did not answer within ${JETSTREAM_DEADLINE_MS / 1000} s`,
        'Check nats-server (JetStream enabled, not overloaded) and NATS_URL.',
        undefined,
        true,
      ),
    ]),
    factsAsked.then(({ facts: f, errors: e }) => siteConfigChecks(config, f, e, production, requestId)),
  ]);
  const results: CheckResult[] = [
    ...serviceChecks(health),
    ...databaseChecks(facts, errors),
    ...jetStream,
    ...outboxChecks(facts, errors),
    ...emailChecks(facts, errors, production),
    ...paymentChecks(facts, errors, production),
    aiCheck(facts, errors),
    ...securityChecks(facts, errors, config, production),
    ...site,
    telemetryCheck(config, facts),
  ];
  return {
    ...summarizeChecks(results),
    results,
    timestamp: new Date().toISOString(),
    environment: config.nodeEnv,
    durationMs: Math.round(performance.now() - started),
  };
}

export function registerProductionCheck(app: FastifyInstance, config: GatewayConfig): void {
  // `service: 'gateway'` puts the route behind the admin check (its row in admin-routes.ts).
  app.get(productionCheckPath, { config: { service: 'gateway' } }, async (request, reply) => {
    const report = await productionReport(config, request.id);
    reply.header('cache-control', 'no-store');
    return { success: true, report, timestamp: report.timestamp };
  });
}
