// A campaign to 10,000 subscribers, fully delivered to a local SMTP server (issue 14: under 2 minutes on
// this 2-core machine), and the email service's raw delivery rate (issue 20: at least 200 emails per
// second to the local SMTP server). Everything real: the embedded MongoDB in its own process (journal on
// disk, as `npm start` runs it), a real nats-server, the marketing and email services as child processes
// started from their own src/main.ts, and an smtp-server on loopback that counts what it receives.
//
// Three measurements in one run, so they compare with each other:
//   1. baseline: nodemailer alone, pooled like the email service, straight to the SMTP server (the most
//      this machine's SMTP server and client can do, with no queue at all);
//   2. the campaign: subscribers seeded into marketing's database, then Create Campaign and Send Now
//      through marketing's HTTP API; the time until the SMTP server has one email per subscriber, and until
//      marketing shows the campaign `sent` with every delivery counted;
//   3. raw email service: emails put in its durable queue, due all at once: messages/s until the SMTP
//      server has every one (claim, send, record each with its email.sent event).
//
//   npm run bench:campaign -w load-tests -- [--subscribers 10000] [--raw 5000] [--baseline 2000] [--record]
// --record writes the figures into this benchmark's own section of load-tests/RESULTS.md.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import mongoose from 'mongoose';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import type { Campaign } from '@shop/contracts';
import { adminHeaders, spawnServiceProcess, testGatewayKey, type ServiceProcess } from '@shop/service-kit/testing';
import { freePort, startNats } from '@shop/test-support';
import { recordMarkedSection } from './bench-report.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    subscribers: { type: 'string', default: '10000' },
    raw: { type: 'string', default: '5000' },
    baseline: { type: 'string', default: '2000' },
    record: { type: 'boolean', default: false },
  },
  strict: true,
});
const subscriberCount = Number(values.subscribers);
const rawCount = Number(values.raw);
const baselineCount = Number(values.baseline);
for (const [name, v] of [
  ['subscribers', subscriberCount],
  ['raw', rawCount],
  ['baseline', baselineCount],
] as const) {
  if (!Number.isInteger(v) || v < 1)
    throw new Error(`--${name} must be a whole number of at least 1, got ${String(v)}`);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
/** Goals: issue 14 (campaign within 2 minutes) and issue 20 (at least 200 emails per second). */
const campaignGoalSeconds = 120;
const rawGoalPerSecond = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** A loopback SMTP server that counts messages, per recipient and per Message-ID. */
async function startCountingSmtp() {
  const perRecipient = new Map<string, number>();
  const messageIds = new Set<string>();
  let messages = 0;
  let firstAt = 0;
  let lastAt = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 16_384) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        messages += 1;
        lastAt = performance.now();
        firstAt ||= lastAt;
        const id = /^message-id:\s*(\S+)/im.exec(head.split(/\r?\n\r?\n/, 1)[0] ?? '')?.[1];
        if (id) messageIds.add(id);
        for (const r of session.envelope.rcptTo)
          perRecipient.set(r.address.toLowerCase(), (perRecipient.get(r.address.toLowerCase()) ?? 0) + 1);
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    get messages() {
      return messages;
    },
    get firstAt() {
      return firstAt;
    },
    get lastAt() {
      return lastAt;
    },
    recipients: (prefix: string) => [...perRecipient.entries()].filter(([to]) => to.startsWith(prefix)),
    messageIds,
    reset() {
      perRecipient.clear();
      messageIds.clear();
      messages = 0;
      firstAt = 0;
      lastAt = 0;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The embedded MongoDB as its own process (as the local runner runs it), with its journal in `dbPath`. */
async function startMongoProcess(dbPath: string) {
  const port = await freePort();
  const child = spawn(
    path.join(root, 'node_modules/.bin/node'),
    [
      path.join(root, 'packages/embedded-mongo/bin/embedded-mongo.mjs'),
      '--port',
      String(port),
      '--replset',
      'rs0',
      '--dbpath',
      dbPath,
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    },
  );
  const errors: string[] = [];
  child.stderr.on('data', (c: Buffer) => errors.push(c.toString('utf8')));
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`embedded MongoDB exited with ${child.exitCode}: ${errors.join('')}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (waited > 30_000) throw new Error('embedded MongoDB did not listen within 30 s');
    await sleep(100);
  }
  return {
    uri: `mongodb://127.0.0.1:${port}/?replicaSet=rs0`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function waitFor(what: string, probe: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50) {
  const deadline = performance.now() + timeoutMs;
  while (!(await probe())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

const perSecond = (count: number, ms: number) => (count / (ms / 1000)).toFixed(1);

async function main() {
  const started = new Date();
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  const loadAtStart = load();
  const dbPath = await mkdtemp(path.join(os.tmpdir(), 'shop-bench-campaign-'));
  const smtp = await startCountingSmtp();
  const mongo = await startMongoProcess(dbPath);
  const nats = await startNats();
  const children: ServiceProcess[] = [];
  let db: mongoose.Connection | undefined;
  try {
    // Admin calls carry the gateway's signed identity, signed with the key the services are given.
    const common = {
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      GATEWAY_SIGNING_KEY: testGatewayKey(),
    };
    const asAdmin = adminHeaders('bench@shop.local');
    const email = await spawnServiceProcess({
      packageDir: path.join(root, 'services/email'),
      env: {
        ...common,
        PORT: String(await freePort()),
        SMTP_URL: smtp.url,
        SHOP_URL: 'http://127.0.0.1:8080',
        ...pick(process.env, /^EMAIL_/),
      },
    });
    children.push(email);
    const marketing = await spawnServiceProcess({
      packageDir: path.join(root, 'services/marketing'),
      env: { ...common, PORT: String(await freePort()), ...pick(process.env, /^(CAMPAIGN_|MARKETING_)/) },
    });
    children.push(marketing);
    db = await mongoose.createConnection(mongo.uri).asPromise();
    const emailDb = db.useDb('shop_email');
    const marketingDb = db.useDb('shop_marketing');
    const concurrency = Number(process.env.EMAIL_SEND_CONCURRENCY ?? 8);

    // 1. Baseline: nodemailer alone, the same pool size, no queue.
    const transport = nodemailer.createTransport({
      url: smtp.url,
      ignoreTLS: true,
      pool: true,
      maxConnections: concurrency,
      maxMessages: 100,
    });
    let t = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < baselineCount) {
          const i = next++;
          await transport.sendMail({
            from: 'bench@shop.local',
            to: `base${i}@example.com`,
            subject: 'Baseline',
            text: `Baseline message ${i}`,
            html: `<p>Baseline message ${i}</p>`,
          });
        }
      }),
    );
    const baselineMs = performance.now() - t;
    transport.close();
    smtp.reset();

    // 2. The campaign through marketing's API.
    const now = new Date();
    const subscribers = Array.from({ length: subscriberCount }, (_, i) => ({
      _id: randomUUID(),
      name: `Subscriber ${i}`,
      email: `sub${i}@example.com`,
      phone: null,
      category: 'general',
      emailSubscribed: true,
      smsSubscribed: false,
      status: 'active',
      emailOpens: 0,
      totalOrders: 0,
      source: 'admin',
      unsubscribedAt: null,
      bouncedAt: null,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < subscribers.length; i += 1000)
      await marketingDb.collection<{ _id: string }>('subscribers').insertMany(subscribers.slice(i, i + 1000));
    const api = async <Body = unknown>(method: string, url: string, body?: unknown): Promise<Body> => {
      const res = await fetch(`${marketing.url}${url}`, {
        method,
        headers: { ...asAdmin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Body;
    };
    const created = await api<{ campaign: Campaign }>('POST', '/api/marketing/emails', {
      name: 'Benchmark newsletter',
      type: 'newsletter',
      subject: 'Our new coins',
      content: 'New challenge coins are in.\n\nSee them at https://shop.example.com/coins',
    });
    const id = created.campaign.id;
    const loadSamples: number[] = [];
    const sampler = setInterval(() => loadSamples.push(os.loadavg()[0]), 5000);
    t = performance.now();
    await api('POST', `/api/marketing/emails/${id}/send`);
    await waitFor(
      'one campaign email per subscriber at the SMTP server',
      () => smtp.recipients('sub').length >= subscriberCount,
      600_000,
    );
    const campaignMs = performance.now() - t;
    let campaign: Campaign | undefined;
    await waitFor(
      'the campaign shown as sent',
      async () => {
        campaign = (await api<{ campaigns: Campaign[] }>('GET', '/api/marketing/emails')).campaigns.find(
          (c) => c.id === id,
        );
        return campaign?.status === 'sent';
      },
      600_000,
      500,
    );
    const settledMs = performance.now() - t;
    clearInterval(sampler);
    // waitFor returned, so the probe saw the campaign `sent` (this narrows the type for what follows).
    if (!campaign) throw new Error(`campaign ${id} is not in the campaign list`);
    const twins = smtp.recipients('sub').filter(([, n]) => n > 1).length;

    // 3. Raw email service (after the campaign, so marketing's consumer of email.sent is not behind on these): queued emails, all due at once.
    smtp.reset();
    const far = new Date(Date.now() + 86_400_000);
    const rawDocs = Array.from({ length: rawCount }, (_, i) => ({
      to: `raw${i}@example.com`,
      subject: `Queue drain ${i}`,
      html: `<p>Queue drain message ${i}</p>`,
      text: `Queue drain message ${i}`,
      template: 'test',
      status: 'queued',
      attempts: 0,
      maxAttempts: 6,
      nextAttemptAt: far,
      dedupeKey: `bench-raw:${randomUUID()}`,
      createdAt: new Date(),
      updatedAt: new Date(),
    }));
    for (let i = 0; i < rawDocs.length; i += 1000)
      await emailDb.collection('emails').insertMany(rawDocs.slice(i, i + 1000));
    t = performance.now();
    await emailDb.collection('emails').updateMany({ nextAttemptAt: far }, { $set: { nextAttemptAt: new Date() } });
    await waitFor('the raw queue at the SMTP server', () => smtp.messages >= rawCount, 300_000);
    const rawMs = performance.now() - t;
    const rawSteadyMs = smtp.lastAt - smtp.firstAt;
    await waitFor(
      'the raw queue recorded as sent',
      async () => (await emailDb.collection('emails').countDocuments({ status: 'sent', template: 'test' })) >= rawCount,
      120_000,
      250,
    );
    const rawRecordedMs = performance.now() - t;
    const rawDuplicates = smtp.messages - smtp.messageIds.size;

    const figures = {
      date: started.toISOString().replace(/\.\d+Z$/, 'Z'),
      commit,
      node: process.version,
      cores: os.cpus().length,
      loadAtStart,
      loadDuringCampaign: loadSamples.length
        ? `${Math.min(...loadSamples).toFixed(1)} to ${Math.max(...loadSamples).toFixed(1)}`
        : load(),
      concurrency,
      claimBatch: Number(process.env.EMAIL_CLAIM_BATCH_SIZE ?? 50),
      campaignBatch: Number(process.env.CAMPAIGN_BATCH_SIZE ?? 200),
      baseline: { count: baselineCount, ms: baselineMs, rate: perSecond(baselineCount, baselineMs) },
      raw: {
        count: rawCount,
        ms: rawMs,
        rate: perSecond(rawCount, rawMs),
        steadyRate: perSecond(rawCount - 1, rawSteadyMs),
        recordedMs: rawRecordedMs,
        duplicates: rawDuplicates,
      },
      campaign: {
        subscribers: subscriberCount,
        ms: campaignMs,
        rate: perSecond(subscriberCount, campaignMs),
        settledMs,
        twins,
        sent: campaign.sent,
        recipients: campaign.recipients,
        failed: campaign.failed,
      },
    };
    const report = render(figures);
    process.stdout.write(`${report}\n`);
    if (values.record) await record(report);
    const met =
      campaignMs / 1000 < campaignGoalSeconds &&
      rawCount / (rawMs / 1000) >= rawGoalPerSecond &&
      twins === 0 &&
      campaign.sent === subscriberCount;
    process.exitCode = met ? 0 : 1;
  } finally {
    await db?.close();
    for (const child of children.reverse()) await child.stop('SIGTERM');
    await nats.stop();
    await mongo.stop();
    await smtp.stop();
    await rm(dbPath, { recursive: true, force: true });
  }
}

function pick(env: NodeJS.ProcessEnv, name: RegExp): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => name.test(e[0]) && e[1] !== undefined),
  );
}

type Figures = {
  date: string;
  commit: string;
  node: string;
  cores: number;
  loadAtStart: string;
  loadDuringCampaign: string;
  concurrency: number;
  claimBatch: number;
  campaignBatch: number;
  baseline: { count: number; ms: number; rate: string };
  raw: { count: number; ms: number; rate: string; steadyRate: string; recordedMs: number; duplicates: number };
  campaign: {
    subscribers: number;
    ms: number;
    rate: string;
    settledMs: number;
    twins: number;
    sent: number;
    recipients: number;
    failed: number;
  };
};

function render(f: Figures): string {
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const rawRatio = ((Number(f.raw.rate) / Number(f.baseline.rate)) * 100).toFixed(0);
  return [
    `### ${f.date}, commit ${f.commit}`,
    '',
    `Node ${f.node}, ${f.cores} cores, load average ${f.loadAtStart} (1/5/15 min) at the start, ${f.loadDuringCampaign} (1 min) during the campaign.`,
    `Email service: ${f.concurrency} sends in flight over ${f.concurrency} pooled SMTP connections, claims of ${f.claimBatch}; campaign batches of ${f.campaignBatch}.`,
    '',
    '| measurement | messages | time | messages/s | goal |',
    '|---|---:|---:|---:|---|',
    `| baseline: nodemailer alone, pooled, to the SMTP server | ${f.baseline.count} | ${s(f.baseline.ms)} s | ${f.baseline.rate} | |`,
    `| email service: queued emails, due at once, to the SMTP server | ${f.raw.count} | ${s(f.raw.ms)} s | **${f.raw.rate}** (${rawRatio}% of the baseline; ${f.raw.steadyRate} first to last message) | at least ${rawGoalPerSecond}/s: ${Number(f.raw.rate) >= rawGoalPerSecond ? 'met' : 'NOT met'} |`,
    `| campaign: Send Now to the last subscriber's email at the SMTP server | ${f.campaign.subscribers} | **${s(f.campaign.ms)} s** | ${f.campaign.rate} | under ${campaignGoalSeconds} s: ${f.campaign.ms / 1000 < campaignGoalSeconds ? 'met' : 'NOT met'} |`,
    `| campaign: Send Now to marketing showing it \`sent\` (every delivery counted) | ${f.campaign.sent} | ${s(f.campaign.settledMs)} s | ${(f.campaign.sent / (f.campaign.settledMs / 1000)).toFixed(1)} | |`,
    '',
    `The queue's emails were all recorded \`sent\` ${s(f.raw.recordedMs)} s after they became due; ${f.raw.duplicates} duplicate Message-IDs. ` +
      `Campaign: ${f.campaign.recipients} recipients, ${f.campaign.sent} sent, ${f.campaign.failed} failed, ${f.campaign.twins} subscribers with more than one email.`,
  ].join('\n');
}

/** Puts the newest run at the top of this benchmark's own section of RESULTS.md (other sections untouched). */
async function record(report: string): Promise<void> {
  await recordMarkedSection(path.join(root, 'load-tests/RESULTS.md'), {
    marker: 'campaign-10k',
    heading: '## Campaign to 10,000 subscribers and the email queue (`npm run bench:campaign -w load-tests`)',
    intro:
      'Issue 14: a campaign to 10,000 subscribers fully delivered to a local SMTP server in under 2 minutes; issue 20: the email service ' +
      'delivers at least 200 emails per second to it. Method in [README.md](README.md); every part real (embedded MongoDB in its own process ' +
      'with its journal on disk, nats-server, the marketing and email services as processes, smtp-server on loopback counting). ' +
      'Before: one email at a time, 3 to 7 per second (a 10,000 campaign took 25 to 55 minutes).',
    report,
  });
}

await main();
