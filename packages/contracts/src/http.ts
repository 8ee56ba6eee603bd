// HTTP shapes shared by every service and the gateway: the one error envelope, health and readiness.
import { z } from 'zod';
import { serviceNameSchema } from './services.js';

/** Machine codes used in error envelopes. Services may add their own UPPER_SNAKE codes. */
export const errorCodes = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

/** One field problem inside a validation error's `details`. */
export const fieldIssueSchema = z.object({
  field: z.string().describe('Dotted path of the field, e.g. "shippingAddress.postalCode"'),
  message: z.string(),
});
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

/** `{ error, code, details?, requestId? }`: the body of every non-2xx answer. */
export const errorEnvelopeSchema = z
  .object({
    error: z.string().describe('A message a person understands'),
    code: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
    details: z.unknown().optional(),
    requestId: z.string().optional(),
  })
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const healthSchema = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof healthSchema>;

export const checkStateSchema = z.enum(['up', 'down']);
export type CheckState = z.infer<typeof checkStateSchema>;

export const readinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ mongo: checkStateSchema, nats: checkStateSchema }),
});
export type Readiness = z.infer<typeof readinessSchema>;

export const serviceInfoSchema = z.object({
  service: serviceNameSchema,
  version: z.string(),
  startedAt: z.iso.datetime(),
});
export type ServiceInfo = z.infer<typeof serviceInfoSchema>;
