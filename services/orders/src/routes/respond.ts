// Answers the storefront reads: the shared error envelope plus `success: false` (spec §7 reads
// `success` and `error`), and the schema used to serialise such answers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@shop/contracts';
import { fieldIssuesFromValidation, type AppError } from '@shop/service-kit';

/** Error answers of these routes: the envelope, with the `success: false` flag kept by the serializer. */
export const failureResponse = errorEnvelopeSchema.extend({ success: z.literal(false).optional() });

export function fail(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  error: string,
  details?: unknown,
) {
  return reply.status(status).send({
    success: false as const,
    error,
    code,
    ...(details !== undefined ? { details } : {}),
    requestId: request.id,
  });
}

export function failWith(request: FastifyRequest, reply: FastifyReply, err: AppError) {
  return fail(request, reply, err.statusCode, err.code, err.message, err.details);
}

/** The field problems of a validation failure attached by `attachValidation`. */
export function validationIssues(request: FastifyRequest) {
  const error = request.validationError as (Error & { validation?: unknown; validationContext?: string }) | undefined;
  if (!error) return [];
  const validation = Array.isArray(error.validation)
    ? (error.validation as { instancePath: string; keyword: string; message?: string }[])
    : [{ instancePath: '', keyword: 'invalid', message: error.message }];
  return fieldIssuesFromValidation(validation, error.validationContext);
}
