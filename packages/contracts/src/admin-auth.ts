// Admin sign-in (issue 5): the HTTP bodies of /api/auth/*, the session cookie's name, the request/reply
// the gateway uses to check a session, the headers it forwards the verified admin in, and the audit
// event it publishes for every admin call. Browser-safe (the admin remote imports the HTTP shapes).
import { z } from 'zod';

export const adminRoles = ['admin'] as const;
export const adminRoleSchema = z.enum(adminRoles);
export type AdminRole = z.infer<typeof adminRoleSchema>;

/** The cookie that carries the admin session id (HttpOnly, SameSite=Strict, Path=/). */
export const adminSessionCookie = 'shop_admin_session';

/** The message for a wrong email, an unknown email and a wrong password alike (spec §8). */
export const invalidCredentialsMessage = 'Invalid email or password';

export const loginBodySchema = z.object({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .min(1, 'email is required')
    .max(254, 'email must be at most 254 characters')
    .transform((value) => value.toLowerCase()),
  password: z
    .string({ error: 'password is required' })
    .min(1, 'password is required')
    .max(1024, 'password must be at most 1024 characters'),
});
export type LoginBody = z.input<typeof loginBodySchema>;

/** What the browser may know about the signed-in admin. */
export const adminPublicSchema = z.object({
  email: z.string(),
  name: z.string(),
  role: adminRoleSchema,
});
export type AdminPublic = z.infer<typeof adminPublicSchema>;

export const authUserResponseSchema = z.object({ user: adminPublicSchema });
export type AuthUserResponse = z.infer<typeof authUserResponseSchema>;

export const logoutResponseSchema = z.object({ success: z.literal(true) });

/**
 * `rpc.security.session.verify`: the gateway sends the SHA-256 (hex) of the cookie value, never the
 * value itself, so a session id does not travel on the bus or land in a log.
 */
export const sessionVerifySubject = 'rpc.security.session.verify';
export const sessionVerifyRequestSchema = z.object({
  sessionHash: z.string().regex(/^[0-9a-f]{64}$/, 'sessionHash must be 64 hex characters'),
});
export type SessionVerifyRequest = z.infer<typeof sessionVerifyRequestSchema>;

export const verifiedAdminSchema = adminPublicSchema.extend({
  id: z.string().min(1),
  /** When the session ends unless it is used again (idle expiry). */
  expiresAt: z.iso.datetime({ offset: true }),
});
export type VerifiedAdmin = z.infer<typeof verifiedAdminSchema>;

/**
 * Core NATS subject (no stream) on which the security service announces a session that ended
 * (logout), so every gateway drops it from its short cache at once. Payload: `{ sessionHash }`.
 */
export const sessionRevokedSubject = 'security.session.revoked';

/**
 * Headers no caller may send: the gateway removes every x-admin-* header a client sends, and
 * service-kit every one a call carries. The admin reaches a service only inside the gateway's signed
 * token (below); handlers read it with service-kit's signedInAdmin.
 */
export const adminIdentityHeaderPrefix = 'x-admin-';

/**
 * The gateway's signed identity, on every call it forwards: who the admin is (admin calls), which
 * address the client called from, and for which request, valid for a few seconds. A compact HMAC-SHA256
 * token `<key id>.<claims, base64url JSON>.<signature, base64url>`; the key comes from a Secret
 * (GATEWAY_SIGNING_KEY) shared by the gateway and the services. Signing and checking live in
 * service-kit (gateway-token.ts); this file only names the header and the claims.
 */
export const gatewayTokenHeader = 'x-shop-gateway-token';

/** How long a signed identity is valid: one hop from the gateway to a service, with room for clock skew. */
export const gatewayTokenLifetimeSeconds = 45;

export const gatewayTokenAdminSchema = z.object({
  id: z.string().min(1).max(200),
  email: z.string().min(1).max(254),
  name: z.string().max(300),
  role: adminRoleSchema,
});
export type GatewayTokenAdmin = z.infer<typeof gatewayTokenAdminSchema>;

export const gatewayTokenClaimsSchema = z.object({
  /** The verified admin; absent on the storefront's calls. */
  sub: gatewayTokenAdminSchema.optional(),
  /** The client address as the gateway decided it (honouring its TRUST_PROXY). */
  ip: z.string().min(1).max(100),
  /** The request id the gateway forwards in x-request-id (a token is good for that request only). */
  rid: z.string().min(1).max(128),
  /** Issued at / expires at, whole seconds since the epoch. */
  iat: z.number().int().nonnegative(),
  exp: z.number().int().nonnegative(),
});
export type GatewayTokenClaims = z.infer<typeof gatewayTokenClaimsSchema>;

/** Outcome of an audited action. */
export const auditOutcomes = ['success', 'failure', 'refused', 'locked'] as const;
export const auditOutcomeSchema = z.enum(auditOutcomes);
export type AuditOutcome = z.infer<typeof auditOutcomeSchema>;

/** `gateway.admin_action`: one admin call through the gateway (who, what, when, from where, outcome). */
export const gatewayAdminActionData = z.object({
  adminId: z.string().min(1),
  adminEmail: z.string().min(1),
  method: z.string().min(1),
  /** Path without the query string, e.g. /api/orders/665f.../status. */
  path: z.string().min(1),
  /** The rule that matched, e.g. "PUT /api/orders/:id/*" (groups calls by kind). */
  route: z.string().min(1),
  /** The id the call acts on (first id-like path segment), when there is one. */
  targetId: z.string().optional(),
  ip: z.string(),
  userAgent: z.string().optional(),
  statusCode: z.number().int(),
  outcome: auditOutcomeSchema,
  requestId: z.string().optional(),
  durationMs: z.number().nonnegative(),
  at: z.iso.datetime({ offset: true }),
});
export type GatewayAdminActionData = z.infer<typeof gatewayAdminActionData>;

/** An audit record as `GET /api/security/audit` lists it. */
export const auditRecordSchema = z.object({
  id: z.string(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  method: z.string().nullable(),
  path: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  outcome: auditOutcomeSchema,
  statusCode: z.number().int().nullable(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

/** Reads one cookie from a Cookie header (first occurrence wins), or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw.replace(/^"(.*)"$/, '$1'));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
