// Sales analytics (admin part A §2 Analytics, §9): the five periods, revenue (completed orders),
// average order value, orders per month, pending revenue, completion rate, status distribution,
// item-type performance and the five most recently updated orders, all from MongoDB aggregations.
// Every sum is of the order's one total (orderTotalExpression: with tax once quoted), as on the dashboard.
// The spec's fixed '+12.5%' / '+8.2%' badges become real changes against the previous period of the
// same length (null for all time or when the previous period had nothing).
import {
  adminAnalyticsQuerySchema,
  adminAnalyticsResponseSchema,
  itemTypes,
  orderStatusLabels,
  orderStatuses,
  ordersAdminPaths,
  recentActivityCount,
  type OrderStatus,
} from '@shop/contracts';
import type { ServiceContext } from '@shop/service-kit';
import {
  adminRow,
  orderTotalExpression,
  percentChange,
  periodFigures,
  periodRange,
  round2,
  type PeriodGroup,
} from '../../domain/admin-orders.js';
import type { OrderDoc, OrderModels } from '../../models/order.js';
import type { OrdersApp } from '../../app.js';
import { failureResponse } from '../respond.js';

const dayMs = 24 * 60 * 60 * 1000;

export function registerAdminAnalyticsRoutes(app: OrdersApp, ctx: ServiceContext<OrderModels>) {
  const { Order } = ctx.models;

  async function groups(from: Date | null, to: Date): Promise<PeriodGroup[]> {
    const createdAt = from ? { $gte: from, $lt: to } : { $lt: to };
    const rows = await Order.aggregate<{
      _id: { status: string; itemType: string };
      count: number;
      total: number;
      quantity: number;
    }>([
      { $match: { createdAt } },
      {
        $group: {
          _id: { status: '$status', itemType: '$itemType' },
          count: { $sum: 1 },
          total: { $sum: orderTotalExpression },
          quantity: { $sum: '$quantity' },
        },
      },
    ]);
    return rows.map((r) => ({
      status: r._id.status,
      itemType: r._id.itemType,
      count: r.count,
      total: r.total,
      quantity: r.quantity,
    }));
  }

  app.get(
    ordersAdminPaths.analytics,
    {
      schema: {
        tags: ['admin analytics'],
        summary: 'Sales analytics for 7d, 30d, 6m, 1y or total, with period-over-period changes',
        querystring: adminAnalyticsQuerySchema,
        response: { 200: adminAnalyticsResponseSchema, '4xx': failureResponse },
      },
    },
    async (request) => {
      const { period } = request.query;
      const now = new Date();
      const { from, to, previousFrom } = periodRange(period, now);
      const [current, previous, recent, [first]] = await Promise.all([
        groups(from, to),
        from && previousFrom ? groups(previousFrom, from) : Promise.resolve(null),
        Order.find({}).sort({ updatedAt: -1, _id: -1 }).limit(recentActivityCount).lean<OrderDoc[]>(),
        from
          ? Promise.resolve([null])
          : Order.find({}, { createdAt: 1 }).sort({ createdAt: 1 }).limit(1).lean<{ createdAt: Date }[]>(),
      ]);
      const figures = periodFigures(current);
      const before = previous ? periodFigures(previous) : null;
      // Orders per 30 days: over the period's length, or since the first order for all time (at least 30 days).
      const spanDays = from
        ? (to.getTime() - from.getTime()) / dayMs
        : Math.max(30, first ? (to.getTime() - new Date(first.createdAt).getTime()) / dayMs : 30);
      const byStatus = new Map<string, number>();
      const byItem = new Map<
        string,
        { orders: number; quantity: number; revenue: number; activeCount: number; activeTotal: number }
      >();
      for (const g of current) {
        const status = (orderStatuses as readonly string[]).includes(g.status) ? g.status : 'pending';
        byStatus.set(status, (byStatus.get(status) ?? 0) + g.count);
        const item = byItem.get(g.itemType) ?? { orders: 0, quantity: 0, revenue: 0, activeCount: 0, activeTotal: 0 };
        item.orders += g.count;
        item.quantity += g.quantity;
        if (g.status === 'completed') item.revenue += g.total;
        if (g.status !== 'cancelled') {
          item.activeCount += g.count;
          item.activeTotal += g.total;
        }
        byItem.set(g.itemType, item);
      }
      return {
        success: true as const,
        analytics: {
          period,
          from: from ? from.toISOString() : null,
          to: to.toISOString(),
          revenue: figures.revenue,
          revenueChange: before ? percentChange(figures.revenue, before.revenue) : null,
          averageOrderValue: figures.averageOrderValue,
          averageOrderValueChange: before ? percentChange(figures.averageOrderValue, before.averageOrderValue) : null,
          totalOrders: figures.orders,
          ordersChange: before ? percentChange(figures.orders, before.orders) : null,
          monthlyOrders: round2((figures.orders / spanDays) * 30),
          pendingRevenue: figures.pendingRevenue,
          completionRate: figures.completionRate,
          statusDistribution: orderStatuses
            .filter((s) => (byStatus.get(s) ?? 0) > 0)
            .map((status: OrderStatus) => {
              const count = byStatus.get(status) ?? 0;
              return {
                status,
                label: orderStatusLabels[status],
                count,
                percent: figures.orders > 0 ? Math.round((count / figures.orders) * 1000) / 10 : 0,
              };
            }),
          itemTypePerformance: itemTypes.map((itemType) => {
            const item = byItem.get(itemType) ?? { orders: 0, quantity: 0, revenue: 0, activeCount: 0, activeTotal: 0 };
            return {
              itemType,
              orders: item.orders,
              quantity: item.quantity,
              revenue: round2(item.revenue),
              averageValue: item.activeCount > 0 ? round2(item.activeTotal / item.activeCount) : 0,
            };
          }),
          recentActivity: recent.map(adminRow),
        },
      };
    },
  );
}
