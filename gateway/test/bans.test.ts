// Bans at the gateway on a real nats-server, with a stand-in security service that answers the
// active-bans request and publishes `ban.changed` to JetStream as the real one's outbox relay does.
// Requests come from real loopback client addresses (127.0.0.3, 127.0.0.4...). Two gateway processes
// with the real security service: bans-replicas.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { activeBansSubject, bannedAddressMessage, createEvent, type ActiveBan } from '@shop/contracts';
import { createLogger, ensureStream } from '@shop/service-kit';
import { buildApp } from '../src/app.js';
import { BanList, GatewaySecurityLink } from '../src/bans.js';
import { requestFrom } from './client-address.js';
import { startStack, type Stack } from './helpers.js';

/** Polls until `ok`; answers the milliseconds it took. */
async function within(ms: number, ok: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await ok())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}

let stack: Stack;
let standInBans: ActiveBan[] = [];

async function publishBan(ip: string, action: 'banned' | 'unbanned', expiresAt: string | null = null) {
  const event = createEvent('ban.changed', 'security', {
    ip,
    action,
    expiresAt,
    changedBy: 'chief@shop.test',
    changedAt: new Date().toISOString(),
  });
  await jetstream(stack.security.nc).publish(event.type, JSON.stringify(event), { msgID: event.id });
}

beforeAll(async () => {
  // The stand-in answers the bans in force before the gateways start, like the security service.
  standInBans = [
    { ip: '127.0.0.6', expiresAt: null },
    { ip: '127.0.0.64/30', expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
  ];
  stack = await startStack({}, { logger: false, requestLog: false });
  stack.security.nc.subscribe(activeBansSubject, {
    callback: (_e, msg) => void msg.respond(JSON.stringify({ ok: true, data: { bans: standInBans } })),
  });
  await ensureStream(
    await jetstreamManager(stack.security.nc),
    'SECURITY',
    createLogger({ service: 'security', level: 'silent' }),
  );
  // The gateway asked before the stand-in answered, and asks again each second.
  await within(
    5_000,
    async () => (await requestFrom('127.0.0.6', `${stack.url}/api/marketing/_service`)).status === 403,
  );
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe('the ban list', () => {
  it('matches exact addresses in any spelling, CIDR ranges, and honours expiry', () => {
    const bans = new BanList();
    const now = Date.now();
    bans.replaceAll([
      { ip: '203.0.113.9', expiresAt: null },
      { ip: '2001:db8::1', expiresAt: new Date(now + 60_000).toISOString() },
      { ip: '198.51.100.0/24', expiresAt: null },
      { ip: '2001:db8:ff::/48', expiresAt: null },
      { ip: '192.0.2.1', expiresAt: new Date(now - 1).toISOString() },
    ]);
    expect(bans.isBanned('203.0.113.9', now)).toBe(true);
    expect(bans.isBanned('::ffff:203.0.113.9', now)).toBe(true);
    expect(bans.isBanned('203.0.113.10', now)).toBe(false);
    expect(bans.isBanned('2001:0db8:0:0:0:0:0:1', now)).toBe(true);
    expect(bans.isBanned('2001:db8::1', now + 61_000)).toBe(false);
    expect(bans.isBanned('198.51.100.200', now)).toBe(true);
    expect(bans.isBanned('::ffff:198.51.100.1', now)).toBe(true);
    expect(bans.isBanned('198.51.101.1', now)).toBe(false);
    expect(bans.isBanned('2001:db8:ff:1::9', now)).toBe(true);
    expect(bans.isBanned('2001:db8:fe::9', now)).toBe(false);
    expect(bans.isBanned('192.0.2.1', now)).toBe(false);
    bans.remove('198.51.100.0/24');
    expect(bans.isBanned('198.51.100.200', now)).toBe(false);
  });

  it('looks an exact address up in constant time however many bans there are', () => {
    const bans = new BanList();
    bans.replaceAll(
      Array.from({ length: 100_000 }, (_, i) => ({
        ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        expiresAt: null,
      })),
    );
    const start = process.hrtime.bigint();
    let hits = 0;
    for (let i = 0; i < 100_000; i++) if (bans.isBanned(i % 2 ? '10.0.1.1' : '172.16.0.1')) hits++;
    const perLookupNs = Number(process.hrtime.bigint() - start) / 100_000;
    expect(hits).toBe(50_000);
    expect(perLookupNs).toBeLessThan(2_000);
  });
});

describe('bans at the gateway', () => {
  it('loads the bans in force at start: an address and a range are refused from the first request', async () => {
    const url = stack.url;
    expect((await requestFrom('127.0.0.6', `${url}/api/marketing/_service`)).status).toBe(403);
    expect((await requestFrom('127.0.0.65', `${url}/api/marketing/_service`)).status).toBe(403);
    expect((await requestFrom('127.0.0.68', `${url}/api/marketing/_service`)).status).toBe(200);
  });

  it('a ban of 127.0.0.3 blocks that address only, within a second, on every route', async () => {
    const before = stack.upstreams.marketing.seen.length;
    expect((await requestFrom('127.0.0.3', `${stack.url}/api/marketing/_service`)).status).toBe(200);
    const started = Date.now();
    await publishBan('127.0.0.3', 'banned', new Date(Date.now() + 3_600_000).toISOString());
    const took = await within(
      1_000,
      async () => (await requestFrom('127.0.0.3', `${stack.url}/api/marketing/_service`)).status === 403,
    );
    expect(took).toBeLessThan(1_000);
    expect(Date.now() - started).toBeLessThan(1_500);
    const url = stack.url;
    const api = await requestFrom('127.0.0.3', `${url}/api/orders/track`, { 'content-type': 'application/json' });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body)).toMatchObject({ code: 'FORBIDDEN', error: bannedAddressMessage });
    // Pages too, as a readable page.
    const page = await requestFrom('127.0.0.3', `${url}/orders/track`, { accept: 'text/html' });
    expect(page.status).toBe(403);
    expect(page.type).toMatch(/text\/html/);
    expect(page.body).toContain('Access blocked');
    expect((await requestFrom('127.0.0.3', `${url}/api/health`)).status).toBe(403);
    expect((await requestFrom('127.0.0.3', `${url}/no-such-file.js`)).status).toBe(403);
    // Another loopback address is untouched.
    expect((await requestFrom('127.0.0.4', `${url}/api/marketing/_service`)).status).toBe(200);
    // Nothing from the banned address reached a service after the ban.
    const reached = stack.upstreams.marketing.seen
      .slice(before)
      .filter((s) => s.headers['x-forwarded-for'] === '127.0.0.3');
    expect(reached.length).toBeLessThanOrEqual(1 + Math.ceil(took / 20));
  });

  it('an unban lets the address in again within a second', async () => {
    await publishBan('127.0.0.3', 'unbanned');
    const took = await within(
      1_000,
      async () => (await requestFrom('127.0.0.3', `${stack.url}/api/marketing/_service`)).status === 200,
    );
    expect(took).toBeLessThan(1_000);
  });

  it('a ban lifts itself at its expiry, without any event', async () => {
    await publishBan('127.0.0.5', 'banned', new Date(Date.now() + 1_200).toISOString());
    await within(
      1_000,
      async () => (await requestFrom('127.0.0.5', `${stack.url}/api/marketing/_service`)).status === 403,
    );
    await within(
      2_500,
      async () => (await requestFrom('127.0.0.5', `${stack.url}/api/marketing/_service`)).status === 200,
    );
  });

  it('a replica that starts later loads the bans changed meanwhile', async () => {
    standInBans = [...standInBans, { ip: '127.0.0.3', expiresAt: null }];
    const link = new GatewaySecurityLink(stack.config.natsUrl, createLogger({ service: 'gateway', level: 'silent' }));
    const app = await buildApp(stack.config, { logger: false, securityLink: link, requestLog: false });
    link.start();
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    await link.loaded;
    expect((await requestFrom('127.0.0.3', `${url}/api/marketing/_service`)).status).toBe(403);
    await app.close();
    await link.close();
  });
});
