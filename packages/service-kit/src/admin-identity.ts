// The admin behind a call, as the gateway signed it. installGatewayIdentity verifies the gateway's token
// before any route runs and keeps its claims on the request; handlers read the admin from there, never from
// a header a caller could set.
import type { FastifyRequest } from 'fastify';
import type { GatewayTokenAdmin } from '@shop/contracts';
import './gateway-token.js';

/** The signed-in admin the gateway verified, or null on a storefront call. */
export function signedInAdmin(request: FastifyRequest): GatewayTokenAdmin | null {
  return request.gatewayIdentity?.sub ?? null;
}

/**
 * Who made a change, as status histories, notes and audit trails record it: `admin:<email>`, or `admin`
 * for a call that named no admin (a maintenance call inside the cluster on a route that allows it).
 */
export function adminActor(request: FastifyRequest): string {
  const admin = signedInAdmin(request);
  return admin ? `admin:${admin.email}` : 'admin';
}
