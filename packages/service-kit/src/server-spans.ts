// Lean server spans for the gateway and every service (createService): one SERVER span per request,
// continued from the caller's W3C trace context and handed on to whatever the request calls, without the
// OpenTelemetry http instrumentation's server side. That patches every request and response emitter to
// carry the active context to each listener (a wrapped closure per listener) and reads a dozen
// attributes per request: on the gateway's proxied read it and the undici client spans were about half of
// its CPU per request (load-tests/RESULTS.md, Gateway), on the tracking read 5-8% of the orders service's
// (issue 20). Here the span lives on the raw request; nothing is bound to the async context by default.
// Code that needs the span as its active context (a NATS call or an outbox event made for the request)
// runs under `withRequestSpan`: a service's handlers all do (createService), the gateway's NATS calls too.
// The request's log lines are written inside it, so they carry its trace ids (request-logger.ts). When
// telemetry is not started, the API's no-op tracer makes these spans cost next to nothing and carry nothing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  isSpanContextValid,
  propagation,
  trace,
  type Span,
} from '@opentelemetry/api';

const tracer = trace.getTracer('@shop/service-kit/server-spans');
const spanOf = Symbol('serverSpan');
type WithSpan = IncomingMessage & { [spanOf]?: Span };

/** Paths that get no span (probes polled every few seconds: noise). */
const quietPaths = new Set(['/healthz', '/readyz']);

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Ends the span of the response's request (a shared function: no closure per request). */
function endServerSpan(this: ServerResponse) {
  const span = (this.req as WithSpan)[spanOf];
  if (!span) return;
  if (span.isRecording()) {
    const status = this.statusCode;
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    // Closed before the whole answer was written: the client went away.
    if (!this.writableFinished) span.setAttribute('error.type', 'aborted');
  }
  span.end();
}

/**
 * Starts the request's SERVER span; put it first among the server's `request` listeners
 * (`server.prependListener('request', startServerSpan)`). It ends when the response closes.
 */
export function startServerSpan(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const path = pathOf(url);
  if (quietPaths.has(path)) return;
  const method = req.method ?? 'GET';
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
  if (span.isRecording()) {
    span.setAttributes({
      'http.request.method': method,
      'url.scheme': 'http',
      'url.path': path.slice(0, 2048),
      'network.peer.address': req.socket.remoteAddress,
      'network.protocol.version': req.httpVersion,
    });
    const userAgent = req.headers['user-agent'];
    if (userAgent) span.setAttribute('user_agent.original', userAgent.slice(0, 512));
  }
  (req as WithSpan)[spanOf] = span;
  // `on`, not `once`: a response closes once, and `once` wraps the listener in a new closure per call.
  res.on('close', endServerSpan);
}

/** The request's server span (undefined for probes, or when startServerSpan did not see it). */
export function requestSpan(req: IncomingMessage): Span | undefined {
  return (req as WithSpan)[spanOf];
}

/** Names the span after the route that answered, e.g. `GET /api/orders` (call once it is known). */
export function nameRequestSpan(req: IncomingMessage, route: string): void {
  const span = (req as WithSpan)[spanOf];
  if (!span?.isRecording()) return;
  span.updateName(`${req.method ?? 'GET'} ${route}`);
  span.setAttribute('http.route', route);
}

/**
 * The headers that hand the request's trace on to the service it is forwarded to (`traceparent`,
 * and `tracestate` when the caller sent one): the service's span is a child of the gateway's.
 */
export function traceHeadersFor(req: IncomingMessage): Record<string, string> {
  const carrier: Record<string, string> = {};
  const span = (req as WithSpan)[spanOf];
  if (span) propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  return carrier;
}

/** `trace_id` and `span_id` of the request's span, for a logger's bindings; {} when none. */
export function requestTraceBindings(req: IncomingMessage): { trace_id?: string; span_id?: string } {
  const ctx = (req as WithSpan)[spanOf]?.spanContext();
  if (!ctx || !isSpanContextValid(ctx)) return {};
  return { trace_id: ctx.traceId, span_id: ctx.spanId };
}

/** Runs `work` with the request's span as the active context (NATS calls made for the request carry it). */
export function withRequestSpan<T>(req: IncomingMessage, work: () => T): T {
  const span = (req as WithSpan)[spanOf];
  if (!span) return work();
  return context.with(trace.setSpan(context.active(), span), work);
}
