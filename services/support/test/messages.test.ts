// Support messages over HTTP with the real parts: POST /api/support (validation, MSG- reference,
// respond-by from the contact config's hours, support.message_created in the outbox), the admin inbox
// (paging, search, filters, summary, overdue), status and notes, replies (support.replied only for
// the shop's replies) and delete.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  supportPaths,
  type ErrorEnvelope,
  type SupportList,
  type SupportMessageCreated,
  type supportMessageAnswerSchema,
} from '@shop/contracts';
import type { z } from 'zod';
import { gatewayHeaders } from '@shop/service-kit/testing';
import { json, startSupportStack, stopSupportStack, type SupportStack } from './support/harness.js';

type SupportMessageAnswer = z.infer<typeof supportMessageAnswerSchema>;

let stack: SupportStack;
beforeAll(async () => {
  stack = await startSupportStack();
}, 60_000);
afterAll(() => stopSupportStack(stack));
beforeEach(async () => {
  await stack.service.ctx.models.SupportMessage.deleteMany({});
  await stack.service.ctx.models.ContactConfig.deleteMany({});
});

/** A customer's message: the gateway's token without an admin in it (replacing the harness's admin one). */
const send = <T = SupportMessageCreated>(body: Record<string, unknown>) =>
  json<T>(`${stack.url}${supportPaths.messages}`, { method: 'POST', json: body, headers: gatewayHeaders() });
const message = (over: Record<string, unknown> = {}) => ({
  name: 'Pat Doe',
  email: 'pat@example.com',
  orderNumber: 'cc-abc12345',
  subject: 'Coin edge question',
  message: 'Can the edge be diamond cut?',
  priority: 'high',
  ...over,
});

describe('POST /api/support', () => {
  it('stores the message with a server-made MSG- reference and publishes support.message_created', async () => {
    const before = Date.now();
    const res = await send(message());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      reference: expect.stringMatching(/^MSG-\d{6}-[A-Z0-9]{4}$/) as unknown,
    });
    // No hours published: the promise counts clock hours (4 on weekdays, 24 on weekends).
    const due = new Date(res.body.respondBy).getTime() - before;
    expect([4, 24].some((h) => Math.abs(due - h * 3_600_000) < 60_000)).toBe(true);
    const stored = await stack.service.ctx.models.SupportMessage.findOne({ reference: res.body.reference }).lean();
    expect(stored).toMatchObject({ name: 'Pat Doe', orderNumber: 'CC-ABC12345', status: 'open', priority: 'high' });
    const events = await stack.supportEvents((all) =>
      all.some((e) => (e.data as { reference?: string }).reference === res.body.reference),
    );
    const created = events.find((e) => (e.data as { reference?: string }).reference === res.body.reference)!;
    expect(created.type).toBe('support.message_created');
    expect(created.data).toMatchObject({
      messageId: String(stored!._id),
      email: 'pat@example.com',
      subject: 'Coin edge question',
      priority: 'high',
      respondBy: res.body.respondBy,
    });
  });

  it('the order number is optional and priority defaults to normal', async () => {
    const res = await send(message({ orderNumber: '', priority: undefined }));
    expect(res.status).toBe(201);
    expect(
      await stack.service.ctx.models.SupportMessage.findOne({ reference: res.body.reference }).lean(),
    ).toMatchObject({ orderNumber: null, priority: 'normal' });
  });

  it('refuses missing fields, a bad email and an unknown priority with a 400 naming them; nothing stored', async () => {
    for (const [body, words] of [
      [message({ name: '  ' }), 'name is required'],
      [message({ email: 'not-an-email' }), 'email must be a valid email address'],
      [message({ subject: undefined }), 'subject'],
      [message({ message: '' }), 'message is required'],
      [message({ priority: 'asap' }), 'priority'],
    ] as const) {
      const res = await send<ErrorEnvelope>(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(words);
    }
    expect(await stack.service.ctx.models.SupportMessage.countDocuments()).toBe(0);
  });

  it('respond-by follows the published weekday hours', async () => {
    await stack.service.ctx.models.ContactConfig.create({
      _id: 'contact',
      supportEmail: 'help@shop.test',
      supportHours: { weekday: 'Mon-Fri 0:00-23:59 UTC', weekend: 'closed', showHours: true },
    });
    const res = await send(message());
    const stored = await stack.service.ctx.models.SupportMessage.findOne({ reference: res.body.reference }).lean();
    expect(stored!.respondBy.toISOString()).toBe(res.body.respondBy);
  });
});

describe('the admin inbox', () => {
  it('lists newest first with paging, search, filters and the summary over everything', async () => {
    const refs: string[] = [];
    for (const [i, priority] of (['low', 'normal', 'high', 'urgent', 'urgent'] as const).entries()) {
      refs.push(
        (await send(message({ subject: `Question ${i}`, priority, email: `p${i}@example.com` }))).body.reference,
      );
    }
    const ids = (await stack.service.ctx.models.SupportMessage.find({}).sort({ submittedDate: 1 }).lean()).map((m) =>
      String(m._id),
    );
    await json(`${stack.url}${supportPaths.message(ids[0])}`, { method: 'PATCH', json: { status: 'resolved' } });
    await json(`${stack.url}${supportPaths.message(ids[1])}`, { method: 'PATCH', json: { status: 'in_progress' } });
    await json(`${stack.url}${supportPaths.message(ids[2])}`, { method: 'PATCH', json: { status: 'closed' } });

    const all = await json<SupportList>(`${stack.url}/api/support?pageSize=2`);
    expect(all.status).toBe(200);
    expect(all.body.summary).toEqual({
      total: 5,
      open: 2,
      inProgress: 1,
      resolved: 1,
      closed: 1,
      high: 1,
      urgent: 2,
      overdue: 0,
    });
    expect(all.body).toMatchObject({ page: 1, pageSize: 2, total: 5, totalPages: 3 });
    expect(all.body.messages.map((m) => m.subject)).toEqual(['Question 4', 'Question 3']);
    expect(
      (await json<SupportList>(`${stack.url}/api/support?pageSize=2&page=3`)).body.messages.map((m) => m.subject),
    ).toEqual(['Question 0']);

    const urgent = await json<SupportList>(`${stack.url}/api/support?priority=urgent`);
    expect(urgent.body.total).toBe(2);
    expect(urgent.body.summary.total).toBe(5);
    expect(
      (await json<SupportList>(`${stack.url}/api/support?status=in_progress`)).body.messages.map((m) => m.subject),
    ).toEqual(['Question 1']);
    expect(
      (await json<SupportList>(`${stack.url}/api/support?search=p3@EXAMPLE`)).body.messages.map((m) => m.subject),
    ).toEqual(['Question 3']);
    expect((await json<SupportList>(`${stack.url}/api/support?search=${refs[2]}`)).body.total).toBe(1);
    // A search is literal text, never a pattern.
    expect((await json<SupportList>(`${stack.url}/api/support?search=.*`)).body.total).toBe(0);
    expect((await json(`${stack.url}/api/support?status=lost`)).status).toBe(400);
    expect((await json(`${stack.url}/api/support?pageSize=1000`)).status).toBe(400);
  });

  it('shows what is overdue until someone from the shop answers', async () => {
    const ref = (await send(message())).body.reference;
    await stack.service.ctx.models.SupportMessage.updateOne(
      { reference: ref },
      { $set: { respondBy: new Date(Date.now() - 60_000) } },
    );
    const list = await json<SupportList>(`${stack.url}/api/support?overdue=true`);
    expect(list.body.summary.overdue).toBe(1);
    expect(list.body.messages).toHaveLength(1);
    expect(list.body.messages[0]).toMatchObject({ reference: ref, overdue: true, firstResponseAt: null });
    const id = list.body.messages[0].id;
    // A note about the customer's own follow-up does not answer them.
    await json(`${stack.url}${supportPaths.responses(id)}`, {
      method: 'POST',
      json: { content: 'Customer called too', isFromAdmin: false, authorName: 'Pat Doe' },
    });
    expect((await json<SupportList>(`${stack.url}/api/support`)).body.summary.overdue).toBe(1);
    await json(`${stack.url}${supportPaths.responses(id)}`, {
      method: 'POST',
      json: { content: 'Yes, it can.', isFromAdmin: true },
    });
    const after = await json<SupportList>(`${stack.url}/api/support`);
    expect(after.body.summary.overdue).toBe(0);
    expect(after.body.messages[0]).toMatchObject({ overdue: false, firstResponseAt: expect.any(String) as unknown });
  });

  it('PATCH changes status and notes; bad input and unknown ids are 4xx', async () => {
    await send(message());
    const [doc] = await stack.service.ctx.models.SupportMessage.find({}).lean();
    const url = `${stack.url}${supportPaths.message(String(doc._id))}`;
    const res = await json<SupportMessageAnswer>(url, {
      method: 'PATCH',
      json: { status: 'in_progress', adminNotes: 'Asked the mint' },
    });
    expect(res.status).toBe(200);
    expect(res.body.supportMessage).toMatchObject({
      status: 'in_progress',
      adminNotes: 'Asked the mint',
      reference: doc.reference,
    });
    expect((await json(url, { method: 'PATCH', json: { status: 'done' } })).status).toBe(400);
    expect((await json(url, { method: 'PATCH', json: {} })).status).toBe(400);
    expect(
      (await json(`${stack.url}/api/support/000000000000000000000000`, { method: 'PATCH', json: { status: 'closed' } }))
        .status,
    ).toBe(404);
    expect(
      (await json<ErrorEnvelope>(`${stack.url}/api/support/not-an-id`, { method: 'PATCH', json: { status: 'closed' } }))
        .body.error,
    ).toBe('Support message not found');
  });

  it('a reply joins the conversation and is announced for the customer email; empty replies are refused', async () => {
    const ref = (await send(message())).body.reference;
    const doc = await stack.service.ctx.models.SupportMessage.findOne({ reference: ref }).lean();
    const url = `${stack.url}${supportPaths.responses(String(doc!._id))}`;
    expect((await json(url, { method: 'POST', json: { content: '   ', isFromAdmin: true } })).status).toBe(400);
    const res = await json<SupportMessageAnswer>(url, {
      method: 'POST',
      json: { content: 'Yes, diamond cut is available.', isFromAdmin: true, authorName: 'Sam' },
    });
    expect(res.status).toBe(200);
    expect(res.body.supportMessage.responses).toEqual([
      {
        id: expect.any(String) as unknown,
        content: 'Yes, diamond cut is available.',
        isFromAdmin: true,
        authorName: 'Sam',
        timestamp: expect.any(String) as unknown,
      },
    ]);
    const events = await stack.supportEvents((all) =>
      all.some((e) => e.type === 'support.replied' && (e.data as { reference?: string }).reference === ref),
    );
    expect(
      events.find((e) => e.type === 'support.replied' && (e.data as { reference?: string }).reference === ref)!.data,
    ).toMatchObject({
      messageId: String(doc!._id),
      email: 'pat@example.com',
      subject: 'Coin edge question',
      content: 'Yes, diamond cut is available.',
      authorName: 'Sam',
    });
    // Without a name the signed-in admin signs the reply.
    const second = await json<SupportMessageAnswer>(url, { method: 'POST', json: { content: 'Proof attached.' } });
    expect(second.body.supportMessage.responses[1]).toMatchObject({
      isFromAdmin: true,
      authorName: 'admin@shop.local',
    });
  });

  it('DELETE removes the message; a second delete is 404', async () => {
    await send(message());
    const [doc] = await stack.service.ctx.models.SupportMessage.find({}).lean();
    const url = `${stack.url}${supportPaths.message(String(doc._id))}`;
    expect(await json(url, { method: 'DELETE' })).toEqual({
      status: 200,
      body: { success: true, id: String(doc._id) },
    });
    expect((await json(url, { method: 'DELETE' })).status).toBe(404);
    expect(await stack.service.ctx.models.SupportMessage.countDocuments()).toBe(0);
  });
});
