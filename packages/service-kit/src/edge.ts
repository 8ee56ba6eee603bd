// @shop/service-kit/edge: the kit's pieces for a server without a database of its own (the gateway):
// errors, logging, request ids, spans, the gateway's token, NATS streams and trace headers. Nothing here
// loads mongoose (the kit's index does, through the rate limiter, the outbox and the service itself: about
// 9 MiB of heap the gateway does not need). The index re-exports all of it.
export {
  gatewayKeyId,
  gatewayKeyRing,
  gatewaySigningKey,
  installGatewayIdentity,
  minimumGatewayKeyLength,
  signGatewayToken,
  verifyGatewayToken,
  weakGatewayKeyReason,
  type GatewayKeyRing,
  type GatewaySigningKey,
  type GatewayTokenCheck,
} from './gateway-token.js';
export { adminActor, signedInAdmin } from './admin-identity.js';
export { createLogger, redactedLogPaths, traceFields, type Logger, type LoggerSettings } from './logger.js';
export { lazyRequestLogger } from './request-logger.js';
export {
  AppError,
  badRequest,
  conflict,
  errorEnvelope,
  fieldIssuesFromValidation,
  fieldIssuesFromZod,
  forbidden,
  genericServerErrorMessage,
  installErrorHandling,
  notFound,
  sendError,
  serviceUnavailable,
  unreadableMultipartMessage,
  unauthorized,
  validationFailed,
  validationMessage,
} from './errors.js';
export {
  installJsonBodyParser,
  installZodAndRequestIds,
  requestIdFrom,
  requestIdHeader,
  requestLogController,
} from './http.js';
export { currentTelemetry, type Telemetry } from './telemetry-state.js';
export {
  nameRequestSpan,
  requestSpan,
  requestTraceBindings,
  startServerSpan,
  traceHeadersFor,
  withRequestSpan,
} from './server-spans.js';
export { ensureAllStreams, ensureStream, duplicateWindowMs } from './bus/streams.js';
export { contextFromNatsHeaders, currentTraceCarrier, toNatsHeaders } from './bus/trace.js';
