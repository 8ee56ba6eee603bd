// The contact config (admin §2 Contact & Support, storefront §3/§7): defaults from the environment until
// an administrator saves, save and read back, the public view hiding what the toggles hide, bad input
// refused with nothing changed, and production refusing to start without SUPPORT_EMAIL (its real main.ts).
// Real parts: the embedded MongoDB and a real nats-server.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactConfigPaths, defaultSupportEmail, type ContactConfig } from '@shop/contracts';
import { adminHeaders, spawnServiceProcess, testGatewayKey } from '@shop/service-kit/testing';
import { freePort, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { loadConfig, type RawSupportEnv } from '../src/config.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let mongo: StartedMongo;
let nats: StartedNats;
let service: Awaited<ReturnType<typeof buildApp>>;
let url: string;

async function startSupport(env: RawSupportEnv = {}) {
  const started = await buildApp(
    loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent', ...env }),
  );
  return { service: started, url: await started.start() };
}

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  ({ service, url } = await startSupport());
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

beforeEach(async () => {
  // Each case starts from "no admin has saved yet".
  await service.ctx.models.ContactConfig.deleteMany({});
});

const getJson = async (base: string, p: string) => {
  // As the gateway forwards it (the admin's form is admin-only; the public view takes the same identity).
  const res = await fetch(`${base}${p}`, { headers: adminHeaders('admin@shop.local') });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const post = async (body: unknown) => {
  const res = await fetch(`${url}${contactConfigPaths.admin}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...adminHeaders('admin@shop.local') },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const full: ContactConfig = {
  supportEmail: 'help@coins.example',
  supportPhone: '+1 (512) 555-0199',
  showPhone: true,
  supportHours: { weekday: 'Mon-Fri 8am-6pm CT', weekend: 'Sat 9am-1pm CT', showHours: true },
};

describe('until an administrator saves', () => {
  it('local development shows the documented default address, and no phone or hours', async () => {
    expect(defaultSupportEmail).toBe('support@shop.local');
    expect(await getJson(url, contactConfigPaths.public)).toEqual({
      status: 200,
      body: { supportEmail: 'support@shop.local', supportPhone: null, supportHours: null },
    });
    expect((await getJson(url, contactConfigPaths.admin)).body).toEqual({
      supportEmail: 'support@shop.local',
      supportPhone: '',
      showPhone: false,
      supportHours: { weekday: '', weekend: '', showHours: false },
    });
  });

  it('SUPPORT_EMAIL and SUPPORT_PHONE are the defaults when set; the phone is shown because it was configured', async () => {
    const other = await startSupport({ SUPPORT_EMAIL: ' quotes@coins.example ', SUPPORT_PHONE: '(512) 555-0100' });
    try {
      expect((await getJson(other.url, contactConfigPaths.public)).body).toEqual({
        supportEmail: 'quotes@coins.example',
        supportPhone: '(512) 555-0100',
        supportHours: null,
      });
      expect((await getJson(other.url, contactConfigPaths.admin)).body).toMatchObject({
        supportPhone: '(512) 555-0100',
        showPhone: true,
      });
    } finally {
      await other.service.stop();
    }
  });

  it('a bad SUPPORT_EMAIL or SUPPORT_PHONE is refused with a message naming it', () => {
    expect(() => loadConfig({ SUPPORT_EMAIL: 'not-an-address' })).toThrow(/SUPPORT_EMAIL must be an email address/);
    expect(() => loadConfig({ SUPPORT_PHONE: 'call us' })).toThrow(
      /SUPPORT_PHONE: Support phone must be a phone number/,
    );
    expect(
      loadConfig({ NODE_ENV: 'production', GATEWAY_SIGNING_KEY: testGatewayKey(), SUPPORT_EMAIL: 'help@coins.example' })
        .contactDefaults,
    ).toEqual({
      supportEmail: 'help@coins.example',
      supportPhone: '',
    });
  });
});

describe('an administrator saves the contact config', () => {
  it('is read back whole by the admin, and the public sees email, phone and hours', async () => {
    const saved = await post(full);
    expect(saved).toEqual({ status: 200, body: { success: true, config: full } });
    expect((await getJson(url, contactConfigPaths.admin)).body).toEqual(full);
    expect((await getJson(url, contactConfigPaths.public)).body).toEqual({
      supportEmail: 'help@coins.example',
      supportPhone: '+1 (512) 555-0199',
      supportHours: { weekday: 'Mon-Fri 8am-6pm CT', weekend: 'Sat 9am-1pm CT' },
    });
    const stored = await service.ctx.models.ContactConfig.find().lean();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ updatedBy: 'admin@shop.local' });
  });

  it('a later save wins over SUPPORT_EMAIL, and text is trimmed', async () => {
    await post({ ...full, supportEmail: '  desk@coins.example ' });
    expect((await getJson(url, contactConfigPaths.public)).body.supportEmail).toBe('desk@coins.example');
  });

  it('hidden phone and hours stay in the admin form but the public gets null for them', async () => {
    const hidden = { ...full, showPhone: false, supportHours: { ...full.supportHours, showHours: false } };
    expect((await post(hidden)).status).toBe(200);
    expect((await getJson(url, contactConfigPaths.admin)).body).toEqual(hidden);
    expect((await getJson(url, contactConfigPaths.public)).body).toEqual({
      supportEmail: 'help@coins.example',
      supportPhone: null,
      supportHours: null,
    });

    // Each toggle on its own.
    await post({ ...full, showPhone: false });
    expect((await getJson(url, contactConfigPaths.public)).body).toMatchObject({
      supportPhone: null,
      supportHours: { weekday: 'Mon-Fri 8am-6pm CT' },
    });
    await post({ ...full, supportHours: { ...full.supportHours, showHours: false } });
    expect((await getJson(url, contactConfigPaths.public)).body).toMatchObject({
      supportPhone: '+1 (512) 555-0199',
      supportHours: null,
    });
  });

  it('a blank phone and blank hours may be saved while hidden', async () => {
    const minimal = {
      supportEmail: 'help@coins.example',
      supportPhone: '',
      showPhone: false,
      supportHours: { weekday: '', weekend: '', showHours: false },
    };
    expect((await post(minimal)).status).toBe(200);
    expect((await getJson(url, contactConfigPaths.public)).body).toEqual({
      supportEmail: 'help@coins.example',
      supportPhone: null,
      supportHours: null,
    });
  });
});

describe('bad input is refused with a clear message and nothing changes', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['no email', { ...full, supportEmail: undefined }, /Support email is required/],
    ['a malformed email', { ...full, supportEmail: 'help at coins' }, /Support email must be a valid email address/],
    ['a shown phone left blank', { ...full, supportPhone: '  ' }, /Support phone is required when the phone is shown/],
    [
      'a phone that is not a number',
      { ...full, supportPhone: 'call the front desk' },
      /Support phone must be a phone number/,
    ],
    [
      'a phone that is too long',
      { ...full, supportPhone: '1'.repeat(31) },
      /Support phone must be at most 30 characters/,
    ],
    [
      'shown hours left blank',
      { ...full, supportHours: { weekday: '', weekend: 'Sat 9-1', showHours: true } },
      /Weekday hours are required when the hours are shown/,
    ],
    [
      'weekend hours missing while shown',
      { ...full, supportHours: { weekday: 'Mon-Fri', weekend: '', showHours: true } },
      /Weekend hours are required/,
    ],
    [
      'hours that are too long',
      { ...full, supportHours: { ...full.supportHours, weekend: 'x'.repeat(121) } },
      /Weekend hours must be at most 120 characters/,
    ],
    ['a toggle that is not a boolean', { ...full, showPhone: 'yes' }, /showPhone must be true or false/],
  ];

  it.each(cases)('%s', async (_name, body, message) => {
    const before = {
      supportEmail: 'help@coins.example',
      supportPhone: '(512) 555-0100',
      showPhone: true,
      supportHours: { weekday: 'Mon-Fri', weekend: 'Closed', showHours: true },
    };
    expect((await post(before)).status).toBe(200);
    const refused = await post(body);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(message);
    expect((await getJson(url, contactConfigPaths.admin)).body).toEqual(before);
  });

  it('a refused first save stores nothing: the defaults still apply', async () => {
    expect((await post({ ...full, supportEmail: 'nope' })).status).toBe(400);
    expect(await service.ctx.models.ContactConfig.countDocuments()).toBe(0);
    expect((await getJson(url, contactConfigPaths.public)).body.supportEmail).toBe(defaultSupportEmail);
  });
});

describe('support in production (its real main.ts)', () => {
  it('refuses to start without SUPPORT_EMAIL: customers must be given the real address', async () => {
    const start = spawnServiceProcess({
      packageDir,
      env: {
        PORT: String(await freePort()),
        MONGO_URL: mongo.uri,
        NATS_URL: nats.url,
        NODE_ENV: 'production',
        GATEWAY_SIGNING_KEY: testGatewayKey(),
        LOG_LEVEL: 'info',
      },
      readyTimeoutMs: 30_000,
    });
    await expect(start).rejects.toThrow(/exited with 1[\s\S]*SUPPORT_EMAIL is required when NODE_ENV=production/);
  });

  it('starts with SUPPORT_EMAIL and shows it to the public', async () => {
    const child = await spawnServiceProcess({
      packageDir,
      env: {
        PORT: String(await freePort()),
        MONGO_URL: mongo.uri,
        NATS_URL: nats.url,
        NODE_ENV: 'production',
        GATEWAY_SIGNING_KEY: testGatewayKey(),
        LOG_LEVEL: 'info',
        SUPPORT_EMAIL: 'help@coins.example',
      },
    });
    try {
      expect((await getJson(child.url, contactConfigPaths.public)).body).toEqual({
        supportEmail: 'help@coins.example',
        supportPhone: null,
        supportHours: null,
      });
    } finally {
      expect(await child.stop('SIGTERM')).toBe(0);
    }
  });
});
