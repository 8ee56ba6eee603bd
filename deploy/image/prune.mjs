// The prune step of deploy/Dockerfile: `node deploy/image/prune.mjs <part>...` from the repository root, where a
// part is `gateway` or a service's folder name (`orders`, `email`...). Plain Node, no dependencies: it runs
// in the Dockerfile's prune stage before anything is installed. It writes, relative to the current folder:
//   out/build/{json,full}  `turbo prune --docker` of the parts (+ the three frontends the gateway serves),
//                          plus the root files their build reads that turbo prune leaves out, without
//                          the root devDependencies no build uses;
//   out/runtime/json       the package.json files and lock file of the parts alone, listing as workspaces
//                          only the parts and the workspace packages they need at run time (so a
//                          production install leaves out test helpers such as @shop/test-support);
//   out/carry.txt          the folders whose built `dist` the runtime image carries, one a line.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The frontends the gateway serves from <app>/frontends/<name>/dist (gateway/src/frontends.ts).
const FRONTENDS = ['shell', 'storefront', 'admin'];
// Root files the workspaces' builds read (every tsconfig extends tsconfig.base.json) that `turbo prune`
// does not copy.
const ROOT_BUILD_FILES = ['tsconfig.base.json'];
// Root devDependencies no build uses: the `node` package (the image has Node 24), linters and formatters,
// and helm for the chart tests (aws-cdk-lib alone is 160 MB). The others stay: workspaces build with the
// root's tsc and type declarations (vitest's included, for the test helpers some packages export).
const NOT_FOR_THE_BUILD =
  /^(node|prettier|globals|eslint|@eslint\/.+|eslint-plugin-.+|typescript-eslint|@aws-cdk\/.+)$/;

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

function fail(message) {
  console.error(`prune: ${message}`);
  process.exit(2);
}

/** `gateway` -> gateway, `orders` -> services/orders; services/orders is accepted as is. */
function partFolder(part) {
  if (part === 'gateway' || part.includes('/')) return part;
  return `services/${part}`;
}

function availableParts() {
  return ['gateway', ...readdirSync('services').filter((name) => existsSync(join('services', name, 'package.json')))];
}

function turboPrune(packageNames, outDir) {
  const version = readJson('package.json').devDependencies?.turbo;
  if (!version) fail('the root package.json has no turbo devDependency to take the version from');
  rmSync(outDir, { recursive: true, force: true });
  // The same turbo release as the repository's lock file, fetched by npx (nothing is installed yet).
  const result = spawnSync(
    'npx',
    ['--yes', `turbo@${version}`, 'prune', ...packageNames, '--docker', '--out-dir', outDir],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    },
  );
  if (result.error) fail(`npx turbo prune could not start: ${result.error.message}`);
  if (result.status !== 0) fail(`turbo prune ${packageNames.join(' ')} failed (exit code ${result.status})`);
}

/** Workspace folders of a pruned json/ tree, by package name. */
function workspacesByName(jsonDir) {
  const byName = new Map();
  const walk = (relative) => {
    for (const entry of readdirSync(join(jsonDir, relative), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const folder = relative ? `${relative}/${entry.name}` : entry.name;
      const manifest = join(jsonDir, folder, 'package.json');
      if (existsSync(manifest)) byName.set(readJson(manifest).name, folder);
      else walk(folder);
    }
  };
  walk('');
  return byName;
}

/** The parts' folders and every workspace they reach through dependencies (not devDependencies). */
function productionClosure(jsonDir, partFolders) {
  const byName = workspacesByName(jsonDir);
  const needed = new Set(partFolders);
  const queue = [...partFolders];
  while (queue.length > 0) {
    const manifest = readJson(join(jsonDir, queue.shift(), 'package.json'));
    const names = Object.keys({
      ...manifest.dependencies,
      ...manifest.optionalDependencies,
      ...manifest.peerDependencies,
    });
    for (const name of names) {
      const folder = byName.get(name);
      if (folder && !needed.has(folder)) {
        needed.add(folder);
        queue.push(folder);
      }
    }
  }
  return [...needed].sort();
}

function main(parts) {
  if (parts.length === 0) fail(`name at least one part to build: ${availableParts().join(', ')}`);
  const folders = [...new Set(parts.map(partFolder))];
  for (const folder of folders) {
    if (!existsSync(join(folder, 'package.json'))) {
      fail(`"${folder}" is not a part of the shop; the parts are: ${availableParts().join(', ')}`);
    }
  }
  const names = folders.map((folder) => readJson(join(folder, 'package.json')).name);
  const withGateway = folders.includes('gateway');
  const frontendNames = withGateway
    ? FRONTENDS.map((name) => readJson(join('frontends', name, 'package.json')).name)
    : [];

  turboPrune([...names, ...frontendNames], 'out/build');
  for (const file of ROOT_BUILD_FILES) copyFileSync(file, join('out/build/full', file));
  for (const tree of ['out/build/json', 'out/build/full']) {
    const manifest = join(tree, 'package.json');
    const root = readJson(manifest);
    root.devDependencies = Object.fromEntries(
      Object.entries(root.devDependencies ?? {}).filter(([name]) => !NOT_FOR_THE_BUILD.test(name)),
    );
    writeFileSync(manifest, `${JSON.stringify(root, null, 2)}\n`);
  }

  turboPrune(names, 'out/runtime');
  rmSync('out/runtime/full', { recursive: true, force: true });
  const runtimeJson = 'out/runtime/json';
  const closure = productionClosure(runtimeJson, folders);
  const root = readJson(join(runtimeJson, 'package.json'));
  root.workspaces = closure;
  writeFileSync(join(runtimeJson, 'package.json'), `${JSON.stringify(root, null, 2)}\n`);
  // Workspace manifests nothing needs at run time would only confuse a reader of the image.
  for (const folder of workspacesByName(runtimeJson).values()) {
    if (!closure.includes(folder)) rmSync(join(runtimeJson, folder), { recursive: true, force: true });
  }

  const carry = [...closure, ...(withGateway ? FRONTENDS.map((name) => `frontends/${name}`) : [])];
  writeFileSync('out/carry.txt', `${carry.join('\n')}\n`);
  console.log(`prune: ${folders.join(', ')} -> runtime workspaces ${closure.join(', ')}`);
}

main(
  process.argv
    .slice(2)
    .flatMap((arg) => arg.split(/[\s,]+/))
    .filter(Boolean),
);
