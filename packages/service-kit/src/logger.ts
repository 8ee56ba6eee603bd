// pino logger shared by services and the gateway: JSON lines with `service`, and `trace_id` / `span_id`
// of the active span. The mixin reads the span itself, so correlation works even when pino was loaded
// before the pino instrumentation could patch it (ESM import order, tests without telemetry).
import { pino, type Logger, type LoggerOptions } from 'pino';
import { context, trace, isSpanContextValid } from '@opentelemetry/api';
import { gatewayTokenHeader } from '@shop/contracts';

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

/** Headers that carry a secret: a session cookie, a credential, a webhook signature, the gateway's signed identity. */
const secretHeaders = [
  '.authorization',
  '.cookie',
  '["set-cookie"]',
  '["stripe-signature"]',
  `["${gatewayTokenHeader}"]`,
];
/** Fields that carry a secret wherever they appear, top level or one object down (`{ body: { password } }`). */
const secretFields = [
  'password',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'sessionId',
  'sessionToken',
  'token',
  'gatewayToken',
  'accessToken',
  'refreshToken',
  'clientSecret',
  'client_secret',
  'verificationCode',
  'cvc',
  'cardNumber',
  'signingKey',
  'secret',
];

/**
 * What pino replaces with "[redacted]" in every service's and the gateway's log lines (one list for
 * both). Paths are pino's (fast-redact): `*` is one level; a verification code travels as `data.code`
 * of customer.verification_requested, and a card as `card.number` / `card.cvc` of the test-mode form.
 */
export const redactedLogPaths: string[] = [
  ...['req.', 'res.', 'request.', 'response.', 'reply.', '', '*.'].flatMap((owner) =>
    secretHeaders.map((h) => `${owner}headers${h}`),
  ),
  ...secretFields.flatMap((field) => [field, `*.${field}`]),
  'card.number',
  '*.card.number',
  'card.cvc',
  '*.card.cvc',
  'data.code',
  'event.data.code',
  '*.data.code',
];

export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    base: { service: settings.service },
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => traceFields(),
    redact: { paths: redactedLogPaths, remove: false, censor: '[redacted]' },
    ...settings.options,
  };
  return settings.destination ? pino(options, settings.destination) : pino(options);
}
