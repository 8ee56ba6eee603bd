import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionRetryDelayMs } from '@shop/contracts';
import { FRONTENDS, GATEWAY, SERVICES, type FrontendName } from './catalogue.js';
import { ManagedChild, delay, type ChildExit, type LogSink } from './children.js';
import { gatewayEnv, inheritedEnv, securityEnv, serviceEnv, type CommonSettings } from './env.js';
import { prefixedConsole } from './logs.js';
import { LOCAL_NODE_ENV, localNodeFlags } from './node-flags.js';
import { NatsServerMissingError, findNatsServer, startNatsServer, type LocalNats } from './nats.js';
import { PortAllocator } from './ports.js';
import { ChildNotReadyError, probe, waitReady, type ReadinessRow } from './readiness.js';

/** The repository root, three levels above this file (deploy/local/src). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface StackOptions {
  /** Gateway port. Default: a free port; `npm start` passes PORT or 8080. */
  port?: number;
  /** Keeps mongo/ and nats/ here. Default: a temp dir removed by stop() (MongoDB then runs in memory). */
  dataDir?: string;
  /** What the gateway serves (FRONTENDS_DIR). Default `<repo>/frontends`. */
  frontendsDir?: string;
  /** No child output on stdout; the last lines are still kept and shown when a part fails. */
  quiet?: boolean;
  /** 'dev' also starts the three rspack dev servers with hot reload. */
  mode?: 'start' | 'dev';
  /** Use the contract's ports (4101..4107) where they are free, instead of free ports. */
  defaultPorts?: boolean;
  /** Base environment of the children. Default process.env. MONGO_URL / NATS_URL in it are used as is. */
  env?: NodeJS.ProcessEnv;
  /**
   * NODE_ENV of the children. Default 'development': a local run is plain HTTP on loopback with the
   * documented development admin (NODE_ENV=production demands ADMIN_EMAIL/ADMIN_PASSWORD, secure cookies...).
   */
  nodeEnv?: string;
  /** Per part. Default 60 s. */
  readyTimeoutMs?: number;
  /** Where child lines go when not quiet. Default: prefixed lines on stdout. */
  log?: LogSink;
  /** Called when a part exits on its own while the stack runs (it is then restarted, see `restart`). */
  onCrash?: (name: string, exit: ChildExit, lastLines: string[]) => void;
  /**
   * Restart a part that exited on its own (MongoDB, NATS, a service, the gateway), after 1 s, 2 s, 4 s,
   * then every 5 s while it keeps failing (the back-off resets once it stayed up a minute). Default true.
   */
  restart?: boolean;
  /** Called when a crashed part is about to be restarted (`delayMs` from now) and once it was spawned again. */
  onRestart?: (event: RestartEvent) => void;
  /** Messages the development mailbox keeps (default 1000); the fault suite reads many more. */
  mailboxMaxMessages?: number;
  /**
   * Extra Node.js flags for every Node process of the stack (the services, the gateway, the embedded
   * MongoDB), after the runner's own: e.g. `--inspect=127.0.0.1:0` to read a part's heap while it runs.
   */
  nodeArgs?: string[];
  /**
   * The runner's own memory settings for its Node processes (node-flags.ts: young-generation caps,
   * MALLOC_ARENA_MAX). Default true; false starts them with Node's defaults (to compare).
   */
  localNodeFlags?: boolean;
  repoRoot?: string;
}

export interface RestartEvent {
  name: string;
  /** 'scheduled' when the exit was seen, 'restarted' once the new process was spawned. */
  phase: 'scheduled' | 'restarted';
  /** Consecutive restarts of this part (1 for the first). */
  attempt: number;
  delayMs: number;
  /** The new process id ('restarted' only). */
  pid?: number;
  at: number;
}

export interface Stack {
  /** The gateway, e.g. http://127.0.0.1:8080 */
  url: string;
  /** Each service's own base URL, by name. */
  services: Record<string, string>;
  /** Dev servers by app name (dev mode only). */
  frontends: Partial<Record<FrontendName, string>>;
  mongoUrl: string;
  natsUrl: string;
  /** The development mailbox (SMTP + HTTP API), started when SMTP_URL is not set. */
  mailbox?: { smtpUrl: string; httpUrl: string };
  /** Whether MongoDB and NATS were started here or given through MONGO_URL / NATS_URL. */
  infrastructure: { mongo: 'embedded' | 'external'; nats: 'started' | 'external' };
  readiness: ReadinessRow[];
  /** Processes still running, for tests and diagnostics. */
  children(): ManagedChild[];
  /** The running process of one part (mongodb when embedded, nats when started, a service, gateway). */
  child(name: string): ManagedChild | undefined;
  /** Stops everything this stack started (process groups), waits for it, removes a temp data dir. */
  stop(): Promise<void>;
}

/** Dev-server ports, as fixed in packages/ui/build/rspack-app.ts (devPorts). */
export const DEV_SERVER_PORTS: Record<FrontendName, number> = { shell: 3000, storefront: 3001, admin: 3002 };

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const startedAt = Date.now();
  const repo = options.repoRoot ?? REPO_ROOT;
  const parentEnv = options.env ?? process.env;
  const mode = options.mode ?? 'start';
  const timeoutMs = options.readyTimeoutMs ?? 60_000;
  const frontendsDir = resolve(options.frontendsDir ?? join(repo, 'frontends'));
  const ports = new PortAllocator();
  const preferred = (port: number) => (options.defaultPorts ? port : undefined);
  const log = options.quiet ? undefined : (options.log ?? defaultSink());
  const tuned = options.localNodeFlags !== false;
  const flagsOf = (kind: 'service' | 'mongodb') => [
    ...(tuned ? localNodeFlags(kind) : []),
    ...(options.nodeArgs ?? []),
  ];
  // What the user exported wins (MALLOC_ARENA_MAX=8 npm start).
  const memoryEnv = tuned
    ? Object.fromEntries(Object.entries(LOCAL_NODE_ENV).filter(([key]) => parentEnv[key] === undefined))
    : {};

  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ? resolve(options.dataDir) : mkdtempSync(join(tmpdir(), 'shop-stack-'));
  mkdirSync(dataDir, { recursive: true });

  const started: ManagedChild[] = [];
  let stopMailbox: (() => Promise<void>) | undefined;
  let stopped = false;
  // A part failing while the stack starts is reported by the error startStack throws; onCrash is for
  // parts that die once everything was ready.
  let running = false;
  // Last resort if the runner dies without stop(): children live in their own groups and would linger.
  const killAllNow = () => started.forEach((child) => child.running && child.killNow());
  const restartTimers = new Set<NodeJS.Timeout>();
  process.on('exit', killAllNow);

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const timer of restartTimers) clearTimeout(timer);
    // Outside in: the door first, then the services, then what they depend on.
    const order = [
      started.filter((child) => FRONTENDS.includes(child.name as FrontendName)),
      started.filter((child) => child.name === GATEWAY.name),
      started.filter((child) => SERVICES.some((service) => service.name === child.name)),
      started.filter((child) => child.name === 'nats'),
      started.filter((child) => child.name === 'mongodb'),
    ];
    for (const group of order) await Promise.all(group.map((child) => child.stop()));
    if (stopMailbox) await stopMailbox();
    process.off('exit', killAllNow);
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  /**
   * Keeps a part running: an exit nobody asked for (not stop()) is reported through onCrash and, once
   * the stack was ready, the part is spawned again with back-off (1 s, 2 s, 4 s, then 5 s: the same
   * delays as the production check's retries), and the runner says so in the part's log.
   */
  const supervise = (first: ManagedChild, respawn: () => ManagedChild | Promise<ManagedChild>): ManagedChild => {
    let attempt = 0;
    let upSince = Date.now();
    const restartLater = (name: string, why: string) => {
      // A part that ran a minute before it failed starts again quickly; one failing at once backs off.
      if (Date.now() - upSince > 60_000) attempt = 0;
      attempt += 1;
      const delayMs = productionRetryDelayMs(attempt);
      log?.(
        name,
        `runner: ${name} ${why}; restarting it in ${(delayMs / 1000).toFixed(1)} s (restart ${attempt})`,
        'stderr',
      );
      options.onRestart?.({ name, phase: 'scheduled', attempt, delayMs, at: Date.now() });
      const restart = async () => {
        restartTimers.delete(timer);
        if (stopped) return;
        let next: ManagedChild;
        try {
          next = await respawn();
        } catch (error) {
          restartLater(name, `could not be started again (${error instanceof Error ? error.message : String(error)})`);
          return;
        }
        if (stopped) {
          await next.stop();
          return;
        }
        upSince = Date.now();
        watch(next);
        log?.(name, `runner: ${name} restarted (pid ${next.pid})`, 'stderr');
        options.onRestart?.({ name, phase: 'restarted', attempt, delayMs, pid: next.pid, at: Date.now() });
      };
      const timer = setTimeout(() => void restart(), delayMs);
      restartTimers.add(timer);
    };
    const watch = (child: ManagedChild) => {
      started.push(child);
      void child.exited.then((exit) => {
        if (!running || child.isStopping || stopped) return;
        options.onCrash?.(child.name, exit, child.recentLines());
        started.splice(started.indexOf(child), 1);
        // What the crashed process left behind in its group (an npm script's child) goes with it.
        child.killNow();
        if (options.restart !== false)
          restartLater(child.name, `exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`})`);
      });
    };
    watch(first);
    return first;
  };

  try {
    // Both at once; whichever started is stopped again if the other fails.
    const [mongoResult, natsResult] = await Promise.allSettled([
      startMongo(
        parentEnv,
        repo,
        ownsDataDir ? undefined : join(dataDir, 'mongo'),
        preferred(27017),
        ports,
        log,
        flagsOf('mongodb'),
        memoryEnv,
      ),
      startNats(parentEnv, join(dataDir, 'nats'), repo, ports, log),
    ]);
    // Started before the stack runs, so stop() reaches them even when the other one failed.
    for (const result of [mongoResult, natsResult])
      if (result.status === 'fulfilled' && result.value.child) started.push(result.value.child);
    if (mongoResult.status === 'rejected') throw mongoResult.reason;
    if (natsResult.status === 'rejected') throw natsResult.reason;
    const mongo = mongoResult.value;
    const nats = natsResult.value;
    for (const infra of [mongo, nats]) {
      if (!infra.child || !infra.respawn) continue;
      started.splice(started.indexOf(infra.child), 1);
      supervise(infra.child, infra.respawn);
    }

    // Without a real SMTP server, mail goes to the development mailbox, readable through the email
    // service's /api/debug/mailbox (it reads the mailbox's HTTP API at DEV_MAILBOX_URL).
    const mailbox = parentEnv.SMTP_URL ? undefined : await startMailbox(ports, preferred, options.mailboxMaxMessages);
    stopMailbox = mailbox?.stop;
    const extraEnv: Record<string, Record<string, string>> = mailbox
      ? { email: { SMTP_URL: mailbox.smtpUrl, DEV_MAILBOX_URL: mailbox.httpUrl } }
      : {};

    const common: CommonSettings = {
      mongoUrl: mongo.url,
      natsUrl: nats.url,
      nodeEnv: options.nodeEnv ?? 'development',
    };
    const serviceUrls: Record<string, string> = {};
    const servicePorts: Record<string, number> = {};
    for (const service of SERVICES) {
      servicePorts[service.name] = await ports.take(preferred(service.port));
      serviceUrls[service.name] = `http://127.0.0.1:${servicePorts[service.name]}`;
    }
    const gatewayPort =
      options.port === undefined || options.port === 0
        ? await ports.take()
        : await ports.takeExactly(options.port, 'the gateway');
    const url = `http://127.0.0.1:${gatewayPort}`;

    const frontends: Partial<Record<FrontendName, string>> = {};
    if (mode === 'dev') {
      // The ports are fixed in packages/ui/build/rspack-app.ts (the shell finds the remotes' dev manifests
      // there), so they must be free; the shell's dev server proxies /api to GATEWAY_URL.
      for (const app of FRONTENDS) {
        const port = await ports.takeExactly(DEV_SERVER_PORTS[app], `the ${app} dev server`);
        frontends[app] = `http://localhost:${port}`;
      }
    }

    const spawnService = (service: (typeof SERVICES)[number]) =>
      new ManagedChild({
        name: service.name,
        command: process.execPath,
        args: [...flagsOf('service'), 'dist/main.js'],
        cwd: join(repo, service.dir),
        env: {
          ...memoryEnv,
          ...serviceEnv(parentEnv, common, servicePorts[service.name]),
          ...(service.name === 'security' ? securityEnv(parentEnv, common.nodeEnv) : {}),
          ...extraEnv[service.name],
        },
        log,
      });
    const spawnGateway = () =>
      new ManagedChild({
        name: GATEWAY.name,
        command: process.execPath,
        args: [...flagsOf('service'), 'dist/main.js'],
        cwd: join(repo, GATEWAY.dir),
        env: { ...memoryEnv, ...gatewayEnv(parentEnv, common, gatewayPort, serviceUrls, frontendsDir) },
        log,
      });
    const serviceChildren = SERVICES.map((service) => supervise(spawnService(service), () => spawnService(service)));
    const gateway = supervise(spawnGateway(), spawnGateway);

    const readiness: ReadinessRow[] = [
      {
        name: 'mongodb',
        url: redactUrl(mongo.url),
        status: 'ready',
        readyAfterMs: mongo.readyAfterMs,
        detail: mongo.kind,
      },
      { name: 'nats', url: nats.url, status: 'ready', readyAfterMs: nats.readyAfterMs, detail: nats.kind },
      ...(mailbox
        ? [{ name: 'mailbox', url: mailbox.smtpUrl, status: 'ready' as const, readyAfterMs: mailbox.readyAfterMs }]
        : []),
    ];
    const backendRows = await Promise.all([
      ...serviceChildren.map((child) => waitReady(child, serviceUrls[child.name], { timeoutMs, startedAt })),
      waitReady(gateway, url, { timeoutMs, startedAt }),
    ]);
    readiness.push(...backendRows);

    if (mode === 'dev') {
      const spawnDevServer = (app: FrontendName) =>
        new ManagedChild({
          name: app,
          command: process.execPath,
          args: [npmCli(), 'run', 'dev', '-w', `frontends/${app}`],
          cwd: repo,
          env: { ...inheritedEnv(parentEnv), NODE_ENV: 'development', GATEWAY_URL: url },
          log,
        });
      const devChildren = FRONTENDS.map((app) => supervise(spawnDevServer(app), () => spawnDevServer(app)));
      const devRows = await Promise.all(
        devChildren.map((child) =>
          waitAnswering(child, frontends[child.name as FrontendName]!, timeoutMs * 2, startedAt),
        ),
      );
      readiness.push(...devRows);
    }

    running = true;
    return {
      url,
      services: serviceUrls,
      frontends,
      mongoUrl: mongo.url,
      natsUrl: nats.url,
      mailbox: mailbox && { smtpUrl: mailbox.smtpUrl, httpUrl: mailbox.httpUrl },
      infrastructure: { mongo: mongo.kind, nats: nats.kind },
      readiness,
      children: () => started.filter((child) => child.running),
      child: (name) => started.find((child) => child.name === name && child.running),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function defaultSink(): LogSink {
  return prefixedConsole(['mongodb', 'nats', ...SERVICES.map((service) => service.name), GATEWAY.name, ...FRONTENDS]);
}

interface Infra {
  url: string;
  kind: 'embedded' | 'external' | 'started';
  readyAfterMs: number;
  /** The process the runner started (none for an external server), and how to start it again. */
  child?: ManagedChild;
  respawn?: () => Promise<ManagedChild>;
}

/**
 * MONGO_URL when set (a real MongoDB); else our embedded server as a one-member replica set, in its own
 * process (`embedded-mongo` from @shop/embedded-mongo) so that it can fail, and be restarted, on its own.
 */
async function startMongo(
  env: NodeJS.ProcessEnv,
  repo: string,
  dbPath: string | undefined,
  preferredPort: number | undefined,
  ports: PortAllocator,
  log: LogSink | undefined,
  nodeArgs: string[],
  memoryEnv: Record<string, string>,
): Promise<Infra & { kind: 'embedded' | 'external' }> {
  const t0 = Date.now();
  if (env.MONGO_URL) return { url: env.MONGO_URL, kind: 'external', readyAfterMs: 0 };
  if (dbPath) mkdirSync(dbPath, { recursive: true });
  const port = await ports.take(preferredPort);
  const args = [
    ...nodeArgs,
    join(repo, 'packages/embedded-mongo/bin/embedded-mongo.mjs'),
    '--port',
    String(port),
    '--replset',
    'rs0',
  ];
  if (dbPath) args.push('--dbpath', dbPath);
  const spawnMongo = async () => {
    let url: string | undefined;
    const child = new ManagedChild({
      name: 'mongodb',
      command: process.execPath,
      args,
      cwd: repo,
      env: { PATH: env.PATH ?? '', ...memoryEnv },
      log: (name, line, stream) => {
        url ??= /ready: (mongodb:\/\/\S+)/.exec(line)?.[1];
        log?.(name, line, stream);
      },
    });
    // Replaying a long journal takes a while; the server prints `ready: <uri>` once it accepts clients.
    const deadline = Date.now() + 60_000;
    while (!url) {
      if (!child.running || Date.now() > deadline) {
        await child.stop();
        throw new Error(`the embedded MongoDB did not start:\n${child.recentLines().join('\n')}`);
      }
      await delay(50);
    }
    return { child, url };
  };
  const { child, url } = await spawnMongo();
  return {
    url,
    kind: 'embedded',
    readyAfterMs: Date.now() - t0,
    child,
    respawn: async () => (await spawnMongo()).child,
  };
}

/** The development mailbox on 2525 (SMTP) and 2526 (HTTP) when free and wanted, else free ports. */
async function startMailbox(
  ports: PortAllocator,
  preferred: (port: number) => number | undefined,
  maxMessages?: number,
) {
  const t0 = Date.now();
  const { startDevMailbox } = await import('@shop/dev-mailbox');
  const mailbox = await startDevMailbox({
    smtpPort: await ports.take(preferred(2525)),
    httpPort: await ports.take(preferred(2526)),
    maxMessages,
  });
  return {
    smtpUrl: mailbox.smtpUrl,
    httpUrl: mailbox.httpUrl,
    stop: () => mailbox.stop(),
    readyAfterMs: Date.now() - t0,
  };
}

/** NATS_URL when set; else nats-server -js from PATH on a free port (4222 is usually someone else's). */
async function startNats(
  env: NodeJS.ProcessEnv,
  storeDir: string,
  repo: string,
  ports: PortAllocator,
  log: LogSink | undefined,
): Promise<Infra & { kind: 'started' | 'external' }> {
  const t0 = Date.now();
  if (env.NATS_URL) return { url: env.NATS_URL, kind: 'external', readyAfterMs: 0 };
  const binary = findNatsServer(env);
  if (!binary) throw new NatsServerMissingError();
  const port = await ports.take();
  // nats-server prints a 20-line banner at start: show only its warnings and errors (all lines are still
  // kept for the error report when it fails).
  const natsLog: LogSink | undefined =
    log && ((name, line, stream) => /\[(WRN|ERR|FTL)\]/.test(line) && log(name, line, stream));
  const spawnNats = (): Promise<LocalNats> => startNatsServer({ binary, port, storeDir, cwd: repo, log: natsLog });
  const nats = await spawnNats();
  return {
    url: nats.url,
    kind: 'started',
    readyAfterMs: Date.now() - t0,
    child: nats.child,
    respawn: async () => (await spawnNats()).child,
  };
}

/** A dev server is up once it answers anything over HTTP. */
async function waitAnswering(
  child: ManagedChild,
  base: string,
  timeoutMs: number,
  startedAt: number,
): Promise<ReadinessRow> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!child.running)
      throw new ChildNotReadyError(
        child.name,
        `${child.name} dev server exited before it answered`,
        child.recentLines(),
      );
    if (await probe(base + '/'))
      return { name: child.name, url: base, status: 'ready', readyAfterMs: Date.now() - startedAt };
    await delay(300);
  }
  throw new ChildNotReadyError(child.name, `${child.name} dev server did not answer on ${base}`, child.recentLines());
}

/**
 * npm's own CLI script, so no shell and no npx are involved: the one running us, the one next to this node
 * binary, or (the Node 24 runtime from node_modules has no npm beside it) the machine's npm on PATH.
 */
function npmCli(): string {
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .map((folder) => join(folder, 'npm'))
    .find((path) => existsSync(path));
  const candidates = [
    process.env.npm_execpath,
    join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js'),
    onPath && realpathSync(onPath),
  ].filter((path): path is string => Boolean(path && path.endsWith('.js') && existsSync(path)));
  if (!candidates.length) throw new Error('cannot find npm next to ' + process.execPath);
  return candidates[0];
}

/** Hides a password in a connection string before it is printed. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@/]+)@/, '//$1:***@');
}
