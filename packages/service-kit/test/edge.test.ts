// The kit's edge entry point (what the gateway imports) must not load mongoose: each entry point is
// imported in a fresh Node process, which then counts the mongoose and mongodb modules it has loaded.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('../', import.meta.url));
const countLoaded = `
const { createRequire } = await import('node:module');
await import(process.argv[1]);
const cache = createRequire(process.cwd() + '/').cache;
console.log(Object.keys(cache).filter((path) => /node_modules\\/(mongoose|mongodb)\\//.test(path)).length);`;

async function databaseModulesLoadedBy(entry: string): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', '--input-type=module', '--eval', countLoaded, entry],
    { cwd: packageDir },
  );
  return Number(stdout.trim());
}

it('loads no mongoose through @shop/service-kit/edge, while the index does', async () => {
  const [edge, index] = await Promise.all([
    databaseModulesLoadedBy('@shop/service-kit/edge'),
    databaseModulesLoadedBy('@shop/service-kit'),
  ]);
  expect(edge).toBe(0);
  expect(index).toBeGreaterThan(0);
}, 60_000);
