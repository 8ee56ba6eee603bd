// The email service's test stack, shared by its test files: the embedded MongoDB, a real nats-server and
// the dev mailbox (real SMTP on loopback), the service built from its own config, and the helpers to
// publish events the way other services do and wait for the service to have consumed them.
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createEvent, type EventData, type EventSource, type EventType } from '@shop/contracts';
import { startDevMailbox, type DevMailbox } from '@shop/dev-mailbox';
import { eventually, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

export { eventually };

export type EmailService = Awaited<ReturnType<typeof buildApp>>;

export interface EmailStack {
  mongo: StartedMongo;
  nats: StartedNats;
  mailbox: DevMailbox;
  service: EmailService;
  /** The started service's base URL. */
  url: string;
}

/** Starts the stack; admin notifications go to `adminNotificationEmail`, links point to shop.example.com. */
export async function startEmailStack(adminNotificationEmail: string): Promise<EmailStack> {
  const [mongo, nats, mailbox] = await Promise.all([startMongo(), startNats(), startDevMailbox()]);
  const service = await buildApp(
    loadConfig({
      PORT: '0',
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
      SMTP_URL: mailbox.smtpUrl,
      DEV_MAILBOX_URL: mailbox.httpUrl,
      ADMIN_NOTIFICATION_EMAIL: adminNotificationEmail,
      SHOP_URL: 'https://shop.example.com',
      EMAIL_POLL_INTERVAL_MS: '100',
    }),
    { relay: { sweepIntervalMs: 200 } },
  );
  const url = await service.start();
  return { mongo, nats, mailbox, service, url };
}

export async function stopEmailStack(stack: EmailStack | undefined) {
  await stack?.service.stop();
  await Promise.all([stack?.nats.stop(), stack?.mongo.stop(), stack?.mailbox.stop()]);
}

/** Publishes one event, `copies` times under different message ids (JetStream's dedupe would hide a repeat). */
export async function publishEvent<T extends EventType>(
  natsUrl: string,
  type: T,
  source: EventSource,
  data: EventData<T>,
  copies = 1,
) {
  const event = createEvent(type, source, data);
  const nc = await connect({ servers: natsUrl });
  try {
    const js = jetstream(nc);
    for (let i = 0; i < copies; i++) await js.publish(type, JSON.stringify(event), { msgID: `${event.id}-${i}` });
  } finally {
    await nc.close();
  }
  return event;
}

/** Every copy of the events on `stream` acknowledged by the email service's consumer `durable`. */
export async function consumed(service: EmailService, stream: string, durable: string) {
  await eventually(async () => {
    const info = await (await jetstreamManager(service.ctx.bus.connection!)).consumers.info(stream, durable);
    return info.num_pending === 0 && info.num_ack_pending === 0;
  });
}
