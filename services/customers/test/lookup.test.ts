// The returning-customer lookup end to end inside the customers service: profiles built from real
// order.created events on JetStream, codes stored as hashes, verification (success, wrong, expired,
// locked, single use) and the rate limits, against the embedded MongoDB and a real nats-server.
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEvent,
  customerLookupErrorSchema,
  customerLookupMessages as messages,
  customerLookupResponseSchema,
  customerVerifyResponseSchema,
  type CustomerLookupError,
  type CustomerLookupResponse,
  type EventData,
} from '@shop/contracts';
import {
  eventually,
  orderCreatedData,
  startMongo,
  startNats,
  type StartedMongo,
  type StartedNats,
} from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { gatewayHeaders } from '@shop/service-kit/testing';

let mongo: StartedMongo;
let nats: StartedNats;
let service: Awaited<ReturnType<typeof buildApp>>;
let url: string;
/** Moves the service's clock forward (code expiry) without waiting. */
let clockOffsetMs = 0;
/** Every customer.verification_requested that reached NATS, as the email service receives it. */
const delivered: EventData<'customer.verification_requested'>[] = [];
let listener: NatsConnection;

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  service = await buildApp(
    loadConfig({
      PORT: '0',
      MONGO_URL: mongo.uri,
      NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
      VERIFICATION_CODE_SECRET: 'test-secret-for-the-customers-service',
    }),
    { clock: () => new Date(Date.now() + clockOffsetMs), relay: { sweepIntervalMs: 200 } },
  );
  url = await service.start();
  listener = await connect({ servers: nats.url });
  listener.subscribe('customer.verification_requested', {
    callback: (_err, msg) => {
      delivered.push(msg.json<{ data: EventData<'customer.verification_requested'> }>().data);
    },
  });
});

afterAll(async () => {
  await listener?.close();
  await service?.stop();
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

function order(email: string, overrides: Partial<EventData<'order.created'>> = {}): EventData<'order.created'> {
  return orderCreatedData({
    email,
    taxExempt: true,
    shippingAddress: {
      line1: '1 Main St',
      line2: 'Unit 2',
      city: 'Austin',
      state: 'TX',
      postalCode: '78701',
      country: 'US',
    },
    ...overrides,
  });
}

async function publishOrders(...orders: EventData<'order.created'>[]) {
  const nc = await connect({ servers: nats.url });
  try {
    const js = jetstream(nc);
    for (const data of orders) {
      const event = createEvent('order.created', 'orders', data);
      await js.publish('order.created', JSON.stringify(event), { msgID: event.id });
    }
  } finally {
    await nc.close();
  }
}

/** A fresh address with one order in its profile. */
async function knownCustomer(overrides: Partial<EventData<'order.created'>> = {}) {
  const email = `buyer-${randomUUID().slice(0, 8)}@example.com`;
  await publishOrders(order(email, overrides));
  await eventually(() => service.ctx.models.Customer.findOne({ email }).lean());
  return email;
}

let ipCounter = 0;
/** A distinct client address per test, so the per-address limits of one test do not touch another. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

/** What these tests read of a stored verification code document. */
type StoredCode = { status: string; attempts: number; codeHash: string; expiresAt: Date; createdAt: Date };

/** A public POST from client address `ip`; the body typed as the caller says the route answers (unknown unless told). */
async function post<Body = unknown>(path: string, body: unknown, ip: string) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...gatewayHeaders({ ip }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body };
}

/**
 * The code in clear of the newest code requested for `email`, as the email service receives it (the
 * outbox keeps no code once the event is published). The event is matched by the code's expiry time.
 */
async function latestCode(email: string): Promise<string> {
  const record = await eventually(() =>
    service.ctx.models.VerificationCode.findOne({ email }).sort({ createdAt: -1, _id: -1 }).lean(),
  );
  const expiresAt = record!.expiresAt.toISOString();
  const event = await eventually(async () => delivered.find((e) => e.email === email && e.expiresAt === expiresAt));
  return event!.code;
}

describe('customer profiles from order.created', () => {
  it('builds one profile per email from real events, the newest order deciding the saved details', async () => {
    const email = `profile-${randomUUID().slice(0, 8)}@example.com`;
    const older = order(email.toUpperCase(), {
      submittedDate: '2026-01-01T10:00:00.000Z',
      customerName: 'Old Name',
      phone: '555-0001',
    });
    const newer = order(email, {
      submittedDate: '2026-03-01T10:00:00.000Z',
      customerName: 'Jordan Lee',
      customerCategory: 'first_responder',
      shippingAddress: {
        line1: '9 Fire Rd',
        line2: '',
        city: 'Boise',
        state: 'ID',
        postalCode: '83702',
        country: 'US',
      },
    });
    // The newer order first: an older one arriving late must not overwrite the saved details.
    await publishOrders(newer, older);
    const profile = await eventually(
      () => service.ctx.models.Customer.findOne({ email }).lean(),
      (p) => p?.orderCount === 2,
    );
    expect(profile).toMatchObject({
      email,
      customerName: 'Jordan Lee',
      phone: '555-0100',
      customerCategory: 'first_responder',
      lastShippingAddress: { line1: '9 Fire Rd', city: 'Boise', state: 'ID', postalCode: '83702', country: 'US' },
      lastOrderNumber: newer.orderNumber,
    });
    expect(profile!.firstOrderAt.toISOString()).toBe('2026-01-01T10:00:00.000Z');
    expect(profile!.lastOrderAt.toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(await service.ctx.models.Customer.countDocuments({ email })).toBe(1);
  });

  it('keeps the saved phone and address when a later order carries none', async () => {
    const email = await knownCustomer({ submittedDate: '2026-01-01T00:00:00.000Z' });
    await publishOrders(
      order(email, { phone: undefined, shippingAddress: undefined, submittedDate: '2026-02-01T00:00:00.000Z' }),
    );
    const profile = await eventually(
      () => service.ctx.models.Customer.findOne({ email }).lean(),
      (p) => p?.orderCount === 2,
    );
    expect(profile).toMatchObject({ phone: '555-0100', lastShippingAddress: { line1: '1 Main St' } });
  });
});

describe('POST /api/customers/lookup', () => {
  it('answers an unknown email with the spec message and sends nothing', async () => {
    const res = await post('/api/customers/lookup', { email: 'nobody-here@example.com' }, freshIp());
    expect(res.status).toBe(200);
    expect(customerLookupResponseSchema.parse(res.body)).toEqual({
      success: false,
      verificationSent: false,
      message: messages.notFound,
    });
    expect(await service.ctx.models.VerificationCode.countDocuments({ email: 'nobody-here@example.com' })).toBe(0);
  });

  it('refuses an empty or malformed email with the spec sentence', async () => {
    const empty = await post('/api/customers/lookup', { email: '  ' }, freshIp());
    expect(empty.status).toBe(400);
    expect(customerLookupErrorSchema.parse(empty.body)).toMatchObject({
      success: false,
      error: messages.emailRequired,
      message: messages.emailRequired,
      code: 'VALIDATION_FAILED',
    });
    expect((await post<CustomerLookupError>('/api/customers/lookup', {}, freshIp())).body.error).toBe(
      messages.emailRequired,
    );
    expect(
      (await post<CustomerLookupError>('/api/customers/lookup', { email: 'not-an-email' }, freshIp())).body.error,
    ).toBe(messages.emailInvalid);
  });

  it('sends a code for a known email (any case) and stores only its hash', async () => {
    const email = await knownCustomer();
    const res = await post<CustomerLookupResponse>(
      '/api/customers/lookup',
      { email: `  ${email.toUpperCase()} ` },
      freshIp(),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, verificationSent: true });
    const code = await latestCode(email);
    expect(code).toMatch(/^\d{6}$/);
    expect(delivered.find((e) => e.code === code)).toMatchObject({
      email,
      customerName: 'Jordan Lee',
      expiresAt: res.body.expiresAt,
    });
    // Once published, the outbox keeps the event's id, type and status (dedupe, debugging) but not the code.
    const outboxDocs = await eventually(
      () => service.ctx.bus.outbox.find({ type: 'customer.verification_requested' }).lean(),
      (docs) => docs.length > 0 && docs.every((d) => d.status === 'sent'),
    );
    expect(JSON.stringify(outboxDocs)).not.toContain(code);
    for (const doc of outboxDocs) {
      expect(doc).toMatchObject({ type: 'customer.verification_requested', status: 'sent', secret: true });
      expect(doc.event).toBeUndefined();
    }

    const raw = await service.ctx.connection.db!.collection('verification_codes').find<StoredCode>({ email }).toArray();
    expect(raw).toHaveLength(1);
    expect(raw[0]).toMatchObject({ status: 'active', attempts: 0 });
    expect(raw[0].codeHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Nowhere in the stored record does the code appear in clear.
    expect(JSON.stringify(raw[0])).not.toContain(code);
    const ttl = raw[0].expiresAt.getTime() - raw[0].createdAt.getTime();
    expect(ttl).toBeGreaterThan(9.9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000 + 1000);
  });
});

describe('bodies the service cannot read', () => {
  // Was a 500 FST_ERR_RESPONSE_SERIALIZATION: these routes describe their refusals in their own shape,
  // and the shared envelope of an unreadable body failed that schema.
  const utf16 = Buffer.from('\ufeff{"email":"a@example.com"}', 'utf16le');
  const bodies: { name: string; type: string; body: string | Buffer; status: number; message: RegExp }[] = [
    { name: 'invalid JSON', type: 'application/json', body: '{"email":"a@', status: 400, message: /not valid JSON/ },
    { name: 'an empty body', type: 'application/json', body: '', status: 400, message: /empty/ },
    { name: 'UTF-16 declared', type: 'application/json; charset=utf-16le', body: utf16, status: 415, message: /UTF-8/ },
    { name: 'UTF-16 undeclared', type: 'application/json', body: utf16, status: 400, message: /not valid JSON/ },
    {
      name: 'a __proto__ key',
      type: 'application/json',
      body: '{"email":"a@example.com","__proto__":{"x":1}}',
      status: 400,
      message: /__proto__/,
    },
    {
      name: 'a constructor key',
      type: 'application/json',
      body: '{"email":"a@example.com","constructor":{"prototype":{"x":1}}}',
      status: 400,
      message: /constructor/,
    },
  ];
  for (const path of ['/api/customers/lookup', '/api/customers/verify']) {
    for (const c of bodies) {
      it(`${path}: ${c.name} gets ${c.status} with a clear message`, async () => {
        const res = await fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': c.type, ...gatewayHeaders({ ip: freshIp() }) },
          body: c.body,
        });
        expect(res.status).toBe(c.status);
        const body = (await res.json()) as Record<string, unknown>;
        expect(body.error).toMatch(c.message);
        expect(body.requestId).toBeTruthy();
      });
    }
  }
});

describe('POST /api/customers/verify', () => {
  it('returns the saved details with the address under both names, once', async () => {
    const email = await knownCustomer();
    const ip = freshIp();
    await post('/api/customers/lookup', { email }, ip);
    const code = await latestCode(email);
    const res = await post('/api/customers/verify', { email: email.toUpperCase(), verificationCode: code }, ip);
    expect(res.status).toBe(200);
    const body = customerVerifyResponseSchema.parse(res.body);
    const address = {
      line1: '1 Main St',
      line2: 'Unit 2',
      city: 'Austin',
      state: 'TX',
      postalCode: '78701',
      country: 'US',
    };
    expect(body.customer).toMatchObject({
      customerName: 'Jordan Lee',
      firstName: 'Jordan',
      lastName: 'Lee',
      email,
      phone: '555-0100',
      customerCategory: 'military',
      shippingAddress: address,
      lastShippingAddress: address,
      orderCount: 1,
    });
    expect(body.message).toBe('Welcome back, Jordan! Your saved details have been filled in.');

    const again = await post('/api/customers/verify', { email, verificationCode: code }, ip);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, code: 'NO_VERIFICATION_CODE', error: messages.noPendingCode });
  });

  it('checks the code format with the spec sentences', async () => {
    const email = await knownCustomer();
    const ip = freshIp();
    for (const bad of ['12345', '1234567', '12a456']) {
      const res = await post<CustomerLookupError>('/api/customers/verify', { email, verificationCode: bad }, ip);
      expect(res.status, bad).toBe(400);
      expect(res.body.error, bad).toBe(messages.codeFormat);
    }
    expect(
      (await post<CustomerLookupError>('/api/customers/verify', { email, verificationCode: '' }, ip)).body.error,
    ).toBe(messages.codeRequired);
    expect(
      (await post<CustomerLookupError>('/api/customers/verify', { email: '', verificationCode: '123456' }, ip)).body
        .error,
    ).toBe(messages.emailRequired);
  });

  it('refuses a wrong code with the spec message and the tries left', async () => {
    const email = await knownCustomer();
    const ip = freshIp();
    await post('/api/customers/lookup', { email }, ip);
    const code = await latestCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await post<CustomerLookupError>('/api/customers/verify', { email, verificationCode: wrong }, ip);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      code: 'INVALID_VERIFICATION_CODE',
      error: `${messages.invalidCode} You have 4 attempts left.`,
      details: { remainingAttempts: 4 },
    });
    expect(res.body.error).toContain('Invalid verification code. Please check your email and try again.');
    // The right code still works after a wrong try.
    expect((await post('/api/customers/verify', { email, verificationCode: code }, ip)).status).toBe(200);
  });

  it('locks the code after 5 wrong tries, even for the right code afterwards', async () => {
    const email = await knownCustomer();
    const ip = freshIp();
    await post('/api/customers/lookup', { email }, ip);
    const code = await latestCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await post<CustomerLookupError>('/api/customers/verify', { email, verificationCode: wrong }, ip);
      expect(res.status).toBe(400);
      expect(res.body.details?.remainingAttempts).toBe(5 - attempt);
    }
    const fifth = await post<CustomerLookupError>('/api/customers/verify', { email, verificationCode: wrong }, ip);
    expect(fifth.status).toBe(429);
    expect(fifth.body).toMatchObject({ code: 'VERIFICATION_CODE_LOCKED', details: { remainingAttempts: 0 } });
    expect(fifth.body.error).toMatch(/request a new verification code/);
    const right = await post('/api/customers/verify', { email, verificationCode: code }, ip);
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ code: 'VERIFICATION_CODE_LOCKED', error: messages.codeLocked });
    // A new code works again.
    await post('/api/customers/lookup', { email }, ip);
    const fresh = await eventually(
      () => latestCode(email),
      (c) => c !== code,
    );
    expect((await post('/api/customers/verify', { email, verificationCode: fresh }, ip)).status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const email = await knownCustomer();
    const ip = freshIp();
    await post('/api/customers/lookup', { email }, ip);
    const code = await latestCode(email);
    clockOffsetMs = 10 * 60_000 + 1000;
    try {
      const res = await post('/api/customers/verify', { email, verificationCode: code }, ip);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VERIFICATION_CODE_EXPIRED', error: messages.codeExpired });
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('accepts a code just before it expires', async () => {
    const email = await knownCustomer();
    const ip = freshIp();
    await post('/api/customers/lookup', { email }, ip);
    const code = await latestCode(email);
    clockOffsetMs = 9 * 60_000 + 50_000;
    try {
      expect((await post('/api/customers/verify', { email, verificationCode: code }, ip)).status).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('retires an older code when a new one is requested', async () => {
    const email = await knownCustomer();
    const ip = freshIp();
    await post('/api/customers/lookup', { email }, ip);
    const first = await latestCode(email);
    await post('/api/customers/lookup', { email }, ip);
    const second = await eventually(
      () => latestCode(email),
      (c) => c !== first,
    );
    if (first !== second) {
      const old = await post<CustomerLookupError>('/api/customers/verify', { email, verificationCode: first }, ip);
      expect(old.status).toBe(400);
      expect(old.body.code).toBe('INVALID_VERIFICATION_CODE');
    }
    expect((await post('/api/customers/verify', { email, verificationCode: second }, ip)).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('allows 3 codes per email per window, then 429 with a wait time', async () => {
    const email = await knownCustomer();
    for (let i = 0; i < 3; i++) expect((await post('/api/customers/lookup', { email }, freshIp())).status).toBe(200);
    const res = await post<CustomerLookupError>('/api/customers/lookup', { email }, freshIp());
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ success: false, verificationSent: false, code: 'RATE_LIMITED' });
    expect(res.body.error).toMatch(
      /^Too many verification codes were requested for this email address\. Please wait \d+ minutes? and try again\.$/,
    );
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await service.ctx.models.VerificationCode.countDocuments({ email })).toBe(3);
  });

  it('allows 10 lookups per client address per window, known or not', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      expect((await post('/api/customers/lookup', { email: `scan-${i}@example.com` }, ip)).status).toBe(200);
    }
    const res = await post<CustomerLookupError>('/api/customers/lookup', { email: 'scan-10@example.com' }, ip);
    expect(res.status).toBe(429);
    expect(res.body.error).toMatch(/^Too many lookups from your network/);
    // Another address is not affected.
    expect((await post('/api/customers/lookup', { email: 'scan-10@example.com' }, freshIp())).status).toBe(200);
  });

  it('keeps the counters in MongoDB with an expiry, so every replica shares them', async () => {
    const counters = await service.ctx.connection.db!.collection('rate_counters').find({}).limit(5).toArray();
    expect(counters.length).toBeGreaterThan(0);
    for (const counter of counters) expect(counter.expiresAt).toBeInstanceOf(Date);
    const indexes = await service.ctx.connection.db!.collection('rate_counters').indexes();
    expect(indexes.some((ix) => ix.expireAfterSeconds === 0 && ix.key.expiresAt === 1)).toBe(true);
  });
});
