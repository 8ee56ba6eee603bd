#!/usr/bin/env node
// The one entry point behind `npm start | dev | test | bench | faults`. Plain Node with no dependencies: it runs on a
// fresh clone before `npm ci`, installs, builds once (turbo caches), then hands over to the real command.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// The machine's own Node only has to run this file and `npm ci`; everything after the install runs on the
// Node 24 LTS that npm installs from the `node` package into node_modules/.bin (see the README).
export const MIN_NODE = [20, 19, 0];
export const RUNTIME_MAJOR = 24;
const COMMANDS = ['start', 'dev', 'test', 'bench', 'faults'];

/** True when `version` (like "v20.20.2") is at least MIN_NODE. */
export function nodeIsRecentEnough(version = process.version) {
  const parts = version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
  for (let index = 0; index < MIN_NODE.length; index++) {
    if (parts[index] !== MIN_NODE[index]) return parts[index] > MIN_NODE[index];
  }
  return true;
}

/**
 * Why `npm ci` must run, or undefined when the install is current: node_modules is missing, or the lock
 * file changed after the last install (npm writes node_modules/.package-lock.json at the end of an install).
 */
export function installReason(root = ROOT) {
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(join(root, 'node_modules'))) return 'node_modules is missing';
  if (!existsSync(marker)) return 'node_modules has no record of a finished install';
  if (statSync(join(root, 'package-lock.json')).mtimeMs > statSync(marker).mtimeMs) {
    return 'package-lock.json changed since the last install';
  }
  return undefined;
}

/** Runs a command with inherited stdio; resolves with its exit code. Signals are forwarded, not acted on. */
export function run(command, args, options = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    // The terminal delivers Ctrl-C to the child too (same process group); a SIGTERM sent to us alone must
    // reach it. The child decides how to stop; we wait for it and pass on its exit code.
    const forward = (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    const handlers = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => {
      const handler = () => forward(signal);
      process.on(signal, handler);
      return [signal, handler];
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const [name, handler] of handlers) process.off(name, handler);
      resolvePromise(code ?? (signal ? 128 + (signalNumber(signal) ?? 1) : 1));
    });
  });
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal];
}

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

/** The version string of node_modules/.bin/node ("v24.21.0"), or '' when it is missing. */
function runtimeVersion(env) {
  return new Promise((resolvePromise) => {
    const child = spawn(bin('node'), ['--version'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', () => resolvePromise(''));
    child.once('close', () => resolvePromise(out.trim()));
  });
}

async function step(title, command, args, env) {
  const t0 = Date.now();
  console.log(`> ${title}`);
  const code = await run(command, args, { env });
  if (code !== 0) {
    console.error(`${title} failed (exit code ${code})`);
    process.exit(code);
  }
  console.log(`  ${title} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (!COMMANDS.includes(command)) {
    console.error(`usage: node deploy/local/bin/shop.mjs <${COMMANDS.join('|')}> [args...]`);
    process.exit(2);
  }
  if (!nodeIsRecentEnough()) {
    console.error(`Node ${MIN_NODE.join('.')} or newer is needed (this is ${process.version}).`);
    process.exit(1);
  }
  const env = {
    ...process.env,
    TURBO_TELEMETRY_DISABLED: '1',
    DO_NOT_TRACK: '1',
    SHOP_LAUNCHED_AT: process.env.SHOP_LAUNCHED_AT ?? String(Date.now()),
  };

  const reason = process.env.SHOP_SKIP_INSTALL === '1' ? undefined : installReason();
  if (reason) await step(`npm ci (${reason})`, process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci'], env);

  // npm scripts put node_modules/.bin first on PATH; do the same so turbo, vitest and every `#!/usr/bin/env
  // node` child run on the installed Node 24, also when this file is started with plain `node`.
  env.PATH = `${join(ROOT, 'node_modules', '.bin')}${delimiter}${env.PATH ?? ''}`;
  const runtime = await runtimeVersion(env);
  if (!runtime.startsWith(`v${RUNTIME_MAJOR}.`)) {
    console.error(
      `The installed runtime is ${runtime || 'missing'}; node_modules/.bin/node must be Node ${RUNTIME_MAJOR} (run npm ci).`,
    );
    process.exit(1);
  }
  console.log(`> runtime: Node ${runtime} (node_modules/.bin/node)`);

  await step('build (turbo run build)', bin('turbo'), ['run', 'build', '--output-logs=errors-only'], env);

  const tsx = ['--import', 'tsx', join(ROOT, 'deploy/local/src/cli.ts')];
  let code;
  switch (command) {
    case 'start':
    case 'dev':
      code = await run(bin('node'), [...tsx, command], { env });
      break;
    case 'test': {
      // Formatting and lint first (prettier --check ~15 s, ESLint with type information ~100 s): a badly
      // formatted file or a lint error fails CI at once. SHOP_LINT=0 skips ESLint for a quick local run.
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      await step('format check (npm run lint:format)', npm, ['run', 'lint:format'], env);
      if (process.env.SHOP_LINT !== '0') await step('lint (npm run lint:code)', npm, ['run', 'lint:code'], env);
      // The build compiles each package's sources, but not the tests, the frontends (rspack strips types) or
      // the charts: a type error there would land unseen (~2.5 min). SHOP_TYPECHECK=0 skips it locally.
      if (process.env.SHOP_TYPECHECK !== '0')
        await step('typecheck (npm run typecheck)', npm, ['run', 'typecheck'], env);
      // All vitest projects; extra args (a --project, a file filter) pass straight through.
      code = await run(bin('vitest'), ['run', ...rest], { env });
      break;
    }
    case 'bench':
      // Every workspace with a "bench" script (embedded-mongo, load-tests), one after the other.
      code = await run(
        process.platform === 'win32' ? 'npm.cmd' : 'npm',
        ['run', 'bench', '--workspaces', '--if-present', ...(rest.length ? ['--', ...rest] : [])],
        { env },
      );
      break;
    case 'faults':
      // The fault suite (load-tests/src/faults): kills and pauses each part of a running shop under load.
      code = await run(
        process.platform === 'win32' ? 'npm.cmd' : 'npm',
        ['run', 'faults', '-w', 'load-tests', ...(rest.length ? ['--', ...rest] : [])],
        { env },
      );
      break;
  }
  process.exit(code);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
