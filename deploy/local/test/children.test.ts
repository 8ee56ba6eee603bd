import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManagedChild, delay, groupAlive } from '../src/children.ts';
import { formatLine } from '../src/logs.ts';

const dir = mkdtempSync(join(tmpdir(), 'shop-children-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor<T>(read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = read();
    if (value !== undefined) return value;
    await delay(50);
  }
  throw new Error('timed out');
}

describe('a managed child', () => {
  it('runs in its own process group and stop() ends the group, grandchildren included', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    // The child starts a grandchild that would outlive it, like `npm run dev` starting rspack.
    const script = `
      const { spawn } = require('node:child_process');
      const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(g.pid));
      console.log('started');
      setInterval(() => {}, 1000);`;
    const lines: string[] = [];
    const child = new ManagedChild({
      name: 'parent',
      command: process.execPath,
      args: ['-e', script],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      log: (_name, line) => lines.push(line),
    });
    const grandchild = await waitFor(() => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined));
    await waitFor(() => (lines.includes('started') ? true : undefined));
    expect(alive(grandchild)).toBe(true);
    expect(groupAlive(child.pid!)).toBe(true);
    // The child leads its own group, separate from ours: Ctrl-C on the terminal does not reach it.
    expect(child.pid).not.toBe(process.pid);

    const exit = await child.stop();
    expect(exit.signal).toBe('SIGTERM');
    expect(child.running).toBe(false);
    expect(groupAlive(child.pid!)).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });

  it('kills a child that ignores SIGTERM once the grace period is over', async () => {
    const child = new ManagedChild({
      name: 'stubborn',
      command: process.execPath,
      args: [
        '-e',
        "process.on('SIGTERM', () => console.log('ignoring')); console.log('up'); setInterval(() => {}, 1000)",
      ],
      cwd: dir,
      env: {},
    });
    await waitFor(() => (child.recentLines().includes('up') ? true : undefined));
    const exit = await child.stop(500);
    expect(exit.signal).toBe('SIGKILL');
    expect(child.recentLines()).toContain('ignoring');
    expect(groupAlive(child.pid!)).toBe(false);
  });

  it('reports a command that cannot start instead of hanging', async () => {
    const child = new ManagedChild({
      name: 'ghost',
      command: join(dir, 'no-such-binary'),
      args: [],
      cwd: dir,
      env: {},
    });
    const exit = await child.exited;
    expect(exit.code).toBe(127);
    expect(child.recentLines().join('\n')).toMatch(/could not start: .*ENOENT/);
  });
});

describe('log lines', () => {
  it('turns a pino line into level, message and fields', () => {
    const line = JSON.stringify({
      level: 40,
      time: 1,
      pid: 2,
      hostname: 'h',
      msg: 'slow answer',
      reqId: 'r-1',
      statusCode: 200,
    });
    expect(formatLine(line)).toBe('WARN  slow answer reqId=r-1 statusCode=200');
  });

  it('leaves other lines alone', () => {
    expect(formatLine('plain text {not json')).toBe('plain text {not json');
    expect(formatLine('{"no":"level"}')).toBe('{"no":"level"}');
  });
});
