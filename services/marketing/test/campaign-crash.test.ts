// A campaign reaches each subscriber once in the local SMTP mailbox, although the email service (a real
// child process) is killed with SIGKILL half way and started again, and the marketing service is stopped
// in the middle of handing the batches over and replaced by a new one. By default 200 subscribers in 20
// batches (6 s measured on 2 cores, 10 s with three busy loops beside it; CI must stay short);
// SHOP_LONG_TESTS=1 runs the 1,000 (7 s measured). Same steps and
// assertions either way: the kill at half the mailbox, the marketing restart after 3 batches.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Campaign } from '@shop/contracts';
import { startDevMailbox, type DevMailbox } from '@shop/dev-mailbox';
import { spawnServiceProcess, type ServiceProcess } from '@shop/service-kit/testing';
import { freePort, type StartedMongo, type StartedNats } from '@shop/test-support';
import { call, eventually, shopUrl, startInfra, startMarketing, type MarketingService } from './support/harness.js';

const subscribers = process.env.SHOP_LONG_TESTS === '1' ? 1000 : 200;
/** 20 batches whatever the size, so the marketing restart after 3 lands mid-handover. */
const batchSize = String(subscribers / 20);
const emailDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../email');
/** Sends in flight at once in the email service (its default). */
const sendConcurrency = 8;

let infra: { mongo: StartedMongo; nats: StartedNats };
let mailbox: DevMailbox;
let marketing: MarketingService | undefined;
let email: ServiceProcess | undefined;

async function startEmailProcess() {
  return spawnServiceProcess({
    packageDir: emailDir,
    env: {
      PORT: String(await freePort()),
      MONGO_URL: infra.mongo.uri,
      NATS_URL: infra.nats.url,
      LOG_LEVEL: 'warn',
      SMTP_URL: mailbox.smtpUrl,
      SHOP_URL: shopUrl,
      EMAIL_POLL_INTERVAL_MS: '100',
      // A claim held by the killed process is taken over after 3 s instead of 2 minutes.
      EMAIL_CLAIM_LEASE_MS: '3000',
      EMAIL_SEND_CONCURRENCY: String(sendConcurrency),
    },
  });
}

beforeAll(async () => {
  infra = await startInfra();
  mailbox = await startDevMailbox({ smtpPort: 0, httpPort: 0, maxMessages: 5000 });
});

afterAll(async () => {
  await marketing?.stop();
  await email?.stop('SIGKILL');
  await mailbox?.stop();
  await Promise.all([infra?.nats.stop(), infra?.mongo.stop()]);
});

it(
  `delivers a campaign to ${subscribers} subscribers exactly once through a SIGKILL of the email service and a marketing restart`,
  { timeout: 900_000 },
  async () => {
    marketing = await startMarketing(infra, { CAMPAIGN_BATCH_SIZE: batchSize });
    email = await startEmailProcess();
    await marketing.ctx.models.Subscriber.insertMany(
      Array.from({ length: subscribers }, (_, i) => ({
        name: `Sub ${i}`,
        email: `sub${i}@example.com`,
        category: 'general',
      })),
    );
    const created = await call(marketing, 'POST', '/api/marketing/emails', {
      name: 'Big send',
      type: 'newsletter',
      subject: 'Big send',
      content: 'Hello all',
    });
    const id = (created.body as { campaign: Campaign }).campaign.id;
    expect((await call(marketing, 'POST', `/api/marketing/emails/${id}/send`)).status).toBe(202);

    // Marketing stops after a few batches; a new instance resumes at the cursor.
    await eventually(
      () => marketing!.ctx.models.Campaign.findById(id).lean(),
      (c) => (c?.batches ?? 0) >= 3,
      60_000,
    );
    await marketing.stop();
    marketing = await startMarketing(infra, { CAMPAIGN_BATCH_SIZE: batchSize });

    // The email service dies mid-send and comes back.
    // Watched every 5 ms (the mailbox is in this process): sending is fast, and the kill must land mid-send.
    for (const deadline = Date.now() + 600_000; mailbox.count() < subscribers / 2;) {
      if (Date.now() > deadline) throw new Error(`only ${mailbox.count()} of ${subscribers} emails arrived`);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await email.stop('SIGKILL')).toBeNull();
    const atKill = mailbox.count();
    expect(atKill).toBeLessThan(subscribers);
    email = await startEmailProcess();

    const done = await eventually(
      async () =>
        ((await call(marketing!, 'GET', '/api/marketing/emails')).body as { campaigns: Campaign[] }).campaigns[0],
      (c) => c.status === 'sent',
      600_000,
    );
    expect(done).toMatchObject({ recipients: subscribers, sent: subscribers, failed: 0 });

    const messages = await mailbox.messages();
    const perRecipient = new Map<string, Set<string>>();
    for (const m of messages)
      for (const to of m.to) perRecipient.set(to, (perRecipient.get(to) ?? new Set()).add(m.messageId ?? m.id));
    expect(perRecipient.size).toBe(subscribers);
    // One email per subscriber: one Message-ID each. SMTP cannot be exactly-once across a crash between
    // the server's acceptance and our record of it; an email in that window may go out again under the
    // same Message-ID (receivers drop it). The window holds at most the sends in flight plus the outcomes
    // waiting to be written (each bounded by the send concurrency), so at most that many extra copies.
    expect([...perRecipient.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(messages.length).toBeLessThanOrEqual(subscribers + 2 * sendConcurrency);
  },
);
