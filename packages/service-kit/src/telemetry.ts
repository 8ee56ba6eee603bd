// OpenTelemetry for a service process. Import and call this BEFORE fastify, mongoose or pino are loaded
// (a service's main.ts imports its telemetry.ts first, then loads the app with a dynamic import), so
// the http and mongodb instrumentations patch the modules as they are first required.
//
// Built in code on purpose: the default resource detectors probe cloud metadata addresses and the
// auto-instrumentation bundle loads dozens of patches; we use env/host/os/process detectors and only
// http (outgoing calls), undici and pino, plus mongodb when exporting and @fastify/otel when asked for.
// Incoming requests get the kit's lean server span instead (server-spans.ts: the gateway and
// createService start it). Without OTEL_EXPORTER_OTLP_ENDPOINT nothing is exported, but spans still get
// real ids so logs carry trace_id/span_id.
//
// A tracer provider, not @opentelemetry/sdk-node's NodeSDK: NodeSDK loads every exporter it could pick
// from the environment (OTLP http/proto/grpc for traces, metrics and logs, Prometheus, Zipkin, Jaeger and
// B3 propagators: about 2,500 module files), which cost each process about 20 MiB of live heap and 45 MiB
// of resident memory at start (issue 20: the local stack runs eight of them). The OTLP exporter and the
// mongodb instrumentation are loaded only when there is an endpoint to export to.
import { createRequire } from 'node:module';
import {
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  NoopSpanProcessor,
  ParentBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  osDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';

export interface TelemetryOptions {
  /** OTLP/HTTP base URL, e.g. http://otel-collector:4318. Unset: no export. */
  otlpEndpoint?: string | undefined;
  serviceVersion?: string;
  /**
   * Spans for Fastify's routes and each of its hooks (@fastify/otel); default off (@fastify/otel is then
   * not loaded). With a dozen hooks a request they were a large share of a service's CPU on the tracking
   * read (issue 20) and of the gateway's on a proxied read; the http server span carries the trace, and
   * createService names it after the route (`POST /api/orders/track`, `http.route`).
   */
  fastifySpans?: boolean;
  /**
   * Client spans and trace headers for outgoing http and fetch (undici) calls; default on. The gateway
   * turns them off and hands its trace on to the service itself (server-spans.ts `traceHeadersFor`): a
   * client span per forwarded call was a large share of its CPU per proxied request. Incoming requests
   * are never instrumented here: they get the lean server span of server-spans.ts (about 40% of the
   * gateway's CPU per proxied read, 5-8% of the orders service's per tracking read, was the http
   * instrumentation binding the active context to every request and response listener).
   */
  httpInstrumentation?: boolean;
}

import { currentTelemetry, setCurrentTelemetry, type Telemetry } from './telemetry-state.js';

export type { Telemetry } from './telemetry-state.js';

const quietPaths = new Set(['/healthz', '/readyz']);

export function startTelemetry(serviceName: string, options: TelemetryOptions = {}): Telemetry {
  const existing = currentTelemetry();
  if (existing) return existing;
  const endpoint = options.otlpEndpoint?.trim().replace(/\/+$/, '');
  const spanProcessor = endpoint
    ? new BatchSpanProcessor(otlpTraceExporter(`${endpoint}/v1/traces`))
    : new NoopSpanProcessor();

  const provider = new NodeTracerProvider({
    // As NodeSDK built it: the SDK's defaults, what the detectors found, then the service's name.
    resource: defaultResource()
      .merge(detectResources({ detectors: [envDetector, hostDetector, osDetector, processDetector] }))
      .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName })),
    spanProcessors: [spanProcessor],
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
  });
  // The global tracer provider, the async-hooks context manager and the W3C trace-context + baggage
  // propagators (register()'s defaults).
  provider.register();
  // Enabled as they are made: each patches its module when it is first loaded, after this.
  const instrumentations = [
    ...(options.httpInstrumentation === false
      ? []
      : [new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }), new UndiciInstrumentation()]),
    // Log correlation only; log records are written to stdout by pino, not shipped over OTLP.
    new PinoInstrumentation({ disableLogSending: true }),
    ...(options.fastifySpans ? [fastifyInstrumentation()] : []),
    // Spans for MongoDB commands only when they are exported: they are leaves (nothing is propagated from
    // them, log lines carry the request's span), so without an exporter nothing reads them, and making
    // them was a visible share of a service's CPU on the tracking read (issue 20).
    ...(endpoint ? [mongodbInstrumentation()] : []),
  ];
  for (const instrumentation of instrumentations) instrumentation.setTracerProvider(provider);
  const telemetry: Telemetry = {
    exporting: Boolean(endpoint),
    shutdown: async () => {
      for (const instrumentation of instrumentations) instrumentation.disable();
      await provider.shutdown();
      setCurrentTelemetry(undefined);
    },
  };
  setCurrentTelemetry(telemetry);
  return telemetry;
}

/** Spans for Fastify's routes and hooks, loaded only when asked for. */
function fastifyInstrumentation() {
  const require = createRequire(import.meta.url);
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
  return new FastifyOtelInstrumentation({
    registerOnInitialization: true,
    ignorePaths: (route) => quietPaths.has(route.url),
  });
}

/** Spans for MongoDB commands, loaded only when there is somewhere to export them to. */
function mongodbInstrumentation() {
  const require = createRequire(import.meta.url);
  const { MongoDBInstrumentation } =
    require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  return new MongoDBInstrumentation();
}

/** The OTLP/HTTP trace exporter, loaded only when there is somewhere to export to. */
function otlpTraceExporter(url: string) {
  const require = createRequire(import.meta.url);
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  return new OTLPTraceExporter({ url });
}
