// The gateway's one NATS connection, shared by everything the gateway does over NATS: bans in and
// request log batches out (bans.ts, request-log.ts), admin session checks and audit events
// (admin-bus.ts). Opened in the background at start and never waited on by the public shop: with NATS
// away requests are served as usual, the client reconnects forever (every 500 ms), and each feature
// hears about the (re)connection to catch up (bans reload, queued events flush).
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { ensureStream, type Logger } from '@shop/service-kit/edge';

type Listener = (nc: NatsConnection) => void;

export class GatewayNats {
  private nc: NatsConnection | undefined;
  private js: JetStreamClient | undefined;
  private starting: Promise<void> | undefined;
  private closing = false;
  private readonly connectListeners: Listener[] = [];
  private readonly reconnectListeners: Listener[] = [];
  private markConnected!: () => void;
  /** Resolves once the first connection is made (never rejects; tests and first admin calls wait on it). */
  readonly connected = new Promise<void>((resolve) => {
    this.markConnected = resolve;
  });

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  /** Starts connecting in the background (once); never throws, never blocks the gateway's start. */
  start(): void {
    this.starting ??= this.run();
  }

  /** The live connection, or undefined before the first connect and after close. */
  get connection(): NatsConnection | undefined {
    return this.nc && !this.nc.isClosed() ? this.nc : undefined;
  }

  get jetstream(): JetStreamClient | undefined {
    return this.connection ? this.js : undefined;
  }

  /** Called once the connection is up (at once when it already is): subscribe here. */
  onConnect(listener: Listener): void {
    this.connectListeners.push(listener);
    if (this.nc) listener(this.nc);
  }

  /** Called after each reconnect (NATS was away): catch up here. */
  onReconnect(listener: Listener): void {
    this.reconnectListeners.push(listener);
  }

  private async run() {
    let nc: NatsConnection;
    try {
      nc = await connect({
        servers: this.url,
        name: 'shop-gateway',
        waitOnFirstConnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        pingInterval: 10_000,
        // No Error built at every request and publish just to keep the caller's stack for a failure
        // that may come later: failures keep their message and type, only the caller's frames are lost.
        noAsyncTraces: true,
      });
    } catch (err) {
      if (!this.closing)
        this.log.error(
          { err },
          'gateway could not connect to NATS: no bans loaded, request logs dropped, admin calls answer 503',
        );
      return;
    }
    if (this.closing) {
      await nc.close().catch(() => undefined);
      return;
    }
    this.nc = nc;
    this.js = jetstream(nc);
    // The stream for request logs and audit events exists even before the first service started.
    await ensureStream(await jetstreamManager(nc), 'GATEWAY', this.log).catch((err) =>
      this.log.warn({ err }, 'could not ensure the GATEWAY stream; services will'),
    );
    this.log.info(
      { server: nc.getServer() },
      'gateway connected to NATS (bans, request logs, admin sessions, audit events)',
    );
    for (const listener of this.connectListeners) listener(nc);
    this.markConnected();
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'reconnect') for (const listener of this.reconnectListeners) listener(nc);
      }
    })();
  }

  /** Drains the connection (what was published goes out first); a connect still trying gives up. */
  async close() {
    this.closing = true;
    await this.nc?.drain().catch(() => undefined);
  }
}
