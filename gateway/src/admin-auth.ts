// The admin check in front of every back-office call (rules in admin-routes.ts): a live admin session
// (cookie -> SHA-256 -> security service over NATS, cached a few seconds), and for writes a request
// that comes from the shop's own pages (Origin/Referer equal to the gateway's origin, Sec-Fetch-Site
// not cross-site), so another site cannot ride on the cookie. Refused calls reach no service. Every
// admin call that was let through (or refused as cross-site) becomes a `gateway.admin_action` event.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  adminIdentityHeaderPrefix,
  adminSessionCookie,
  errorCodes,
  gatewayTokenHeader,
  readCookie,
  type GatewayTokenAdmin,
  type VerifiedAdmin,
} from '@shop/contracts';
import { AppError, withRequestSpan } from '@shop/service-kit/edge';
import { accessOfUrl, canonicalPath, ruleLabel, targetIdOf, type AccessRule } from './admin-routes.js';
import type { SessionChecker } from './admin-bus.js';
import type { GatewayConfig } from './config.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified admin of an admin call (set by the admin check). */
    admin: VerifiedAdmin | null;
    /** The access rule that decided the call, for the audit trail. */
    accessRule: AccessRule | null;
    /** True when the admin check refused the call as cross-site. */
    refusedCrossSite: boolean;
    /** The client address, read while the socket is attached (it may be gone by onResponse). */
    adminClientIp: string;
  }
}

/** How long a verified session is trusted without asking again (logout also evicts it at once). */
export const SESSION_CACHE_MS = 5_000;
const SESSION_CACHE_MAX = 10_000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const crossSiteRefused = () =>
  new AppError(
    403,
    errorCodes.FORBIDDEN,
    "This request did not come from the shop's own pages, so it was refused. Please use the back office at this address.",
  );
const signInRequired = () => new AppError(401, errorCodes.UNAUTHORIZED, 'Please sign in to continue.');

export function sessionHashOf(sessionId: string): string {
  return createHash('sha256').update(sessionId, 'utf8').digest('hex');
}

/** The gateway's own origin(s): PUBLIC_ORIGIN when set, else what the request's Host says. */
function expectedOrigins(request: FastifyRequest, config: GatewayConfig): string[] {
  if (config.publicOrigins.length) return config.publicOrigins;
  return [`${request.protocol}://${request.host}`.toLowerCase()];
}

/** True when a write comes from the shop's own pages (not another site, not a bare script). */
export function fromOwnPages(request: FastifyRequest, config: GatewayConfig): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return false;
  let source = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
  if (!source && typeof request.headers.referer === 'string') {
    try {
      source = new URL(request.headers.referer).origin;
    } catch {
      return false;
    }
  }
  if (!source || source === 'null') return false;
  return expectedOrigins(request, config).includes(source.toLowerCase());
}

/** Proxied calls only: the gateway's own routes (health, docs, files) need no admin. */
function isProxied(request: FastifyRequest): boolean {
  return Boolean((request.routeOptions.config as { service?: string } | undefined)?.service);
}

export function registerAdminAuth(app: FastifyInstance, config: GatewayConfig, checker: SessionChecker): void {
  const cache = new Map<string, { admin: VerifiedAdmin; until: number }>();
  checker.onRevoked((hash) => cache.delete(hash));

  async function verify(hash: string): Promise<VerifiedAdmin> {
    const now = Date.now();
    const hit = cache.get(hash);
    if (hit && hit.until > now && Date.parse(hit.admin.expiresAt) > now) return hit.admin;
    cache.delete(hash);
    const admin = await checker.verify(hash);
    if (cache.size >= SESSION_CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(hash, { admin, until: now + SESSION_CACHE_MS });
    return admin;
  }

  app.decorateRequest('admin', null);
  app.decorateRequest('accessRule', null);
  app.decorateRequest('refusedCrossSite', false);
  app.decorateRequest('adminClientIp', '');

  /** An admin call: the session is checked (the call's trace continues into its NATS request). */
  async function checkAdmin(request: FastifyRequest, sessionId: string, write: boolean): Promise<void> {
    request.admin = await withRequestSpan(request.raw, () => verify(sessionHashOf(sessionId)));
    request.adminClientIp = request.ip ?? '';
    if (write && !fromOwnPages(request, config)) {
      request.refusedCrossSite = true;
      throw crossSiteRefused();
    }
  }

  // Callback form: public calls (nearly all) decide synchronously, with no promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!isProxied(request)) return done();
    const { path, access, rule } = accessOfUrl(request.method, request.url);
    if (path === undefined) {
      return done(
        new AppError(
          400,
          errorCodes.BAD_REQUEST,
          'The address is not valid: it contains an encoded path separator or a dot segment.',
        ),
      );
    }
    request.accessRule = rule ?? null;
    const write = !SAFE_METHODS.has(request.method);
    if (access === 'public') {
      if (rule?.sameOriginWrites && write && !fromOwnPages(request, config)) return done(crossSiteRefused());
      return done();
    }
    const sessionId = readCookie(request.headers.cookie, adminSessionCookie);
    if (!sessionId) return done(signInRequired());
    checkAdmin(request, sessionId, write).then(
      () => done(),
      (error: unknown) => done(error as Error),
    );
  });

  app.addHook('onResponse', (request, reply, done) => {
    // A sign-out through this gateway ends the cached session here at once (other gateways hear
    // security.session.revoked).
    if (request.method === 'POST' && request.url.split('?', 1)[0] === '/api/auth/logout') {
      const sessionId = readCookie(request.headers.cookie, adminSessionCookie);
      if (sessionId) cache.delete(sessionHashOf(sessionId));
    }
    const admin = request.admin;
    if (!admin) return done();
    const path = request.url.split('?', 1)[0];
    const statusCode = reply.statusCode;
    const outcome = request.refusedCrossSite ? 'refused' : statusCode < 400 ? 'success' : 'failure';
    const targetId = targetIdOf(canonicalPath(path) ?? path);
    const userAgent = request.headers['user-agent'];
    try {
      const action: Parameters<SessionChecker['publishAdminAction']>[0] = {
        adminId: admin.id,
        adminEmail: admin.email,
        method: request.method,
        path: path.slice(0, 500),
        route: ruleLabel(request.method, request.accessRule ?? undefined, path).slice(0, 300),
        ...(targetId ? { targetId } : {}),
        ip: request.adminClientIp,
        ...(typeof userAgent === 'string' ? { userAgent: userAgent.slice(0, 300) } : {}),
        statusCode,
        outcome,
        requestId: request.id,
        durationMs: Math.max(0, reply.elapsedTime),
        at: new Date().toISOString(),
      };
      // The audit event carries the admin call's trace.
      withRequestSpan(request.raw, () => checker.publishAdminAction(action));
    } catch (err) {
      // The call is done; a broken audit event must not turn it into an error.
      request.log.error({ err, admin: admin.email, path }, 'audit event could not be built');
    }
    request.log.info({ admin: admin.email, method: request.method, path, statusCode, outcome }, 'admin action');
    done();
  });
}

/** The verified admin as the signed gateway identity carries it (undefined on public calls). */
export function signedAdmin(request: Pick<FastifyRequest, 'admin'>): GatewayTokenAdmin | undefined {
  const admin = request.admin;
  return admin ? { id: admin.id, email: admin.email, name: admin.name, role: admin.role } : undefined;
}

/**
 * Headers for the service, minus what only the gateway may say: every x-admin-* header and any gateway
 * token the client sent are removed (the service learns the admin from the signed token alone), and
 * the admin session cookie only goes to the security service (no other service needs it).
 */
export function forwardedIdentity(
  headers: Record<string, string | string[] | undefined>,
  service: string,
): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower.startsWith(adminIdentityHeaderPrefix) || lower === gatewayTokenHeader) continue;
    out[name] = value;
  }
  if (service !== 'security' && typeof out.cookie === 'string') {
    const kept = out.cookie
      .split(';')
      .map((c) => c.trim())
      .filter((c) => c && !c.startsWith(`${adminSessionCookie}=`));
    if (kept.length) out.cookie = kept.join('; ');
    else delete out.cookie;
  }
  return out;
}
