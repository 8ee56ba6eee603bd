// The admin the gateway verified. Defence in depth: only the gateway, after checking the session, sets
// x-admin-id (it removes any x-admin-* header a client sends), so a call without it is refused.
import type { FastifyRequest } from 'fastify';
import { adminIdentityHeaders } from '@shop/contracts';
import { unauthorized } from '@shop/service-kit';

export function requireAdmin(request: FastifyRequest): { id: string; email: string } {
  const id = request.headers[adminIdentityHeaders.id];
  if (typeof id !== 'string' || !id) throw unauthorized();
  const raw = request.headers[adminIdentityHeaders.email];
  let email = typeof raw === 'string' && raw ? raw : id;
  try {
    email = decodeURIComponent(email);
  } catch {
    // keep it as sent
  }
  return { id, email };
}
