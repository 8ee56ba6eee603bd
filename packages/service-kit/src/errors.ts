// One error envelope for every failure: `{ error, code, details?, requestId? }`. Handlers throw
// AppError (or its helpers); validation failures become 400 with a message naming the field; anything
// unexpected becomes a 500 with a generic message while the detail goes only to the log.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorCodes, type ErrorEnvelope, type FieldIssue } from '@shop/contracts';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new AppError(400, errorCodes.BAD_REQUEST, message, details);
export const validationFailed = (message: string, details?: FieldIssue[]) =>
  new AppError(400, errorCodes.VALIDATION_FAILED, message, details);
export const unauthorized = (message = 'Please sign in to continue.') =>
  new AppError(401, errorCodes.UNAUTHORIZED, message);
export const forbidden = (message = 'You are not allowed to do this.') =>
  new AppError(403, errorCodes.FORBIDDEN, message);
export const notFound = (message: string) => new AppError(404, errorCodes.NOT_FOUND, message);
export const conflict = (message: string, details?: unknown) =>
  new AppError(409, errorCodes.CONFLICT, message, details);
export const serviceUnavailable = (message: string) => new AppError(503, errorCodes.SERVICE_UNAVAILABLE, message);

export const genericServerErrorMessage = 'Something went wrong on our side. Please try again in a few minutes.';

export function errorEnvelope(message: string, code: string, details?: unknown, requestId?: string): ErrorEnvelope {
  const envelope: ErrorEnvelope = { error: message, code };
  if (details !== undefined) envelope.details = details;
  if (requestId) envelope.requestId = requestId;
  return envelope;
}

const contextNames: Record<string, string> = {
  body: 'request body',
  querystring: 'query string',
  params: 'URL',
  headers: 'headers',
};

/** One readable sentence per problem: "email is required", "quantity: Too big: expected number to be <=10000". */
function describeIssue(field: string, keyword: string, message: string): string {
  if (keyword === 'invalid_type' && /received undefined/.test(message)) return `${field} is required`;
  // Custom messages written in the schemas already name their field.
  if (!message.startsWith('Invalid') && !message.startsWith('Too ') && !message.startsWith('Unrecognized'))
    return message;
  return `${field}: ${message}`;
}

export function fieldIssuesFromValidation(
  validation: ReadonlyArray<{ instancePath: string; keyword: string; message?: string | undefined }>,
  context?: string,
): FieldIssue[] {
  return validation.map((v) => {
    const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || contextNames[context ?? ''] || 'input';
    return { field, message: describeIssue(field, v.keyword, v.message ?? 'is invalid') };
  });
}

/** Same shape for a ZodError raised in code (e.g. parsing an event or a reply). */
export function fieldIssuesFromZod(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || 'input';
    return { field, message: describeIssue(field, issue.code, issue.message) };
  });
}

export function validationMessage(issues: FieldIssue[], context?: string): string {
  const where = contextNames[context ?? ''] ?? 'input';
  return `Invalid ${where}: ${issues.map((i) => i.message).join('; ')}`;
}

/** Maps fastify's own client errors (bad JSON, too large, wrong content type) to our codes. */
function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return errorCodes.BAD_REQUEST;
    case 401:
      return errorCodes.UNAUTHORIZED;
    case 403:
      return errorCodes.FORBIDDEN;
    case 404:
      return errorCodes.NOT_FOUND;
    case 409:
      return errorCodes.CONFLICT;
    case 413:
      return errorCodes.PAYLOAD_TOO_LARGE;
    case 415:
      return errorCodes.UNSUPPORTED_MEDIA_TYPE;
    case 429:
      return errorCodes.RATE_LIMITED;
    case 503:
      return errorCodes.SERVICE_UNAVAILABLE;
    case 504:
      return errorCodes.UPSTREAM_TIMEOUT;
    default:
      return status >= 500 ? errorCodes.INTERNAL_ERROR : errorCodes.BAD_REQUEST;
  }
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  details?: unknown,
) {
  // Serialised here, not by the route's response schema: a route may describe its own refusals in
  // another shape, and the shared envelope (a body fastify could not read, a 404) must still leave as
  // the 4xx it is rather than fail that schema and turn into a 500.
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .serializer((payload: unknown) => JSON.stringify(payload))
    .send(errorEnvelope(message, code, details, request.id));
}

/** A clearer sentence for fastify's own refusals than its terse defaults. */
function clientErrorMessage(error: FastifyError, request: FastifyRequest): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const type = (request.headers['content-type'] ?? '').split(';', 1)[0].trim().slice(0, 80);
      return type
        ? `This address does not accept ${type} bodies: send JSON (application/json).`
        : 'This request needs a body with a content type: send JSON (application/json).';
    }
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty: send a JSON object.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The request body did not match its Content-Length.';
    default:
      return error.message;
  }
}

/**
 * busboy (behind @fastify/multipart) throws plain Errors for a multipart body it cannot read: "Multipart:
 * Boundary not found", "Unexpected end of multipart data", "Part terminated early due to unexpected end of
 * multipart data"... They are the client's mistake, wherever a service reads parts.
 */
const unreadableMultipart =
  /boundary not found|unexpected end of (multipart data|form|file)|terminated early|malformed part header|boundary required/i;
export const unreadableMultipartMessage =
  'The upload could not be read: it is not complete multipart/form-data. Send the files as multipart/form-data.';

function isUnreadableMultipart(error: Error, request: FastifyRequest): boolean {
  const type = request.headers['content-type'] ?? '';
  return (
    /^\s*multipart\//i.test(type) &&
    (error as FastifyError).statusCode === undefined &&
    unreadableMultipart.test(error.message)
  );
}

/** Installs the error and not-found handlers on an app (services and the gateway use the same one). */
export function installErrorHandling(app: FastifyInstance) {
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, 404, errorCodes.NOT_FOUND, `No route for ${request.method} ${request.url.split('?')[0]}`),
  );

  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = fieldIssuesFromValidation(error.validation, error.validationContext);
      return sendError(
        request,
        reply,
        400,
        errorCodes.VALIDATION_FAILED,
        validationMessage(issues, error.validationContext),
        issues,
      );
    }
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
      return sendError(request, reply, error.statusCode, error.code, error.message, error.details);
    }
    if (error instanceof z.ZodError) {
      // A schema parse in handler code: the input was wrong.
      const issues = fieldIssuesFromZod(error);
      return sendError(request, reply, 400, errorCodes.VALIDATION_FAILED, validationMessage(issues), issues);
    }
    if (isResponseSerializationError(error)) {
      request.log.error(
        { err: error, cause: (error as { cause?: unknown }).cause },
        'response did not match its schema',
      );
      return sendError(request, reply, 500, errorCodes.INTERNAL_ERROR, genericServerErrorMessage);
    }
    if (isUnreadableMultipart(error, request)) {
      return sendError(request, reply, 400, errorCodes.BAD_REQUEST, unreadableMultipartMessage);
    }
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendError(
        request,
        reply,
        status,
        codeForStatus(status),
        clientErrorMessage(error as FastifyError, request),
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    const finalStatus = typeof status === 'number' && status >= 500 && status <= 599 ? status : 500;
    return sendError(request, reply, finalStatus, codeForStatus(finalStatus), genericServerErrorMessage);
  });
}
