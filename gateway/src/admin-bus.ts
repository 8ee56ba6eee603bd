// The gateway's NATS link for admin sign-in: it asks the security service whether a session is live
// (`rpc.security.session.verify`, core request/reply, a few milliseconds on the cluster network),
// hears ended sessions (`security.session.revoked`), and publishes one `gateway.admin_action` event
// per admin call to JetStream for the audit trail. The public shop never waits on it: connecting
// happens on the first admin call, and only admin calls fail (503) while NATS is away.
import { connect } from '@nats-io/transport-node';
import { RequestError, TimeoutError, type NatsConnection } from '@nats-io/nats-core';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import {
  createEvent,
  errorCodes,
  rpcReplySchema,
  sessionRevokedSubject,
  sessionVerifySubject,
  verifiedAdminSchema,
  type GatewayAdminActionData,
  type VerifiedAdmin,
} from '@shop/contracts';
import { AppError, ensureStream, type Logger } from '@shop/service-kit';

export interface SessionChecker {
  /** The admin of a live session, or AppError 401 (ended) / 503 (cannot be checked now). */
  verify(sessionHash: string): Promise<VerifiedAdmin>;
  /** Queues the audit event; it is published as soon as NATS takes it. */
  publishAdminAction(data: GatewayAdminActionData): void;
  /** Called with the hash of each session the security service ended. */
  onRevoked(listener: (sessionHash: string) => void): void;
  close(): Promise<void>;
}

const unavailable = () =>
  new AppError(503, errorCodes.SERVICE_UNAVAILABLE, 'Admin sign-in cannot be checked right now. Please try again in a moment.', { service: 'security' });

/** Audit events waiting for NATS; beyond this the oldest are dropped (and logged) rather than eat memory. */
const MAX_PENDING_EVENTS = 10_000;

export class NatsSessionChecker implements SessionChecker {
  private nc: NatsConnection | undefined;
  private js: JetStreamClient | undefined;
  private closing = false;
  private readonly pending: Array<ReturnType<typeof createEvent<'gateway.admin_action'>>> = [];
  private flushing = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly listeners: Array<(hash: string) => void> = [];
  private markConnected!: () => void;
  /** Resolves once the first connection to NATS is made (tests wait for it). */
  readonly connected = new Promise<void>((resolve) => {
    this.markConnected = resolve;
  });

  constructor(
    private readonly natsUrl: string,
    private readonly log: Logger,
    private readonly timeoutMs = 2_000,
  ) {
  }

  private starting: Promise<void> | undefined;

  /**
   * Connects on first use (an admin call or an audit event), not at start: a gateway that only serves
   * the public shop (or a benchmark) never opens a NATS connection it does not need.
   */
  private ensureStarted(): Promise<void> {
    this.starting ??= this.start();
    return this.starting;
  }

  /** Starts connecting now (tests; a gateway that expects admin traffic may warm up with it). */
  connect(): Promise<void> {
    void this.ensureStarted();
    return this.connected;
  }

  private async start() {
    try {
      const nc = await connect({
        servers: this.natsUrl,
        name: 'shop-gateway',
        waitOnFirstConnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        pingInterval: 10_000,
      });
      if (this.closing) {
        await nc.close();
        return;
      }
      this.nc = nc;
      this.js = jetstream(nc);
      nc.subscribe(sessionRevokedSubject, {
        callback: (err, msg) => {
          if (err) return;
          try {
            const hash = (msg.json() as { sessionHash?: unknown }).sessionHash;
            if (typeof hash === 'string') for (const listener of this.listeners) listener(hash);
          } catch {
            // not ours
          }
        },
      });
      // The audit events' stream exists even before the first service started.
      await ensureStream(await jetstreamManager(nc), 'GATEWAY', this.log).catch((err) => this.log.warn({ err }, 'could not ensure the GATEWAY stream; services will'));
      this.log.info({ server: nc.getServer() }, 'gateway connected to NATS (admin sessions, audit events)');
      this.markConnected();
      void (async () => {
        for await (const s of nc.status()) if (s.type === 'reconnect') this.flush();
      })();
      this.flush();
    } catch (err) {
      if (!this.closing) this.log.error({ err }, 'gateway could not connect to NATS; admin calls will answer 503');
    }
  }

  onRevoked(listener: (sessionHash: string) => void) {
    this.listeners.push(listener);
  }

  async verify(sessionHash: string): Promise<VerifiedAdmin> {
    if (!this.nc) {
      void this.ensureStarted();
      // The first admin call waits for the connection, within the same time limit as an answer.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.connected, new Promise((resolve) => (timer = setTimeout(resolve, this.timeoutMs)))]);
      clearTimeout(timer);
    }
    const nc = this.nc;
    if (!nc || nc.isClosed()) throw unavailable();
    let raw: unknown;
    try {
      raw = (await nc.request(sessionVerifySubject, JSON.stringify({ sessionHash }), { timeout: this.timeoutMs })).json();
    } catch (err) {
      const noResponders = err instanceof RequestError && err.isNoResponders();
      const timeout = err instanceof TimeoutError || (err instanceof Error && err.cause instanceof TimeoutError);
      this.log.warn({ err, noResponders, timeout }, 'admin session check failed');
      throw unavailable();
    }
    const reply = rpcReplySchema.safeParse(raw);
    if (!reply.success) throw unavailable();
    if (!reply.data.ok) {
      if (reply.data.error.status === 401) throw new AppError(401, errorCodes.UNAUTHORIZED, 'Please sign in to continue.');
      this.log.warn({ error: reply.data.error }, 'security service refused the session check');
      throw unavailable();
    }
    const admin = verifiedAdminSchema.safeParse(reply.data.data);
    if (!admin.success) throw unavailable();
    return admin.data;
  }

  publishAdminAction(data: GatewayAdminActionData) {
    void this.ensureStarted();
    this.pending.push(createEvent('gateway.admin_action', 'gateway', data));
    if (this.pending.length > MAX_PENDING_EVENTS) {
      const dropped = this.pending.shift()!;
      this.log.error({ eventId: dropped.id, admin: dropped.data.adminEmail, path: dropped.data.path }, 'audit event dropped: NATS has been away too long');
    }
    this.flush();
  }

  /** Publishes queued events in order; on failure retries after a second. */
  private flush() {
    if (this.flushing || !this.js || this.closing) return;
    this.flushing = true;
    void (async () => {
      try {
        while (this.pending.length && this.js) {
          const event = this.pending[0]!;
          await this.js.publish(event.type, JSON.stringify(event), { msgID: event.id, timeout: 5_000 });
          this.pending.shift();
        }
      } catch (err) {
        this.log.warn({ err, pending: this.pending.length }, 'audit events not published yet; retrying');
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.flush(), 1_000);
        this.retryTimer.unref();
      } finally {
        this.flushing = false;
      }
    })();
  }

  /** Waits briefly for queued audit events, then closes the connection. */
  async close() {
    const deadline = Date.now() + 2_000;
    while (this.pending.length && this.nc && !this.nc.isClosed() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    this.closing = true;
    clearTimeout(this.retryTimer);
    if (this.pending.length) this.log.error({ pending: this.pending.length }, 'gateway stopped with audit events not published');
    // A connect still waiting for its first server sees `closing` and closes itself.
    await this.nc?.drain().catch(() => undefined);
  }
}
