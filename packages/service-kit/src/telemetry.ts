// OpenTelemetry for a service process. Import and call this BEFORE fastify, mongoose or pino are loaded
// (a service's main.ts imports its telemetry.ts first, then loads the app with a dynamic import), so
// the http and mongodb instrumentations patch the modules as they are first required.
//
// Built in code on purpose: the default resource detectors probe cloud metadata addresses and the
// auto-instrumentation bundle loads dozens of patches; we use env/host/os/process detectors and only
// http, undici, pino, @fastify/otel and mongodb. Without OTEL_EXPORTER_OTLP_ENDPOINT nothing is exported,
// but spans still get real ids so logs carry trace_id/span_id.
import { NodeSDK, core, tracing } from '@opentelemetry/sdk-node';
import { envDetector, hostDetector, osDetector, processDetector } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import FastifyOtel from '@fastify/otel';

export interface TelemetryOptions {
  /** OTLP/HTTP base URL, e.g. http://otel-collector:4318. Unset: no export. */
  otlpEndpoint?: string | undefined;
  serviceVersion?: string;
  /**
   * Spans for Fastify's routes and each of its hooks (@fastify/otel); default on. The gateway turns
   * them off: with a dozen hooks on every proxied call they were a large share of its time, and its
   * server span (http) and the call to the service (undici) already carry the trace.
   */
  fastifySpans?: boolean;
}

import { currentTelemetry, setCurrentTelemetry, type Telemetry } from './telemetry-state.js';

export type { Telemetry } from './telemetry-state.js';

const quietPaths = new Set(['/healthz', '/readyz']);

export function startTelemetry(serviceName: string, options: TelemetryOptions = {}): Telemetry {
  const existing = currentTelemetry();
  if (existing) return existing;
  const endpoint = options.otlpEndpoint?.trim().replace(/\/+$/, '');
  const spanProcessor = endpoint
    ? new tracing.BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))
    : new tracing.NoopSpanProcessor();

  const sdk = new NodeSDK({
    serviceName,
    autoDetectResources: true,
    resourceDetectors: [envDetector, hostDetector, osDetector, processDetector],
    spanProcessors: [spanProcessor],
    // Explicit empty lists: otherwise the SDK falls back to env defaults and starts OTLP metric and log
    // exporters pointing at localhost.
    metricReaders: [],
    logRecordProcessors: [],
    sampler: new tracing.ParentBasedSampler({ root: new tracing.AlwaysOnSampler() }),
    textMapPropagator: new core.CompositePropagator({
      propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
    }),
    instrumentations: [
      new HttpInstrumentation({
        // Probes are polled every few seconds; tracing them only adds noise.
        ignoreIncomingRequestHook: (req) => quietPaths.has((req.url ?? '').split('?')[0] ?? ''),
      }),
      new UndiciInstrumentation(),
      // Log correlation only; log records are written to stdout by pino, not shipped over OTLP.
      new PinoInstrumentation({ disableLogSending: true }),
      ...(options.fastifySpans === false
        ? []
        : [
            new FastifyOtel.FastifyOtelInstrumentation({
              registerOnInitialization: true,
              ignorePaths: (route) => quietPaths.has(route.url),
            }),
          ]),
      new MongoDBInstrumentation(),
    ],
  });
  sdk.start();
  const telemetry: Telemetry = {
    exporting: Boolean(endpoint),
    shutdown: async () => {
      await sdk.shutdown();
      setCurrentTelemetry(undefined);
    },
  };
  setCurrentTelemetry(telemetry);
  return telemetry;
}
