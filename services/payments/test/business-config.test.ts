// The business registration (admin part A §2 Business Registration, §7 GET/POST /api/config/business):
// saved whole, EIN checked as NN-NNNNNNN, defaults (country US, permit type 'Sales Tax', active), ids
// given to new permits, the public part without the EIN and without permits out of force, and the
// readiness facts the production check reads (gaps, permits expiring within 30 days).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  businessConfigPaths,
  businessConfigSavedSchema,
  businessConfigSchema,
  publicBusinessConfigSchema,
  readinessFactsPath,
  readinessFactsSchema,
  type ErrorEnvelope,
} from '@shop/contracts';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { adminHeaders } from '@shop/service-kit/testing';

let mongo: StartedMongo;
let nats: StartedNats;
let service: Awaited<ReturnType<typeof buildApp>>;
let url: string;

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  service = await buildApp(
    loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: process.env.TEST_LOG ?? 'silent' }),
  );
  url = await service.start();
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

async function call<Body = unknown>(method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers:
      body === undefined
        ? adminHeaders('chief@shop.test')
        : { 'content-type': 'application/json', ...adminHeaders('chief@shop.test') },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('business registration', () => {
  it('starts blank with country US, and the facts name what is missing', async () => {
    const res = await call('GET', businessConfigPaths.admin);
    expect(res.status).toBe(200);
    expect(businessConfigSchema.parse(res.body)).toMatchObject({
      businessName: '',
      ein: '',
      businessAddress: { country: 'US' },
      taxPermits: [],
    });
    const facts = readinessFactsSchema.parse((await call('GET', readinessFactsPath)).body);
    expect(facts.own).toMatchObject({
      paymentMode: 'test_mode',
      business: { missing: expect.arrayContaining(['business name', 'EIN', 'address line 1']) as string[] },
    });
    expect(facts.mongo).toEqual({ up: true, replicaSet: expect.any(String) as string });
    expect(facts.outbox.pending).toBeGreaterThanOrEqual(0);
  });

  it('refuses an EIN not written NN-NNNNNNN and a permit without its number, with a clear 400', async () => {
    const bad = await call<ErrorEnvelope>('POST', businessConfigPaths.admin, {
      businessName: 'Tactical Gear Co.',
      ein: '123456789',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/EIN must be written NN-NNNNNNN/);
    const permit = await call<ErrorEnvelope>('POST', businessConfigPaths.admin, {
      taxPermits: [{ jurisdiction: 'TX', permitNumber: ' ' }],
    });
    expect(permit.status).toBe(400);
    expect(permit.body.error).toMatch(/permit number/);
  });

  it('saves the whole registration, fills the defaults and shows only the public part publicly', async () => {
    const saved = await call('POST', businessConfigPaths.admin, {
      businessName: 'Tactical Gear Co.',
      legalName: 'Tactical Gear Company LLC',
      ein: '12-3456789',
      businessAddress: {
        line1: '100 Congress Ave',
        line2: 'Suite 5',
        city: 'Austin',
        state: 'TX',
        postalCode: '78701',
      },
      taxPermits: [
        { jurisdiction: 'Texas', permitNumber: 'TX-1-23456-7890', expirationDate: day(400) },
        { jurisdiction: 'Oklahoma', permitNumber: 'OK-998877', type: 'Use Tax', expirationDate: day(10) },
        { jurisdiction: 'Kansas', permitNumber: 'KS-1', isActive: false },
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const config = businessConfigSavedSchema.parse(saved.body).config;
    expect(config.businessAddress.country).toBe('US');
    expect(config.taxPermits.map((p) => [p.type, p.isActive, p.id.length > 0])).toEqual([
      ['Sales Tax', true, true],
      ['Use Tax', true, true],
      ['Sales Tax', false, true],
    ]);
    // Read back as saved (ids kept across saves).
    expect((await call('GET', businessConfigPaths.admin)).body).toEqual(config);

    const pub = publicBusinessConfigSchema.parse((await call('GET', businessConfigPaths.public)).body);
    expect(pub).toEqual({
      businessName: 'Tactical Gear Co.',
      legalName: 'Tactical Gear Company LLC',
      businessAddress: {
        line1: '100 Congress Ave',
        line2: 'Suite 5',
        city: 'Austin',
        state: 'TX',
        postalCode: '78701',
        country: 'US',
      },
      taxPermits: [
        { jurisdiction: 'Texas', permitNumber: 'TX-1-23456-7890', type: 'Sales Tax' },
        { jurisdiction: 'Oklahoma', permitNumber: 'OK-998877', type: 'Use Tax' },
      ],
    });
    expect(JSON.stringify(pub)).not.toContain('12-3456789');

    const facts = readinessFactsSchema.parse((await call('GET', readinessFactsPath)).body);
    expect(facts.own).toMatchObject({
      business: {
        missing: [],
        expiringPermits: [{ jurisdiction: 'Oklahoma', permitNumber: 'OK-998877', expirationDate: day(10) }],
      },
    });
  });
});
