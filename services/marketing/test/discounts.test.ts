// Discount codes on the real marketing service (embedded MongoDB, real nats-server): the tab's calls
// (list, create rules, toggle, delete) and the NATS redeem / give-back orders relies on, including
// 50 simultaneous applies of a code with one use left.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  discountRedeemResultSchema,
  discountRedeemSubject,
  discountReleaseResultSchema,
  discountReleaseSubject,
  type DiscountCode,
  type DiscountCreate,
  type DiscountListResponse,
  type DiscountRedeemRequest,
  type DiscountResponse,
  type ErrorEnvelope,
} from '@shop/contracts';
import { AppError } from '@shop/service-kit';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { endDateOf, redeemRefusal } from '../src/domain/discount-eligibility.js';
import { adminHeaders } from '@shop/service-kit/testing';

let mongo: StartedMongo;
let nats: StartedNats;
let service: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  service = await buildApp(loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'silent' }));
  await service.start();
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

async function call<Body = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  const res = await service.app.inject({
    method,
    url,
    ...(payload !== undefined ? { payload: payload as object } : {}),
    headers: adminHeaders('ops@shop.local'),
  });
  return { status: res.statusCode, body: res.body ? res.json<Body>() : null };
}

let seq = 0;
async function create(overrides: Partial<DiscountCreate> = {}): Promise<DiscountCode> {
  const res = await call<DiscountResponse>('POST', '/api/marketing/discounts', {
    code: `CODE${++seq}`,
    category: 'general',
    description: 'Test code',
    type: 'percentage',
    value: 10,
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body!.discount;
}

// A long wait: 50 requests at once on a shared 2-core machine must not turn into time-outs.
const redeem = (req: DiscountRedeemRequest) =>
  service.ctx.bus.request(discountRedeemSubject, req, { schema: discountRedeemResultSchema, timeout: 30_000 });
const release = (orderId: string, code: string) =>
  service.ctx.bus.request(discountReleaseSubject, { orderId, code }, { schema: discountReleaseResultSchema });
const refusalOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { status: err.statusCode, code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
};
const usedCount = async (id: string) =>
  (await call<DiscountListResponse>('GET', '/api/marketing/discounts')).body!.discounts.find((d) => d.id === id)!
    .usedCount;

describe('Discount Codes tab calls', () => {
  it('creates a code active, unused, starting now, upper case; blank optionals mean unlimited, never expires, no minimum', async () => {
    const before = Date.now();
    const res = await call<DiscountResponse>('POST', '/api/marketing/discounts', {
      code: ' salute15 ',
      category: 'military',
      description: 'Thank you for your service',
      type: 'percentage',
      value: '15',
      maxUses: '',
      endDate: '',
    });
    expect(res.status).toBe(201);
    const d = res.body!.discount;
    expect(d).toMatchObject({
      code: 'SALUTE15',
      category: 'military',
      type: 'percentage',
      value: 15,
      isActive: true,
      usedCount: 0,
      maxUses: null,
      endDate: null,
      minOrder: null,
    });
    expect(Date.parse(d.startDate)).toBeGreaterThanOrEqual(before - 1000);
    const list = await call<DiscountListResponse>('GET', '/api/marketing/discounts');
    expect(list.body!.discounts.map((x) => x.code)).toContain('SALUTE15');
  });

  it('keeps codes unique regardless of case (409 naming the code)', async () => {
    await create({ code: 'Unique1' });
    const again = await call<ErrorEnvelope>('POST', '/api/marketing/discounts', {
      code: 'uNIQUE1',
      category: 'general',
      description: 'x',
      type: 'fixed',
      value: 5,
    });
    expect(again.status).toBe(409);
    expect(again.body!.error).toBe('A discount code UNIQUE1 already exists');
  });

  it('refuses what the create form forbids with a clear 400', async () => {
    const base = { code: 'RULES', category: 'general', description: 'd', type: 'percentage', value: 10 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, code: '' }, 'Code is required'],
      [{ ...base, code: 'HAS SPACE' }, 'Code may use only letters, digits, - and _'],
      [{ ...base, description: '  ' }, 'Description is required'],
      [{ ...base, category: 'vip' }, 'Category must be general, military, first_responder or loyalty'],
      [{ ...base, type: 'bogo' }, 'Type must be percentage or fixed'],
      [{ ...base, value: 0 }, 'Value must be at least 1'],
      [{ ...base, value: 'ten' }, 'Value must be a number'],
      [{ ...base, value: 101 }, 'A percentage is at most 100'],
      [{ ...base, maxUses: 0 }, 'Max uses must be at least 1'],
      [{ ...base, maxUses: 1.5 }, 'Max uses must be a whole number'],
      [{ ...base, endDate: 'soon' }, 'End date must be a date'],
      [{ ...base, minOrder: -1 }, 'Minimum order cannot be negative'],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/api/marketing/discounts', body);
      expect(res.status, message).toBe(400);
      expect(JSON.stringify(res.body), message).toContain(message);
    }
    // 100 percent and a big fixed sum are fine.
    expect((await call('POST', '/api/marketing/discounts', { ...base, code: 'FULL', value: 100 })).status).toBe(201);
    expect(
      (await call('POST', '/api/marketing/discounts', { ...base, code: 'BIGFIX', type: 'fixed', value: 250 })).status,
    ).toBe(201);
  });

  it('toggles isActive and deletes; unknown ids are 404', async () => {
    const d = await create();
    const off = await call<DiscountResponse>('PATCH', `/api/marketing/discounts/${d.id}`, { isActive: false });
    expect(off.status).toBe(200);
    expect(off.body!.discount.isActive).toBe(false);
    expect((await call('PATCH', `/api/marketing/discounts/${d.id}`, { isActive: 'yes' })).status).toBe(400);
    expect((await call('PATCH', '/api/marketing/discounts/nope', { isActive: true })).status).toBe(404);
    expect((await call('DELETE', `/api/marketing/discounts/${d.id}`)).status).toBe(200);
    const gone = await call<ErrorEnvelope>('DELETE', `/api/marketing/discounts/${d.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body!.error).toBe('Discount code not found');
  });

  it('a date-only end date lasts through that day', () => {
    expect(endDateOf('2026-12-31')!.toISOString()).toBe('2026-12-31T23:59:59.999Z');
    expect(endDateOf(undefined)).toBeNull();
  });
});

describe('redeem and give back over NATS', () => {
  it('redeems once per order: a retried apply uses nothing more; the give-back returns the use once', async () => {
    const d = await create({ type: 'fixed', value: 25, maxUses: 5 });
    const first = await redeem({
      orderId: 'order-a',
      code: d.code.toLowerCase(),
      customerCategory: 'general',
      orderAmountCents: 10_000,
    });
    expect(first).toMatchObject({ newlyRedeemed: true, discountCents: 2500 });
    expect(first.discount.usedCount).toBe(1);
    const retry = await redeem({
      orderId: 'order-a',
      code: d.code,
      customerCategory: 'general',
      orderAmountCents: 10_000,
    });
    expect(retry.newlyRedeemed).toBe(false);
    expect(await usedCount(d.id)).toBe(1);
    // The same order racing itself counts once too.
    await Promise.all(
      Array.from({ length: 5 }, () =>
        redeem({ orderId: 'order-b', code: d.code, customerCategory: 'general', orderAmountCents: 10_000 }),
      ),
    );
    expect(await usedCount(d.id)).toBe(2);

    expect(await release('order-a', d.code)).toEqual({ released: true });
    expect(await release('order-a', d.code)).toEqual({ released: false });
    expect(await usedCount(d.id)).toBe(1);
    expect(await release('never-had-it', d.code)).toEqual({ released: false });
    expect(await usedCount(d.id)).toBe(1);
  });

  it('a fixed discount never exceeds the amount; a percentage rounds to the cent', async () => {
    const fixed = await create({ type: 'fixed', value: 500 });
    expect(
      (await redeem({ orderId: 'small', code: fixed.code, customerCategory: 'general', orderAmountCents: 12_345 }))
        .discountCents,
    ).toBe(12_345);
    const pct = await create({ type: 'percentage', value: 15 });
    expect(
      (await redeem({ orderId: 'pct', code: pct.code, customerCategory: 'general', orderAmountCents: 33_333 }))
        .discountCents,
    ).toBe(5000);
  });

  it('enforces active, start and end dates, minimum order and the category rule', async () => {
    const unknown = await refusalOf(
      redeem({ orderId: 'x', code: 'NOPE', customerCategory: 'general', orderAmountCents: 100 }),
    );
    expect(unknown).toMatchObject({ status: 404, message: 'Discount code not found' });

    const off = await create();
    await call('PATCH', `/api/marketing/discounts/${off.id}`, { isActive: false });
    expect(
      await refusalOf(redeem({ orderId: 'x', code: off.code, customerCategory: 'general', orderAmountCents: 100 })),
    ).toMatchObject({ status: 400, message: 'This discount code is not active' });

    const past = await create({ endDate: '2020-01-01' });
    expect(
      await refusalOf(redeem({ orderId: 'x', code: past.code, customerCategory: 'general', orderAmountCents: 100 })),
    ).toMatchObject({ status: 400, message: 'This discount code has expired' });

    const min = await create({ minOrder: 100 });
    expect(
      await refusalOf(redeem({ orderId: 'x', code: min.code, customerCategory: 'general', orderAmountCents: 9_999 })),
    ).toMatchObject({
      status: 400,
      message: 'This discount code needs an order of at least $100.00',
    });
    expect(
      (await redeem({ orderId: 'x', code: min.code, customerCategory: 'general', orderAmountCents: 10_000 }))
        .newlyRedeemed,
    ).toBe(true);

    const military = await create({ category: 'military' });
    const responder = await create({ category: 'first_responder' });
    const loyalty = await create({ category: 'loyalty' });
    const general = await create({ category: 'general' });
    // General sees every code; military and first responders their own, general and loyalty codes.
    for (const d of [military, responder, loyalty, general])
      expect(
        (await redeem({ orderId: `g-${d.id}`, code: d.code, customerCategory: 'general', orderAmountCents: 100 }))
          .newlyRedeemed,
      ).toBe(true);
    for (const d of [military, loyalty, general])
      expect(
        (await redeem({ orderId: `m-${d.id}`, code: d.code, customerCategory: 'military', orderAmountCents: 100 }))
          .newlyRedeemed,
      ).toBe(true);
    expect(
      await refusalOf(
        redeem({ orderId: 'm-r', code: responder.code, customerCategory: 'military', orderAmountCents: 100 }),
      ),
    ).toMatchObject({
      status: 400,
      message: 'This discount code is not offered to Military Personnel',
    });
    expect(
      await refusalOf(
        redeem({ orderId: 'f-m', code: military.code, customerCategory: 'first_responder', orderAmountCents: 100 }),
      ),
    ).toMatchObject({ status: 400 });

    // Not started yet: the pure rule (a code always starts when it is created).
    expect(
      redeemRefusal(
        {
          isActive: true,
          startDate: new Date(Date.now() + 60_000),
          endDate: null,
          minOrder: null,
          category: 'general',
        },
        { customerCategory: 'general', orderAmountCents: 1, now: new Date() },
      )?.message,
    ).toBe('This discount code is not valid yet');
  });

  it('never exceeds maxUses: 50 simultaneous applies of the last use, exactly 1 succeeds', async () => {
    const d = await create({ maxUses: 3 });
    await redeem({ orderId: 'first', code: d.code, customerCategory: 'general', orderAmountCents: 100 });
    await redeem({ orderId: 'second', code: d.code, customerCategory: 'general', orderAmountCents: 100 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        redeem({ orderId: `race-${i}`, code: d.code, customerCategory: 'general', orderAmountCents: 100 }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const r of lost)
      expect((r.reason as AppError).message).toBe('This discount code has reached its maximum uses');
    expect(await usedCount(d.id)).toBe(3);
    expect(await service.ctx.models.DiscountRedemption.countDocuments({ discountId: d.id })).toBe(3);

    // Giving one back makes exactly one use available again.
    await release('first', d.code);
    const again = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        redeem({ orderId: `again-${i}`, code: d.code, customerCategory: 'general', orderAmountCents: 100 }),
      ),
    );
    expect(again.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await usedCount(d.id)).toBe(3);
  });
});
