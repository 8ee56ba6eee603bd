// The marketing service's test stack: the embedded MongoDB, a real nats-server, the marketing service
// built from its own config, and (when a test needs delivery) the real email service with an SMTP
// server on loopback. Events are published the way other services publish them.
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createEvent, type EventData, type EventSource, type EventType } from '@shop/contracts';
import {
  eventually,
  orderCreatedData,
  startMongo,
  startNats,
  type StartedMongo,
  type StartedNats,
} from '@shop/test-support';
import { SMTPServer } from 'smtp-server';
import { buildApp as buildEmailApp } from '../../../email/src/app.js';
import { loadConfig as loadEmailConfig, type RawEmailEnv } from '../../../email/src/config.js';
import { buildApp, type MarketingTestHooks } from '../../src/app.js';
import { loadConfig, type RawMarketingEnv } from '../../src/config.js';
import { adminHeaders } from '@shop/service-kit/testing';

export { eventually };
export type MarketingService = Awaited<ReturnType<typeof buildApp>>;
export type EmailService = Awaited<ReturnType<typeof buildEmailApp>>;
export const shopUrl = 'https://shop.example.com';

export async function startInfra() {
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  return { mongo, nats };
}

export async function startMarketing(
  infra: { mongo: StartedMongo; nats: StartedNats },
  env: RawMarketingEnv = {},
  hooks: MarketingTestHooks = {},
) {
  const service = await buildApp(
    loadConfig({
      PORT: '0',
      MONGO_URL: infra.mongo.uri,
      NATS_URL: infra.nats.url,
      LOG_LEVEL: 'silent',
      MARKETING_JOB_INTERVAL_MS: '200',
      ...env,
    }),
    { relay: { sweepIntervalMs: 200 }, ...hooks },
  );
  await service.start();
  return service;
}

export async function startEmail(infra: { mongo: StartedMongo; nats: StartedNats }, env: RawEmailEnv) {
  const service = await buildEmailApp(
    loadEmailConfig({
      PORT: '0',
      MONGO_URL: infra.mongo.uri,
      NATS_URL: infra.nats.url,
      LOG_LEVEL: 'silent',
      SHOP_URL: shopUrl,
      EMAIL_POLL_INTERVAL_MS: '100',
      ...env,
    }),
    { relay: { sweepIntervalMs: 200 } },
  );
  await service.start();
  return service;
}

/** An admin call, as the gateway forwards it. */
export async function call<Body = unknown>(
  service: MarketingService,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const res = await service.app.inject({
    method,
    url,
    ...(payload !== undefined ? { payload: payload as object } : {}),
    headers: adminHeaders('ops@shop.local'),
  });
  return {
    status: res.statusCode,
    body: (res.body && res.headers['content-type']?.includes('json') ? res.json<Body>() : res.body) as Body,
    headers: res.headers,
  };
}

/** Publishes one event the way another service's outbox relay does. */
export async function publishEvent<T extends EventType>(
  natsUrl: string,
  type: T,
  source: EventSource,
  data: EventData<T>,
) {
  const event = createEvent(type, source, data);
  const nc = await connect({ servers: natsUrl });
  try {
    await jetstream(nc).publish(type, JSON.stringify(event), { msgID: event.id });
  } finally {
    await nc.close();
  }
  return event;
}

/** Waits until the marketing consumer of `type` has acknowledged everything published so far. */
export async function consumed(service: MarketingService, stream: string, type: string) {
  await eventually(async () => {
    const info = await (
      await jetstreamManager(service.ctx.bus.connection!)
    ).consumers.info(stream, `marketing--${type.replace(/\./g, '-')}`);
    return info.num_pending === 0 && info.num_ack_pending === 0;
  });
}

export interface CapturedMail {
  to: string;
  raw: string;
}

/** The decoded body of a captured message's text or HTML part, however the sender encoded it. */
export function mimePart(raw: string, type: 'text/plain' | 'text/html'): string {
  const start = raw.search(new RegExp(`^Content-Type: ${type}`, 'im'));
  if (start < 0) return '';
  const part = raw.slice(start);
  const headersEnd = part.indexOf('\r\n\r\n');
  const headers = part.slice(0, headersEnd);
  const body = part.slice(headersEnd + 4).split(/\r\n--/)[0];
  if (/^Content-Transfer-Encoding: base64/im.test(headers))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/^Content-Transfer-Encoding: quoted-printable/im.test(headers)) {
    const bytes = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/**
 * A loopback SMTP server that keeps each message raw (headers included) and refuses recipients whose
 * address starts with `bounce-` with a permanent 550, as a real mail server does for a dead mailbox.
 */
export async function startCapturingSmtp() {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce-')) {
        const err = Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address.toLowerCase(), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as import('node:net').AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A new customer's uploaded-art quote request as order.created carries it; `overrides` change any field. */
export function orderCreated(overrides: Partial<EventData<'order.created'>> = {}): EventData<'order.created'> {
  return orderCreatedData({
    customerName: 'Dana Reyes',
    designMethod: 'upload',
    quantity: 100,
    estimatedTotal: 450,
    ...overrides,
  });
}
