// Back-office order management over real HTTP against the service on the embedded MongoDB and a real
// nats-server: the list (paging, tabs and counts, search, filters, sort, summary cards) on a known data
// set, every modal's effect, bulk actions, CSV content parsed back, analytics figures with
// period-over-period changes, the events through a real JetStream consumer, and the email history
// projection fed by email.sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { parse } from 'csv-parse/sync';
import {
  adminAnalyticsResponseSchema,
  adminCsvColumns,
  adminOrderListResponseSchema,
  adminOrderResponseSchema,
  createEvent,
  erasedText,
  eventSubject,
  type AdminBulkResult,
  type AdminEmailQueuedResponse,
  type AdminOrderResponse,
  type ErrorEnvelope,
  type TrackResponse,
} from '@shop/contracts';
import { orderEventsReader, postJson, startHarness, type Harness } from './helpers.js';
import { adminHeaders } from '@shop/service-kit/testing';

let h: Harness;
let nc: NatsConnection;
let readEvents: Awaited<ReturnType<typeof orderEventsReader>>;
const day = 24 * 60 * 60 * 1000;
const now = Date.now();
const admin = adminHeaders('boss@shop.test');

function orderDoc(id: string, n: Partial<Record<string, unknown>> & { daysAgo: number }) {
  const { daysAgo, ...rest } = n;
  const created = new Date(now - daysAgo * day);
  const email = String(rest.email);
  return {
    _id: id,
    emailKey: email.toLowerCase(),
    designMethod: 'describe',
    description: 'A test order description',
    colors: ['Gold'],
    finish: 'antique_gold',
    features: [],
    files: [],
    aiGenerated: false,
    subscribeEmail: false,
    subscribeSMS: false,
    customerCategory: 'general',
    taxExempt: false,
    customizer: false,
    statusHistory: [{ status: rest.status, date: created, changedBy: 'customer' }],
    quote: null,
    discount: null,
    tracking: null,
    payment: null,
    notes: '',
    adminNotes: '',
    emailHistory: [],
    createdAt: created,
    updatedAt: new Date(created.getTime() + 60_000),
    ...rest,
  };
}

// The known data set. Totals: completed 1000 + 250; not cancelled 1000+500+2000+250+600.
const data = [
  orderDoc('o1', {
    orderNumber: 'CC-AAAA0001',
    customerName: 'Alice Smith',
    email: 'alice@example.com',
    itemType: 'coin',
    quantity: 50,
    status: 'completed',
    estimatedTotal: 1000,
    daysAgo: 2,
  }),
  orderDoc('o2', {
    orderNumber: 'PT-BBBB0002',
    customerName: 'Bob Jones',
    email: 'Bob@Example.com',
    itemType: 'patch',
    quantity: 100,
    status: 'pending_quote',
    estimatedTotal: 500,
    daysAgo: 3,
    shippingAddress: { line1: '1 Main St', line2: '', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
  }),
  orderDoc('o3', {
    orderNumber: 'TS-CCCC0003',
    customerName: 'Carol (test) +1',
    email: 'carol@example.com',
    itemType: 'shirt',
    quantity: 12,
    status: 'cancelled',
    estimatedTotal: 300,
    daysAgo: 5,
  }),
  orderDoc('o4', {
    orderNumber: 'CC-DDDD0004',
    customerName: "=cmd|' /C calc'!A0",
    email: 'dan@example.com',
    itemType: 'coin',
    quantity: 200,
    status: 'shipped',
    estimatedTotal: 2000,
    daysAgo: 10,
  }),
  orderDoc('o5', {
    orderNumber: 'PT-EEEE0005',
    customerName: 'Eve Adams',
    email: 'eve@example.com',
    itemType: 'patch',
    quantity: 30,
    status: 'completed',
    estimatedTotal: 250,
    daysAgo: 40,
  }),
  orderDoc('o6', {
    orderNumber: 'CC-FFFF0006',
    customerName: 'Frank Miller',
    email: 'frank@example.com',
    itemType: 'coin',
    quantity: 60,
    status: 'pending',
    estimatedTotal: 600,
    daysAgo: 45,
  }),
];

beforeAll(async () => {
  h = await startHarness();
  nc = await connect({ servers: h.nats.url });
  await h.service.ctx.models.Order.collection.insertMany(data as never[]);
  readEvents = await orderEventsReader(nc, 'admin-test');
}, 60_000);

afterAll(async () => {
  await nc?.close();
  await h?.stop();
});

const base = () => `${h.url}/api/orders`;
/** A GET as the admin; the body parsed when JSON (else the text), typed as the caller says the route answers. */
async function get<Body = unknown>(path: string) {
  const res = await fetch(`${base()}${path}`, { headers: admin });
  const text = await res.text();
  return {
    status: res.status,
    body: (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as Body,
    headers: res.headers,
  };
}
/** A JSON request as the admin; the body typed as the caller says the route answers (unknown unless told). */
async function send<Body = unknown>(method: string, path: string, body: unknown) {
  const res = await fetch(`${base()}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...admin },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Body };
}

async function list(query: string) {
  const res = await get(query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return adminOrderListResponseSchema.parse(res.body);
}

describe('orders list', () => {
  it('pages, counts per tab and computes the summary cards', async () => {
    const first = await list('?pageSize=4');
    expect(first.total).toBe(6);
    expect(first.totalPages).toBe(2);
    expect(first.orders.map((o) => o.orderNumber)).toEqual([
      'CC-AAAA0001',
      'PT-BBBB0002',
      'TS-CCCC0003',
      'CC-DDDD0004',
    ]);
    const second = await list('?pageSize=4&page=2');
    expect(second.orders.map((o) => o.orderNumber)).toEqual(['PT-EEEE0005', 'CC-FFFF0006']);
    expect(first.counts).toMatchObject({
      all: 6,
      completed: 2,
      pending_quote: 1,
      cancelled: 1,
      shipped: 1,
      pending: 1,
      paid: 0,
    });
    // 'Pending Review' is the label of pending: the card counts what that tab counts (not pending_quote).
    expect(first.summary).toEqual({ totalOrders: 6, completedRevenue: 1250, averageOrderValue: 870, pendingReview: 1 });
  });

  it('filters by tab, item type and dates; counts follow the other filters', async () => {
    const completed = await list('?status=completed');
    expect(completed.orders.map((o) => o.id).sort()).toEqual(['o1', 'o5']);
    const coins = await list('?itemType=coin');
    expect(coins.total).toBe(3);
    expect(coins.counts).toMatchObject({ all: 3, completed: 1, shipped: 1, pending: 1, pending_quote: 0 });
    const iso = (d: number) => new Date(now - d * day).toISOString().slice(0, 10);
    const window = await list(`?startDate=${iso(11)}&endDate=${iso(3)}`);
    expect(window.orders.map((o) => o.id).sort()).toEqual(['o2', 'o3', 'o4']);
  });

  it('searches number, name and email case-insensitively, literally', async () => {
    expect((await list('?search=bob%40EXAMPLE')).orders.map((o) => o.id)).toEqual(['o2']);
    expect((await list('?search=cccc')).orders.map((o) => o.id)).toEqual(['o3']);
    expect((await list(`?search=${encodeURIComponent('(test) +1')}`)).orders.map((o) => o.id)).toEqual(['o3']);
    expect((await list(`?search=${encodeURIComponent('.*')}`)).total).toBe(0);
    expect((await list('?search=frank')).counts.all).toBe(1);
  });

  it('sorts by the sortable columns both ways', async () => {
    expect((await list('?sortBy=total&sortDir=asc')).orders.map((o) => o.estimatedTotal)).toEqual([
      250, 300, 500, 600, 1000, 2000,
    ]);
    expect((await list('?sortBy=quantity&sortDir=desc')).orders[0].quantity).toBe(200);
    expect((await list('?sortBy=customerName&sortDir=asc')).orders[1].customerName).toBe('Alice Smith');
    expect((await list('?sortBy=submittedDate&sortDir=asc')).orders[0].id).toBe('o6');
  });

  it('is the spec call GET /api/orders (success, orders); the old /api/orders/admin paths are gone (one path per operation)', async () => {
    const res = await fetch(`${h.url}/api/orders`, { headers: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, orders: expect.any(Array) as unknown, counts: { all: 6 } });
    for (const [method, path] of [
      ['GET', '/api/orders/admin/orders'],
      ['GET', '/api/orders/admin/orders/o2'],
      ['PUT', '/api/orders/admin/orders/o2/status'],
      ['GET', '/api/orders/admin/analytics'],
      ['PATCH', '/api/orders/o2'],
      ['PUT', '/api/orders/o2/notes'],
      ['POST', '/api/orders/o2/quote'],
      ['POST', '/api/orders/o2/emails'],
    ] as const) {
      const old = await fetch(`${h.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...admin },
        body: method === 'GET' ? undefined : '{}',
      });
      expect(old.status, `${method} ${path}`).toBe(404);
    }
  });

  it('refuses a page size over 100 and an unknown tab with a clear 400', async () => {
    const big = await get<ErrorEnvelope>('?pageSize=101');
    expect(big.status).toBe(400);
    expect(big.body.error).toMatch(/pageSize/);
    expect((await get('?status=lost')).status).toBe(400);
  });
});

describe('analytics', () => {
  it('7 days: figures and changes against the 7 days before', async () => {
    const res = await get('/analytics?period=7d');
    expect(res.status).toBe(200);
    const a = adminAnalyticsResponseSchema.parse(res.body).analytics;
    expect(a).toMatchObject({
      totalOrders: 3,
      revenue: 1000,
      averageOrderValue: 750,
      pendingRevenue: 500,
      completionRate: 33.3,
    });
    // Previous 7 days: one shipped order of 2000, no revenue.
    expect(a.ordersChange).toBe(200);
    expect(a.revenueChange).toBeNull();
    expect(a.averageOrderValueChange).toBe(-62.5);
  });

  it('30 days: status distribution, item types, monthly orders, changes', async () => {
    const a = adminAnalyticsResponseSchema.parse((await get('/analytics?period=30d')).body).analytics;
    expect(a.totalOrders).toBe(4);
    expect(a.monthlyOrders).toBe(4);
    expect(a.revenue).toBe(1000);
    expect(a.revenueChange).toBe(300);
    expect(a.ordersChange).toBe(100);
    expect(a.averageOrderValue).toBe(1166.67);
    expect(a.averageOrderValueChange).toBe(174.5);
    expect(a.statusDistribution.map((s) => [s.status, s.count])).toEqual([
      ['pending_quote', 1],
      ['shipped', 1],
      ['completed', 1],
      ['cancelled', 1],
    ]);
    expect(a.itemTypePerformance).toEqual([
      { itemType: 'coin', orders: 2, quantity: 250, revenue: 1000, averageValue: 1500 },
      { itemType: 'patch', orders: 1, quantity: 100, revenue: 0, averageValue: 500 },
      { itemType: 'shirt', orders: 1, quantity: 12, revenue: 0, averageValue: 0 },
    ]);
    expect(a.recentActivity.map((o) => o.id)).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
  });

  it('all time has no comparison; a bad period is a 400', async () => {
    const a = adminAnalyticsResponseSchema.parse((await get('/analytics?period=total')).body).analytics;
    expect(a).toMatchObject({ totalOrders: 6, revenue: 1250, from: null, revenueChange: null, ordersChange: null });
    expect((await get('/analytics?period=90d')).status).toBe(400);
  });
});

describe('CSV export', () => {
  it('streams the filtered orders with the spec columns and neutralises formulas', async () => {
    const res = await get<string>('/export.csv?itemType=coin&sortBy=total&sortDir=desc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="tactical-gear-co-orders-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    const rows = parse(res.body);
    expect(rows[0]).toEqual([...adminCsvColumns]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['CC-DDDD0004', 'CC-AAAA0001', 'CC-FFFF0006']);
    expect(rows[1]).toEqual([
      'CC-DDDD0004',
      "'=cmd|' /C calc'!A0",
      'dan@example.com',
      'coin',
      '200',
      'Shipped',
      '2000.00',
      data[3].createdAt.toISOString(),
    ]);
  });
});

describe('order modals', () => {
  it('details, and 404 for an unknown order', async () => {
    const res = await get('/o2/details');
    expect(res.status).toBe(200);
    const order = adminOrderResponseSchema.parse(res.body).order;
    expect(order).toMatchObject({
      orderNumber: 'PT-BBBB0002',
      statusLabel: 'Quote Pending',
      emailHistory: [],
      adminNotes: '',
    });
    const missing = await get<ErrorEnvelope>('/nope/details');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Order not found.');
  });

  it('edit: quantity integer, total decimal, invalid becomes 0', async () => {
    let res = await send<AdminOrderResponse>('PUT', '/o6/details', {
      quantity: '75.9',
      total: '812.5',
      description: 'Changed',
    });
    expect(res.body.order).toMatchObject({ quantity: 75, estimatedTotal: 812.5, description: 'Changed' });
    res = await send<AdminOrderResponse>('PUT', '/o6/details', { quantity: 'many', total: 'lots' });
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ quantity: 0, estimatedTotal: 0 });
    expect((await send('PUT', '/o6/details', { status: 'paid' })).status).toBe(400);
  });

  it('status: any to any, recorded with the admin, order.status_changed once', async () => {
    const res = await send('PUT', '/o3/status', { status: 'design_review', note: 'Reopened' });
    expect(res.status).toBe(200);
    const order = adminOrderResponseSchema.parse(res.body).order;
    expect(order.status).toBe('design_review');
    expect(order.timeline.at(-1)).toMatchObject({
      status: 'design_review',
      changedBy: 'admin:boss@shop.test',
      note: 'Reopened',
    });
    expect(order.emailHistory[0]).toMatchObject({ type: 'status_update', status: 'queued', to: 'carol@example.com' });
    expect((await send('PUT', '/o3/status', { status: 'bogus' })).status).toBe(400);
    const all = await readEvents((e) =>
      e.some((x) => x.type === 'order.status_changed' && (x.data as { orderId: string }).orderId === 'o3'),
    );
    const changed = all.filter(
      (x) => x.type === 'order.status_changed' && (x.data as { orderId: string }).orderId === 'o3',
    );
    expect(changed).toHaveLength(1);
    expect(changed[0].data).toMatchObject({
      previousStatus: 'cancelled',
      status: 'design_review',
      changedBy: 'admin:boss@shop.test',
      emailRecordId: order.emailHistory[0].id,
    });
  });

  it('notes and tracking (seen by the customer on /track)', async () => {
    const notes = await send<AdminOrderResponse>('PUT', '/o4/details', { adminNotes: 'Rush job' });
    expect(notes.body.order).toMatchObject({ adminNotes: 'Rush job', adminNotesUpdatedBy: 'admin:boss@shop.test' });
    const missing = await send<ErrorEnvelope>('PUT', '/o4/tracking', { carrier: 'UPS', trackingNumber: '   ' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/Tracking number is required/);
    const ok = await send<AdminOrderResponse>('PUT', '/o4/tracking', {
      carrier: 'FEDEX',
      trackingNumber: '7712 3456',
      estimatedDelivery: '2026-12-24',
    });
    expect(ok.body.order.tracking).toEqual({
      carrier: 'FEDEX',
      trackingNumber: '7712 3456',
      estimatedDelivery: '2026-12-24T00:00:00.000Z',
    });
    const defaulted = await send<AdminOrderResponse>('PUT', '/o1/tracking', { trackingNumber: '1Z999' });
    expect(defaulted.body.order.tracking?.carrier).toBe('UPS');
    const tracked = await postJson<TrackResponse>(`${h.url}/api/orders/track`, {
      orderNumber: 'cc-dddd0004',
      email: 'DAN@example.com',
    });
    expect(tracked.body.order.tracking).toEqual({
      carrier: 'FEDEX',
      trackingNumber: '7712 3456',
      estimatedDelivery: '2026-12-24T00:00:00.000Z',
    });
  });

  it('Apply Quote: amount > 0, tax from the shipping state, status quote_sent, expiry in 30 days, order.quote_sent with the payment path', async () => {
    expect((await send('POST', '/o2/generate-quote', { quoteAmount: 0 })).status).toBe(400);
    expect((await send('POST', '/o2/generate-quote', { quoteAmount: 'abc' })).status).toBe(400);
    const silent = await send<ErrorEnvelope>('POST', '/o2/generate-quote', { quoteAmount: 750.5, sendEmail: false });
    expect(silent.status).toBe(400);
    expect(silent.body.error).toMatch(/always emailed/);
    const res = await send('POST', '/o2/generate-quote', {
      quoteAmount: 750.5,
      quoteNotes: 'Includes rush',
      sendEmail: true,
    });
    expect(res.status).toBe(200);
    const order = adminOrderResponseSchema.parse(res.body).order;
    expect(order).toMatchObject({ status: 'quote_sent', estimatedTotal: 750.5, finalAmount: 797.41 });
    // TX 6.25% of 750.50 = 46.90625, rounded to the cent.
    expect(order.quote).toMatchObject({
      amount: 750.5,
      notes: 'Includes rush',
      taxRate: 0.0625,
      taxAmount: 46.91,
      finalAmount: 797.41,
      paymentPath: '/order/pay/o2',
    });
    const stored = await h.service.ctx.models.Order.findById('o2').lean();
    expect(stored!.quote!.taxBasis).toBe('TX state sales tax');
    const validDays = (Date.parse(order.quote!.expiresAt) - Date.parse(order.quote!.sentAt)) / day;
    expect(validDays).toBe(30);
    const all = await readEvents((e) => e.some((x) => x.type === 'order.quote_sent'));
    const quotes = all.filter((x) => x.type === 'order.quote_sent');
    expect(quotes).toHaveLength(1);
    expect(quotes[0].data).toMatchObject({
      orderId: 'o2',
      quoteAmount: 750.5,
      taxRate: 0.0625,
      taxAmount: 46.91,
      finalAmount: 797.41,
      paymentPath: '/order/pay/o2',
      email: 'Bob@Example.com',
    });
  });

  it('Apply Quote: a tax-exempt order pays no tax, and an order without address is quoted untaxed', async () => {
    await h.service.ctx.models.Order.updateOne(
      { _id: 'o6' },
      {
        $set: {
          taxExempt: true,
          shippingAddress: {
            line1: '1 Base Rd',
            line2: '',
            city: 'Norfolk',
            state: 'VA',
            postalCode: '23511',
            country: 'US',
          },
        },
      },
    );
    const exempt = await send<AdminOrderResponse>('POST', '/o6/generate-quote', { quoteAmount: 600 });
    expect(exempt.body.order.quote).toMatchObject({ taxRate: 0, taxAmount: 0, finalAmount: 600 });
    await h.service.ctx.models.Order.updateOne({ _id: 'o6' }, { $set: { taxExempt: false } });
    const taxed = await send<AdminOrderResponse>('POST', '/o6/generate-quote', { quoteAmount: 600 });
    expect(taxed.body.order.quote).toMatchObject({ taxRate: 0.053, taxAmount: 31.8, finalAmount: 631.8 });
  });

  it('Apply Quote while payments does not answer: 503 with a clear message, nothing stored', async () => {
    const before = await h.service.ctx.models.Order.findById('o1').lean();
    await h.payments.answering('tax', false);
    try {
      const res = await send<ErrorEnvelope>('POST', '/o1/generate-quote', { quoteAmount: 900 });
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('Tax rates are unavailable right now. Please try again in a moment.');
    } finally {
      await h.payments.answering('tax', true);
    }
    const after = await h.service.ctx.models.Order.findById('o1').lean();
    expect(after).toEqual(before);
  });

  it('info request and send email: events, queued history, then sent when email.sent arrives (once)', async () => {
    expect((await send('POST', '/o5/info-request', { message: '  ' })).status).toBe(400);
    const info = await send<AdminEmailQueuedResponse>('POST', '/o5/info-request', { message: 'Which colours?' });
    expect(info.status).toBe(200);
    expect(info.body.emailRecord).toMatchObject({
      subject: 'Additional Information Needed - Order #PT-EEEE0005',
      status: 'queued',
    });
    const mail = await send<AdminEmailQueuedResponse>('POST', '/o5/send-email', {
      subject: 'Update on your order #PT-EEEE0005',
      message: 'Shipping soon',
      type: 'status_update',
    });
    expect(mail.status).toBe(200);
    const recordId = mail.body.emailRecord.id;
    const all = await readEvents(
      (e) => e.some((x) => x.type === 'order.email_requested') && e.some((x) => x.type === 'order.info_requested'),
    );
    expect(all.filter((x) => x.type === 'order.info_requested')).toHaveLength(1);
    expect(all.find((x) => x.type === 'order.email_requested')!.data).toMatchObject({
      emailRecordId: recordId,
      message: 'Shipping soon',
    });

    // The email service's answer, delivered twice: the history marks it sent once.
    const sent = createEvent('email.sent', 'email', {
      emailId: 'em-1',
      to: 'eve@example.com',
      subject: 'Update on your order #PT-EEEE0005',
      template: 'order_admin_message',
      orderId: 'o5',
      emailRecordId: recordId,
      preview: 'Shipping soon',
      sentAt: new Date().toISOString(),
    });
    const other = createEvent('email.sent', 'email', {
      emailId: 'em-2',
      to: 'eve@example.com',
      subject: 'Order confirmation',
      template: 'order_confirmation',
      orderId: 'o5',
      sentAt: new Date().toISOString(),
    });
    const js = jetstream(nc);
    await js.publish(eventSubject('email.sent', sent.data), JSON.stringify(sent), { msgID: sent.id });
    await js.publish(eventSubject('email.sent', other.data), JSON.stringify(other), { msgID: other.id });
    await js.publish(eventSubject('email.sent', other.data), JSON.stringify(other), { msgID: `${other.id}-again` });
    const deadline = Date.now() + 20_000;
    let history: { id: string; status: string }[] = [];
    while (Date.now() < deadline) {
      history = adminOrderResponseSchema.parse((await get('/o5/details')).body).order.emailHistory;
      if (history.find((e) => e.id === recordId)?.status === 'sent' && history.some((e) => e.id === 'em-2')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(history.find((e) => e.id === recordId)).toMatchObject({ status: 'sent' });
    expect(history.filter((e) => e.id === 'em-2')).toHaveLength(1);
    expect(history).toHaveLength(3);
  });

  it('an email reported after the customer was erased does not write their address or text back', async () => {
    const anonymous = 'erased-e1@erased.invalid';
    await h.service.ctx.models.Order.updateOne({ _id: 'o2' }, { $set: { email: anonymous, emailKey: anonymous } });
    const late = createEvent('email.sent', 'email', {
      emailId: 'em-late',
      to: 'bob@example.com',
      subject: 'Order confirmation',
      template: 'order_confirmation',
      orderId: 'o2',
      preview: 'Dear Bob, your coins',
      sentAt: new Date().toISOString(),
    });
    await jetstream(nc).publish(eventSubject('email.sent', late.data), JSON.stringify(late), { msgID: late.id });
    let entry: { to: string; preview: string } | undefined;
    const deadline = Date.now() + 20_000;
    while (!entry && Date.now() < deadline) {
      const history = adminOrderResponseSchema.parse((await get('/o2/details')).body).order.emailHistory;
      entry = history.find((e) => e.id === 'em-late');
      if (!entry) await new Promise((r) => setTimeout(r, 200));
    }
    expect(entry).toMatchObject({ to: anonymous, preview: erasedText });
  });

  it('bulk status (not pending/cancelled) and bulk delete, single delete', async () => {
    const refused = await send<ErrorEnvelope>('POST', '/bulk/status', { orderIds: ['o1'], status: 'cancelled' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/except Pending Review and Cancelled/);
    const bulk = await send<AdminBulkResult>('POST', '/bulk/status', {
      orderIds: ['o1', 'o6', 'missing'],
      status: 'production',
    });
    expect(bulk.body).toEqual({ success: true, updated: 2, notFound: ['missing'] });
    expect((await list('?status=production')).total).toBe(2);
    const del = await send<AdminBulkResult>('POST', '/bulk/delete', { orderIds: ['o1', 'o6', 'gone'] });
    expect(del.body).toEqual({ success: true, updated: 2, notFound: ['gone'] });
    const one = await fetch(`${base()}/o3`, { method: 'DELETE', headers: admin });
    expect(one.status).toBe(200);
    expect((await fetch(`${base()}/o3`, { method: 'DELETE', headers: admin })).status).toBe(404);
    expect((await list('')).total).toBe(3);
  });
});
