// The SMTP transport from SMTP_URL. Plain SMTP to a loopback server (the dev mailbox) skips STARTTLS;
// any other server gets nodemailer's usual opportunistic STARTTLS, and smtps:// is TLS from the start.
import nodemailer from 'nodemailer';
import { composeMail } from './mime.js';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  headers?: Record<string, string>;
}

export interface MailSender {
  send(mail: OutgoingMail): Promise<{ messageId: string; response: string }>;
  close(): void;
}

/** Pooled SMTP connections: how many at once, and how many messages each carries before it is replaced. */
export interface SmtpPool {
  maxConnections: number;
  maxMessages: number;
}

/**
 * A nodemailer transport for SMTP_URL; the diagnostics' SMTP probe uses it with shorter waits and no pool.
 * With `pool`, messages share open connections (no TCP and SMTP greeting per message) and up to
 * `maxConnections` go out at once.
 */
export function smtpTransport(smtpUrl: string, waits = { connectMs: 10_000, socketMs: 30_000 }, pool?: SmtpPool) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const loopback = ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname);
  return nodemailer.createTransport({
    url: smtpUrl,
    secure,
    ignoreTLS: !secure && loopback,
    // Bounded waits: a stuck server becomes a failed attempt (retried later), not a stuck worker.
    connectionTimeout: waits.connectMs,
    greetingTimeout: waits.connectMs,
    socketTimeout: waits.socketMs,
    ...(pool ? { pool: true, maxConnections: pool.maxConnections, maxMessages: pool.maxMessages } : {}),
  });
}

/** The longest one send can take before the transport gives up on it (connect, greeting, then the socket wait). */
export const longestSendMs = 10_000 + 10_000 + 30_000;

export function smtpSender(smtpUrl: string, pool?: SmtpPool): MailSender {
  const transport = smtpTransport(smtpUrl, undefined, pool);
  return {
    async send(mail) {
      // Built here in one piece (see mime.ts); nodemailer composes only what that leaves to it.
      const composed = composeMail(mail);
      const info = await transport.sendMail(
        composed ? { envelope: composed.envelope, raw: composed.raw, messageId: mail.messageId } : mail,
      );
      return { messageId: info.messageId, response: info.response };
    },
    close: () => transport.close(),
  };
}
