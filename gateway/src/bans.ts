// IP bans, enforced here before any other work: every gateway replica keeps the bans in force in
// memory (loaded from the security service at start and after every reconnect over core NATS
// request/reply, then followed through `ban.changed`), so a banned address gets 403 on every route,
// pages included, within a second of the ban on every replica, and the check costs one Map lookup for
// an exact address (CIDR ranges, rare, are checked only when there are any).
//
// The same link carries the request log batches (request-log.ts), over the gateway's one NATS
// connection (nats-connection.ts, shared with the admin session checks); the public shop never waits
// on it, and with NATS away the bans already loaded stay.
import { hostname } from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  activeBansReplySchema,
  activeBansSubject,
  bannedAddressMessage,
  canonicalIp,
  errorCodes,
  eventSchema,
  ipInRange,
  parseCidr,
  parseIpAddress,
  rpcReplySchema,
  type ActiveBan,
  type IpRange,
} from '@shop/contracts';
import type { Subscription } from '@nats-io/nats-core';
import { sendError, type Logger } from '@shop/service-kit/edge';
import { GatewayNats } from './nats-connection.js';
import type { RequestLogSink } from './request-log.js';

const banChangedSchema = eventSchema('ban.changed');

/** The bans in force, in memory. Expiry is honoured at lookup: an expired ban blocks nothing. */
export class BanList {
  /** Canonical address -> expiry (ms since epoch; Infinity for permanent). */
  private readonly exact = new Map<string, number>();
  private ranges: Array<{ target: string; range: IpRange; expiresAt: number }> = [];

  get size() {
    return this.exact.size + this.ranges.length;
  }

  replaceAll(bans: readonly ActiveBan[]) {
    this.exact.clear();
    this.ranges = [];
    for (const ban of bans) this.add(ban.ip, ban.expiresAt);
  }

  add(target: string, expiresAt: string | null) {
    const until = expiresAt === null ? Infinity : new Date(expiresAt).getTime();
    if (target.includes('/')) {
      const range = parseCidr(target);
      if (!range) return;
      this.ranges = [...this.ranges.filter((r) => r.target !== target), { target, range, expiresAt: until }];
      return;
    }
    const ip = canonicalIp(target);
    if (ip) this.exact.set(ip, until);
  }

  remove(target: string) {
    if (target.includes('/')) this.ranges = this.ranges.filter((r) => r.target !== target);
    else this.exact.delete(canonicalIp(target) ?? target);
  }

  /** Is this client address banned now? `ip` as Node reports it (IPv4, IPv6, or IPv4-mapped IPv6). */
  isBanned(ip: string, now = Date.now()): boolean {
    if (this.exact.size === 0 && this.ranges.length === 0) return false;
    let until = this.exact.get(ip);
    // Node spells IPv4 clients of a dual-stack socket as ::ffff:a.b.c.d; IPv6 may differ in spelling.
    if (until === undefined && ip.includes(':')) {
      const canonical = canonicalIp(ip);
      if (canonical && canonical !== ip) until = this.exact.get(canonical);
    }
    if (until !== undefined) {
      if (until > now) return true;
      this.exact.delete(ip);
    }
    if (this.ranges.length === 0) return false;
    const address = parseIpAddress(ip);
    if (!address) return false;
    return this.ranges.some((r) => r.expiresAt > now && ipInRange(r.range, address));
  }
}

/** Requests this gateway refused as banned (the request log marks them). */
export const bannedRequests = new WeakSet<FastifyRequest>();

/**
 * The client address as the gateway determined it when the request arrived. Read once here: Fastify
 * reads it from the socket on each access, and by the time the answer is logged the client may have
 * closed its connection (the socket then has no address).
 */
const clientIpKey = Symbol('clientIp');
type WithClientIp = FastifyRequest & { [clientIpKey]: string | undefined };
export const clientIpOf = (request: FastifyRequest): string =>
  (request as WithClientIp)[clientIpKey] ?? request.ip ?? 'unknown';

function bannedPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Access blocked</title></head><body style="font-family:system-ui,sans-serif;background:#1b1d17;color:#f1ede0;margin:0;padding:48px 24px"><main style="max-width:560px;margin:0 auto"><h1 style="color:#d4b062">Access blocked</h1><p>${bannedAddressMessage}</p></main></body></html>`;
}

function refuse(request: FastifyRequest, reply: FastifyReply) {
  bannedRequests.add(request);
  const path = request.url.split('?', 1)[0];
  const wantsPage = !path.startsWith('/api/') && (request.headers.accept ?? '').includes('text/html');
  if (wantsPage) {
    return reply
      .code(403)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(bannedPage());
  }
  reply.header('cache-control', 'no-store');
  return sendError(request, reply, 403, errorCodes.FORBIDDEN, bannedAddressMessage);
}

/** The first hook of all: a banned address gets its 403 before request ids, headers, limits or routing. */
export function registerBanCheck(app: FastifyInstance, bans: BanList) {
  // A property of every request (a WeakMap entry per request cost a hash insert and GC work).
  app.decorateRequest(clientIpKey, undefined);
  app.addHook('onRequest', (request, reply, done) => {
    const ip = request.ip ?? 'unknown';
    (request as WithClientIp)[clientIpKey] = ip;
    if (bans.isBanned(ip)) {
      void refuse(request, reply);
      return;
    }
    done();
  });
}

/** How often the full list is asked for again, in case a `ban.changed` was missed. */
const RELOAD_MS = 30_000;

/**
 * The gateway's security link over NATS: bans in (request/reply + `ban.changed`), request log
 * batches out (JetStream, GATEWAY stream, event id as message id).
 */
export class GatewaySecurityLink implements RequestLogSink {
  readonly bans = new BanList();
  readonly gatewayName = `${hostname()}:${process.pid}`;
  private readonly nats: GatewayNats;
  /** Whether this link opened its own connection (given a URL) and so closes it. */
  private readonly ownsConnection: boolean;
  private closing = false;
  private reloadTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private subscription: Subscription | undefined;
  private markLoaded!: () => void;
  /** Resolves once the bans were loaded the first time (tests wait for it). */
  readonly loaded = new Promise<void>((resolve) => {
    this.markLoaded = resolve;
  });

  /** `nats`: the gateway's shared connection, or a URL to open one of its own (tests). */
  constructor(
    nats: GatewayNats | string,
    private readonly log: Logger,
    private readonly timeoutMs = 2_000,
  ) {
    this.ownsConnection = typeof nats === 'string';
    this.nats = typeof nats === 'string' ? new GatewayNats(nats, log) : nats;
  }

  /** Starts following the bans once NATS is there; never throws, never blocks the gateway's start. */
  start() {
    this.nats.onConnect((nc) => {
      if (this.closing) return;
      this.subscription = nc.subscribe('ban.changed', {
        callback: (err, msg) => {
          if (err) return;
          const parsed = banChangedSchema.safeParse(
            (() => {
              try {
                return msg.json();
              } catch {
                return undefined;
              }
            })(),
          );
          if (!parsed.success) return;
          const { ip, action, expiresAt } = parsed.data.data;
          if (action === 'banned') this.bans.add(ip, expiresAt);
          else this.bans.remove(ip);
          this.log.info(
            { ip, action, expiresAt },
            action === 'banned' ? 'address banned at the gateway' : 'address unbanned at the gateway',
          );
        },
      });
      void this.reload();
      this.reloadTimer ??= setInterval(() => void this.reload(), RELOAD_MS);
      this.reloadTimer.unref();
    });
    // A `ban.changed` may have been missed while NATS was away.
    this.nats.onReconnect(() => void this.reload());
    this.nats.start();
  }

  /** Asks the security service for the bans in force and replaces the list with them. */
  async reload(): Promise<boolean> {
    const nc = this.nats.connection;
    if (!nc || this.closing) return false;
    try {
      const reply = rpcReplySchema.parse(
        (await nc.request(activeBansSubject, '{}', { timeout: this.timeoutMs })).json(),
      );
      if (!reply.ok) throw new Error(reply.error.message);
      const { bans } = activeBansReplySchema.parse(reply.data);
      this.bans.replaceAll(bans);
      this.markLoaded();
      return true;
    } catch (err) {
      // The security service may start after the gateway: keep the bans known so far, try again soon.
      if (!this.closing) this.log.warn({ err }, 'could not load the active bans; retrying');
      if (!this.closing) {
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => void this.reload(), 1_000);
        this.retryTimer.unref();
      }
      return false;
    }
  }

  /** Publishes one request log batch; throws when NATS cannot take it now (the buffer keeps it). */
  async publish(event: { id: string; type: string }, body: string): Promise<void> {
    const js = this.nats.jetstream;
    if (!js) throw new Error('NATS is not connected');
    await js.publish(event.type, body, { msgID: event.id, timeout: this.timeoutMs });
  }

  async close() {
    this.closing = true;
    clearInterval(this.reloadTimer);
    clearTimeout(this.retryTimer);
    this.subscription?.unsubscribe();
    if (this.ownsConnection) await this.nats.close();
  }
}
