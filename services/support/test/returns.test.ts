// Returns with the real parts: the return window from support's projection of the orders service's
// events (published on NATS as orders would), the multipart form with photos checked by content (images
// only, 10 MB each, at most 5), the RET- reference and support.return_requested, the admin list,
// status moves (and refused moves) with support.return_status_changed, and the photo served back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  supportPaths,
  type EventData,
  type ReturnList,
  type returnAnswerSchema,
  type returnCreatedSchema,
} from '@shop/contracts';
import type { z } from 'zod';
import { adminHeaders } from '@shop/service-kit/testing';
import {
  eventually,
  json,
  publishOrderEvent,
  startSupportStack,
  stopSupportStack,
  type SupportStack,
} from './support/harness.js';

type ReturnCreated = z.infer<typeof returnCreatedSchema>;
type ReturnAnswer = z.infer<typeof returnAnswerSchema>;

let stack: SupportStack;
beforeAll(async () => {
  stack = await startSupportStack();
}, 60_000);
afterAll(() => stopSupportStack(stack));

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
let counter = 0;

/** An order as the orders service announces it, optionally shipped `shippedDaysAgo` days ago. */
async function order(shippedDaysAgo?: number, status = 'shipped') {
  counter++;
  const orderNumber = `CC-RET${String(counter).padStart(5, '0')}`;
  const orderId = `order${Date.now()}${counter}`;
  const base = {
    orderId,
    orderNumber,
    customerName: 'Casey Ray',
    email: 'casey@example.com',
    itemType: 'coin' as const,
  };
  const created = new Date(Date.now() - 40 * 86_400_000).toISOString();
  await publishOrderEvent(stack.nats.url, 'order.created', {
    ...base,
    designMethod: 'upload',
    quantity: 100,
    estimatedTotal: 2000,
    customerCategory: 'general',
    taxExempt: false,
    aiGenerated: false,
    subscribeEmail: false,
    subscribeSMS: false,
    status: 'pending_quote',
    submittedDate: created,
  });
  if (shippedDaysAgo !== undefined) {
    await publishOrderEvent(stack.nats.url, 'order.status_changed', {
      ...base,
      previousStatus: 'production',
      status: status as 'shipped',
      changedBy: 'admin@shop.local',
      changedAt: new Date(Date.now() - shippedDaysAgo * 86_400_000).toISOString(),
    });
  }
  await eventually(
    () => stack.service.ctx.models.KnownOrder.findOne({ orderNumber }).lean(),
    (o) => !!o && (shippedDaysAgo === undefined || !!o.shippedAt),
  );
  return orderNumber;
}

function form(fields: Record<string, string>, photos: { name: string; data: Buffer; type?: string }[] = []) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  for (const p of photos) body.append('photos', new Blob([p.data], { type: p.type ?? 'image/png' }), p.name);
  return body;
}
const submit = async <T = ReturnCreated>(body: FormData) => {
  const res = await fetch(`${stack.url}${supportPaths.returns}`, { method: 'POST', body });
  return { status: res.status, body: (await res.json()) as T };
};
const fields = (orderNumber: string, over: Record<string, string> = {}) => ({
  orderNumber: orderNumber.toLowerCase(),
  email: 'Casey@Example.com',
  reason: 'damaged',
  itemCondition: 'shipping_damage',
  description: 'Two coins arrived bent.',
  ...over,
});

describe('POST /api/returns', () => {
  it('accepts a shipped order within 30 days: RET- reference, photos stored, support.return_requested', async () => {
    const number = await order(3);
    const res = await submit(
      form(fields(number), [
        { name: 'bent.png', data: png },
        { name: 'box.png', data: png },
      ]),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      reference: expect.stringMatching(/^RET-\d{6}-[A-Z0-9]{4}$/) as unknown,
      photos: 2,
    });
    const saved = await stack.service.ctx.models.ReturnRequest.findOne({ reference: res.body.reference }).lean();
    expect(saved).toMatchObject({
      orderNumber: number,
      customerName: 'Casey Ray',
      reason: 'damaged',
      status: 'requested',
    });
    expect(await stack.service.ctx.models.ReturnPhoto.countDocuments({ returnId: String(saved!._id) })).toBe(2);
    const events = await stack.supportEvents((all) =>
      all.some((e) => (e.data as { reference?: string }).reference === res.body.reference),
    );
    expect(events.find((e) => (e.data as { reference?: string }).reference === res.body.reference)).toMatchObject({
      type: 'support.return_requested',
      data: { orderNumber: number, email: 'casey@example.com', photoCount: 2, itemCondition: 'shipping_damage' },
    });
  });

  it('refuses a wrong email, an unknown order, an order not shipped, and a closed window', async () => {
    const shipped = await order(3);
    expect(await submit(form(fields(shipped, { email: 'someone@example.com' })))).toMatchObject({
      status: 404,
      body: { error: expect.stringContaining('could not find an order') as unknown },
    });
    expect((await submit(form(fields('CC-NOPE0000')))).status).toBe(404);
    const notShipped = await order();
    expect(await submit(form(fields(notShipped)))).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('has not shipped yet') as unknown },
    });
    const old = await order(31);
    expect(await submit(form(fields(old)))).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('30-day return window') as unknown },
    });
  });

  it('checks the fields and the photos: description required, known reasons, images only by content, 10 MB, at most 5', async () => {
    const number = await order(1);
    expect(await submit(form(fields(number, { description: '  ' })))).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('description is required') as unknown },
    });
    expect(await submit(form(fields(number, { reason: 'changed_mind' })))).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('reason must be one of') as unknown },
    });
    const fake = await submit(
      form(fields(number), [{ name: 'photo.png', data: Buffer.from('MZ this is a program, not a photo') }]),
    );
    expect(fake).toMatchObject({
      status: 415,
      body: { error: '"photo.png" is not a photo. Please attach images only (JPG, PNG, GIF or WEBP).' },
    });
    const pdf = await submit(
      form(fields(number), [
        {
          name: 'scan.pdf',
          data: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF'),
          type: 'application/pdf',
        },
      ]),
    );
    expect(pdf.status).toBe(415);
    const big = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024)]);
    expect(await submit(form(fields(number), [{ name: 'huge.png', data: big }]))).toMatchObject({
      status: 413,
      body: { error: expect.stringContaining('10 MB') as unknown },
    });
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `p${i}.png`, data: png }));
    expect(await submit(form(fields(number), six))).toMatchObject({
      status: 413,
      body: { error: 'At most 5 photos can be attached to a return.' },
    });
    const json = await fetch(`${stack.url}${supportPaths.returns}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    expect(await stack.service.ctx.models.ReturnRequest.countDocuments({ orderNumber: number })).toBe(0);
    expect(await stack.service.ctx.models.ReturnPhoto.countDocuments({ returnId: { $exists: true } })).toBe(
      await stack.service.ctx.models.ReturnRequest.aggregate([{ $unwind: '$photos' }]).then((r) => r.length),
    );
  });
});

describe('the back office', () => {
  it('lists returns, moves one through approved -> received -> refunded (each announced), refuses other moves, serves photos', async () => {
    const number = await order(2);
    const created = await submit(form(fields(number), [{ name: 'bent.png', data: png }]));
    const list = await json<ReturnList>(`${stack.url}/api/returns?search=${number}`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      total: 1,
      returns: [
        {
          reference: created.body.reference,
          status: 'requested',
          photos: [{ filename: 'bent.png', mimetype: 'image/png' }],
        },
      ],
    });
    const item = list.body.returns[0];
    const photo = await fetch(`${stack.url}${item.photos[0].url}`, { headers: adminHeaders('admin@shop.local') });
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(photo.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await photo.arrayBuffer()).equals(png)).toBe(true);
    expect(
      (await fetch(`${stack.url}/api/returns/${item.id}/photos/nope`, { headers: adminHeaders('admin@shop.local') }))
        .status,
    ).toBe(404);

    const patch = (status: string, note?: string) =>
      json<ReturnAnswer>(`${stack.url}${supportPaths.returnItem(item.id)}`, {
        method: 'PATCH',
        json: { status, ...(note ? { note } : {}) },
      });
    expect(await patch('refunded')).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('cannot become Refunded') as unknown },
    });
    expect((await patch('approved', 'Label attached')).body.return).toMatchObject({ status: 'approved' });
    expect((await patch('received')).body.return.status).toBe('received');
    const done = await patch('refunded');
    expect(done.body.return.history.map((h) => h.status)).toEqual(['requested', 'approved', 'received', 'refunded']);
    expect(await patch('rejected')).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('it is closed') as unknown },
    });
    expect((await patch('shipped')).status).toBe(400);
    expect(
      (await json(`${stack.url}/api/returns/unknown`, { method: 'PATCH', json: { status: 'approved' } })).status,
    ).toBe(404);

    const events = await stack.supportEvents(
      (all) =>
        all.filter(
          (e) =>
            e.type === 'support.return_status_changed' &&
            (e.data as { reference?: string }).reference === created.body.reference,
        ).length === 3,
    );
    const moves = events
      .filter(
        (e) =>
          e.type === 'support.return_status_changed' &&
          (e.data as { reference?: string }).reference === created.body.reference,
      )
      .map((e) => e.data as EventData<'support.return_status_changed'>);
    expect(moves.map((m) => [m.previousStatus, m.status])).toEqual([
      ['requested', 'approved'],
      ['approved', 'received'],
      ['received', 'refunded'],
    ]);
    expect(moves[0]).toMatchObject({
      note: 'Label attached',
      email: 'casey@example.com',
      changedBy: 'admin@shop.local',
    });
    expect(
      (await json<ReturnList>(`${stack.url}/api/returns?status=refunded`)).body.returns.map((r) => r.reference),
    ).toContain(created.body.reference);
  });
});
