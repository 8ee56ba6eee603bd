// HTTP pieces the services and the gateway share: request ids and the zod type provider wiring.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';

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

/** zod validator/serializer compilers plus the request id echoed back on every answer. */
export function installZodAndRequestIds(app: FastifyInstance) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header(requestIdHeader, request.id);
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
