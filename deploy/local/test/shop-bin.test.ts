import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installReason, nodeIsRecentEnough, run } from '../bin/shop.mjs';

const root = mkdtempSync(join(tmpdir(), 'shop-bin-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('bin/shop.mjs', () => {
  it('accepts Node 20.19 and newer only', () => {
    expect(nodeIsRecentEnough('v20.19.0')).toBe(true); // enough to bootstrap: the runtime is Node 24 from node_modules;
    expect(nodeIsRecentEnough('v20.20.2')).toBe(true);
    expect(nodeIsRecentEnough('v22.1.0')).toBe(true);
    expect(nodeIsRecentEnough('v20.18.3')).toBe(false);
    expect(nodeIsRecentEnough('v18.20.0')).toBe(false);
  });

  it('installs when node_modules is missing or older than the lock file', () => {
    writeFileSync(join(root, 'package-lock.json'), '{}');
    expect(installReason(root)).toBe('node_modules is missing');
    mkdirSync(join(root, 'node_modules'));
    expect(installReason(root)).toBe('node_modules has no record of a finished install');
    const marker = join(root, 'node_modules', '.package-lock.json');
    writeFileSync(marker, '{}');
    const now = Date.now() / 1000;
    utimesSync(join(root, 'package-lock.json'), now - 100, now - 100);
    utimesSync(marker, now - 50, now - 50);
    expect(installReason(root)).toBeUndefined();
    utimesSync(join(root, 'package-lock.json'), now, now);
    expect(installReason(root)).toBe('package-lock.json changed since the last install');
  });

  it('passes a failing exit code on', async () => {
    expect(await run(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' })).toBe(3);
    expect(await run(process.execPath, ['-e', ''], { stdio: 'ignore' })).toBe(0);
  });
});
