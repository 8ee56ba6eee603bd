// The admin the gateway verified. Defence in depth: the service kit already refuses admin routes without a
// valid gateway identity naming an admin; a route that reaches here without one is refused too.
import type { FastifyRequest } from 'fastify';
import type { GatewayTokenAdmin } from '@shop/contracts';
import { signedInAdmin, unauthorized } from '@shop/service-kit';

export function requireAdmin(request: FastifyRequest): GatewayTokenAdmin {
  const admin = signedInAdmin(request);
  if (!admin) throw unauthorized();
  return admin;
}
