// pino logger shared by services and the gateway: JSON lines with `service`, and `trace_id` / `span_id`
// of the active span. The mixin reads the span itself, so correlation works even when pino was loaded
// before the pino instrumentation could patch it (ESM import order, tests without telemetry).
import { pino, type Logger, type LoggerOptions } from 'pino';
import { context, trace, isSpanContextValid } from '@opentelemetry/api';

export type { Logger } from 'pino';

export interface LoggerSettings {
  service: string;
  level?: string;
  /** Extra pino options (destination excluded); tests pass a stream instead. */
  options?: LoggerOptions;
  destination?: pino.DestinationStream;
}

/** The current trace ids, or an empty object outside any span. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  const ctx = span?.spanContext();
  if (!ctx || !isSpanContextValid(ctx)) return {};
  return { trace_id: ctx.traceId, span_id: ctx.spanId };
}

export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    base: { service: settings.service },
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => traceFields(),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password'],
      remove: false,
      censor: '[redacted]',
    },
    ...settings.options,
  };
  return settings.destination ? pino(options, settings.destination) : pino(options);
}
