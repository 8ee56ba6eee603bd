// Shared bits of the marketing admin routes: the error envelope responses, id params, the admin the
// gateway verified, and the duplicate-key check.
import { z } from 'zod';
import { errorEnvelopeSchema } from '@shop/contracts';

export const idParams = z.object({ id: z.string().min(1).max(64) });
export const errors = { '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema };

export const isDuplicateKey = (err: unknown) =>
  (err as { code?: number })?.code === 11000 || (err as { cause?: { code?: number } })?.cause?.code === 11000;

/** The admin the gateway verified (x-admin-email); direct calls inside the cluster are recorded as 'admin'. */
export function adminOf(headers: Record<string, string | string[] | undefined>): string {
  const raw = headers['x-admin-email'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? `admin:${value}` : 'admin';
}
