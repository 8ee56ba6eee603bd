// Core NATS request/reply for queries between services. Replies are wrapped ({ ok, data } or
// { ok: false, error }) so a refusal travels as data; no answer in time becomes UPSTREAM_TIMEOUT (504),
// nobody listening becomes UPSTREAM_UNAVAILABLE (503).
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { RequestError, TimeoutError, type Msg, type NatsConnection, type Subscription } from '@nats-io/nats-core';
import { z } from 'zod';
import { errorCodes, rpcReplySchema, type RpcReply } from '@shop/contracts';
import { AppError, fieldIssuesFromZod, validationMessage } from '../errors.js';
import type { Logger } from '../logger.js';
import { contextFromNatsHeaders, currentTraceCarrier, toNatsHeaders } from './trace.js';

export interface RpcHandler<S extends z.ZodType = z.ZodType> {
  subject: string;
  schema: S;
  handle(data: z.infer<S>, ctx: { log: Logger; subject: string }): Promise<unknown>;
}

/** Declares a reply handler with its input typed from the schema. */
export function replyTo<S extends z.ZodType>(
  subject: string,
  schema: S,
  handle: (data: z.infer<S>, ctx: { log: Logger; subject: string }) => Promise<unknown>,
): RpcHandler<S> {
  return { subject, schema, handle };
}

export interface RequestOptions<S extends z.ZodType | undefined> {
  /** Milliseconds to wait for an answer (default 3000). */
  timeout?: number;
  /** Checks the answer's data; without it the data is returned as is. */
  schema?: S;
}

const tracer = trace.getTracer('@shop/service-kit');

function isTimeout(err: unknown): boolean {
  return err instanceof TimeoutError || (err instanceof Error && err.cause instanceof TimeoutError);
}

function isNoResponders(err: unknown): boolean {
  return err instanceof RequestError && err.isNoResponders();
}

export async function natsRequest<S extends z.ZodType | undefined = undefined>(
  nc: NatsConnection | undefined,
  subject: string,
  data: unknown,
  options: RequestOptions<S> = {},
): Promise<S extends z.ZodType ? z.infer<S> : unknown> {
  const timeout = options.timeout ?? 3000;
  if (!nc || nc.isClosed()) {
    throw new AppError(503, errorCodes.UPSTREAM_UNAVAILABLE, `Cannot ask ${subject}: the message bus is not connected`);
  }
  return tracer.startActiveSpan(
    `${subject} request`,
    { kind: SpanKind.CLIENT, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } },
    async (span) => {
      try {
        let msg: Msg;
        try {
          msg = await nc.request(subject, JSON.stringify(data ?? null), {
            timeout,
            headers: toNatsHeaders(currentTraceCarrier()),
          });
        } catch (err) {
          if (isNoResponders(err)) {
            throw new AppError(
              503,
              errorCodes.UPSTREAM_UNAVAILABLE,
              `No service is answering ${subject} right now`,
              undefined,
              { cause: err },
            );
          }
          if (isTimeout(err)) {
            throw new AppError(
              504,
              errorCodes.UPSTREAM_TIMEOUT,
              `No answer from ${subject} within ${timeout} ms`,
              undefined,
              { cause: err },
            );
          }
          throw new AppError(
            503,
            errorCodes.UPSTREAM_UNAVAILABLE,
            `Request to ${subject} failed: ${(err as Error).message}`,
            undefined,
            { cause: err },
          );
        }
        const reply = rpcReplySchema.parse(msg.json());
        if (!reply.ok)
          throw new AppError(reply.error.status, reply.error.code, reply.error.message, reply.error.details);
        return (options.schema ? options.schema.parse(reply.data) : reply.data) as S extends z.ZodType
          ? z.infer<S>
          : unknown;
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Subscribes a handler in the service's queue group, so replicas share the requests. */
export function serveReplies(nc: NatsConnection, queue: string, handler: RpcHandler, log: Logger): Subscription {
  return nc.subscribe(handler.subject, {
    queue,
    callback: (err, msg) => {
      if (err) {
        log.error({ err, subject: handler.subject }, 'reply subscription failed');
        return;
      }
      void answer(msg, handler, log);
    },
  });
}

async function answer(msg: Msg, handler: RpcHandler, log: Logger) {
  const parent = contextFromNatsHeaders(msg.headers);
  await context.with(parent, () =>
    tracer.startActiveSpan(
      `${handler.subject} reply`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'messaging.system': 'nats', 'messaging.destination.name': handler.subject },
      },
      async (span) => {
        let reply: RpcReply;
        try {
          let input: unknown;
          try {
            input = msg.data.length ? msg.json() : null;
          } catch {
            throw new AppError(400, errorCodes.BAD_REQUEST, 'The request is not valid JSON');
          }
          const parsed = handler.schema.safeParse(input);
          if (!parsed.success) {
            const issues = fieldIssuesFromZod(parsed.error);
            throw new AppError(400, errorCodes.VALIDATION_FAILED, validationMessage(issues), issues);
          }
          reply = { ok: true, data: (await handler.handle(parsed.data, { log, subject: handler.subject })) ?? null };
        } catch (err) {
          if (err instanceof AppError) {
            reply = {
              ok: false,
              error: { code: err.code, message: err.message, status: err.statusCode, details: err.details },
            };
          } else {
            log.error({ err, subject: handler.subject }, 'reply handler failed');
            span.recordException(err as Error);
            span.setStatus({ code: SpanStatusCode.ERROR });
            reply = {
              ok: false,
              error: {
                code: errorCodes.INTERNAL_ERROR,
                message: 'The service could not answer this request',
                status: 500,
              },
            };
          }
        }
        try {
          msg.respond(JSON.stringify(reply));
        } catch (err) {
          log.warn({ err, subject: handler.subject }, 'could not send reply');
        } finally {
          span.end();
        }
      },
    ),
  );
}
