// The dev mailbox is a real SMTP server: nodemailer delivers to it over loopback, and the message can be
// read back in process and over its HTTP API, newest first, filtered by recipient.
import nodemailer from 'nodemailer';

type MailOptions = Parameters<ReturnType<typeof nodemailer.createTransport>['sendMail']>[0];
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevMailbox, type DevMailbox, type MailboxMessage } from '../src/index.js';

let mailbox: DevMailbox;

beforeAll(async () => {
  mailbox = await startDevMailbox();
});

afterAll(async () => {
  await mailbox?.stop();
});

function send(to: string, subject: string, extra: Partial<MailOptions> = {}) {
  const transport = nodemailer.createTransport({ url: mailbox.smtpUrl, secure: false, ignoreTLS: true });
  return transport.sendMail({
    from: 'Tactical Gear Co. <orders@shop.test>',
    to,
    subject,
    text: `text of ${subject}`,
    html: `<p>html of ${subject}</p>`,
    ...extra,
  });
}

describe('dev mailbox', () => {
  it('keeps a message sent over SMTP with its parts', async () => {
    mailbox.clear();
    await send('Alex@Example.com', 'Your verification code');
    const [message] = await mailbox.messages();
    expect(message).toMatchObject({
      from: 'orders@shop.test',
      to: ['alex@example.com'],
      subject: 'Your verification code',
      text: expect.stringContaining('text of Your verification code') as unknown,
      html: '<p>html of Your verification code</p>',
    });
    expect(Date.parse(message.date)).not.toBeNaN();
    expect(message.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lists newest first and filters by recipient, case-insensitively', async () => {
    mailbox.clear();
    await send('a@example.com', 'first');
    await send('b@example.com', 'other');
    await send('a@example.com', 'second');
    expect((await mailbox.messages({ to: 'A@example.com' })).map((m) => m.subject)).toEqual(['second', 'first']);
    expect((await mailbox.messages({ to: 'a@example.com', limit: 1 })).map((m) => m.subject)).toEqual(['second']);
    expect((await mailbox.messages()).map((m) => m.subject)).toEqual(['second', 'other', 'first']);
  });

  it('counts every envelope recipient, Bcc included', async () => {
    mailbox.clear();
    await send('to@example.com', 'with bcc', { bcc: 'hidden@example.com' });
    expect(await mailbox.messages({ to: 'hidden@example.com' })).toHaveLength(1);
  });

  it('serves the messages over HTTP and clears them', async () => {
    mailbox.clear();
    await send('http@example.com', 'over http');
    const res = await fetch(`${mailbox.httpUrl}/messages?to=${encodeURIComponent('HTTP@example.com')}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { messages: MailboxMessage[]; total: number };
    expect(body.messages.map((m) => m.subject)).toEqual(['over http']);
    expect((await fetch(`${mailbox.httpUrl}/messages?limit=0`)).status).toBe(400);
    expect((await fetch(`${mailbox.httpUrl}/messages`, { method: 'DELETE' })).status).toBe(200);
    expect(await mailbox.messages()).toEqual([]);
    expect(mailbox.count()).toBe(0);
    expect((await fetch(`${mailbox.httpUrl}/nothing`)).status).toBe(404);
  });

  it('waits for a message that has not arrived yet', async () => {
    mailbox.clear();
    const waiting = mailbox.waitFor((m) => m.subject === 'later', 5000);
    await send('w@example.com', 'later');
    expect((await waiting).to).toEqual(['w@example.com']);
    await expect(mailbox.waitFor((m) => m.subject === 'never', 50)).rejects.toThrow(/no matching message/);
  });

  it('counts what arrived and answers total without reading every message', async () => {
    mailbox.clear();
    await send('c1@example.com', 'one');
    await send('c2@example.com', 'two');
    expect(mailbox.count()).toBe(2);
    const res = await fetch(`${mailbox.httpUrl}/messages?limit=1`);
    const body = (await res.json()) as { messages: MailboxMessage[]; total: number };
    expect(body).toMatchObject({ total: 2, messages: [{ subject: 'two', to: ['c2@example.com'] }] });
  });

  it('refuses a message over its size limit with 552', async () => {
    const small = await startDevMailbox({ maxMessageBytes: 2_000 });
    try {
      const transport = nodemailer.createTransport({ url: small.smtpUrl, secure: false, ignoreTLS: true });
      await expect(
        transport.sendMail({ from: 'a@shop.test', to: 'big@example.com', subject: 'big', text: 'x'.repeat(10_000) }),
      ).rejects.toMatchObject({ responseCode: 552 });
      expect(small.count()).toBe(0);
    } finally {
      await small.stop();
    }
  });

  it('refuses a port that is taken', async () => {
    await expect(startDevMailbox({ smtpPort: mailbox.smtpPort })).rejects.toThrow(/EADDRINUSE/);
  });
});
