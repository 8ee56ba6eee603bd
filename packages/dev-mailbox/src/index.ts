// @shop/dev-mailbox: a local SMTP server that accepts every message and keeps it in memory, plus a small
// HTTP API to read them. The local runner starts it when no real SMTP_URL is configured, so emails
// (order confirmations, verification codes) can be read on one machine; tests use it as a real SMTP peer.
// Never part of a production deployment.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface MailboxMessage {
  id: string;
  /** The sender address (envelope MAIL FROM, else the From header). */
  from: string;
  /** Every recipient of the SMTP envelope, lower-cased (includes Cc and Bcc). */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The message's Date header (ISO), or when it arrived. */
  date: string;
  receivedAt: string;
  messageId?: string;
}

export interface MessageFilter {
  /** Only messages with this recipient (case-insensitive). */
  to?: string;
  /** At most this many, newest first. */
  limit?: number;
}

export interface DevMailboxOptions {
  /** SMTP port; 0 (default) picks a free one. */
  smtpPort?: number;
  /** HTTP API port; 0 (default) picks a free one. */
  httpPort?: number;
  /** Listen address; loopback only by default. */
  host?: string;
  /** Oldest messages are dropped beyond this many (default 1000), so a long session does not grow forever. */
  maxMessages?: number;
  /** Largest accepted message in bytes (default 25 MB). */
  maxMessageBytes?: number;
}

export interface DevMailbox {
  /** e.g. `smtp://127.0.0.1:2525`, ready for nodemailer / the email service's SMTP_URL. */
  smtpUrl: string;
  /** e.g. `http://127.0.0.1:2526`: `GET /messages?to=&limit=`, `DELETE /messages`, `GET /healthz`. */
  httpUrl: string;
  smtpPort: number;
  httpPort: number;
  /** Newest first. */
  messages(filter?: MessageFilter): MailboxMessage[];
  clear(): void;
  /** Resolves with the first message (newest first) matching `predicate`, waiting for it to arrive. */
  waitFor(predicate: (message: MailboxMessage) => boolean, timeoutMs?: number): Promise<MailboxMessage>;
  stop(): Promise<void>;
}

export async function startDevMailbox(options: DevMailboxOptions = {}): Promise<DevMailbox> {
  const host = options.host ?? '127.0.0.1';
  const maxMessages = options.maxMessages ?? 1000;
  const stored: MailboxMessage[] = [];
  const waiters = new Set<() => void>();

  const smtp = new SMTPServer({
    // Local loopback only: no TLS (no certificate to manage) and no login required.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    size: options.maxMessageBytes ?? 25 * 1024 * 1024,
    banner: 'shop dev mailbox: messages are kept here and never delivered',
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const receivedAt = new Date().toISOString();
          stored.push({
            id: randomUUID(),
            from: envelopeFrom || parsed.from?.value[0]?.address || '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            date: parsed.date ? parsed.date.toISOString() : receivedAt,
            receivedAt,
            messageId: parsed.messageId,
          });
          if (stored.length > maxMessages) stored.splice(0, stored.length - maxMessages);
          for (const wake of waiters) wake();
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  smtp.on('error', () => {
    // Connection-level errors (a client hanging up) must not crash the process that hosts the mailbox.
  });

  function messages(filter: MessageFilter = {}): MailboxMessage[] {
    const to = filter.to?.trim().toLowerCase();
    const newestFirst = stored.filter((m) => !to || m.to.includes(to)).reverse();
    return filter.limit && filter.limit > 0 ? newestFirst.slice(0, filter.limit) : newestFirst;
  }

  const api = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mailbox');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/healthz' && req.method === 'GET') return send(200, { status: 'ok' });
    if (url.pathname === '/messages' && req.method === 'GET') {
      const limitRaw = url.searchParams.get('limit');
      const limit = limitRaw === null ? undefined : Number(limitRaw);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
        return send(400, { error: 'limit must be a whole number of at least 1', code: 'BAD_REQUEST' });
      }
      const list = messages({ to: url.searchParams.get('to') ?? undefined, limit });
      return send(200, { messages: list, total: stored.length });
    }
    if (url.pathname === '/messages' && req.method === 'DELETE') {
      stored.length = 0;
      return send(200, { cleared: true });
    }
    return send(404, { error: `No route for ${req.method} ${url.pathname}`, code: 'NOT_FOUND' });
  });

  const listen = (
    server: {
      listen: (port: number, host: string, cb: () => void) => unknown;
      once: (e: 'error', cb: (err: Error) => void) => unknown;
    },
    port: number,
  ) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });

  await listen(smtp.server, options.smtpPort ?? 0);
  try {
    await listen(api, options.httpPort ?? 0);
  } catch (err) {
    await new Promise<void>((r) => smtp.close(() => r()));
    throw err;
  }
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const httpPort = (api.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    smtpUrl: `smtp://${urlHost}:${smtpPort}`,
    httpUrl: `http://${urlHost}:${httpPort}`,
    smtpPort,
    httpPort,
    messages,
    clear: () => {
      stored.length = 0;
    },
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages().find(predicate);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message arrived in the dev mailbox within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop() {
      api.closeAllConnections();
      await Promise.all([
        new Promise<void>((r) => api.close(() => r())),
        new Promise<void>((r) => smtp.close(() => r())),
      ]);
    },
  };
}
