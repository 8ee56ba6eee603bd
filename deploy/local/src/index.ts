export {
  startStack,
  REPO_ROOT,
  DEV_SERVER_PORTS,
  redactUrl,
  type RestartEvent,
  type Stack,
  type StackOptions,
} from './stack.js';
export { SERVICES, GATEWAY, FRONTENDS, serviceUrlVar, type Part, type FrontendName } from './catalogue.js';
export {
  serviceEnv,
  gatewayEnv,
  inheritedEnv,
  securityEnv,
  runGatewaySigningKey,
  DEV_ADMIN,
  type CommonSettings,
  type Env,
} from './env.js';
export { PortAllocator, freePort, isPortFree } from './ports.js';
export { ManagedChild, signalGroup, groupAlive, type ChildExit, type LogSink } from './children.js';
export { findNatsServer, startNatsServer, NatsServerMissingError, NATS_MISSING_MESSAGE } from './nats.js';
export { readinessTable, waitReady, probe, ChildNotReadyError, type ReadinessRow } from './readiness.js';
export { formatLine, prefixedConsole } from './logs.js';
