// Handshake and server information commands: hello/isMaster, buildInfo, serverStatus and friends, which
// drivers, mongoose and mongosh send to learn what they are talking to.
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { Binary, Long, type Document } from 'bson';
import type { CommandContext, CommandHandler, ServerState } from '../context.js';
import { commandError, ErrorCodes } from '../errors.js';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE_BYTES, MAX_WRITE_BATCH_SIZE } from '../wire.js';
import { SESSION_TIMEOUT_MINUTES, TRANSACTION_LIFETIME_MS } from '../sessions.js';

export const SERVER_VERSION = '7.0.0';
/** MongoDB 7.0. */
export const MAX_WIRE_VERSION = 21;

export function topologyVersion(state: ServerState): Document {
  // The topology of a one-member set never changes, so the counter stays 0.
  return { processId: state.processId, counter: Long.ZERO };
}

export function helloReply(ctx: CommandContext): Document {
  const { state, body } = ctx;
  const legacy = ctx.name !== 'hello';
  const reply: Document = {};
  if (body.helloOk) reply.helloOk = true;
  reply[legacy ? 'ismaster' : 'isWritablePrimary'] = true;
  reply.topologyVersion = topologyVersion(state);
  const replSet = state.options.replSet;
  if (replSet) {
    const opTime = state.lastOpTime();
    const writeDate = new Date(opTime.high * 1000);
    Object.assign(reply, {
      hosts: [state.address],
      setName: replSet,
      setVersion: 1,
      secondary: false,
      primary: state.address,
      me: state.address,
      electionId: state.electionId,
      lastWrite: {
        opTime: { ts: opTime, t: Long.ONE },
        lastWriteDate: writeDate,
        majorityOpTime: { ts: opTime, t: Long.ONE },
        majorityWriteDate: writeDate,
      },
    });
  }
  Object.assign(reply, {
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE_BYTES,
    maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: SESSION_TIMEOUT_MINUTES,
    connectionId: ctx.conn.id,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  });
  if (body.saslSupportedMechs !== undefined) reply.saslSupportedMechs = [];
  return reply;
}

function buildInfo(): Document {
  return {
    version: SERVER_VERSION,
    gitVersion: 'embedded-mongo',
    versionArray: [7, 0, 0, 0],
    modules: [],
    allocator: 'system',
    javascriptEngine: 'none',
    sysInfo: 'deprecated',
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    storageEngines: ['embedded'],
    openssl: { running: 'disabled', compiled: 'disabled' },
    buildEnvironment: { target_os: process.platform, target_arch: process.arch, distmod: 'embedded-mongo' },
    ok: 1,
  };
}

/** Values set with setParameter, per server (getParameter answers them from then on). */
const parameterOverrides = new WeakMap<ServerState, Map<string, unknown>>();
/** Parameters mongod lets setParameter change at runtime, of those getParameter reports. */
const RUNTIME_PARAMETERS = new Set([
  'transactionLifetimeLimitSeconds',
  'maxTransactionLockRequestTimeoutMillis',
  'logLevel',
  'cursorTimeoutMillis',
  'internalQueryMaxBlockingSortMemoryUsageBytes',
  'quiet',
]);

function serverParameters(state: ServerState): Record<string, unknown> {
  return { ...defaultParameters(state), ...Object.fromEntries(parameterOverrides.get(state) ?? []) };
}

function defaultParameters(state: ServerState): Record<string, unknown> {
  return {
    featureCompatibilityVersion: { version: '7.0' },
    transactionLifetimeLimitSeconds: TRANSACTION_LIFETIME_MS / 1000,
    maxTransactionLockRequestTimeoutMillis: 5,
    logLevel: 0,
    authenticationMechanisms: [],
    cursorTimeoutMillis: Long.fromNumber(10 * 60 * 1000),
    internalQueryMaxBlockingSortMemoryUsageBytes: 100 * 1024 * 1024,
    notablescan: false,
    quiet: false,
    port: state.options.port,
    replSet: state.options.replSet ?? '',
  };
}

const getParameter: CommandHandler = (ctx) => {
  const params = serverParameters(ctx.state);
  const selector = ctx.body.getParameter;
  const showDetails = typeof selector === 'object' && selector !== null && Boolean((selector as Document).showDetails);
  const allParameters =
    selector === '*' ||
    (typeof selector === 'object' && selector !== null && Boolean((selector as Document).allParameters));
  const wanted = allParameters
    ? Object.keys(params)
    : Object.keys(ctx.body).filter(
        (key) => key !== 'getParameter' && !key.startsWith('$') && key !== 'lsid' && key !== 'comment',
      );
  const reply: Document = {};
  for (const name of wanted) {
    if (!(name in params)) continue;
    reply[name] = showDetails
      ? { value: params[name], settableAtRuntime: false, settableAtStartup: false }
      : params[name];
  }
  if (Object.keys(reply).length === 0) throw commandError(ErrorCodes.InvalidOptions, 'no option found to get');
  return { ...reply, ok: 1 };
};

/**
 * setParameter as mongod answers it (admin database only, see dispatch): `{was: <previous value>}` for a runtime parameter,
 * InvalidOptions for an unknown one or one that can only be set at startup.
 */
const setParameter: CommandHandler = (ctx) => {
  const names = Object.keys(ctx.body).filter(
    (key) =>
      key !== 'setParameter' &&
      !key.startsWith('$') &&
      !['lsid', 'comment', 'apiVersion', 'apiStrict', 'apiDeprecationErrors'].includes(key),
  );
  if (names.length === 0)
    throw commandError(ErrorCodes.InvalidOptions, 'no option found to set, use help:true to see options ');
  const params = serverParameters(ctx.state);
  for (const name of names) {
    if (!Object.hasOwn(params, name))
      throw commandError(
        ErrorCodes.InvalidOptions,
        `attempted to set unrecognized parameter [${name}], use help:true to see options `,
      );
    if (!RUNTIME_PARAMETERS.has(name))
      throw commandError(ErrorCodes.InvalidOptions, `not allowed to change [${name}] at runtime`);
    const previous = params[name];
    const value = ctx.body[name];
    if (
      typeof previous !== typeof value &&
      !(
        typeof previous === 'number' ||
        typeof value === 'number' ||
        (previous as { _bsontype?: string })?._bsontype === 'Long'
      )
    ) {
      throw commandError(ErrorCodes.BadValue, `Invalid value for parameter ${name}: ${String(value)}`);
    }
  }
  const overrides = parameterOverrides.get(ctx.state) ?? new Map<string, unknown>();
  parameterOverrides.set(ctx.state, overrides);
  const was = params[names[0]];
  for (const name of names) overrides.set(name, ctx.body[name]);
  return { was, ok: 1 };
};

const serverStatus: CommandHandler = (ctx) => {
  const { state } = ctx;
  const uptimeMs = Date.now() - state.startedAt.getTime();
  const memory = process.memoryUsage();
  const reply: Document = {
    host: `${os.hostname()}:${state.options.port}`,
    version: SERVER_VERSION,
    process: 'mongod',
    pid: Long.fromNumber(process.pid),
    uptime: Math.floor(uptimeMs / 1000),
    uptimeMillis: Long.fromNumber(uptimeMs),
    uptimeEstimate: Long.fromNumber(Math.floor(uptimeMs / 1000)),
    localTime: new Date(),
    connections: {
      current: state.connections.current,
      available: 1_000_000 - state.connections.current,
      totalCreated: state.connections.totalCreated,
      active: state.connections.current,
    },
    opcounters: { ...state.opcounters },
    mem: {
      bits: 64,
      resident: Math.round(memory.rss / 1048576),
      virtual: Math.round(memory.heapTotal / 1048576),
      supported: true,
    },
    metrics: { cursor: { open: { total: Long.fromNumber(state.cursors.size) } } },
    logicalSessionRecordCache: { activeSessionsCount: state.sessions.size },
    storageEngine: { name: 'embedded', supportsCommittedReads: true, persistent: Boolean(state.options.dbPath) },
    ok: 1,
  };
  if (state.options.replSet) {
    reply.repl = {
      setName: state.options.replSet,
      setVersion: 1,
      isWritablePrimary: true,
      secondary: false,
      hosts: [state.address],
      primary: state.address,
      me: state.address,
      electionId: state.electionId,
    };
  }
  return reply;
};

const hostInfo: CommandHandler = () => ({
  system: {
    currentTime: new Date(),
    hostname: os.hostname(),
    cpuAddrSize: 64,
    memSizeMB: Long.fromNumber(Math.round(os.totalmem() / 1048576)),
    memLimitMB: Long.fromNumber(Math.round(os.totalmem() / 1048576)),
    numCores: os.cpus().length,
    cpuArch: process.arch,
    numaEnabled: false,
  },
  os: { type: os.type(), name: os.type(), version: os.release() },
  extra: {},
  ok: 1,
});

const getCmdLineOpts: CommandHandler = (ctx) => {
  const { options, argv } = ctx.state;
  const parsed: Document = { net: { bindIp: options.host, port: options.port } };
  if (options.dbPath) parsed.storage = { dbPath: options.dbPath };
  if (options.replSet) parsed.replication = { replSet: options.replSet };
  return { argv, parsed, ok: 1 };
};

const getLog: CommandHandler = (ctx) => {
  const which = ctx.body.getLog;
  if (which === '*') return { names: ['global', 'startupWarnings'], ok: 1 };
  if (which === 'startupWarnings') return { totalLinesWritten: 0, log: [], ok: 1 };
  if (which === 'global') return { totalLinesWritten: ctx.state.log.length, log: [...ctx.state.log], ok: 1 };
  throw commandError(ErrorCodes.BadValue, `No log named '${String(which)}'`);
};

const connectionStatus: CommandHandler = (ctx) => {
  const authInfo: Document = { authenticatedUsers: [], authenticatedUserRoles: [] };
  if (ctx.body.showPrivileges) authInfo.authenticatedUserPrivileges = [];
  return { authInfo, ok: 1 };
};

const authNotSupported: CommandHandler = () => {
  throw commandError(
    ErrorCodes.AuthenticationFailed,
    'Authentication is not supported by the embedded MongoDB server (@shop/embedded-mongo): connect without a username and password',
  );
};

const replSetGetStatus: CommandHandler = (ctx) => {
  const { state } = ctx;
  if (!state.options.replSet) throw commandError(ErrorCodes.NoReplicationEnabled, 'not running with --replSet');
  const opTime = state.lastOpTime();
  const optime = { ts: opTime, t: Long.ONE };
  return {
    set: state.options.replSet,
    date: new Date(),
    myState: 1,
    term: Long.ONE,
    heartbeatIntervalMillis: Long.fromNumber(2000),
    optimes: { lastCommittedOpTime: optime, appliedOpTime: optime, durableOpTime: optime },
    members: [
      {
        _id: 0,
        name: state.address,
        health: 1,
        state: 1,
        stateStr: 'PRIMARY',
        uptime: Math.floor((Date.now() - state.startedAt.getTime()) / 1000),
        optime,
        optimeDate: new Date(opTime.high * 1000),
        electionId: state.electionId,
        self: true,
      },
    ],
    ok: 1,
  };
};

const replSetGetConfig: CommandHandler = (ctx) => {
  const { state } = ctx;
  if (!state.options.replSet) throw commandError(ErrorCodes.NoReplicationEnabled, 'not running with --replSet');
  return {
    config: {
      _id: state.options.replSet,
      version: 1,
      term: 1,
      members: [{ _id: 0, host: state.address, arbiterOnly: false, hidden: false, priority: 1, votes: 1 }],
      settings: { chainingAllowed: true },
    },
    ok: 1,
  };
};

const startSession: CommandHandler = () => ({
  id: { id: new Binary(Buffer.from(randomUUID().replace(/-/g, ''), 'hex'), Binary.SUBTYPE_UUID) },
  timeoutMinutes: SESSION_TIMEOUT_MINUTES,
  ok: 1,
});

const endSessions: CommandHandler = (ctx) => {
  const ids = ctx.body[ctx.name];
  if (!Array.isArray(ids))
    throw commandError(ErrorCodes.TypeMismatch, `BSON field '${ctx.name}' is the wrong type, expected type 'array'`);
  ctx.state.sessions.end(ids);
  return { ok: 1 };
};

export const adminCommands: Record<string, CommandHandler> = {
  hello: helloReply,
  isMaster: helloReply,
  ismaster: helloReply,
  ping: () => ({ ok: 1 }),
  buildInfo,
  buildinfo: buildInfo,
  getParameter,
  setParameter,
  serverStatus,
  hostInfo,
  getCmdLineOpts,
  getLog,
  connectionStatus,
  whatsmyuri: (ctx) => ({ you: ctx.conn.remote, ok: 1 }),
  saslStart: authNotSupported,
  saslContinue: authNotSupported,
  authenticate: authNotSupported,
  logout: () => ({ ok: 1 }),
  startSession,
  refreshSessions: () => ({ ok: 1 }),
  endSessions,
  killSessions: endSessions,
  killAllSessions: (ctx) => {
    ctx.state.sessions.endAll();
    return { ok: 1 };
  },
  replSetGetStatus,
  replSetGetConfig,
  getDefaultRWConcern: () => ({
    defaultReadConcern: { level: 'local' },
    defaultWriteConcern: { w: 1, wtimeout: 0 },
    defaultReadConcernSource: 'implicit',
    defaultWriteConcernSource: 'implicit',
    ok: 1,
  }),
  features: () => ({ oidMachine: 0, ok: 1 }),
};
