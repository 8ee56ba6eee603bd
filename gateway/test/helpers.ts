// Real HTTP servers standing in for the services, and a gateway started against them.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  adminSessionCookie,
  sessionRevokedSubject,
  sessionVerifyRequestSchema,
  sessionVerifySubject,
  gatewayTokenHeader,
  type AnyEventEnvelope,
  type GatewayTokenClaims,
  type VerifiedAdmin,
} from '@shop/contracts';
import { startNats, type StartedNats } from '@shop/test-support';
import { createLogger, verifyGatewayToken } from '@shop/service-kit';
import { NatsSessionChecker } from '../src/admin-bus.js';
import { buildApp, type BuildOptions } from '../src/app.js';
import { configFromEnv, type GatewayConfig } from '../src/config.js';
import { SERVICE_NAMES, type ServiceName } from '../src/routes.js';

export interface SeenRequest {
  service: string;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Upstream {
  name: string;
  url: string;
  seen: SeenRequest[];
  /** Paths of slow requests as they arrive (before the deliberate wait). */
  arrived: string[];
  /** What /readyz answers; change it per test. */
  readiness: { status: number; body: unknown; delayMs?: number };
  openapi: unknown;
  close(): Promise<void>;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
export { sha };

/** What a stand-in answers to `.../large-file`: 1 MiB, larger than the gateway collects before answering. */
export const largeAnswer = Buffer.alloc(1024 * 1024, 'challenge coin ');

/** A tiny service: records every request (with its raw body) and echoes what it saw. */
export async function startUpstream(name: string): Promise<Upstream> {
  const app: FastifyInstance = Fastify({ logger: false });
  const state: Upstream = {
    name,
    url: '',
    seen: [],
    arrived: [],
    readiness: { status: 200, body: { status: 'ready', checks: { mongo: 'up', nats: 'up' } } },
    openapi: {
      openapi: '3.1.0',
      info: { title: `${name} service`, version: '0.1.0' },
      servers: [{ url: `http://127.0.0.1:41xx` }],
      paths: {
        [`/api/${name}/_service`]: { get: { summary: `Who answers for ${name}` } },
        '/healthz': { get: { summary: 'alive' } },
        '/openapi.json': { get: { summary: 'this document' } },
      },
    },
    close: async () => {
      await app.close();
    },
  };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 200 * 1024 * 1024 }, (_req, body, done) =>
    done(null, body),
  );

  app.get('/readyz', async (_req, reply) => {
    if (state.readiness.delayMs) await new Promise((r) => setTimeout(r, state.readiness.delayMs));
    return reply.code(state.readiness.status).send(state.readiness.body);
  });
  app.get('/openapi.json', async () => state.openapi);
  app.all('/*', async (request, reply) => {
    const path = request.url.split('?', 1)[0];
    if (path.endsWith('/slow')) {
      state.arrived.push(path);
      await new Promise((r) => setTimeout(r, 3_000));
    }
    if (path.endsWith('/hang-up')) {
      request.raw.socket.destroy();
      return reply;
    }
    // A large answer (streamed through the gateway, not collected) of a known pattern.
    if (path.endsWith('/large-file')) {
      return reply.type('application/octet-stream').send(largeAnswer);
    }
    // An answer with the service's own, stricter security headers (as the orders service serves uploads).
    if (path.endsWith('/own-policy')) {
      return reply
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('x-frame-options', 'DENY')
        .header('x-request-id', request.headers['x-request-id'])
        .send({ own: true });
    }
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    state.seen.push({ service: name, method: request.method, url: request.url, headers: request.headers, body });
    return {
      service: name,
      method: request.method,
      url: request.url,
      bodySha256: sha(body),
      bodyLength: body.length,
      headers: request.headers,
    };
  });
  state.url = await app.listen({ host: '127.0.0.1', port: 0 });
  return state;
}

/** A loopback address where nothing listens (connection refused). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/**
 * A stand-in for the security service's side of admin sign-in, on a real nats-server: it answers
 * `rpc.security.session.verify` for the sessions it knows, announces revocations like the real one,
 * and reads the `gateway.admin_action` events the gateway published.
 */
export interface SecurityStandIn {
  nats: StartedNats;
  nc: NatsConnection;
  /** A live session id (the cookie value) and its admin. */
  sessionId: string;
  admin: VerifiedAdmin;
  /** How many verify requests reached the stand-in. */
  verifyCalls: number;
  /** Adds a live session; returns its id. */
  addSession(admin?: Partial<VerifiedAdmin>): string;
  /** Ends a session the way logout does (and announces it). */
  revoke(sessionId: string): void;
  /** Ends a session without announcing it (only a fresh check notices). */
  forget(sessionId: string): void;
  /** The gateway.admin_action events in the GATEWAY stream so far. */
  auditEvents(): Promise<AnyEventEnvelope[]>;
  close(): Promise<void>;
}

export async function startSecurityStandIn(): Promise<SecurityStandIn> {
  const nats = await startNats();
  const nc = await connect({ servers: nats.url, name: 'security stand-in' });
  const sessions = new Map<string, VerifiedAdmin>();
  const hash = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');
  const state = {
    nats,
    nc,
    sessionId: '',
    admin: undefined as unknown as VerifiedAdmin,
    verifyCalls: 0,
    addSession(partial: Partial<VerifiedAdmin> = {}) {
      const id = `sess-${Math.random().toString(36).slice(2)}-${Date.now()}`;
      sessions.set(hash(id), {
        id: 'admin-1',
        email: 'chief@shop.test',
        name: 'Chief Quartermaster',
        role: 'admin',
        expiresAt: new Date(Date.now() + 8 * 3600_000).toISOString(),
        ...partial,
      });
      return id;
    },
    revoke(sessionId: string) {
      sessions.delete(hash(sessionId));
      nc.publish(sessionRevokedSubject, JSON.stringify({ sessionHash: hash(sessionId) }));
    },
    forget(sessionId: string) {
      sessions.delete(hash(sessionId));
    },
    async auditEvents() {
      const jsm = await jetstreamManager(nc);
      const events: AnyEventEnvelope[] = [];
      let info;
      try {
        info = await jsm.streams.info('GATEWAY');
      } catch {
        return events;
      }
      for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
        const msg = await jsm.streams.getMessage('GATEWAY', { seq }).catch(() => null);
        if (msg && msg.subject === 'gateway.admin_action') events.push(msg.json<AnyEventEnvelope>());
      }
      return events;
    },
    async close() {
      await nc.drain().catch(() => undefined);
      await nats.stop();
    },
  };
  nc.subscribe(sessionVerifySubject, {
    callback: (_err, msg) => {
      state.verifyCalls += 1;
      const parsed = sessionVerifyRequestSchema.safeParse(msg.json());
      const admin = parsed.success ? sessions.get(parsed.data.sessionHash) : undefined;
      msg.respond(
        JSON.stringify(
          admin
            ? { ok: true, data: admin }
            : { ok: false, error: { code: 'UNAUTHORIZED', message: 'Please sign in to continue.', status: 401 } },
        ),
      );
    },
  });
  await nc.flush();
  state.sessionId = state.addSession();
  state.admin = sessions.get(hash(state.sessionId))!;
  return state;
}

export interface Stack {
  gateway: FastifyInstance;
  url: string;
  config: GatewayConfig;
  upstreams: Record<ServiceName, Upstream>;
  security: SecurityStandIn;
  /** Headers of a signed-in admin on the shop's own page: the session cookie and the gateway's Origin. */
  adminHeaders(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

/** Seven upstreams and a gateway in front of them. `env` overrides the gateway's settings. */
export async function startStack(
  env: Record<string, string> = {},
  options: BuildOptions = { logger: false },
): Promise<Stack> {
  const upstreams = Object.fromEntries(
    await Promise.all(SERVICE_NAMES.map(async (name) => [name, await startUpstream(name)] as const)),
  ) as Record<ServiceName, Upstream>;
  const security = await startSecurityStandIn();
  const config = configFromEnv({
    NATS_URL: security.nats.url,
    ORDERS_URL: upstreams.orders.url,
    PAYMENTS_URL: upstreams.payments.url,
    CUSTOMERS_URL: upstreams.customers.url,
    SUPPORT_URL: upstreams.support.url,
    MARKETING_URL: upstreams.marketing.url,
    SECURITY_URL: upstreams.security.url,
    EMAIL_URL: upstreams.email.url,
    FRONTENDS_DIR: join(tmpdir(), 'shop-gateway-no-frontends'),
    RATE_LIMIT_MAX: '10000',
    GATEWAY_SIGNING_KEY: randomBytes(32).toString('base64url'),
    ...env,
  });
  const checker = new NatsSessionChecker(config.natsUrl, createLogger({ service: 'gateway', level: 'silent' }));
  const gateway = await buildApp(config, { sessionChecker: checker, ...options });
  const url = await gateway.listen({ host: '127.0.0.1', port: 0 });
  // The gateway reaches NATS in the background; admin calls answer 503 until it has.
  await checker.connect();
  return {
    gateway,
    url,
    config,
    upstreams,
    security,
    adminHeaders: (extra = {}) => ({ cookie: `${adminSessionCookie}=${security.sessionId}`, origin: url, ...extra }),
    close: async () => {
      await gateway.close();
      await Promise.all(Object.values(upstreams).map((u) => u.close()));
      await security.close();
    },
  };
}

/** The signed identity a stand-in service received, checked the way service-kit checks it (throws when invalid). */
export function signedIdentityOf(stack: Pick<Stack, 'config'>, seen: SeenRequest): GatewayTokenClaims {
  const token = seen.headers[gatewayTokenHeader];
  const check = verifyGatewayToken(
    { current: stack.config.signingKey, previous: undefined },
    typeof token === 'string' ? token : undefined,
    String(seen.headers['x-request-id']),
  );
  if (!check.ok) throw new Error(`the service got no valid gateway identity: ${check.reason}`);
  return check.claims;
}

/** A frontends folder laid out like a build: files given as relative path -> content. */
export async function makeFrontends(
  files: Record<string, string | Uint8Array>,
): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'shop-frontends-'));
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    await mkdir(join(full, '..'), { recursive: true });
    await writeFile(full, content);
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
