// The gateway's NATS link for admin sign-in: it asks the security service whether a session is live
// (`rpc.security.session.verify`, core request/reply, a few milliseconds on the cluster network),
// hears ended sessions (`security.session.revoked`), and publishes one `gateway.admin_action` event
// per admin call to JetStream for the audit trail, over the gateway's one NATS connection
// (nats-connection.ts, shared with bans and request logs). The public shop never waits on it: only
// admin calls fail (503) while NATS is away.
import { RequestError, TimeoutError } from '@nats-io/nats-core';
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
import { AppError, currentTraceCarrier, toNatsHeaders, type Logger } from '@shop/service-kit/edge';
import { GatewayNats } from './nats-connection.js';

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
  new AppError(
    503,
    errorCodes.SERVICE_UNAVAILABLE,
    'Admin sign-in cannot be checked right now. Please try again in a moment.',
    { service: 'security' },
  );

/** Audit events waiting for NATS; beyond this the oldest are dropped (and logged) rather than eat memory. */
const MAX_PENDING_EVENTS = 10_000;

export class NatsSessionChecker implements SessionChecker {
  private readonly nats: GatewayNats;
  /** Whether this checker opened its own connection (given a URL) and so closes it. */
  private readonly ownsConnection: boolean;
  private closing = false;
  /** Each event with the trace context of the admin call it records (kept until NATS takes it). */
  private readonly pending: Array<{
    event: ReturnType<typeof createEvent<'gateway.admin_action'>>;
    trace: Record<string, string>;
  }> = [];
  private flushing = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly listeners: Array<(hash: string) => void> = [];
  /** Resolves once the first connection to NATS is made (tests wait for it). */
  readonly connected: Promise<void>;

  /** `nats`: the gateway's shared connection, or a URL to open one of its own (tests). */
  constructor(
    nats: GatewayNats | string,
    private readonly log: Logger,
    private readonly timeoutMs = 2_000,
  ) {
    this.ownsConnection = typeof nats === 'string';
    this.nats = typeof nats === 'string' ? new GatewayNats(nats, log) : nats;
    this.connected = this.nats.connected;
    this.nats.onConnect((nc) => {
      nc.subscribe(sessionRevokedSubject, {
        callback: (err, msg) => {
          if (err) return;
          try {
            const hash = msg.json<{ sessionHash?: unknown }>().sessionHash;
            if (typeof hash === 'string') for (const listener of this.listeners) listener(hash);
          } catch {
            // not ours
          }
        },
      });
      this.flush();
    });
    this.nats.onReconnect(() => this.flush());
  }

  /** Starts connecting now if nothing did yet (tests; the gateway connects at start). */
  connect(): Promise<void> {
    this.nats.start();
    return this.connected;
  }

  onRevoked(listener: (sessionHash: string) => void) {
    this.listeners.push(listener);
  }

  async verify(sessionHash: string): Promise<VerifiedAdmin> {
    if (!this.nats.connection) {
      this.nats.start();
      // The first admin call waits for the connection, within the same time limit as an answer.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.connected, new Promise((resolve) => (timer = setTimeout(resolve, this.timeoutMs)))]);
      clearTimeout(timer);
    }
    const nc = this.nats.connection;
    if (!nc) throw unavailable();
    let raw: unknown;
    try {
      // Trace context travels like on every other message, so the security service's check is part of the admin call's trace.
      raw = (
        await nc.request(sessionVerifySubject, JSON.stringify({ sessionHash }), {
          timeout: this.timeoutMs,
          headers: toNatsHeaders(currentTraceCarrier()),
        })
      ).json();
    } catch (err) {
      const noResponders = err instanceof RequestError && err.isNoResponders();
      const timeout = err instanceof TimeoutError || (err instanceof Error && err.cause instanceof TimeoutError);
      this.log.warn({ err, noResponders, timeout }, 'admin session check failed');
      throw unavailable();
    }
    const reply = rpcReplySchema.safeParse(raw);
    if (!reply.success) throw unavailable();
    if (!reply.data.ok) {
      if (reply.data.error.status === 401)
        throw new AppError(401, errorCodes.UNAUTHORIZED, 'Please sign in to continue.');
      this.log.warn({ error: reply.data.error }, 'security service refused the session check');
      throw unavailable();
    }
    const admin = verifiedAdminSchema.safeParse(reply.data.data);
    if (!admin.success) throw unavailable();
    return admin.data;
  }

  publishAdminAction(data: GatewayAdminActionData) {
    this.nats.start();
    this.pending.push({ event: createEvent('gateway.admin_action', 'gateway', data), trace: currentTraceCarrier() });
    if (this.pending.length > MAX_PENDING_EVENTS) {
      const dropped = this.pending.shift()!.event;
      this.log.error(
        { eventId: dropped.id, admin: dropped.data.adminEmail, path: dropped.data.path },
        'audit event dropped: NATS has been away too long',
      );
    }
    this.flush();
  }

  /** Publishes queued events in order; on failure retries after a second. */
  private flush() {
    if (this.flushing || !this.nats.jetstream || this.closing) return;
    this.flushing = true;
    void (async () => {
      try {
        let js;
        while (this.pending.length && (js = this.nats.jetstream)) {
          const { event, trace } = this.pending[0];
          await js.publish(event.type, JSON.stringify(event), {
            msgID: event.id,
            timeout: 5_000,
            headers: toNatsHeaders(trace),
          });
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

  /** Waits briefly for queued audit events, then closes the connection if it is its own. */
  async close() {
    const deadline = Date.now() + 2_000;
    while (this.pending.length && this.nats.connection && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    this.closing = true;
    clearTimeout(this.retryTimer);
    if (this.pending.length)
      this.log.error({ pending: this.pending.length }, 'gateway stopped with audit events not published');
    if (this.ownsConnection) await this.nats.close();
  }
}
