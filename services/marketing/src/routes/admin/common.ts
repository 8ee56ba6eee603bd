// Shared bits of the marketing admin routes: the error envelope responses, id params and the
// duplicate-key check.
import { z } from 'zod';
import { errorEnvelopeSchema } from '@shop/contracts';

export const idParams = z.object({ id: z.string().min(1).max(64) });
export const errors = { '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema };

export const isDuplicateKey = (err: unknown) =>
  (err as { code?: number })?.code === 11000 || (err as { cause?: { code?: number } })?.cause?.code === 11000;
