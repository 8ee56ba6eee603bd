// The queue's delivery rules over real SMTP: retries with backoff while the SMTP server is down and
// delivery once it is back, `failed` (with email.failed) after the last attempt, and two replicas
// draining one queue without sending any email twice.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDevMailbox, type DevMailbox } from '@shop/dev-mailbox';
import { freePort, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp, type EmailTestHooks } from '../src/app.js';
import { loadConfig, type EmailConfig, type RawEmailEnv } from '../src/config.js';
import { enqueueEmail } from '../src/queue/enqueue.js';
import { retryDelayMs } from '../src/queue/worker.js';
import { removedSecretBody, verificationCodeEmail } from '../src/templates/index.js';
import { eventually as eventuallyWithin } from './support/harness.js';

let mongo: StartedMongo;
let nats: StartedNats;
const running: Awaited<ReturnType<typeof buildApp>>[] = [];
const mailboxes: DevMailbox[] = [];

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
  await Promise.all(mailboxes.splice(0).map((m) => m.stop()));
});

afterAll(async () => {
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

async function startService(env: RawEmailEnv, hooks: EmailTestHooks = {}) {
  const service = await buildApp(
    loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent', EMAIL_POLL_INTERVAL_MS: '50', ...env }),
    { relay: { sweepIntervalMs: 200 }, ...hooks },
  );
  running.push(service);
  await service.start();
  return service;
}

/** Delivery waits on retries with backoff: a little longer than the shared default. */
const eventually = <T>(probe: () => Promise<T> | T, ok: (value: T) => boolean = Boolean) => eventuallyWithin(probe, ok, 20_000);

async function queueCode(service: Awaited<ReturnType<typeof buildApp>>, email: string, code = '123456') {
  const sourceEventId = randomUUID();
  const rendered = verificationCodeEmail({ email, customerName: 'Sam', code, expiresAt: new Date(Date.now() + 600_000).toISOString() });
  await enqueueEmail(service.ctx.models.Email, null, { ...rendered, to: email, sourceEventId }, { maxAttempts: (service.ctx.config as EmailConfig).email.maxAttempts, now: new Date() });
  service.worker.wake();
  return sourceEventId;
}

describe('retry schedule', () => {
  it('doubles the wait after each failed attempt, up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, 30_000, 600_000))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 600_000]);
  });
});

describe('delivery', () => {
  it('retries with backoff while SMTP is down, then sends once it is back', async () => {
    const smtpPort = await freePort();
    const service = await startService({
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      EMAIL_MAX_ATTEMPTS: '12',
      EMAIL_RETRY_BASE_MS: '100',
      EMAIL_RETRY_MAX_MS: '800',
    });
    const email = `retry-${randomUUID().slice(0, 8)}@example.com`;
    const sourceEventId = await queueCode(service, email, '654321');

    const failing = await eventually(() => service.ctx.models.Email.findOne({ sourceEventId }).lean(), (doc) => (doc?.attempts ?? 0) >= 2 && doc?.status === 'queued');
    expect(failing!.lastError).toMatch(/ECONNREFUSED/);
    expect(failing!.sentAt).toBeNull();

    const mailbox = await startDevMailbox({ smtpPort });
    mailboxes.push(mailbox);
    const message = await mailbox.waitFor((m) => m.to.includes(email), 20_000);
    expect(message.text).toContain('Your verification code is 654321');

    const sent = await eventually(() => service.ctx.models.Email.findOne({ sourceEventId }).lean(), (doc) => doc?.status === 'sent');
    expect(sent!.attempts).toBeGreaterThanOrEqual(3);
    expect(sent!.lastError).toBeNull();
    expect(sent!.sentAt).toBeInstanceOf(Date);
    // The code reached the customer; the stored copy no longer holds it.
    expect(JSON.stringify(sent)).not.toContain('654321');
    expect(sent!.text).toBe(removedSecretBody);
    expect(mailbox.messages({ to: email })).toHaveLength(1);
    const announced = await eventually(() => service.ctx.bus.outbox.findOne({ type: 'email.sent', 'event.data.causationId': sourceEventId }).lean());
    expect((announced!.event as { data: { to: string; template: string } }).data).toMatchObject({ to: email, template: 'verification_code' });
  });

  it('marks an email failed after its last attempt and announces email.failed', async () => {
    const closedPort = await freePort();
    const service = await startService({
      SMTP_URL: `smtp://127.0.0.1:${closedPort}`,
      EMAIL_MAX_ATTEMPTS: '3',
      EMAIL_RETRY_BASE_MS: '50',
      EMAIL_RETRY_MAX_MS: '100',
    });
    const email = `failing-${randomUUID().slice(0, 8)}@example.com`;
    const sourceEventId = await queueCode(service, email, '908172');
    const failed = await eventually(() => service.ctx.models.Email.findOne({ sourceEventId }).lean(), (doc) => doc?.status === 'failed');
    expect(failed).toMatchObject({ attempts: 3, lastError: expect.stringMatching(/ECONNREFUSED/) });
    expect(failed!.failedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(failed)).not.toContain('908172');
    const announced = await eventually(() => service.ctx.bus.outbox.findOne({ type: 'email.failed', 'event.data.causationId': sourceEventId }).lean());
    expect((announced!.event as { data: Record<string, unknown> }).data).toMatchObject({ to: email, attempts: 3, template: 'verification_code', error: expect.stringMatching(/ECONNREFUSED/) });
    // A failed email is not picked up again.
    await new Promise((r) => setTimeout(r, 300));
    expect((await service.ctx.models.Email.findOne({ sourceEventId }).lean())!.attempts).toBe(3);
  });

  it('lets two replicas drain one queue without sending any email twice', async () => {
    const mailbox = await startDevMailbox();
    mailboxes.push(mailbox);
    const env = { SMTP_URL: mailbox.smtpUrl };
    const first = await startService(env, { manualWorker: true });
    const second = await startService(env, { manualWorker: true });
    const batch = `replicas-${randomUUID().slice(0, 8)}`;
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await queueCode(first, `${batch}-${i}@example.com`, String(100000 + i)));
    // Both workers pass over the same queue at the same time.
    const [a, b] = await Promise.all([first.worker.drain(), second.worker.drain()]);
    expect(a + b).toBe(20);
    const docs = await first.ctx.models.Email.find({ sourceEventId: { $in: ids } }).lean();
    expect(docs.every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
    const delivered = mailbox.messages().filter((m) => m.to.some((to) => to.startsWith(batch)));
    expect(delivered).toHaveLength(20);
    expect(new Set(delivered.map((m) => m.to[0])).size).toBe(20);
  });

  it('takes over an email whose worker died while sending, once its lease ran out', async () => {
    const mailbox = await startDevMailbox();
    mailboxes.push(mailbox);
    const service = await startService({ SMTP_URL: mailbox.smtpUrl }, { manualWorker: true });
    const email = `lease-${randomUUID().slice(0, 8)}@example.com`;
    const sourceEventId = await queueCode(service, email);
    // As a worker that claimed it and crashed: sending, lease already over.
    await service.ctx.models.Email.updateOne({ sourceEventId }, { $set: { status: 'sending', attempts: 1, lockedUntil: new Date(Date.now() - 1000) } });
    expect(await service.worker.drain()).toBe(1);
    expect(await service.ctx.models.Email.findOne({ sourceEventId }).lean()).toMatchObject({ status: 'sent', attempts: 2 });
    expect(mailbox.messages({ to: email })).toHaveLength(1);
  });
});
