// One definition of an order's total across the back office (issue 10): a quoted order's total is the
// quote's final amount with sales tax, and the table row, the summary cards, the CSV and analytics all
// show that same figure; the 'Pending Review' card counts what the Pending Review tab counts. Real HTTP
// against the service on the embedded MongoDB (its aggregations included) and a real nats-server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import {
  adminAnalyticsResponseSchema,
  adminCsvColumns,
  adminOrderListResponseSchema,
  ordersAdminPaths,
} from '@shop/contracts';
import { startHarness, type Harness } from './helpers.js';
import { adminHeaders } from '@shop/service-kit/testing';

let h: Harness;
const day = 24 * 60 * 60 * 1000;
const created = new Date(Date.now() - 2 * day);
const admin = adminHeaders('boss@shop.test');

function orderDoc(
  id: string,
  orderNumber: string,
  status: string,
  estimatedTotal: number,
  finalAmount?: number,
  discount: { code: string; amount: number } | null = null,
) {
  return {
    _id: id,
    orderNumber,
    customerName: `Customer ${id}`,
    email: `${id}@example.com`,
    emailKey: `${id}@example.com`,
    itemType: 'coin',
    quantity: 100,
    designMethod: 'describe',
    description: 'Totals test order',
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
    status,
    estimatedTotal,
    statusHistory: [{ status, date: created, changedBy: 'customer' }],
    // A quote of the estimate with 6.25 % tax: the customer pays finalAmount.
    quote:
      finalAmount === undefined
        ? null
        : {
            amount: estimatedTotal,
            taxRate: 0.0625,
            taxAmount: finalAmount - estimatedTotal,
            finalAmount,
            sentAt: created,
            expiresAt: new Date(created.getTime() + 30 * day),
          },
    discount,
    tracking: null,
    payment: null,
    emailHistory: [],
    createdAt: created,
    updatedAt: created,
  };
}

// completed and quoted: 1000 + 62.50 tax; shipped and quoted: 2000 + 125 tax; pending (no quote): 400;
// pending_quote (no quote yet) of 700 holding a 100 discount: 600.
const data = [
  orderDoc('t1', 'CC-TTTT0001', 'completed', 1000, 1062.5),
  orderDoc('t2', 'CC-TTTT0002', 'shipped', 2000, 2125),
  orderDoc('t3', 'CC-TTTT0003', 'pending', 400),
  orderDoc('t4', 'CC-TTTT0004', 'pending_quote', 700, undefined, { code: 'SAVE100', amount: 100 }),
];

beforeAll(async () => {
  h = await startHarness();
  await h.service.ctx.models.Order.collection.insertMany(data as never[]);
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

async function get(path: string) {
  const res = await fetch(`${h.url}${path}`, { headers: admin });
  if (res.status !== 200) expect.fail(`${path} answered ${res.status}: ${await res.text()}`);
  return res;
}

describe("the order's one total", () => {
  it('the table row, the summary cards and the tab counts use it; Pending Review counts pending only, like its tab', async () => {
    const list = adminOrderListResponseSchema.parse(await (await get(ordersAdminPaths.list)).json());
    const totals = Object.fromEntries(list.orders.map((o) => [o.orderNumber, o.total]));
    expect(totals).toEqual({ 'CC-TTTT0001': 1062.5, 'CC-TTTT0002': 2125, 'CC-TTTT0003': 400, 'CC-TTTT0004': 600 });
    expect(list.summary).toEqual({
      totalOrders: 4,
      completedRevenue: 1062.5,
      averageOrderValue: 1046.88,
      pendingReview: 1,
    });
    expect(list.summary.pendingReview).toBe(list.counts.pending);
  });

  it('the CSV has the same totals as the table and the spec file name {product}-orders-{date}', async () => {
    const res = await get(ordersAdminPaths.exportCsv);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="tactical-gear-co-orders-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    const rows = parse<Record<string, string>>((await res.text()).replace(/^\uFEFF/, ''), { columns: true });
    expect(Object.keys(rows[0])).toEqual([...adminCsvColumns]);
    const csvTotals = Object.fromEntries(rows.map((r) => [r['Order Number'], r.Total]));
    expect(csvTotals).toEqual({
      'CC-TTTT0001': '1062.50',
      'CC-TTTT0002': '2125.00',
      'CC-TTTT0003': '400.00',
      'CC-TTTT0004': '600.00',
    });
  });

  it('analytics sum the same totals: revenue of completed orders, pending revenue of the others not cancelled', async () => {
    const { analytics } = adminAnalyticsResponseSchema.parse(
      await (await get(`${ordersAdminPaths.analytics}?period=30d`)).json(),
    );
    expect(analytics).toMatchObject({
      totalOrders: 4,
      revenue: 1062.5,
      pendingRevenue: 2125 + 400 + 600,
      averageOrderValue: 1046.88,
    });
    expect(analytics.itemTypePerformance.find((p) => p.itemType === 'coin')).toMatchObject({
      revenue: 1062.5,
      averageValue: 1046.88,
    });
    expect(analytics.recentActivity.find((o) => o.orderNumber === 'CC-TTTT0002')?.total).toBe(2125);
  });
});
