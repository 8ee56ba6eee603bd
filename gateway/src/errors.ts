// The gateway's own error answers, all in the shop's one error envelope
// ({ error, code, details?, requestId? }) with a message a person can act on.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes } from '@shop/contracts';
import { errorEnvelope } from './envelope.js';

/** An error the gateway answers with on purpose: status, machine code and a human message. */
export class GatewayError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

const SERVICE_LABELS: Record<string, string> = {
  orders: 'ordering',
  payments: 'payment',
  customers: 'customer',
  support: 'support',
  marketing: 'marketing',
  security: 'sign-in and security',
  email: 'email',
};

function label(service: string): string {
  return `${SERVICE_LABELS[service] ?? service} service`;
}

export const BODY_TOO_LARGE = errorCodes.PAYLOAD_TOO_LARGE;

export function bodyTooLarge(limitBytes: number): GatewayError {
  const mb = limitBytes / (1024 * 1024);
  const size = mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${Math.round(limitBytes / 1024)} KB`;
  return new GatewayError(413, BODY_TOO_LARGE, `The request is too large. The most this address accepts is ${size}.`);
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT', 'FST_REPLY_FROM_GATEWAY_TIMEOUT', 'FST_REPLY_FROM_TIMEOUT']);

function causeChain(error: unknown): Array<{ code?: unknown; statusCode?: unknown; name?: unknown }> {
  const chain = [];
  let current = error as { cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    chain.push(current as { code?: unknown; statusCode?: unknown });
    current = current.cause as { cause?: unknown } | undefined;
  }
  return chain;
}

/** Turns a failed call to a service (connection refused, timeout, broken answer) into the gateway's answer. */
export function upstreamFailure(service: string, error: unknown): GatewayError {
  const chain = causeChain(error);
  const codes = chain.map((e) => e.code);
  const tooLarge = chain.find((e) => e.code === BODY_TOO_LARGE);
  if (tooLarge instanceof GatewayError) return tooLarge;
  if (codes.some((c) => typeof c === 'string' && UNREACHABLE_CODES.has(c)) || codes.includes('FST_REPLY_FROM_SERVICE_UNAVAILABLE')) {
    return new GatewayError(503, errorCodes.SERVICE_UNAVAILABLE, `The ${label(service)} is not available right now. Please try again in a moment.`, { service });
  }
  if (codes.some((c) => typeof c === 'string' && TIMEOUT_CODES.has(c)) || chain[0]?.statusCode === 504) {
    return new GatewayError(504, errorCodes.UPSTREAM_TIMEOUT, `The ${label(service)} took too long to answer. Please try again.`, { service });
  }
  return new GatewayError(502, 'BAD_GATEWAY', `The ${label(service)} sent an answer the shop could not read. Please try again.`, { service });
}

export function apiNotFound(method: string, path: string): GatewayError {
  return new GatewayError(404, errorCodes.NOT_FOUND, `There is no ${method} ${path} in the shop's API.`);
}

/** Messages for errors Fastify itself raises before a handler runs. */
function fromFastifyError(error: FastifyError): GatewayError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError(413, BODY_TOO_LARGE, 'The request is too large for this address.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError(415, errorCodes.UNSUPPORTED_MEDIA_TYPE, 'This address does not accept that kind of content.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new GatewayError(400, errorCodes.BAD_REQUEST, 'The request body is not valid JSON.');
    default:
      return undefined;
  }
}

/** Root error handler: every error leaves the gateway as an envelope, never as a stack trace. */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let known: GatewayError | undefined;
  if (error instanceof GatewayError) known = error;
  else if (error && typeof error === 'object' && 'code' in error) known = fromFastifyError(error as FastifyError);

  if (known) {
    return reply.code(known.statusCode).send(errorEnvelope(known.message, known.code, request.id, known.details));
  }
  const status = (error as { statusCode?: number })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // A client error raised by a plugin: its message is written for people already.
    const message = error instanceof Error ? error.message : 'The request could not be handled.';
    return reply.code(status).send(errorEnvelope(message, errorCodes.BAD_REQUEST, request.id));
  }
  request.log.error({ err: error }, 'unexpected gateway error');
  return reply.code(500).send(errorEnvelope('Something went wrong in the shop. Please try again.', errorCodes.INTERNAL_ERROR, request.id));
}
