// The message the email service builds itself (queue/mime.ts) reads, after a real SMTP exchange with the
// development mailbox, as nodemailer's own composition did: subject, names and bodies in any script, the
// message id the queue gave it, its custom headers; a line break in a header value never starts a header.
import { startDevMailbox, type DevMailbox } from '@shop/dev-mailbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeMail } from '../src/queue/mime.js';
import { smtpSender, type MailSender } from '../src/queue/transport.js';

const mail = {
  from: 'Custom Coins <orders@shop.example>',
  to: 'jordan@example.com',
  subject: 'Your quote request CC-ABC123',
  html: '<p>Thank you, Jordan.</p>\n.\n<p>A line that is only a dot above.</p>',
  text: 'Thank you, Jordan.\n.\nA line that is only a dot above.',
  messageId: '<e1@shop-email>',
  headers: { 'X-Shop-Email-Id': 'e1', 'X-Shop-Order-Number': 'CC-ABC123' },
};

/** The header block of a raw message, unfolded. */
function headersOf(raw: Buffer): string[] {
  const head = raw.toString('latin1').split('\r\n\r\n')[0];
  return head.replace(/\r\n[ \t]/g, ' ').split('\r\n');
}

describe('composeMail', () => {
  it('writes the envelope and the headers the message needs', () => {
    const composed = composeMail(mail, new Date('2026-11-24T10:00:00Z'));
    expect(composed?.envelope).toEqual({ from: 'orders@shop.example', to: ['jordan@example.com'] });
    expect(headersOf(composed!.raw)).toEqual(
      expect.arrayContaining([
        'From: Custom Coins <orders@shop.example>',
        'To: jordan@example.com',
        'Subject: Your quote request CC-ABC123',
        'Message-ID: <e1@shop-email>',
        'Date: Tue, 24 Nov 2026 10:00:00 +0000',
        'X-Shop-Email-Id: e1',
        'X-Shop-Order-Number: CC-ABC123',
        'MIME-Version: 1.0',
      ]),
    );
  });

  it('keeps a line break in a header value from starting a header of its own', () => {
    const composed = composeMail({
      ...mail,
      subject: 'Hello\r\nBcc: victim@example.com',
      headers: { 'X-Shop-Order-Number': 'CC-1\nX-Injected: yes' },
    });
    const headers = headersOf(composed!.raw);
    expect(headers.some((h) => /^(Bcc|X-Injected):/i.test(h))).toBe(false);
    expect(headers).toContain('Subject: Hello Bcc: victim@example.com');
  });

  it('leaves to nodemailer what it does not write itself', () => {
    expect(composeMail({ ...mail, to: 'jordan@exämple.com' })).toBeNull();
    expect(composeMail({ ...mail, to: 'Team: a@example.com, b@example.com;' })).not.toBeNull();
    expect(composeMail({ ...mail, from: '' })).toBeNull();
    expect(composeMail({ ...mail, headers: { 'Bad Name': 'x' } })).toBeNull();
  });
});

describe('smtpSender with the composed message', () => {
  let mailbox: DevMailbox;
  let sender: MailSender;
  beforeAll(async () => {
    mailbox = await startDevMailbox();
    sender = smtpSender(mailbox.smtpUrl, { maxConnections: 2, maxMessages: 10 });
  });
  afterAll(async () => {
    sender.close();
    await mailbox.stop();
  });

  it('delivers what was asked, in any script', async () => {
    const sent = await sender.send({
      ...mail,
      from: 'Café Ünïcode Coins <orders@shop.example>',
      to: 'José Núñez <jose@example.com>',
      subject: 'Votre devis CC-ABC123 est prêt — merci, José! 😀 '.repeat(3).trim(),
      text: `${mail.text}\nÜnïcode ✓ ${'long line '.repeat(40)}`,
      html: `${mail.html}<p>Ünïcode ✓</p>`,
    });
    expect(sent.messageId).toBe('<e1@shop-email>');
    const got = await mailbox.waitFor((m) => m.to.includes('jose@example.com'), 10_000);
    expect(got).toMatchObject({
      from: 'orders@shop.example',
      to: ['jose@example.com'],
      subject: 'Votre devis CC-ABC123 est prêt — merci, José! 😀 '.repeat(3).trim(),
      messageId: '<e1@shop-email>',
    });
    expect(got.text.trim()).toBe(`${mail.text}\nÜnïcode ✓ ${'long line '.repeat(40)}`.trim());
    expect(got.html).toBe(`${mail.html}<p>Ünïcode ✓</p>`);
  });

  it('still sends through nodemailer what it leaves to it', async () => {
    await sender.send({ ...mail, messageId: '<e2@shop-email>', to: 'ann@exämple.com' });
    const got = await mailbox.waitFor((m) => m.messageId === '<e2@shop-email>', 10_000);
    expect(got.to).toEqual(['ann@exämple.com']);
    expect(got.text.trim()).toBe(mail.text);
  });
});
