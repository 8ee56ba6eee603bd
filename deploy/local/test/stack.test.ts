import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GATEWAY, SERVICES, serviceUrlVar } from '../src/catalogue.ts';
import { delay, groupAlive } from '../src/children.ts';
import { NATS_MISSING_MESSAGE, NatsServerMissingError, answersInfo } from '../src/nats.ts';
import { JEMALLOC_PATHS, localNodeFlags } from '../src/node-flags.ts';
import { ChildNotReadyError } from '../src/readiness.ts';
import { REPO_ROOT, startStack } from '../src/stack.ts';

/**
 * The runner's contract with a part is "node <dir>/dist/main.js with this env, answer /readyz". These
 * stand-in parts keep that contract and report what they were given, so the runner's own behaviour
 * (env, ports, process groups, crash reports) is checked without depending on the real services.
 */
const STAND_IN = `
const http = require('node:http');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
fs.writeFileSync('grandchild.pid', String(grandchild.pid));
if (process.env.CRASH_BEFORE_READY === require('node:path').basename(process.cwd())) {
  console.error('cannot reach the payment provider: giving up');
  process.exit(4);
}
http.createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/readyz') return res.end(JSON.stringify({ status: 'ready' }));
  if (req.url === '/env') return res.end(JSON.stringify(process.env));
  if (req.url === '/execArgv') return res.end(JSON.stringify(process.execArgv));
  if (req.url === '/crash') { res.end('{}'); setTimeout(() => process.exit(9), 10); return; }
  res.statusCode = 404; res.end('{}');
}).listen(Number(process.env.PORT), process.env.HOST, () => console.log(JSON.stringify({ level: 30, msg: 'listening on ' + process.env.PORT })));
`;

const repo = mkdtempSync(join(tmpdir(), 'shop-fake-repo-'));
for (const part of [...SERVICES, GATEWAY]) {
  mkdirSync(join(repo, part.dir, 'dist'), { recursive: true });
  writeFileSync(join(repo, part.dir, 'dist/main.js'), STAND_IN.replace(/^/, ''));
  writeFileSync(join(repo, part.dir, 'package.json'), '{"type":"commonjs"}');
}
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const baseEnv = {
  PATH: process.env.PATH ?? '',
  MONGO_URL: 'mongodb://127.0.0.1:27999/?replicaSet=rs0',
  STRIPE_SECRET_KEY: 'sk_test_abc',
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('startStack', () => {
  it('starts nats and every part on free ports with the contract env, then stops every process group', async () => {
    const crashes: string[] = [];
    const restarts: string[] = [];
    const stack = await startStack({
      repoRoot: repo,
      env: baseEnv,
      quiet: true,
      frontendsDir: '/srv/shop-frontends',
      onCrash: (name) => crashes.push(name),
      onRestart: (event) => event.phase === 'restarted' && restarts.push(event.name),
    });
    try {
      expect(stack.infrastructure).toEqual({ mongo: 'external', nats: 'started' });
      expect(await answersInfo(Number(new URL(stack.natsUrl).port))).toBe(true);
      expect(Object.keys(stack.services).sort()).toEqual(SERVICES.map((service) => service.name).sort());
      expect(stack.readiness.map((row) => row.name)).toEqual([
        'mongodb',
        'nats',
        'mailbox',
        ...SERVICES.map((s) => s.name),
        'gateway',
      ]);
      expect(new Set(stack.readiness.map((row) => row.status))).toEqual(new Set(['ready']));

      const gatewayEnv = (await (await fetch(`${stack.url}/env`)).json()) as Record<string, string>;
      expect(gatewayEnv.FRONTENDS_DIR).toBe('/srv/shop-frontends');
      expect(gatewayEnv.NATS_URL).toBe(stack.natsUrl);
      for (const [name, url] of Object.entries(stack.services)) expect(gatewayEnv[serviceUrlVar(name)]).toBe(url);

      for (const [name, url] of Object.entries(stack.services)) {
        const env = (await (await fetch(`${url}/env`)).json()) as Record<string, string>;
        expect(env, name).toMatchObject({
          MONGO_URL: baseEnv.MONGO_URL,
          NATS_URL: stack.natsUrl,
          HOST: '127.0.0.1',
          PORT: new URL(url).port,
          NODE_ENV: 'development',
          STRIPE_SECRET_KEY: 'sk_test_abc',
        });
      }

      // The runner's memory settings (node-flags.ts) reach every Node part: V8 heap caps and malloc arenas.
      for (const url of [stack.url, ...Object.values(stack.services)]) {
        expect(await (await fetch(`${url}/execArgv`)).json(), url).toEqual(localNodeFlags('service'));
      }
      expect(localNodeFlags('service')).toContain('--max-semi-space-size=16');
      expect(gatewayEnv.MALLOC_ARENA_MAX).toBe('2');
      // jemalloc where the machine has it; nats-server (Go) with its lower GOGC.
      expect(gatewayEnv.LD_PRELOAD).toBe(JEMALLOC_PATHS.find((path) => existsSync(path)));
      const nats = stack.children().find((child) => child.name === 'nats');
      expect(readFileSync(`/proc/${nats!.pid}/environ`, 'utf8').split('\0')).toContain('GOGC=50');

      // Without SMTP_URL, mail goes to the development mailbox, and only the email service is told.
      expect(stack.mailbox?.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${stack.mailbox!.httpUrl}/messages`)).status).toBe(200);
      const emailEnv = (await (await fetch(`${stack.services.email}/env`)).json()) as Record<string, string>;
      expect(emailEnv).toMatchObject({ SMTP_URL: stack.mailbox!.smtpUrl, DEV_MAILBOX_URL: stack.mailbox!.httpUrl });
      const ordersEnv = (await (await fetch(`${stack.services.orders}/env`)).json()) as Record<string, string>;
      expect(ordersEnv).not.toHaveProperty('DEV_MAILBOX_URL');

      // A part that dies while running is reported, and restarted after a second (the back-off's first step).
      const firstEmail = stack.child('email')!.pid;
      await fetch(`${stack.services.email}/crash`);
      for (let i = 0; i < 100 && !crashes.length; i++) await delay(50);
      expect(crashes).toEqual(['email']);
      expect(stack.children().map((child) => child.name)).not.toContain('email');
      for (let i = 0; i < 100 && !restarts.includes('email'); i++) await delay(50);
      expect(restarts).toEqual(['email']);
      expect(stack.child('email')?.pid).not.toBe(firstEmail);
      let answered = false;
      for (let i = 0; i < 200 && !answered; i++) {
        answered = await fetch(`${stack.services.email}/env`).then(
          (res) => res.ok,
          () => false,
        );
        if (!answered) await delay(50);
      }
      expect(answered).toBe(true);
    } finally {
      const children = stack.children();
      const grandchildren = [...SERVICES, GATEWAY].map((part) =>
        Number(readFileSync(join(repo, part.dir, 'grandchild.pid'), 'utf8')),
      );
      await stack.stop();
      for (const child of children) expect(groupAlive(child.pid!), child.name).toBe(false);
      // The restarted email wrote its own grandchild's pid; the crashed one's group was killed at the crash.
      for (const pid of grandchildren) expect(alive(pid)).toBe(false);
    }
    expect(
      await fetch(stack.url + '/readyz').then(
        () => 'answered',
        () => 'closed',
      ),
    ).toBe('closed');
  });

  it('fails with the last lines of a part that exits before it is ready, and leaves nothing running', async () => {
    const before = new Set(readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)));
    const crashes: string[] = [];
    const error = await startStack({
      repoRoot: repo,
      env: { ...baseEnv, CRASH_BEFORE_READY: 'payments' },
      quiet: true,
      onCrash: (name) => crashes.push(name),
    }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ChildNotReadyError);
    expect((error as Error).message).toMatch(/payments exited \(code 4/);
    expect((error as Error).message).toContain('cannot reach the payment provider: giving up');
    // Reported once, by the error: onCrash is for parts that die after the stack was ready.
    expect(crashes).toEqual([]);
    // Every process started for that stack (nats, parts, grandchildren) is gone again.
    await delay(200);
    const leftovers = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry) && !before.has(entry))
      .filter((pid) => {
        try {
          return (
            readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(repo) ||
            readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('nats-server')
          );
        } catch {
          return false;
        }
      });
    expect(leftovers).toEqual([]);
  });

  it('says how to install nats-server when there is none', async () => {
    const error = await startStack({
      repoRoot: repo,
      env: { ...baseEnv, NATS_SERVER_BIN: join(repo, 'no-nats-server-here') },
      quiet: true,
    }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(NatsServerMissingError);
    expect((error as Error).message).toBe('nats-server is not installed: apt-get install -y nats-server');
  });

  it('uses the NATS server at NATS_URL and the SMTP server at SMTP_URL instead of starting them', async () => {
    const smtpUrl = 'smtp://mailer:secret@127.0.0.1:2599';
    const stack = await startStack({
      repoRoot: repo,
      env: { ...baseEnv, NATS_URL: 'nats://127.0.0.1:4999', SMTP_URL: smtpUrl },
      quiet: true,
    });
    try {
      expect(stack.infrastructure.nats).toBe('external');
      expect(stack.natsUrl).toBe('nats://127.0.0.1:4999');
      expect(stack.children().map((child) => child.name)).not.toContain('nats');
      expect(stack.mailbox).toBeUndefined();
      const emailEnv = (await (await fetch(`${stack.services.email}/env`)).json()) as Record<string, string>;
      expect(emailEnv.SMTP_URL).toBe(smtpUrl);
      expect(emailEnv).not.toHaveProperty('DEV_MAILBOX_URL');
    } finally {
      await stack.stop();
    }
  });
});

describe('the runner command', () => {
  it('prints the install hint and exits non-zero when nats-server is missing', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'deploy/local/src/cli.ts'), 'start'], {
      cwd: REPO_ROOT,
      env: { ...baseEnv, PORT: '0', NATS_SERVER_BIN: join(repo, 'no-nats-server-here') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(3);
    expect(stderr).toContain(NATS_MISSING_MESSAGE);
  });
});
