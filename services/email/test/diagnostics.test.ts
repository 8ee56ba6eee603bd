// The email diagnostics calls (admin part A §2 Email diagnostics page, §7) on a real queue: first against
// an SMTP stand-in that answers but refuses every recipient (550), so emails fail; then the same
// database served by a service sending to the dev mailbox, where the retried email and a test email
// arrive. Also: the environment never shows the SMTP password, and the readiness facts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import {
  debugEnvSchema,
  emailDiagnosticsPaths,
  emailQueueStatsReplySchema,
  failedEmailsReplySchema,
  processQueueReplySchema,
  readinessFactsPath,
  readinessFactsSchema,
  testEmailReplySchema,
  type ErrorEnvelope,
} from '@shop/contracts';
import { startDevMailbox, type DevMailbox } from '@shop/dev-mailbox';
import { freePort, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { loadConfig, type RawEmailEnv } from '../src/config.js';
import { probeSmtp } from '../src/routes/diagnostics.js';
import { adminHeaders } from '@shop/service-kit/testing';

const asAdmin = adminHeaders('ops@shop.test');

let mongo: StartedMongo;
let nats: StartedNats;
let refusing: SMTPServer;
let refusingPort: number;
let mailbox: DevMailbox;

beforeAll(async () => {
  [mongo, nats, mailbox] = await Promise.all([startMongo(), startNats(), startDevMailbox()]);
  refusingPort = await freePort();
  // Answers, takes any login, and refuses every recipient the way a real server refuses a bad mailbox.
  refusing = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'mailer' }),
    onRcptTo: (_address, _session, callback) =>
      callback(Object.assign(new Error('Mailbox unavailable: relaying refused'), { responseCode: 550 })),
  });
  await new Promise<void>((resolve) => refusing.listen(refusingPort, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => refusing?.close(() => resolve()));
  await Promise.all([mailbox?.stop(), nats?.stop(), mongo?.stop()]);
});

async function startService(env: RawEmailEnv) {
  const service = await buildApp(
    loadConfig({
      PORT: '0',
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
      EMAIL_POLL_INTERVAL_MS: '100',
      ...env,
    }),
    { relay: { sweepIntervalMs: 200 } },
  );
  const url = await service.start();
  /** An admin call; the body typed as the caller says the route answers (unknown unless told). */
  const call = async <Body = unknown>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      // As the gateway forwards an admin's call: every diagnostics route is admin-only.
      headers: body === undefined ? asAdmin : { 'content-type': 'application/json', ...asAdmin },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
  return { service, call };
}

const test = { to: 'ops@example.com', subject: 'Diagnostics check', message: 'Line one.\n\nLine <two> & more.' };
let failedId = '';

describe('against an SMTP server that refuses every recipient', () => {
  it('shows the settings without the password, fails the test email with the server error, lists and counts it', async () => {
    const { service, call } = await startService({
      SMTP_URL: `smtp://mailer:s3cret-pass@127.0.0.1:${refusingPort}`,
      SMTP_FROM: 'Shop <orders@shop.example>',
    });
    try {
      const env = await call('GET', emailDiagnosticsPaths.env);
      expect(env.status).toBe(200);
      expect(debugEnvSchema.parse(env.body).debug.email).toEqual({
        transport: 'smtp',
        host: '127.0.0.1',
        port: refusingPort,
        sender: 'Shop <orders@shop.example>',
        secure: false,
        authConfigured: true,
      });
      expect(JSON.stringify(env.body)).not.toContain('s3cret');

      const bad = await call<ErrorEnvelope>('POST', emailDiagnosticsPaths.test, { ...test, to: 'not-an-address' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/To must be a valid email address/);

      const sent = testEmailReplySchema.parse((await call('POST', emailDiagnosticsPaths.test, test)).body);
      expect(sent).toMatchObject({ success: false, status: 'failed' });
      expect(sent.error).toMatch(/550|relaying refused/);
      failedId = sent.emailId;

      const failed = failedEmailsReplySchema.parse((await call('GET', emailDiagnosticsPaths.failed)).body);
      expect(failed.failedEmails).toEqual([
        expect.objectContaining({
          id: failedId,
          to: test.to,
          subject: test.subject,
          template: 'test',
          attempts: 1,
          lastError: expect.stringMatching(/relaying refused/) as unknown,
        }),
      ]);
      const stats = emailQueueStatsReplySchema.parse((await call('GET', emailDiagnosticsPaths.stats)).body).stats;
      expect(stats).toMatchObject({
        pending: 0,
        processing: 0,
        failedLast24h: 1,
        failedTotal: 1,
        sentLast24h: 0,
        oldestPendingAgeSeconds: null,
      });

      // SMTP answers (so the check of the server passes) while the queue reports the failure.
      const facts = readinessFactsSchema.parse((await call('GET', readinessFactsPath)).body);
      expect(facts.own).toMatchObject({ email: { transport: 'smtp' }, smtp: { ok: true }, queue: { failedTotal: 1 } });
    } finally {
      await service.stop();
    }
  });
});

describe('the same queue sending to the dev mailbox', () => {
  it('retries the failed email into the mailbox, refuses a retry of an email not failed, and sends a test email', async () => {
    const { service, call } = await startService({ SMTP_URL: mailbox.smtpUrl, DEV_MAILBOX_URL: mailbox.httpUrl });
    try {
      expect(debugEnvSchema.parse((await call('GET', emailDiagnosticsPaths.env)).body).debug.email).toMatchObject({
        transport: 'dev-mailbox',
        authConfigured: false,
      });

      const retried = await call('POST', emailDiagnosticsPaths.retry(failedId));
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body).toMatchObject({ success: true, id: failedId, status: 'queued' });
      const processed = processQueueReplySchema.parse((await call('POST', emailDiagnosticsPaths.process)).body);
      expect(processed.processed).toBeGreaterThanOrEqual(0);
      const arrived = await mailbox.waitFor((m) => m.subject === test.subject, 15_000);
      expect(arrived.text).toContain('Line <two> & more.');
      expect(arrived.html).toContain('Line &lt;two&gt; &amp; more.');

      expect((await call('POST', emailDiagnosticsPaths.retry(failedId))).status).toBe(409);
      expect((await call('POST', emailDiagnosticsPaths.retry('0123456789abcdef01234567'))).status).toBe(404);
      expect((await call('POST', emailDiagnosticsPaths.retry('nope'))).status).toBe(404);

      const ok = testEmailReplySchema.parse(
        (await call('POST', emailDiagnosticsPaths.test, { ...test, subject: 'Second check' })).body,
      );
      expect(ok).toMatchObject({ success: true, status: 'sent', error: null });
      expect((await mailbox.messages({ to: test.to })).map((m) => m.subject)).toContain('Second check');
      expect(
        failedEmailsReplySchema.parse((await call('GET', emailDiagnosticsPaths.failed)).body).failedEmails,
      ).toEqual([]);
      const stats = emailQueueStatsReplySchema.parse((await call('GET', emailDiagnosticsPaths.stats)).body).stats;
      expect(stats).toMatchObject({ failedTotal: 0, sentLast24h: 2, sentLastHour: 2 });
    } finally {
      await service.stop();
    }
  });

  it('says when SMTP does not answer at all', async () => {
    const probe = await probeSmtp(`smtp://127.0.0.1:${await freePort()}`, 1_000);
    expect(probe.ok).toBe(false);
    expect(probe.error).toMatch(/ECONNREFUSED/);
  });
});
