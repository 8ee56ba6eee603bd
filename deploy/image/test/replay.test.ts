// deploy/Dockerfile without a Docker engine: its stages are read from the file and replayed in a temporary
// folder (prune, npm ci, build, production install, runtime layout), then the gateway and the orders service
// are started from the replayed runtime stage on a real nats-server and the embedded MongoDB.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve, sep } from 'node:path';
import { ManagedChild, freePort, waitReady } from '@shop/local';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RunFailedError,
  dockerignoreMatcher,
  readDockerfile,
  replay,
  startCommand,
  type ReplayedStage,
} from './dockerfile.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const DOCKERFILE = join(ROOT, 'deploy/Dockerfile');
const DOCKERIGNORE = join(ROOT, 'deploy/Dockerfile.dockerignore');
const dockerfile = readDockerfile(DOCKERFILE);
const finalStage = dockerfile.stages.at(-1)!;
const finalValue = (keyword: string) =>
  finalStage.instructions.filter((instruction) => instruction.keyword === keyword).at(-1)?.args;
const NPM_FETCH_FAILED =
  /npm error (code|errno) (ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|ECONNRESET|ENETUNREACH|EHOSTUNREACH)|FetchError/;
// The gateway and one service: enough to exercise the gateway-only steps (frontends) and a service's.
const PARTS = 'gateway orders';

/** Node 24, the image's runtime: this process when it is Node 24, else the one npm installed for the repo. */
function node24(): string {
  return process.version.startsWith('v24.') ? process.execPath : realpathSync(join(ROOT, 'node_modules/.bin/node'));
}

/**
 * PATH for the replay: Node 24 first, then the machine's tools (sh, cp, find, npm), without any
 * node_modules/.bin of the repository, so a RUN step cannot lean on a tool the image would not have.
 */
function replayPath(binDir: string): string {
  const inherited = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => entry !== '' && !entry.includes(`${sep}node_modules${sep}.bin`));
  return [binDir, ...inherited].join(delimiter);
}

function passThrough(names: string[]): Record<string, string> {
  return Object.fromEntries(names.filter((name) => process.env[name]).map((name) => [name, process.env[name]!]));
}

/**
 * The turbo cache for the replayed build, kept between runs under node_modules/.cache. Its name hashes
 * the Dockerfile and the root files the build reads outside turbo's own hashing, so a change to them
 * builds from scratch and the replay proves the new recipe; unchanged, unchanged packages come from cache.
 */
function turboCacheDir(): string {
  const inputs = [
    'deploy/Dockerfile',
    'deploy/Dockerfile.dockerignore',
    'deploy/image/prune.mjs',
    'tsconfig.base.json',
    'turbo.json',
  ];
  const hash = createHash('sha256');
  for (const file of inputs) hash.update(file).update(readFileSync(join(ROOT, file)));
  const key = hash.digest('hex').slice(0, 16);
  const parent = join(ROOT, 'node_modules/.cache/shop-image-replay');
  mkdirSync(parent, { recursive: true });
  for (const old of readdirSync(parent)) if (old !== key) rmSync(join(parent, old), { recursive: true, force: true });
  // Entries of sources long since changed are never read again: drop those older than two days.
  const folder = join(parent, key);
  mkdirSync(folder, { recursive: true });
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (Date.now() - statSync(path).mtimeMs > 2 * 24 * 3600_000) rmSync(path, { force: true });
  }
  return folder;
}

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number; output: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => resolvePromise({ code: 127, output: error.message }));
    child.once('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}

/** Files under `folder`, relative, not descending into node_modules. */
function filesOutsideNodeModules(folder: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(folder, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.name === 'node_modules') continue;
    if (entry.isDirectory()) files.push(...filesOutsideNodeModules(folder, path));
    else files.push(path);
  }
  return files;
}

describe('deploy/Dockerfile as written', () => {
  it('runs the last stage on the Node 24 image, as a non-root user, through the part chooser', () => {
    expect(finalStage.from).toMatch(/^node:24([.-]|$)/);
    const user = finalValue('USER');
    expect(user, 'the runtime stage sets USER').toBeDefined();
    expect(user!.split(':')[0]).not.toMatch(/^(0|root)$/);
    expect(JSON.parse(finalValue('ENTRYPOINT') ?? '[]')).toEqual(['sh', '/app/start.sh']);
  });

  it('sends sources to the build but keeps installs, builds, data and git out of the context', () => {
    const ignored = dockerignoreMatcher(readFileSync(DOCKERIGNORE, 'utf8'));
    for (const path of [
      'node_modules',
      'node_modules/fastify/package.json',
      'services/orders/node_modules/.bin/x',
      'gateway/dist/main.js',
      '.git/HEAD',
      '.turbo/cache/x.tar.zst',
      '.data/mongo/journal',
      'deploy/local/.data/x',
      '.env',
      'services/orders/.env.local',
      'frontends/e2e/artifacts/shot.png',
    ]) {
      expect(ignored(path), path).toBe(true);
    }
    for (const path of [
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
      'turbo.json',
      'services/orders/src/main.ts',
      'deploy/image/prune.mjs',
      'deploy/image/start.sh',
    ]) {
      expect(ignored(path), path).toBe(false);
    }
  });
});

describe(`deploy/Dockerfile replayed without Docker (SHOP_PARTS="${PARTS}")`, () => {
  const workDir = mkdtempSync(join(tmpdir(), 'shop-image-replay-'));
  const binDir = join(workDir, 'bin');
  mkdirSync(binDir);
  symlinkSync(node24(), join(binDir, 'node'));
  const baseEnv: Record<string, string> = {
    PATH: replayPath(binDir),
    HOME: process.env.HOME ?? workDir,
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    // Packages come from the npm cache when it has them; the registry is asked only for what is missing.
    npm_config_prefer_offline: 'true',
    // Retries stay on, but an unreachable registry is given up on in seconds instead of over a minute.
    npm_config_fetch_retry_maxtimeout: '10000',
    TURBO_CACHE_DIR: turboCacheDir(),
    ...passThrough([
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'NO_PROXY',
      'http_proxy',
      'https_proxy',
      'no_proxy',
      'npm_config_registry',
      'NPM_CONFIG_REGISTRY',
      'npm_config_cache',
      // The build machine's certificate authorities (a registry behind a TLS-inspecting proxy), as a
      // Docker build would get them from its base image or build secrets.
      'NODE_EXTRA_CA_CERTS',
      'npm_config_cafile',
      'NPM_CONFIG_CAFILE',
      'SSL_CERT_FILE',
    ]),
  };
  let image: ReplayedStage | undefined;
  let skipReason: string | undefined;
  const timings: string[] = [];

  beforeAll(async () => {
    const started = Date.now();
    try {
      image = await replay({
        dockerfile,
        context: ROOT,
        dockerignore: readFileSync(DOCKERIGNORE, 'utf8'),
        workDir: join(workDir, 'stages'),
        buildArgs: { SHOP_PARTS: PARTS },
        baseEnv,
        onStep: ({ stage, command, ms, output }) => {
          const cached = /Cached:\s+(\d+ cached, \d+ total)/.exec(output)?.[1];
          timings.push(
            `${stage}: ${command.split(';')[0].slice(0, 60)} ${(ms / 1000).toFixed(1)} s${cached ? ` (${cached})` : ''}`,
          );
        },
      });
    } catch (error) {
      // npm (or npx) failed to fetch: skip only when the registry itself does not answer.
      if (error instanceof RunFailedError && NPM_FETCH_FAILED.test(error.output)) {
        const ping = await run('npm', ['ping', '--fetch-retries=1'], baseEnv, 40_000);
        if (ping.code !== 0) {
          const lines = ping.output.trim().split('\n');
          const why = lines.find((line) => /npm error (code|errno)|timed out/i.test(line)) ?? lines.at(-1);
          skipReason = `the npm registry cannot be reached (npm ping: ${why}), so "${error.command}" could not install what it needs`;
          console.warn(`image replay skipped: ${skipReason}`);
          return;
        }
      }
      throw error;
    }
    const size = await run('du', ['-sm', join(image.root, image.workdir)], baseEnv, 30_000);
    console.log(
      `image replay in ${((Date.now() - started) / 1000).toFixed(1)} s, runtime /app ${size.output.split(/\s/)[0]} MB:\n  ${timings.join('\n  ')}`,
    );
  }, 900_000);

  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('carries the built parts and their production dependencies, and no sources, tests or dev tools', ({ skip }) => {
    if (skipReason) skip(skipReason);
    const app = join(image!.root, image!.workdir);
    expect(image!.workdir).toBe('/app');

    for (const file of [
      'start.sh',
      'gateway/dist/main.js',
      'services/orders/dist/main.js',
      'packages/service-kit/dist/index.js',
      'packages/contracts/dist/index.js',
      'frontends/shell/dist/index.html',
      'frontends/storefront/dist/mf-manifest.json',
      'frontends/admin/dist/mf-manifest.json',
    ]) {
      expect(existsSync(join(app, file)), file).toBe(true);
    }
    // Only built output, manifests and the entry point outside node_modules: no TypeScript, no tests.
    const stray = filesOutsideNodeModules(app).filter(
      (file) =>
        !/^(package\.json|package-lock\.json|\.npmrc|start\.sh)$/.test(file) &&
        !/^[^/]+(\/[^/]+)?\/(package\.json|dist\/.+)$/.test(file),
    );
    expect(stray).toEqual([]);
    expect(
      filesOutsideNodeModules(app).filter(
        (file) => /\.(ts|tsx|mts|cts)$/.test(file) || /(^|\/)(src|test)\//.test(file),
      ),
    ).toEqual([]);

    for (const runtime of [
      'fastify',
      'mongoose',
      '@nats-io/transport-node',
      '@shop/service-kit',
      '@shop/contracts',
      '@shop/gateway',
      '@shop/orders-service',
    ]) {
      expect(existsSync(join(app, 'node_modules', runtime, 'package.json')), runtime).toBe(true);
    }
    // Dev tools, the frontends' libraries (only their built files are served) and the test helpers stay out,
    // and so does the `node` package: the image's own Node 24 runs everything.
    for (const devOnly of [
      'node',
      'typescript',
      'vitest',
      'turbo',
      'tsx',
      '@rspack/core',
      'react',
      'react-dom',
      'mailparser',
      'smtp-server',
      '@shop/test-support',
      '@shop/dev-mailbox',
      '@shop/embedded-mongo',
      '@shop/ui',
      '@shop/shell',
    ]) {
      expect(existsSync(join(app, 'node_modules', devOnly)), devOnly).toBe(false);
    }
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/.package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    // npm's record of what it installed (the workspace folders' own entries aside): nothing marked dev.
    const devInstalled = Object.entries(installed.packages).filter(
      ([path, entry]) => path.includes('node_modules/') && entry.dev,
    );
    expect(devInstalled.map(([path]) => path)).toEqual([]);
  });

  describe('started from the runtime stage', () => {
    let nats: StartedNats | undefined;
    let mongo: StartedMongo | undefined;
    const children: ManagedChild[] = [];

    afterAll(async () => {
      for (const child of children) await child.stop(10_000);
      await nats?.stop();
      await mongo?.stop();
    }, 60_000);

    const containerEnv = (extra: Record<string, string>) => ({
      PATH: baseEnv.PATH,
      HOME: workDir,
      TMPDIR: tmpdir(),
      ...image!.env,
      // Loopback only here; the image listens on 0.0.0.0 in a cluster.
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...extra,
    });

    it('starts orders (by SHOP_PART) and the gateway (by argument); both answer /readyz and stop cleanly on SIGTERM', async ({
      skip,
    }) => {
      if (skipReason) skip(skipReason);
      [nats, mongo] = await Promise.all([startNats(), startMongo()]);
      const signingKey = randomBytes(32).toString('base64url');
      const common = { NATS_URL: nats.url, MONGO_URL: mongo.uri, GATEWAY_SIGNING_KEY: signingKey };
      const [ordersPort, gatewayPort] = [await freePort(), await freePort()];
      const startedAt = Date.now();

      const orders = new ManagedChild({
        name: 'orders',
        ...startCommand(image!),
        env: containerEnv({ ...common, PORT: String(ordersPort), SHOP_PART: 'orders' }),
      });
      children.push(orders);
      const ordersUrl = `http://127.0.0.1:${ordersPort}`;
      const gateway = new ManagedChild({
        name: 'gateway',
        ...startCommand(image!, ['gateway']),
        env: containerEnv({ ...common, PORT: String(gatewayPort), ORDERS_URL: ordersUrl }),
      });
      children.push(gateway);
      const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;

      await waitReady(orders, ordersUrl, { timeoutMs: 60_000, startedAt });
      await waitReady(gateway, gatewayUrl, { timeoutMs: 60_000, startedAt });

      // The gateway reaches the orders service it was pointed at, and serves the built shell.
      const health = (await (await fetch(`${gatewayUrl}/api/health`)).json()) as {
        services: Record<string, { status: string }>;
      };
      expect(health.services.orders?.status).toBe('ready');
      const page = await fetch(`${gatewayUrl}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);

      // `sh start.sh` execs Node, so the pid the container runtime signals is the part itself.
      for (const child of [gateway, orders]) {
        const exit = await child.stop(15_000);
        expect(exit, `${child.name}: ${child.recentLines().join('\n')}`).toEqual({ code: 0, signal: null });
      }
    });

    it('refuses a part the image does not hold, naming the ones it does', async ({ skip }) => {
      if (skipReason) skip(skipReason);
      const { command, args, cwd } = startCommand(image!, ['payments']);
      const child = new ManagedChild({ name: 'payments', command, args, cwd, env: containerEnv({}) });
      const exit = await child.exited;
      expect(exit.code).toBe(64);
      expect(child.recentLines().join('\n')).toContain('"payments" is not in this image; it holds: gateway orders');
    });
  });
});
