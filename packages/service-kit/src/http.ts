// HTTP pieces the services and the gateway share: request ids and the zod type provider wiring.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { errorCodes } from '@shop/contracts';
import { AppError, badRequest } from './errors.js';
import { nameRequestSpan } from './server-spans.js';

export const requestIdHeader = 'x-request-id';
const acceptableRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify `genReqId`: keep the id the gateway sent in `x-request-id` when it looks like an id (so one
 * request is followed across services), otherwise make a new one. Never trusts arbitrary header text.
 */
export function requestIdFrom(req: IncomingMessage): string {
  const header = req.headers[requestIdHeader];
  const value = Array.isArray(header) ? header[0] : header;
  return value && acceptableRequestId.test(value) ? value : randomUUID();
}

/**
 * zod validator/serializer compilers plus the request id echoed back on every answer; the request's
 * server span is named after its route (there are no per-route Fastify spans: telemetry.ts).
 */
export function installZodAndRequestIds(app: FastifyInstance) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Fastify's callback form: an async hook costs a promise and a microtask turn per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(requestIdHeader, request.id);
    const route = request.routeOptions.url;
    if (route) nameRequestSpan(request.raw, route);
    done();
  });
}

const probePaths = new Set(['/healthz', '/readyz']);

/**
 * Request logging for Fastify's `logController` option: the request id is logged as `request_id`, and
 * the probes Kubernetes polls every few seconds are not logged.
 */
export function requestLogController() {
  return new LogController({
    requestIdLogLabel: 'request_id',
    disableRequestLogging: (req: { url?: string }) => probePaths.has((req.url ?? '').split('?')[0] ?? ''),
  });
}

/** Keys that would reach an object's prototype if a later merge copied them (prototype poisoning). */
const forbiddenKeys = new Set(['__proto__', 'constructor']);

/** Text that may hold a forbidden key once parsed: the key itself, or any \u escape. */
const mayHideForbiddenKey = /__proto__|constructor|\\u/;

function refuseForbiddenKeys(key: string, value: unknown): unknown {
  if (forbiddenKeys.has(key)) throw badRequest(`The request body may not contain the key "${key}".`);
  return value;
}

/** The charset a JSON body declares, lower case, or undefined. */
function declaredCharset(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase();
}

/**
 * The services' JSON body parser: every body it refuses gets a 4xx with a sentence saying what was
 * wrong (empty, not JSON, not UTF-8, a `__proto__` / `constructor` key), instead of fastify's generic
 * "Body is not valid JSON" for all of them.
 */
export function installJsonBodyParser(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const charset = declaredCharset(request.headers['content-type']);
    if (charset && charset !== 'utf-8' && charset !== 'utf8') {
      done(
        new AppError(
          415,
          errorCodes.UNSUPPORTED_MEDIA_TYPE,
          `Send JSON encoded as UTF-8 (this body says charset=${charset.slice(0, 40)}).`,
        ),
        undefined,
      );
      return;
    }
    const text = body as string;
    if (text.trim() === '') {
      done(badRequest('The request body is empty: send a JSON object.'), undefined);
      return;
    }
    try {
      // The reviver (a call per key) only when a forbidden key could be there: spelled out, or hidden
      // behind a \u escape; most bodies are parsed without it.
      done(null, mayHideForbiddenKey.test(text) ? JSON.parse(text, refuseForbiddenKeys) : JSON.parse(text));
    } catch (err) {
      if (err instanceof AppError) done(err, undefined);
      else done(badRequest(`The request body is not valid JSON: ${(err as Error).message}.`), undefined);
    }
  });
}
