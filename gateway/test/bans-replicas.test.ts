// Two real gateway processes (src/main.ts, as in production) on one nats-server in front of the REAL
// security service (embedded MongoDB): an admin bans 127.0.0.3 through the first gateway, and the
// second refuses that address, and only that one, within a second; an unban through the second lets
// it in again on the first within a second. Each gateway process holds exactly one NATS connection.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSessionCookie, bannedAddressMessage } from '@shop/contracts';
import { buildApp as buildSecurityService } from '@shop/security-service/app';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { SERVICE_NAMES, type ServiceName } from '../src/routes.js';
import { requestFrom } from './client-address.js';
import { startUpstream, type Upstream } from './helpers.js';

const gatewayDir = fileURLToPath(new URL('..', import.meta.url));
const ADMIN = { email: 'watch@shop.test', password: 'Brass-Coin-Vault-42!' };
// One gateway signing key for the gateways and the service (the service reads it from the process).
process.env.GATEWAY_SIGNING_KEY ||= randomBytes(32).toString('base64url');

let mongo: StartedMongo;
let nats: StartedNats;
let security: Awaited<ReturnType<typeof buildSecurityService>>;
let securityUrl = '';
let upstreams: Partial<Record<ServiceName, Upstream>> = {};
const gateways: Array<{ child: ChildProcess; url: string }> = [];

/** Polls until `ok` (every 20 ms); answers the milliseconds it took. */
async function within(ms: number, ok: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await ok())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}

/** One gateway process on `host`, in front of the security service and stand-ins for the others. */
async function startGateway(host: string): Promise<{ child: ChildProcess; url: string }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOST: host,
    PORT: '0',
    LOG_LEVEL: 'info',
    FRONTENDS_DIR: join(tmpdir(), 'shop-gateway-no-frontends'),
    NATS_URL: nats.url,
    RATE_LIMIT_MAX: '10000',
    GATEWAY_SIGNING_KEY: process.env.GATEWAY_SIGNING_KEY!,
  };
  for (const name of SERVICE_NAMES)
    env[`${name.toUpperCase()}_URL`] = name === 'security' ? securityUrl : upstreams[name]!.url;
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: gatewayDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway on ${host} did not start: ${stderr}`)), 80_000);
    child.once('exit', (code) => reject(new Error(`gateway on ${host} exited with ${code}: ${stderr}`)));
    let listening: string | undefined;
    let connected = false;
    // Ready for this test once it listens and has its NATS connection (bans loaded right after).
    lines.on('line', (line) => {
      let entry: { msg?: string; url?: string };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.msg === 'gateway listening' && entry.url) listening = entry.url;
      if (entry.msg?.startsWith('gateway connected to NATS')) connected = true;
      if (listening && connected) {
        clearTimeout(timer);
        resolve(listening);
      }
    });
  });
  return { child, url };
}

/** TCP connections from process `pid` to the nats-server's port (Linux /proc). */
function natsConnectionsOf(pid: number): number {
  const port = Number(new URL(nats.url).port);
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const cols = row.trim().split(/\s+/);
      const remotePort = parseInt(cols[2].split(':')[1], 16);
      if (remotePort === port && cols[3] === '01' && inodes.has(cols[9])) count++;
    }
  }
  return count;
}

let cookie = '';

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  upstreams = Object.fromEntries(
    await Promise.all(
      SERVICE_NAMES.filter((n) => n !== 'security').map(async (n) => [n, await startUpstream(n)] as const),
    ),
  );
  const { loadConfig } = await import('@shop/security-service/config');
  security = await buildSecurityService(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    }),
  );
  securityUrl = await security.start();
  // Two replicas at once, on two loopback addresses.
  gateways.push(...(await Promise.all([startGateway('127.0.0.1'), startGateway('127.0.0.2')])));
  const login = await fetch(`${gateways[0].url}/api/auth/login`, {
    method: 'POST',
    headers: { origin: gateways[0].url, 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(login.status).toBe(200);
  cookie = (login.headers.getSetCookie().find((c) => c.startsWith(`${adminSessionCookie}=`)) ?? '').split(';', 1)[0]!;
  expect(cookie.startsWith(`${adminSessionCookie}=`)).toBe(true);
}, 120_000);

afterAll(async () => {
  await Promise.all(
    gateways.map(async ({ child }) => {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    }),
  );
  await security?.stop();
  await Promise.all(Object.values(upstreams).map((u) => u.close()));
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

const marketing = (url: string, from: string) => requestFrom(from, `${url}/api/marketing/_service`);

describe('a ban on two gateway processes', () => {
  let banId = '';
  it('a ban of 127.0.0.3 through one gateway blocks that address only, on the other within a second', async () => {
    const [first, second] = [gateways[0], gateways[1]];
    for (const { url } of gateways) expect((await marketing(url, '127.0.0.3')).status).toBe(200);
    const res = await fetch(`${first.url}/api/security/ban-ip`, {
      method: 'POST',
      headers: { cookie, origin: first.url, 'content-type': 'application/json' },
      body: JSON.stringify({ ip: '127.0.0.3', reason: 'scripted sign-in guessing', duration: '1h' }),
    });
    expect(res.status).toBe(200);
    banId = ((await res.json()) as { bannedIP: { id: string } }).bannedIP.id;
    const took = await within(1_000, async () => (await marketing(second.url, '127.0.0.3')).status === 403);
    expect(took).toBeLessThan(1_000);
    const refused = await marketing(second.url, '127.0.0.3');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'FORBIDDEN', error: bannedAddressMessage });
    expect((await marketing(first.url, '127.0.0.3')).status).toBe(403);
    // Another loopback address is untouched, on both.
    for (const { url } of gateways) expect((await marketing(url, '127.0.0.4')).status).toBe(200);
  });

  it('an unban through the other gateway lets the address in again on the first within a second', async () => {
    const [first, second] = [gateways[0], gateways[1]];
    const res = await fetch(`${second.url}/api/security/banned-ips/${banId}`, {
      method: 'DELETE',
      headers: { cookie, origin: second.url },
    });
    expect(res.status).toBe(200);
    const took = await within(1_000, async () => (await marketing(first.url, '127.0.0.3')).status === 200);
    expect(took).toBeLessThan(1_000);
    expect((await marketing(second.url, '127.0.0.3')).status).toBe(200);
  });

  it('each gateway process holds one NATS connection for bans, request logs, admin sessions and audit events', () => {
    // Both served admin calls (session checks, audit events), logged requests and follow the bans.
    for (const { child } of gateways) expect(natsConnectionsOf(child.pid!)).toBe(1);
  });
});
