// @shop/service-kit: what every shop service shares. Telemetry lives in '@shop/service-kit/telemetry'
// because it must be started before fastify and mongoose are loaded.
export {
  createService,
  type Service,
  type ServiceApp,
  type ServiceContext,
  type ServiceDefinition,
} from './service.js';
export * from './edge.js';
export {
  loadServiceConfig,
  defaultMongoUrl,
  defaultNatsUrl,
  type RawServiceEnv,
  type ServiceConfig,
} from './config.js';
export { connectionPoolOptions, databaseName, insertComplete, pingMongo } from './mongo.js';
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
export { outboxModel, processedEventModel, type OutboxDoc, type ProcessedEventDoc } from './bus/models.js';
