// The services' JSON body parser reads most bodies without a reviver and still refuses a `__proto__` or
// `constructor` key however it is spelled (a \u escape decodes to the same key). Built, not started:
// the /shaped route answers without MongoDB or NATS.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '@shop/contracts';
import { buildOrdersLike, type OrdersLikeService } from './helpers.js';

let service: OrdersLikeService;

beforeAll(async () => {
  ({ service } = await buildOrdersLike('mongodb://127.0.0.1:1/unused', 'nats://127.0.0.1:1'));
});
afterAll(async () => {
  await service.app.close();
});

const post = (payload: string) =>
  service.app.inject({
    method: 'POST',
    url: '/shaped',
    headers: { 'content-type': 'application/json' },
    payload,
  });

it('reads a plain body, and one that only mentions the words as values', async () => {
  expect((await post('{"email":"a@b.co"}')).json()).toEqual({ ok: true });
  expect((await post('{"email":"constructor __proto__ \\\\u0041"}')).json()).toEqual({ ok: true });
});

it.each([
  ['__proto__', '{"email":"a@b.co","\\u005f_proto__":{"admin":true}}'],
  ['constructor', '{"email":"a@b.co","\\u0063onstructor":{"prototype":{"admin":true}}}'],
  ['__proto__', '{"email":"a@b.co","nested":{"__proto__":{"admin":true}}}'],
])('refuses a %s key written %s', async (key, payload) => {
  const res = await post(payload);
  expect(res.statusCode).toBe(400);
  expect(errorEnvelopeSchema.parse(res.json()).error).toContain(`"${key}"`);
});
