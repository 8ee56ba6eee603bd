// The SMTP transport from SMTP_URL. Plain SMTP to a loopback server (the dev mailbox) skips STARTTLS;
// any other server gets nodemailer's usual opportunistic STARTTLS, and smtps:// is TLS from the start.
import nodemailer from 'nodemailer';

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

/** A nodemailer transport for SMTP_URL; the diagnostics' SMTP probe uses it with shorter waits. */
export function smtpTransport(smtpUrl: string, waits = { connectMs: 10_000, socketMs: 30_000 }) {
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
  });
}

export function smtpSender(smtpUrl: string): MailSender {
  const transport = smtpTransport(smtpUrl);
  return {
    async send(mail) {
      const info = await transport.sendMail(mail);
      return { messageId: info.messageId, response: info.response };
    },
    close: () => transport.close(),
  };
}
