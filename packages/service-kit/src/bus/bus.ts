// The service's event bus over NATS: JetStream streams ensured at start, publishing through the
// transactional outbox, durable consumers, core request/reply, and connection state for /readyz.
import { connect } from '@nats-io/transport-node';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { Connection } from 'mongoose';
import type { z } from 'zod';
import type { EventSource } from '@shop/contracts';
import type { Logger } from '../logger.js';
import { ConsumerRunner, type EventConsumer } from './consumers.js';
import { outboxModel, processedEventModel } from './models.js';
import { OutboxRelay, runInOutboxTransaction, type OutboxWork, type RelayOptions } from './outbox.js';
import { natsRequest, serveReplies, type RequestOptions, type RpcHandler } from './rpc.js';
import { ensureAllStreams } from './streams.js';

export interface EventBusOptions {
  service: EventSource;
  natsUrl: string;
  connection: Connection;
  log: Logger;
  relay?: RelayOptions;
  /** JetStream replicas of every stream (NATS_STREAM_REPLICAS). */
  streamReplicas?: number;
}

export class EventBus {
  private nc: NatsConnection | undefined;
  private js: JetStreamClient | undefined;
  private jsm: JetStreamManager | undefined;
  private connected = false;
  private closing = false;
  private readonly subscriptions: Subscription[] = [];
  private consumers: ConsumerRunner | undefined;
  readonly outbox;
  readonly processed;
  readonly relay: OutboxRelay;
  private readonly log: Logger;

  constructor(private readonly options: EventBusOptions) {
    this.log = options.log.child({ component: 'bus' });
    this.outbox = outboxModel(options.connection);
    this.processed = processedEventModel(options.connection);
    this.relay = new OutboxRelay(
      this.outbox,
      () => this.js,
      () => this.isUp(),
      this.log,
      options.relay,
    );
  }

  /** True while the client holds a live connection to a NATS server. */
  isUp(): boolean {
    return this.connected && !!this.nc && !this.nc.isClosed();
  }

  get connection(): NatsConnection | undefined {
    return this.nc;
  }

  /** Connects (waiting for the server if it is not up yet) and ensures the JetStream streams. */
  async connect() {
    this.log.info({ url: this.options.natsUrl }, 'connecting to NATS');
    this.nc = await connect({
      servers: this.options.natsUrl,
      name: `shop-${this.options.service}`,
      waitOnFirstConnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      pingInterval: 10_000,
      // No Error built at every publish and request to keep the caller's stack for a failure that may
      // come later (two per outbox event): failures keep their message and type, not the caller's frames.
      noAsyncTraces: true,
    });
    this.connected = true;
    this.watchStatus(this.nc);
    this.jsm = await jetstreamManager(this.nc);
    this.js = jetstream(this.nc);
    await ensureAllStreams(this.jsm, this.log, this.options.streamReplicas);
    this.log.info({ server: this.nc.getServer() }, 'NATS connected, streams ready');
  }

  private watchStatus(nc: NatsConnection) {
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect') {
          this.connected = false;
          if (!this.closing) this.log.warn({ server: s.server }, 'NATS disconnected; reconnecting');
        } else if (s.type === 'reconnect') {
          this.connected = true;
          this.log.info({ server: s.server }, 'NATS reconnected');
          void this.afterReconnect();
        } else if (s.type === 'close') {
          this.connected = false;
        }
      }
    })().catch((err) => this.log.error({ err }, 'NATS status watcher stopped'));
  }

  /** A restarted server may have lost its streams (new store): ensure them, then flush the outbox. */
  private async afterReconnect() {
    try {
      if (this.jsm) await ensureAllStreams(this.jsm, this.log, this.options.streamReplicas);
      await this.consumers?.ensureAll();
    } catch (err) {
      this.log.warn({ err }, 'could not re-ensure streams after reconnect');
    }
    this.relay.wake(true);
  }

  startRelay() {
    this.relay.start();
  }

  startConsumers(consumers: EventConsumer[]) {
    if (consumers.length === 0) return;
    this.consumers = new ConsumerRunner(
      {
        service: this.options.service,
        connection: this.options.connection,
        outbox: this.outbox,
        processed: this.processed,
        log: this.log,
        jsm: () => this.jsm,
        js: () => this.js,
        onEventsWritten: (events) => this.relay.wake(false, events),
      },
      consumers,
    );
    this.consumers.start();
  }

  /**
   * Runs `work` in one MongoDB transaction; events added with `outbox.add` are stored in the same commit
   * and published right after it (or as soon as NATS is reachable again).
   */
  async withOutbox<R>(work: OutboxWork<R>): Promise<R> {
    const { result, events } = await runInOutboxTransaction(
      this.options.connection,
      this.outbox,
      this.options.service,
      work,
    );
    if (events.length > 0) this.relay.wake(false, events);
    return result;
  }

  reply(handler: RpcHandler) {
    if (!this.nc) throw new Error('Connect the bus before registering reply handlers');
    this.subscriptions.push(serveReplies(this.nc, `shop-${this.options.service}`, handler, this.log));
  }

  request<S extends z.ZodType | undefined = undefined>(subject: string, data: unknown, options?: RequestOptions<S>) {
    return natsRequest<S>(this.nc, subject, data, options);
  }

  /** Stops consumers and the relay, then drains the connection (in-flight replies finish first). */
  async close() {
    this.closing = true;
    await this.consumers?.stop();
    await this.relay.stop();
    const nc = this.nc;
    if (nc && !nc.isClosed()) {
      // Draining needs the server; when it is away, do not wait for it longer than a few seconds.
      const drained = await Promise.race([
        nc.drain().then(
          () => true,
          (err) => {
            this.log.warn({ err }, 'NATS drain failed');
            return false;
          },
        ),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
      ]);
      if (!drained && !nc.isClosed()) await nc.close().catch(() => undefined);
    }
    this.connected = false;
  }
}
