// The queue's delivery rules over real SMTP: retries with backoff while the SMTP server is down and
// delivery once it is back, `failed` (with email.failed) after the last attempt, and two replicas
// draining one queue without sending any email twice.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { startDevMailbox, type DevMailbox } from '@shop/dev-mailbox';
import { freePort, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp, type EmailTestHooks } from '../src/app.js';
import { loadConfig, type EmailConfig, type RawEmailEnv } from '../src/config.js';
import { enqueueEmail, enqueueEmails } from '../src/queue/enqueue.js';
import { backoffDelayMs } from '@shop/contracts';
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
    loadConfig({
      PORT: '0',
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
      EMAIL_POLL_INTERVAL_MS: '50',
      ...env,
    }),
    { relay: { sweepIntervalMs: 200 }, ...hooks },
  );
  running.push(service);
  await service.start();
  return service;
}

/** Delivery waits on retries with backoff: a little longer than the shared default. */
const eventually = <T>(probe: () => Promise<T> | T, ok: (value: T) => boolean = Boolean) =>
  eventuallyWithin(probe, ok, 20_000);

function codeRequest(email: string, code = '123456') {
  const rendered = verificationCodeEmail({
    email,
    customerName: 'Sam',
    code,
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
  });
  return { ...rendered, to: email, sourceEventId: randomUUID() };
}

const queueOptions = (service: Awaited<ReturnType<typeof buildApp>>) => ({
  maxAttempts: (service.ctx.config as EmailConfig).email.maxAttempts,
  now: new Date(),
});

async function queueCode(service: Awaited<ReturnType<typeof buildApp>>, email: string, code = '123456') {
  const request = codeRequest(email, code);
  await enqueueEmail(service.ctx.models.Email, null, request, queueOptions(service));
  service.worker.wake();
  return request.sourceEventId;
}

/** Queues codes to `emails` as a consumer does: committed, then handed over to the worker by id. */
async function queueHandedOver(service: Awaited<ReturnType<typeof buildApp>>, emails: string[]) {
  const ids = await enqueueEmails(
    service.ctx.models.Email,
    null,
    emails.map((email) => codeRequest(email)),
    queueOptions(service),
  );
  service.worker.queuedHere(ids);
}

/** Queues a code without telling the worker: as another replica's consumer would. */
async function queueElsewhere(service: Awaited<ReturnType<typeof buildApp>>, email: string) {
  await enqueueEmail(service.ctx.models.Email, null, codeRequest(email), queueOptions(service));
}

describe('retry schedule', () => {
  it('doubles the wait after each failed attempt, up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, 30_000, 600_000))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 600_000,
    ]);
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

    const failing = await eventually(
      () => service.ctx.models.Email.findOne({ sourceEventId }).lean(),
      (doc) => (doc?.attempts ?? 0) >= 2 && doc?.status === 'queued',
    );
    expect(failing!.lastError).toMatch(/ECONNREFUSED/);
    expect(failing!.sentAt).toBeNull();

    const mailbox = await startDevMailbox({ smtpPort });
    mailboxes.push(mailbox);
    const message = await mailbox.waitFor((m) => m.to.includes(email), 20_000);
    expect(message.text).toContain('Your verification code is 654321');

    const sent = await eventually(
      () => service.ctx.models.Email.findOne({ sourceEventId }).lean(),
      (doc) => doc?.status === 'sent',
    );
    expect(sent!.attempts).toBeGreaterThanOrEqual(3);
    expect(sent!.lastError).toBeNull();
    expect(sent!.sentAt).toBeInstanceOf(Date);
    // The code reached the customer; the stored copy no longer holds it.
    expect(JSON.stringify(sent)).not.toContain('654321');
    expect(sent!.text).toBe(removedSecretBody);
    expect(await mailbox.messages({ to: email })).toHaveLength(1);
    const announced = await eventually(() =>
      service.ctx.bus.outbox.findOne({ type: 'email.sent', 'event.data.causationId': sourceEventId }).lean(),
    );
    expect((announced!.event as { data: { to: string; template: string } }).data).toMatchObject({
      to: email,
      template: 'verification_code',
    });
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
    const failed = await eventually(
      () => service.ctx.models.Email.findOne({ sourceEventId }).lean(),
      (doc) => doc?.status === 'failed',
    );
    expect(failed).toMatchObject({ attempts: 3, lastError: expect.stringMatching(/ECONNREFUSED/) as unknown });
    expect(failed!.failedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(failed)).not.toContain('908172');
    const announced = await eventually(() =>
      service.ctx.bus.outbox.findOne({ type: 'email.failed', 'event.data.causationId': sourceEventId }).lean(),
    );
    expect((announced!.event as { data: Record<string, unknown> }).data).toMatchObject({
      to: email,
      attempts: 3,
      template: 'verification_code',
      error: expect.stringMatching(/ECONNREFUSED/) as unknown,
    });
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
    const delivered = (await mailbox.messages()).filter((m) => m.to.some((to) => to.startsWith(batch)));
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
    await service.ctx.models.Email.updateOne(
      { sourceEventId },
      { $set: { status: 'sending', attempts: 1, lockedUntil: new Date(Date.now() - 1000) } },
    );
    expect(await service.worker.drain()).toBe(1);
    expect(await service.ctx.models.Email.findOne({ sourceEventId }).lean()).toMatchObject({
      status: 'sent',
      attempts: 2,
    });
    expect(await mailbox.messages({ to: email })).toHaveLength(1);
  });
});

describe('emails handed over by the consumers', () => {
  it('are claimed by id without reading the queue; the queue is read on the next poll', async () => {
    const mailbox = await startDevMailbox();
    mailboxes.push(mailbox);
    const service = await startService({ SMTP_URL: mailbox.smtpUrl, EMAIL_POLL_INTERVAL_MS: '60000' });
    const batch = `handed-${randomUUID().slice(0, 8)}`;
    // The start's read of the queue is over: nothing was due.
    await eventually(() => service.worker.drain().then((n) => n === 0));
    await queueElsewhere(service, `${batch}-elsewhere@example.com`);
    await queueHandedOver(service, [`${batch}-a@example.com`, `${batch}-b@example.com`]);
    await mailbox.waitFor((m) => m.to.includes(`${batch}-b@example.com`), 10_000);
    await mailbox.waitFor((m) => m.to.includes(`${batch}-a@example.com`), 10_000);
    // Due all along, but no poll came: the worker did not read the queue for the two handed over.
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailbox.messages({ to: `${batch}-elsewhere@example.com` })).toHaveLength(0);
    service.worker.wake();
    await mailbox.waitFor((m) => m.to.includes(`${batch}-elsewhere@example.com`), 10_000);
    const docs = await service.ctx.models.Email.find({ to: { $regex: `^${batch}` } }).lean();
    expect(docs.map((d) => [d.status, d.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  it('do not hold back the queue: a busy worker still reads it on each poll', async () => {
    const smtp = await startSlowSmtp(40);
    try {
      const service = await startService({
        SMTP_URL: smtp.url,
        EMAIL_SEND_CONCURRENCY: '2',
        EMAIL_CLAIM_BATCH_SIZE: '4',
        EMAIL_POLL_INTERVAL_MS: '100',
      });
      const batch = `busy-${randomUUID().slice(0, 8)}`;
      await queueElsewhere(service, `${batch}-elsewhere@example.com`);
      // 60 at 40 ms each, two at a time: about 1.2 s of sending, and more handed over meanwhile.
      await queueHandedOver(
        service,
        Array.from({ length: 30 }, (_, i) => `${batch}-${i}@example.com`),
      );
      await queueHandedOver(
        service,
        Array.from({ length: 30 }, (_, i) => `${batch}-${30 + i}@example.com`),
      );
      await eventually(
        () => smtp.seen.to.filter((to) => to.startsWith(batch)).length,
        (n) => n === 61,
      );
      // Read from the queue within a poll or two, long before the last handed over went.
      expect(smtp.seen.to.filter((to) => to.startsWith(batch)).indexOf(`${batch}-elsewhere@example.com`)).toBeLessThan(
        30,
      );
      const docs = await service.ctx.models.Email.find({ to: { $regex: `^${batch}` } }).lean();
      expect(docs.every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
    } finally {
      await Promise.all(running.splice(0).map((r) => r.stop()));
      await smtp.stop();
    }
  });
});

/** A loopback SMTP server that takes `delayMs` per message and notes connections and messages in progress. */
async function startSlowSmtp(delayMs: number) {
  const seen = { connections: 0, inProgress: 0, mostInProgress: 0, to: [] as string[] };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      seen.connections += 1;
      callback();
    },
    onData(stream, session, callback) {
      seen.inProgress += 1;
      seen.mostInProgress = Math.max(seen.mostInProgress, seen.inProgress);
      stream.resume();
      stream.on('end', () =>
        setTimeout(() => {
          seen.inProgress -= 1;
          seen.to.push(...session.envelope.rcptTo.map((r) => r.address));
          callback();
        }, delayMs),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return { url, seen, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('concurrent sending', () => {
  it('keeps at most EMAIL_SEND_CONCURRENCY sends in flight over that many reused connections, each email once', async () => {
    const smtp = await startSlowSmtp(40);
    try {
      const service = await startService(
        { SMTP_URL: smtp.url, EMAIL_SEND_CONCURRENCY: '4', EMAIL_CLAIM_BATCH_SIZE: '10' },
        { manualWorker: true },
      );
      const batch = `pool-${randomUUID().slice(0, 8)}`;
      for (let i = 0; i < 40; i++) await queueCode(service, `${batch}-${i}@example.com`, String(200000 + i));
      expect(await service.worker.drain()).toBe(40);
      expect(smtp.seen.to.filter((to) => to.startsWith(batch)).sort()).toEqual(
        Array.from({ length: 40 }, (_, i) => `${batch}-${i}@example.com`).sort(),
      );
      // Several at once (40 ms each), never more than allowed, on connections that carry many messages.
      expect(smtp.seen.mostInProgress).toBeGreaterThan(1);
      expect(smtp.seen.mostInProgress).toBeLessThanOrEqual(4);
      expect(smtp.seen.connections).toBeLessThanOrEqual(4);
      const docs = await service.ctx.models.Email.find({ to: { $regex: `^${batch}` } }).lean();
      expect(docs.every((d) => d.status === 'sent' && d.attempts === 1 && d.claimId === null)).toBe(true);
      expect(
        await service.ctx.bus.outbox.countDocuments({ type: 'email.sent', 'event.data.to': { $regex: `^${batch}` } }),
      ).toBe(40);
    } finally {
      // The service first: the SMTP server's close waits for the pooled connections to end.
      await Promise.all(running.splice(0).map((r) => r.stop()));
      await smtp.stop();
    }
  });

  it('on shutdown finishes the sends in flight and gives the rest of its claim back to the queue, uncounted', async () => {
    const smtp = await startSlowSmtp(150);
    try {
      const service = await startService(
        { SMTP_URL: smtp.url, EMAIL_SEND_CONCURRENCY: '2', EMAIL_CLAIM_BATCH_SIZE: '30' },
        { manualWorker: true },
      );
      const batch = `stop-${randomUUID().slice(0, 8)}`;
      for (let i = 0; i < 30; i++) await queueCode(service, `${batch}-${i}@example.com`, String(300000 + i));
      service.worker.start();
      await eventually(
        () => smtp.seen.to.length,
        (n) => n >= 2,
      );
      await service.worker.stop();
      const docs = await service.ctx.models.Email.find({ to: { $regex: `^${batch}` } }).lean();
      const sent = docs.filter((d) => d.status === 'sent');
      const queued = docs.filter((d) => d.status === 'queued');
      // Nothing is left claimed: what went out is recorded, the rest waits for the next worker as before.
      expect(sent.length + queued.length).toBe(30);
      expect(queued.length).toBeGreaterThan(0);
      expect(queued.every((d) => d.attempts === 0 && d.lockedUntil === null && d.claimId === null)).toBe(true);
      expect(sent.map((d) => d.to).sort()).toEqual(smtp.seen.to.filter((to) => to.startsWith(batch)).sort());
    } finally {
      // The service first: the SMTP server's close waits for the pooled connections to end.
      await Promise.all(running.splice(0).map((r) => r.stop()));
      await smtp.stop();
    }
  });
});
