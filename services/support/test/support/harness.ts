// The support service's test stack: the embedded MongoDB, a real nats-server and the service built from
// its own config; helpers to publish the orders service's events (as orders would) and read what
// support published on its SUPPORT stream.
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createEvent, type EventData, type EventType } from '@shop/contracts';
import {
  eventually,
  startMongo,
  startNats,
  streamEventsReader,
  type EventReader,
  type StartedMongo,
  type StartedNats,
} from '@shop/test-support';
import { buildApp } from '../../src/app.js';
import { loadConfig, type RawSupportEnv } from '../../src/config.js';
import { adminHeaders } from '@shop/service-kit/testing';

export { eventually };
export type SupportService = Awaited<ReturnType<typeof buildApp>>;

export interface SupportStack {
  mongo: StartedMongo;
  nats: StartedNats;
  service: SupportService;
  url: string;
  /** Every event support published so far (its own durable reader on SUPPORT). */
  supportEvents: EventReader;
}

export async function startSupportStack(env: RawSupportEnv = {}): Promise<SupportStack> {
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const service = await buildApp(
    loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent', ...env }),
    {},
  );
  const url = await service.start();
  await eventually(() => service.ctx.bus.connection !== undefined && service.ctx.bus.connection !== null);
  const supportEvents = await streamEventsReader(service.ctx.bus.connection!, {
    stream: 'SUPPORT',
    subject: 'support.>',
    durable: `test-${Date.now()}`,
  });
  return { mongo, nats, service, url, supportEvents };
}

export async function stopSupportStack(stack: SupportStack | undefined) {
  await stack?.service.stop();
  await Promise.all([stack?.nats.stop(), stack?.mongo.stop()]);
}

/** Publishes an event as the orders service would. */
export async function publishOrderEvent<T extends EventType>(natsUrl: string, type: T, data: EventData<T>) {
  const event = createEvent(type, 'orders', data);
  const nc = await connect({ servers: natsUrl });
  try {
    await jetstream(nc).publish(type, JSON.stringify(event), { msgID: event.id });
  } finally {
    await nc.close();
  }
  return event;
}

/** The answer's status and parsed body; callers name the body's type from @shop/contracts (unknown until they do). */
export async function json<T = unknown>(
  url: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const { json: body, headers, ...rest } = init;
  const res = await fetch(url, {
    ...rest,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...adminHeaders('admin@shop.local'),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : rest.body,
  });
  return { status: res.status, body: (await res.json()) as T };
}
