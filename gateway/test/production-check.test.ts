// GET /api/health/production-check: the report from real probes (service readiness and readiness facts
// over HTTP from stand-in services, JetStream on a real nats-server), admin only, bounded in time, and
// still answered when a service is down or hangs. Each probe's pass, warning and fail.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  productionCheckPath,
  productionCheckReplySchema,
  type ReadinessFacts,
  type ServiceName,
} from '@shop/contracts';
import { createLogger, ensureAllStreams } from '@shop/service-kit';
import { SERVICE_NAMES } from '../src/routes.js';
import { deadUrl, startStack, type Stack } from './helpers.js';

interface StandIn {
  url: string;
  facts: ReadinessFacts;
  /** Milliseconds before /readyz/facts answers (a hanging service). */
  factsDelayMs: number;
  contact: unknown;
  app: FastifyInstance;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

function baseFacts(service: ServiceName): ReadinessFacts {
  const own: Record<ServiceName, Record<string, unknown>> = {
    orders: { openaiKeySet: false },
    payments: {
      paymentMode: 'test_mode',
      stripe: { secretKey: null, publishableKey: null, webhookSecretSet: false },
      business: { missing: [], expiringPermits: [] },
    },
    customers: {},
    support: {},
    marketing: {},
    security: { cookieSecure: false, devPasswordAdmins: [] },
    email: {
      email: {
        transport: 'smtp',
        host: 'smtp.example.com',
        port: 587,
        sender: 'Shop <orders@shop.example>',
        secure: false,
        authConfigured: true,
      },
      smtp: { ok: true, error: null },
      queue: {
        pending: 0,
        processing: 0,
        sentLast24h: 3,
        failedLast24h: 0,
        failedTotal: 0,
        oldestPendingAgeSeconds: null,
        sentLastHour: 1,
      },
    },
  };
  return {
    service,
    nodeEnv: 'development',
    mongo: { up: true, replicaSet: 'rs0' },
    nats: { up: true },
    outbox: { pending: 0, oldestPendingAgeSeconds: null, failingAttempts: 0 },
    telemetry: { otlpEndpointSet: false },
    own: own[service],
  };
}

async function startStandIn(service: ServiceName): Promise<StandIn> {
  // forceCloseConnections: a hanging facts request must not hold the stand-in open at the end.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const state: StandIn = {
    url: '',
    facts: baseFacts(service),
    factsDelayMs: 0,
    contact: {
      supportEmail: 'help@tacticalgear.example',
      supportPhone: '',
      showPhone: false,
      supportHours: { weekday: '', weekend: '', showHours: false },
    },
    app,
  };
  app.get('/readyz', async () => ({ status: 'ready', checks: { mongo: 'up', nats: 'up' } }));
  app.get('/readyz/facts', async () => {
    if (state.factsDelayMs) await new Promise((r) => setTimeout(r, state.factsDelayMs));
    return state.facts;
  });
  app.get('/api/config/contact', async () => state.contact);
  state.url = await app.listen({ host: '127.0.0.1', port: 0 });
  return state;
}

let standIns: Record<ServiceName, StandIn>;
let stack: Stack | undefined;

beforeAll(async () => {
  standIns = Object.fromEntries(
    await Promise.all(SERVICE_NAMES.map(async (n) => [n, await startStandIn(n)] as const)),
  ) as Record<ServiceName, StandIn>;
});

afterEach(async () => {
  await stack?.close();
  stack = undefined;
  for (const name of SERVICE_NAMES) {
    standIns[name].facts = baseFacts(name);
    standIns[name].factsDelayMs = 0;
  }
});

afterAll(async () => {
  await Promise.all(Object.values(standIns).map((s) => s.app.close()));
});

function envFor(over: Partial<Record<ServiceName, string>> = {}, extra: Record<string, string> = {}) {
  const env: Record<string, string> = { ...extra };
  for (const name of SERVICE_NAMES) env[`${name.toUpperCase()}_URL`] = over[name] ?? standIns[name].url;
  return env;
}

async function createStreams(natsUrl: string) {
  const nc = await connect({ servers: natsUrl });
  await ensureAllStreams(await jetstreamManager(nc), createLogger({ service: 'test', level: 'silent' }));
  await nc.close();
}

async function runCheck(s: Stack) {
  const started = Date.now();
  const res = await fetch(`${s.url}${productionCheckPath}`, { headers: s.adminHeaders() });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const { report } = productionCheckReplySchema.parse(body);
  const find = (test: string) => {
    const r = report.results.find((x) => x.test === test);
    if (!r) throw new Error(`no result "${test}" in ${report.results.map((x) => x.test).join(', ')}`);
    return r;
  };
  return { report, find, tookMs: Date.now() - started };
}

describe('GET /api/health/production-check', () => {
  it('needs a signed-in admin', async () => {
    stack = await startStack(envFor());
    const res = await fetch(`${stack.url}${productionCheckPath}`);
    expect(res.status).toBe(401);
    // The business details' public row stays open (the /business page reads it).
    expect((await fetch(`${stack.url}/api/config/business/public`)).status).not.toBe(401);
    expect((await fetch(`${stack.url}/api/config/business`)).status).toBe(401);
  });

  it('fails every stream before the services created them, then passes them with consumer counts', async () => {
    stack = await startStack(envFor());
    const before = await runCheck(stack);
    expect(before.find('JetStream ORDERS')).toMatchObject({
      status: 'fail',
      critical: true,
      message: expect.stringMatching(/Stream ORDERS is missing/) as unknown,
    });

    await createStreams(stack.security.nats.url);
    const { report, find } = await runCheck(stack);
    expect(find('JetStream ORDERS')).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(/consumer\(s\), 0 pending/) as unknown,
    });
    // Development: test-mode payments are expected; the local generator and no telemetry are warnings.
    expect(find('Stripe keys')).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(/Test mode/) as unknown,
    });
    expect(find('OpenAI key')).toMatchObject({
      status: 'warning',
      recommendation: expect.stringMatching(/OPENAI_API_KEY/) as unknown,
    });
    expect(find('Telemetry export')).toMatchObject({ status: 'warning' });
    expect(find('MongoDB replica set')).toMatchObject({ status: 'pass', message: 'Replica set rs0' });
    expect(find('orders service')).toMatchObject({ status: 'pass' });
    expect(find('Rate limits')).toMatchObject({ status: 'pass' });
    expect(find('Contact details')).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(/help@tacticalgear\.example/) as unknown,
    });
    expect(report.overall).toBe('issues');
    expect(report.summary.total).toBe(report.results.length);
    expect(report.summary.passed + report.summary.warnings + report.summary.failed).toBe(report.summary.total);
    expect(report.recommendations).toContain('Set OPENAI_API_KEY on the orders service for AI-generated designs.');
    expect(report.environment).toBe('development');
  });

  it('is critical in production with test-mode payments, the development password, the local mailbox and no Secure cookie', async () => {
    standIns.security.facts.own = { cookieSecure: false, devPasswordAdmins: ['admin@shop.local'] };
    standIns.email.facts.own = {
      ...standIns.email.facts.own,
      email: {
        transport: 'dev-mailbox',
        host: '127.0.0.1',
        port: 2525,
        sender: 'x',
        secure: false,
        authConfigured: false,
      },
    };
    standIns.support.contact = { supportEmail: 'support@shop.local', supportPhone: '', showPhone: false };
    stack = await startStack(envFor({}, { NODE_ENV: 'production' }));
    const { report, find } = await runCheck(stack);
    expect(report.overall).toBe('critical');
    expect(find('Stripe keys')).toMatchObject({
      status: 'fail',
      critical: true,
      message: 'Payments are in test mode in production: no real charge is taken',
    });
    expect(find('Admin passwords')).toMatchObject({
      status: 'fail',
      critical: true,
      message: expect.stringMatching(/admin@shop\.local/) as unknown,
    });
    expect(find('SMTP')).toMatchObject({
      status: 'fail',
      critical: true,
      message: expect.stringMatching(/local development mailbox/) as unknown,
    });
    expect(find('Secure session cookie')).toMatchObject({ status: 'fail', critical: true });
    expect(find('PUBLIC_ORIGIN')).toMatchObject({ status: 'warning' });
    expect(find('TRUST_PROXY')).toMatchObject({ status: 'warning' });
    expect(find('Contact details')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/local default/) as unknown,
    });
    for (const r of report.results.filter((x) => x.status !== 'pass')) expect(r.recommendation, r.test).toBeTruthy();
  });

  it('passes live Stripe keys with a webhook secret in production, and flags a mixed pair', async () => {
    standIns.payments.facts.own = {
      ...standIns.payments.facts.own,
      paymentMode: 'stripe',
      stripe: { secretKey: 'live', publishableKey: 'live', webhookSecretSet: true },
    };
    stack = await startStack(
      envFor({}, { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://shop.example.com', TRUST_PROXY: '1' }),
    );
    let check = await runCheck(stack);
    expect(check.find('Stripe keys')).toMatchObject({
      status: 'pass',
      message: 'Stripe live keys, as NODE_ENV expects',
    });
    expect(check.find('Stripe webhook secret')).toMatchObject({ status: 'pass' });
    expect(check.find('PUBLIC_ORIGIN')).toMatchObject({ status: 'pass' });
    expect(check.find('TRUST_PROXY')).toMatchObject({ status: 'pass' });

    standIns.payments.facts.own = {
      ...standIns.payments.facts.own,
      stripe: { secretKey: 'test', publishableKey: 'live', webhookSecretSet: true },
    };
    check = await runCheck(stack);
    expect(check.find('Stripe keys')).toMatchObject({
      status: 'fail',
      critical: true,
      message: expect.stringMatching(/test key but the publishable key a live key/) as unknown,
    });
  });

  it('reports outbox backlogs, failed emails, SMTP not answering, an incomplete registration and permits expiring', async () => {
    standIns.orders.facts.outbox = { pending: 4, oldestPendingAgeSeconds: 120, failingAttempts: 1 };
    standIns.customers.facts.outbox = { pending: 9, oldestPendingAgeSeconds: 3_600, failingAttempts: 7 };
    standIns.marketing.facts.outbox = { pending: 2, oldestPendingAgeSeconds: 1, failingAttempts: 0 };
    standIns.email.facts.own = {
      ...standIns.email.facts.own,
      smtp: { ok: false, error: 'connect ECONNREFUSED 10.0.0.5:587' },
      queue: {
        pending: 0,
        processing: 0,
        sentLast24h: 0,
        failedLast24h: 2,
        failedTotal: 5,
        oldestPendingAgeSeconds: null,
        sentLastHour: 0,
      },
    };
    standIns.payments.facts.own = {
      ...standIns.payments.facts.own,
      business: {
        missing: ['EIN'],
        expiringPermits: [{ jurisdiction: 'Texas', permitNumber: 'TX-1', expirationDate: day(12) }],
      },
    };
    standIns.support.facts.mongo = { up: true, replicaSet: null };
    stack = await startStack(envFor());
    let { find } = await runCheck(stack);
    expect(find('orders outbox')).toMatchObject({
      status: 'warning',
      message: '4 event(s) waiting, the oldest for 120 s',
    });
    expect(find('customers outbox')).toMatchObject({
      status: 'fail',
      recommendation: expect.stringMatching(/cannot publish to JetStream/) as unknown,
    });
    expect(find('marketing outbox')).toMatchObject({ status: 'pass' });
    expect(find('SMTP')).toMatchObject({ status: 'fail', message: expect.stringMatching(/ECONNREFUSED/) as unknown });
    expect(find('Failed emails')).toMatchObject({
      status: 'warning',
      message: expect.stringMatching(/^5 email\(s\) failed/) as unknown,
    });
    expect(find('Business registration')).toMatchObject({ status: 'warning', message: 'Incomplete: EIN missing' });
    expect(find('Tax permits')).toMatchObject({
      status: 'warning',
      message: `Expiring within 30 days: Texas TX-1 (${day(12)})`,
    });
    expect(find('MongoDB replica set')).toMatchObject({
      status: 'fail',
      critical: true,
      message: 'MongoDB is not a replica set for: support',
    });

    standIns.payments.facts.own = {
      ...standIns.payments.facts.own,
      business: {
        missing: [],
        expiringPermits: [{ jurisdiction: 'Ohio', permitNumber: 'OH-9', expirationDate: day(-2) }],
      },
    };
    ({ find } = await runCheck(stack));
    expect(find('Tax permits')).toMatchObject({ status: 'fail', message: `Expired: Ohio OH-9 (${day(-2)})` });
    expect(find('Business registration')).toMatchObject({ status: 'pass' });
  });

  it('still answers, in time, when a service is down and another hangs, and names them', async () => {
    standIns.orders.factsDelayMs = 20_000;
    stack = await startStack(envFor({ email: await deadUrl() }));
    const { report, find, tookMs } = await runCheck(stack);
    expect(tookMs).toBeLessThan(15_000);
    expect(find('email service')).toMatchObject({
      status: 'fail',
      critical: true,
      message: expect.stringMatching(/email service is unreachable: not running/) as unknown,
    });
    expect(find('SMTP')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/email service not running/) as unknown,
    });
    expect(find('OpenAI key')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/orders service no answer within 5000 ms/) as unknown,
    });
    expect(find('orders outbox')).toMatchObject({ status: 'fail' });
    expect(report.overall).toBe('critical');
  }, 30_000);
});
