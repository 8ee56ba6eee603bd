// The gateway's own failures, as the shop's AppError (service-kit renders every one of them in the
// one error envelope { error, code, details?, requestId? }), with messages a person can act on.
import { errorCodes } from '@shop/contracts';
import { AppError } from '@shop/service-kit/edge';

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

export function bodyTooLarge(limitBytes: number): AppError {
  const mb = limitBytes / (1024 * 1024);
  const size = mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${Math.round(limitBytes / 1024)} KB`;
  return new AppError(
    413,
    errorCodes.PAYLOAD_TOO_LARGE,
    `The request is too large. The most this address accepts is ${size}.`,
  );
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);
const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

/** The error and its causes, outermost first (a wrapped network error, a body stream's own error). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  for (let depth = 0; current && depth < 5; depth++) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

const codeOf = (e: unknown) => (e as { code?: unknown })?.code;

/** Turns a failed call to a service (refused, timed out, broken off) into the gateway's answer. */
export function upstreamFailure(service: string, error: unknown): AppError {
  const chain = causeChain(error);
  const ours = chain.find((e): e is AppError => e instanceof AppError);
  if (ours) return ours; // e.g. the body limit stopped a chunked upload mid-way
  const codes = chain.map(codeOf).filter((c): c is string => typeof c === 'string');
  if (codes.some((c) => UNREACHABLE_CODES.has(c))) {
    return new AppError(
      503,
      errorCodes.SERVICE_UNAVAILABLE,
      `The ${label(service)} is not available right now. Please try again in a moment.`,
      { service },
    );
  }
  if (codes.some((c) => TIMEOUT_CODES.has(c)) || (chain[0] as { statusCode?: unknown })?.statusCode === 504) {
    return new AppError(
      504,
      errorCodes.UPSTREAM_TIMEOUT,
      `The ${label(service)} took too long to answer. Please try again.`,
      { service },
    );
  }
  return new AppError(
    502,
    'BAD_GATEWAY',
    `The ${label(service)} sent an answer the shop could not read. Please try again.`,
    { service },
  );
}

export function apiNotFound(method: string, path: string): AppError {
  return new AppError(404, errorCodes.NOT_FOUND, `There is no ${method} ${path} in the shop's API.`);
}
