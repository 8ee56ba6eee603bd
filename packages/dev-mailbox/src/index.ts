// @shop/dev-mailbox: a local SMTP server that accepts every message and keeps it in memory, plus a small
// HTTP API to read them. The local runner starts it when no real SMTP_URL is configured, so emails
// (order confirmations, verification codes) can be read on one machine; tests use it as a real SMTP peer.
// Never part of a production deployment.
// A message is kept as it arrived and parsed only when someone reads it: under a quote load the mailbox
// lives in the load generator's process, and parsing every message there (mailparser, ~0.3-0.4 ms each)
// took CPU from the shop it measured.
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
  messages(filter?: MessageFilter): Promise<MailboxMessage[]>;
  /** How many messages are kept (none parsed). */
  count(): number;
  clear(): void;
  /** Resolves with the first message (newest first) matching `predicate`, waiting for it to arrive. */
  waitFor(predicate: (message: MailboxMessage) => boolean, timeoutMs?: number): Promise<MailboxMessage>;
  stop(): Promise<void>;
}

/** A message as it arrived; parsed (once) when first read. */
interface StoredMessage {
  id: string;
  envelopeFrom: string;
  to: string[];
  receivedAt: string;
  raw: Buffer;
  parsed?: Promise<MailboxMessage>;
}

function parsedMessage(stored: StoredMessage): Promise<MailboxMessage> {
  stored.parsed ??= simpleParser(stored.raw).then((parsed) => ({
    id: stored.id,
    from: stored.envelopeFrom || parsed.from?.value[0]?.address || '',
    to: stored.to,
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    date: parsed.date ? parsed.date.toISOString() : stored.receivedAt,
    receivedAt: stored.receivedAt,
    messageId: parsed.messageId,
  }));
  return stored.parsed;
}

export async function startDevMailbox(options: DevMailboxOptions = {}): Promise<DevMailbox> {
  const host = options.host ?? '127.0.0.1';
  const maxMessages = options.maxMessages ?? 1000;
  const stored: StoredMessage[] = [];
  const waiters = new Set<() => void>();

  const smtp = new SMTPServer({
    // Local loopback only: no TLS (no certificate to manage) and no login required.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    size: options.maxMessageBytes ?? 25 * 1024 * 1024,
    banner: 'shop dev mailbox: messages are kept here and never delivered',
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.once('error', (err) => callback(err));
      stream.once('end', () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error('Message exceeds the mailbox size limit'), { responseCode: 552 }));
          return;
        }
        stored.push({
          id: randomUUID(),
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          receivedAt: new Date().toISOString(),
          raw: Buffer.concat(chunks),
        });
        if (stored.length > maxMessages) stored.splice(0, stored.length - maxMessages);
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  smtp.on('error', () => {
    // Connection-level errors (a client hanging up) must not crash the process that hosts the mailbox.
  });

  /** Recipient filter and limit on the envelope, so only the messages asked for are parsed. */
  function messages(filter: MessageFilter = {}): Promise<MailboxMessage[]> {
    const to = filter.to?.trim().toLowerCase();
    const newestFirst = stored.filter((m) => !to || m.to.includes(to)).reverse();
    const wanted = filter.limit && filter.limit > 0 ? newestFirst.slice(0, filter.limit) : newestFirst;
    return Promise.all(wanted.map(parsedMessage));
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
      messages({ to: url.searchParams.get('to') ?? undefined, limit }).then(
        (list) => send(200, { messages: list, total: stored.length }),
        (err: Error) => send(500, { error: `a kept message could not be read: ${err.message}`, code: 'UNREADABLE' }),
      );
      return;
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
    count: () => stored.length,
    clear: () => {
      stored.length = 0;
    },
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        let settled = false;
        const finish = (settle: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        const check = () => {
          messages().then(
            (list) => {
              const found = list.find(predicate);
              if (found) finish(() => resolve(found));
            },
            (err: Error) => finish(() => reject(err)),
          );
        };
        const timer = setTimeout(
          () =>
            finish(() => reject(new Error(`no matching message arrived in the dev mailbox within ${timeoutMs} ms`))),
          timeoutMs,
        );
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
