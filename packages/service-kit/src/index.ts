// @shop/service-kit: what every shop service shares. Telemetry lives in '@shop/service-kit/telemetry'
// because it must be started before fastify and mongoose are loaded.
export {
  createService,
  type Service,
  type ServiceApp,
  type ServiceContext,
  type ServiceDefinition,
} from './service.js';
export {
  loadServiceConfig,
  defaultMongoUrl,
  defaultNatsUrl,
  type RawServiceEnv,
  type ServiceConfig,
} from './config.js';
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
export { databaseName, pingMongo } from './mongo.js';
export {
  clearWindow,
  countHit,
  hitRateLimit,
  rateCounterModel,
  readWindow,
  type RateCounterDoc,
  type RateCounterModel,
  type RateDecision,
  type RateWindow,
} from './rate-limit.js';
export { currentTelemetry, type Telemetry } from './telemetry-state.js';
export {
  nameRequestSpan,
  requestSpan,
  requestTraceBindings,
  startServerSpan,
  traceHeadersFor,
  withRequestSpan,
} from './server-spans.js';
export { EventBus, type EventBusOptions } from './bus/bus.js';
export {
  consumeEvent,
  consumeEventBatches,
  defaultBatchSize,
  durableName,
  type BatchContext,
  type ConsumerContext,
  type ConsumerOptions,
  type EventConsumer,
} from './bus/consumers.js';
export { OutboxRelay, type Outbox, type OutboxWork, type RelayOptions } from './bus/outbox.js';
export { replyTo, type RequestOptions, type RpcHandler } from './bus/rpc.js';
export { ensureAllStreams, ensureStream, duplicateWindowMs } from './bus/streams.js';
export { contextFromNatsHeaders, currentTraceCarrier, toNatsHeaders } from './bus/trace.js';
export { outboxModel, processedEventModel, type OutboxDoc, type ProcessedEventDoc } from './bus/models.js';
