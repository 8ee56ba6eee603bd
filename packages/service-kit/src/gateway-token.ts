// The gateway's signed identity (contracts/admin-auth.ts names the header and claims): the gateway signs
// who the admin is and which address the client called from; every service checks the signature here,
// once, before any route runs. Admin rows of the shared access table (contracts/admin-access.ts) need a
// valid token naming an admin, so a pod that reaches a service directly cannot act as an administrator,
// and the client address comes only from a verified token (never from X-Forwarded-For).
//
// Token: `<key id>.<claims as base64url JSON>.<HMAC-SHA256 of "<key id>.<claims>", base64url>`. The key
// id is a fingerprint of the key, so rotating needs no second setting: services accept the current key
// and GATEWAY_SIGNING_KEY_PREVIOUS while the gateways move to the new one.
import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  accessOfUrl,
  adminIdentityHeaderPrefix,
  errorCodes,
  gatewayTokenClaimsSchema,
  gatewayTokenHeader,
  gatewayTokenLifetimeSeconds,
  type GatewayTokenClaims,
} from '@shop/contracts';
import { AppError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The gateway's verified identity of this call (admin and client address), or null. */
    gatewayIdentity: GatewayTokenClaims | null;
  }
}

/** A signing key and its id (a fingerprint: it says which key, and reveals nothing of it). */
export interface GatewaySigningKey {
  id: string;
  /**
   * The key prepared once for HMAC: createHmac with a raw Buffer re-imports the key on every call, about
   * ten times the cost of the HMAC itself, and the gateway signs every forwarded call.
   */
  secret: KeyObject;
}

/** What a service accepts: the current key and, while keys rotate, the previous one. */
export interface GatewayKeyRing {
  current: GatewaySigningKey | undefined;
  previous: GatewaySigningKey | undefined;
}

/** Shortest key production accepts (e.g. `openssl rand -base64 48` gives 64 characters). */
export const minimumGatewayKeyLength = 32;
/** Clock difference between the gateway's and a service's machine that is still accepted. */
const CLOCK_SKEW_SECONDS = 5;

export function gatewayKeyId(secret: string): string {
  return createHash('sha256').update(`shop-gateway-key:${secret}`, 'utf8').digest('hex').slice(0, 12);
}

export function gatewaySigningKey(secret: string): GatewaySigningKey {
  return { id: gatewayKeyId(secret), secret: createSecretKey(Buffer.from(secret, 'utf8')) };
}

/** Why a key is not strong enough for production, or undefined when it is. */
export function weakGatewayKeyReason(secret: string | undefined): string | undefined {
  if (!secret) return 'it is not set';
  if (secret.length < minimumGatewayKeyLength)
    return `it has ${secret.length} characters; at least ${minimumGatewayKeyLength} are needed`;
  if (new Set(secret).size < 10) return 'it repeats too few different characters to be a random key';
  return undefined;
}

/**
 * The key ring from the raw settings. With NODE_ENV=production a missing or weak key stops the start
 * (an error naming the setting); elsewhere a missing key leaves admin routes closed (every call 401).
 */
export function gatewayKeyRing(settings: {
  current?: string | undefined;
  previous?: string | undefined;
  nodeEnv: string;
}): GatewayKeyRing {
  const current = settings.current?.trim() || undefined;
  const previous = settings.previous?.trim() || undefined;
  if (settings.nodeEnv === 'production') {
    const weak = weakGatewayKeyReason(current);
    if (weak)
      throw new Error(
        `GATEWAY_SIGNING_KEY must be a strong random key in production (${weak}); generate one with: openssl rand -base64 48`,
      );
    const weakPrevious = previous === undefined ? undefined : weakGatewayKeyReason(previous);
    if (weakPrevious)
      throw new Error(`GATEWAY_SIGNING_KEY_PREVIOUS must be a strong random key in production (${weakPrevious})`);
  }
  return {
    current: current ? gatewaySigningKey(current) : undefined,
    previous: previous ? gatewaySigningKey(previous) : undefined,
  };
}

const mac = (key: GatewaySigningKey, signed: string) =>
  createHmac('sha256', key.secret).update(signed, 'utf8').digest();

/**
 * Signs the identity for one forwarded request (the gateway). `now` in milliseconds. The claims are
 * written out as the JSON text JSON.stringify makes of them (same keys, same order, values escaped by
 * JSON.stringify), without building the claims object first: the gateway signs every forwarded call.
 */
export function signGatewayToken(
  key: GatewaySigningKey,
  identity: Pick<GatewayTokenClaims, 'sub' | 'ip' | 'rid'>,
  now = Date.now(),
  lifetimeSeconds = gatewayTokenLifetimeSeconds,
): string {
  const iat = Math.floor(now / 1000);
  const sub = identity.sub ? `"sub":${JSON.stringify(identity.sub)},` : '';
  const claims = `{${sub}"ip":${JSON.stringify(identity.ip)},"rid":${JSON.stringify(identity.rid)},"iat":${iat},"exp":${iat + lifetimeSeconds}}`;
  const signed = `${key.id}.${Buffer.from(claims, 'utf8').toString('base64url')}`;
  return `${signed}.${createHmac('sha256', key.secret).update(signed, 'utf8').digest('base64url')}`;
}

export type GatewayTokenCheck = { ok: true; claims: GatewayTokenClaims } | { ok: false; reason: string };

const refused = (reason: string): GatewayTokenCheck => ({ ok: false, reason });

/** Checks a token: known key, signature, lifetime, and that it was issued for this request id. */
export function verifyGatewayToken(
  ring: GatewayKeyRing,
  token: string | undefined,
  requestId: string,
  now = Date.now(),
): GatewayTokenCheck {
  if (!ring.current && !ring.previous) {
    return refused('This service has no gateway signing key (GATEWAY_SIGNING_KEY), so it cannot accept admin calls.');
  }
  if (!token)
    return refused(
      `This call did not come through the gateway: it carries no signed gateway identity (${gatewayTokenHeader}).`,
    );
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !p) || token.length > 4096)
    return refused('The signed gateway identity on this call is malformed.');
  const [kid, payload, signature] = parts as [string, string, string];
  const key = [ring.current, ring.previous].find((k) => k?.id === kid);
  if (!key)
    return refused(
      'The signed gateway identity was made with a key this service does not accept (an old or foreign key).',
    );
  const expected = mac(key, `${kid}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return refused('The signed gateway identity has a signature that is not valid.');
  let claims: GatewayTokenClaims;
  try {
    const parsed = gatewayTokenClaimsSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    if (!parsed.success) return refused('The signed gateway identity on this call is malformed.');
    claims = parsed.data;
  } catch {
    return refused('The signed gateway identity on this call is malformed.');
  }
  const seconds = now / 1000;
  if (claims.exp <= claims.iat || claims.exp - claims.iat > 5 * 60)
    return refused('The signed gateway identity has a lifetime this service does not accept.');
  if (claims.exp + CLOCK_SKEW_SECONDS < seconds)
    return refused('The signed gateway identity has expired; send the call through the gateway again.');
  if (claims.iat - CLOCK_SKEW_SECONDS > seconds)
    return refused('The signed gateway identity is not valid yet (the clocks of the gateway and this service differ).');
  if (claims.rid !== requestId) return refused('The signed gateway identity was issued for another request.');
  return { ok: true, claims };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function unauthorizedCall(reason: string) {
  return new AppError(401, errorCodes.UNAUTHORIZED, reason);
}

const droppedHeader = (name: string) => name === gatewayTokenHeader || name.startsWith(adminIdentityHeaderPrefix);

function carriesAdminHeader(headers: IncomingHttpHeaders): boolean {
  for (const name in headers) if (name.startsWith(adminIdentityHeaderPrefix)) return true;
  return false;
}

/**
 * The call's headers without the gateway's token and any x-admin-* header, as a new object: deleting
 * them from the parsed headers (every call from the gateway carries a token) made V8 turn that object
 * into a slow dictionary, and cost about twice as much as the copy.
 */
function withoutGatewayHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const name in headers) if (!droppedHeader(name)) kept[name] = headers[name];
  return kept;
}

/** A call's gateway token until it is checked, then the check; null when the call carried none. */
const tokenState = Symbol('gatewayTokenState');
type WithTokenState = FastifyRequest & { [tokenState]: string | GatewayTokenCheck | null };

/**
 * The services' one check (createService installs it before any route): drops every x-admin-* header
 * the call carries (nothing may pass one off as the admin) and checks the gateway's token; a valid one
 * gives `request.gatewayIdentity` (handlers read the admin with signedInAdmin) and `request.ip` (the
 * client's address, so per-client limits and logs see the client, not the gateway). Admin rows of the
 * access table are checked before any handler and answer 401 without a valid token naming an admin.
 * On other rows the token is checked when the identity or the address is first read: most public calls
 * read neither, and the check (an HMAC, base64 and JSON decoding, the claims' schema) was a visible
 * share of the orders service's CPU on the tracking read (issue 20).
 */
export function installGatewayIdentity(app: FastifyInstance, ring: GatewayKeyRing): void {
  /** The request's token check, made the first time it is asked for; undefined when it carried none. */
  function checkOf(request: WithTokenState): GatewayTokenCheck | undefined {
    const state = request[tokenState];
    if (typeof state !== 'string') return state ?? undefined;
    const check = verifyGatewayToken(ring, state, request.id);
    request[tokenState] = check;
    return check;
  }
  // Getters shared by every request (`this` is the request): nothing is made per call for them.
  function identity(this: FastifyRequest): GatewayTokenClaims | null {
    const check = checkOf(this as WithTokenState);
    return check?.ok ? check.claims : null;
  }
  /** The address the gateway saw; the socket's address here is the gateway's own. */
  function clientAddress(this: FastifyRequest): string | undefined {
    const check = checkOf(this as WithTokenState);
    return check?.ok ? check.claims.ip : this.socket.remoteAddress;
  }

  app.decorateRequest(tokenState, null);
  app.decorateRequest('gatewayIdentity', { getter: identity });
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const headers = request.headers;
    const token = headerValue(headers[gatewayTokenHeader]);
    if (token !== undefined || carriesAdminHeader(headers)) request.raw.headers = withoutGatewayHeaders(headers);
    if (token !== undefined) {
      (request as WithTokenState)[tokenState] = token;
      Object.defineProperty(request, 'ip', { get: clientAddress, configurable: true, enumerable: true });
    }
    const { path, access } = accessOfUrl(request.method, request.url);
    const adminRoute = path === undefined || access === 'admin';
    if (!adminRoute) return done();
    if (path === undefined) {
      return done(
        new AppError(
          400,
          errorCodes.BAD_REQUEST,
          'The address is not valid: it contains an encoded path separator or a dot segment.',
        ),
      );
    }
    // No token: the refusal says the call did not come through the gateway.
    const check = checkOf(request as WithTokenState) ?? verifyGatewayToken(ring, undefined, request.id);
    if (!check.ok) return done(unauthorizedCall(check.reason));
    if (!check.claims.sub)
      return done(
        unauthorizedCall(
          "This call needs a signed-in admin, and the gateway's signed identity names none. Please sign in.",
        ),
      );
    done();
  });
}
