// The `embedded-mongo` bin as a developer runs it: foreground, data kept in --dbpath, clean stop on a signal.
// It runs the built package (dist/), so the test builds it first when the sources are newer.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';

const packageDir = path.resolve(import.meta.dirname, '../..');
const bin = path.join(packageDir, 'bin/embedded-mongo.mjs');

async function newestSourceMtime(): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(path.join(packageDir, 'src'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, (await stat(path.join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

async function ensureBuilt(): Promise<void> {
  const built = await stat(path.join(packageDir, 'dist/index.js')).catch(() => undefined);
  if (built && built.mtimeMs >= (await newestSourceMtime())) return;
  const tsc = path.resolve(packageDir, '../../node_modules/.bin/tsc');
  const result = spawnSync(tsc, ['-p', 'tsconfig.build.json'], { cwd: packageDir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}${result.stderr}`);
}

interface Running {
  child: ChildProcess;
  uri: string;
  output: () => string;
  exit: Promise<number | null>;
}

function startCli(args: string[]): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /ready: (mongodb:\/\/\S+)/.exec(output);
      if (match) resolve({ child, uri: match[1], output: () => output, exit });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exit.then((code) => reject(new Error(`embedded-mongo exited with ${code} before it was ready:\n${output}`)));
    setTimeout(() => reject(new Error(`embedded-mongo did not get ready:\n${output}`)), 20_000).unref();
  });
}

let dataDir: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  await ensureBuilt();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-mongo-cli-'));
}, 180_000);

afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('embedded-mongo CLI', () => {
  it('serves in the foreground, stops cleanly on SIGTERM and keeps the data in --dbpath', async () => {
    const first = await startCli(['--port', '0', '--dbpath', dataDir, '--replset', 'rs0']);
    started.push(first.child);
    expect(first.uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/\?replicaSet=rs0$/);
    const client = await new MongoClient(first.uri, { serverSelectionTimeoutMS: 5000 }).connect();
    await client.db('shop_orders').collection('orders').insertOne({ ref: 'ORD-1', totalCents: 2599 });
    await client.close();

    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(first.output()).toContain('SIGTERM received, stopping');
    expect(first.output()).toContain('stopped');

    const second = await startCli(['--port', '0', '--dbpath', dataDir, '--replset', 'rs0']);
    started.push(second.child);
    const again = await new MongoClient(second.uri, { serverSelectionTimeoutMS: 5000 }).connect();
    const order = await again.db('shop_orders').collection('orders').findOne({ ref: 'ORD-1' });
    await again.close();
    expect(order?.totalCents).toBe(2599);
    second.child.kill('SIGINT');
    expect(await second.exit).toBe(0);
  });

  it('runs in memory as a standalone without --dbpath and --replset', async () => {
    const running = await startCli(['--port', '0']);
    started.push(running.child);
    expect(running.uri).toMatch(/directConnection=true$/);
    expect(running.output()).toContain('(in memory)');
    running.child.kill('SIGTERM');
    expect(await running.exit).toBe(0);
  });

  it('rejects bad arguments with usage and exit code 2', () => {
    const result = spawnSync(process.execPath, [bin, '--port', 'many'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--port must be a number');
    expect(result.stderr).toContain('Usage: embedded-mongo');
    const unknown = spawnSync(process.execPath, [bin, '--verbose'], { encoding: 'utf8' });
    expect(unknown.status).toBe(2);
  });
});
