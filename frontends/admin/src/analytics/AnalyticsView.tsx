// Sales analytics (spec §2 "Analytics", §9): the five periods, revenue, average order value, monthly
// orders, pending revenue, status distribution, item-type performance and the five most recently
// updated orders, all computed by the orders service with aggregation. The change badges are the
// server's period-over-period figures (the spec's fixed '+12.5%' / '+8.2%' made real); none is shown
// when there is nothing to compare.
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { CalendarClock, DollarSign, Hourglass, TrendingDown, TrendingUp, Wallet } from 'lucide-react';
import {
  analyticsPeriod,
  analyticsPeriods,
  catalog,
  formatMoney,
  type AdminAnalytics,
  type AnalyticsPeriod,
} from '@shop/contracts';
import { Card, CardBody, CardHeader, CardTitle, ErrorState, Skeleton, cn } from '@shop/ui';
import { fetchAnalytics, ordersKeys, reasonOf } from '../orders/api.js';
import { formatChange, formatDateTime, formatPercent } from '../orders/format.js';
import { StatusBadge } from '../orders/status.js';

// Chart colours per status, in the same families as the status badges.
const statusFill: Record<string, string> = {
  pending: '#f2c14e',
  pending_quote: '#e6c76a',
  quote_sent: '#7dd3fc',
  awaiting_payment: '#fdba74',
  paid: '#9fd07f',
  in_progress: '#a5b4fc',
  design_review: '#f0abfc',
  production: '#67e8f9',
  shipped: '#5eead4',
  completed: '#4d7a35',
  cancelled: '#f08a7e',
};

function ChangeBadge({ value, label }: { value: number | null; label: string }) {
  if (value === null) return null;
  const up = value >= 0;
  const Icon = up ? TrendingUp : TrendingDown;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold',
        up ? 'border-ok-400/60 bg-ok-600/25 text-ok-400' : 'border-alert-400/60 bg-alert-600/25 text-alert-400',
      )}
      aria-label={`${formatChange(value)} ${label}`}
      data-testid="change-badge"
    >
      <Icon aria-hidden="true" className="size-3" />
      {formatChange(value)}
    </span>
  );
}

function MetricCard({
  title,
  value,
  icon: Icon,
  change,
  changeLabel,
  hint,
  testId,
}: {
  title: string;
  value: string | undefined;
  icon: typeof DollarSign;
  change?: number | null;
  changeLabel?: string;
  hint?: string;
  testId: string;
}) {
  return (
    <Card>
      <CardBody className="flex flex-col gap-2">
        <div className="flex items-center justify-between gap-2">
          <p className="text-xs font-semibold uppercase tracking-wide text-khaki-300">{title}</p>
          <Icon aria-hidden="true" className="size-5 text-brass-400" />
        </div>
        {value === undefined ? (
          <Skeleton className="h-8 w-28" />
        ) : (
          <p className="font-display text-3xl font-bold text-khaki-50" data-testid={testId}>
            {value}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2 text-xs text-khaki-300">
          {change !== undefined ? (
            <ChangeBadge value={change} label={changeLabel ?? 'against the previous period'} />
          ) : null}
          {hint ? <span>{hint}</span> : null}
        </div>
      </CardBody>
    </Card>
  );
}

function Body({ data }: { data: AdminAnalytics }) {
  const distribution = data.statusDistribution.filter((s) => s.count > 0);
  const items = data.itemTypePerformance.map((p) => ({ ...p, name: catalog[p.itemType].cardTitle }));
  return (
    <>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Status Distribution</CardTitle>
          </CardHeader>
          <CardBody className="grid gap-4 sm:grid-cols-[12rem_1fr]">
            {distribution.length ? (
              <>
                {/* Decorative (the list beside it carries the figures): hidden from assistive technology and
                    out of the tab order, which recharts' keyboard layer and pie sectors would otherwise join. */}
                <div className="h-48" aria-hidden="true" inert>
                  <ResponsiveContainer width="100%" height="100%">
                    <PieChart accessibilityLayer={false}>
                      <Pie
                        rootTabIndex={-1}
                        data={distribution}
                        dataKey="count"
                        nameKey="label"
                        innerRadius="55%"
                        outerRadius="95%"
                        stroke="#12150e"
                        isAnimationActive={false}
                      >
                        {distribution.map((s) => (
                          <Cell key={s.status} fill={statusFill[s.status] ?? statusFill.pending} />
                        ))}
                      </Pie>
                    </PieChart>
                  </ResponsiveContainer>
                </div>
                <ul className="flex flex-col gap-1.5 text-sm" data-testid="status-distribution">
                  {distribution.map((s) => (
                    <li key={s.status} className="flex items-center justify-between gap-3">
                      <StatusBadge status={s.status} />
                      <span className="font-mono text-khaki-100">
                        {s.count.toLocaleString('en-US')} · {formatPercent(s.percent)}
                      </span>
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p className="text-sm text-khaki-300">No orders in this period.</p>
            )}
          </CardBody>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Item Type Performance</CardTitle>
          </CardHeader>
          <CardBody className="flex flex-col gap-4">
            {/* Decorative like the pie: the table below carries the figures. */}
            <div className="h-44" aria-hidden="true" inert>
              <ResponsiveContainer width="100%" height="100%">
                <BarChart accessibilityLayer={false} data={items} margin={{ left: 8, right: 8 }}>
                  <CartesianGrid stroke="#323b25" vertical={false} />
                  <XAxis dataKey="name" stroke="#c8b98d" fontSize={12} />
                  <YAxis
                    stroke="#c8b98d"
                    fontSize={12}
                    tickFormatter={(v: number) => `$${v.toLocaleString('en-US')}`}
                    width={72}
                  />
                  <Tooltip
                    formatter={(v) => formatMoney(Number(v))}
                    contentStyle={{ background: '#1a1f14', border: '1px solid #5c6b43', color: '#ece5d0' }}
                    labelStyle={{ color: '#f7f3e8' }}
                  />
                  <Bar dataKey="revenue" name="Revenue" fill="#d4a93c" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
            <table className="w-full text-left text-sm" data-testid="item-performance">
              <caption className="sr-only">Orders, pieces and completed revenue per item type</caption>
              <thead className="text-xs uppercase tracking-wide text-khaki-300">
                <tr>
                  <th scope="col" className="py-1.5">
                    Item
                  </th>
                  <th scope="col" className="py-1.5 text-right">
                    Orders
                  </th>
                  <th scope="col" className="py-1.5 text-right">
                    Pieces
                  </th>
                  <th scope="col" className="py-1.5 text-right">
                    Revenue
                  </th>
                  <th scope="col" className="py-1.5 text-right">
                    Average
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-olive-700">
                {items.map((p) => (
                  <tr key={p.itemType}>
                    <th scope="row" className="py-1.5 font-semibold text-khaki-50">
                      {p.name}
                    </th>
                    <td className="py-1.5 text-right font-mono">{p.orders.toLocaleString('en-US')}</td>
                    <td className="py-1.5 text-right font-mono">{p.quantity.toLocaleString('en-US')}</td>
                    <td className="py-1.5 text-right font-mono">{formatMoney(p.revenue)}</td>
                    <td className="py-1.5 text-right font-mono">{formatMoney(p.averageValue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardBody>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Recent Activity</CardTitle>
        </CardHeader>
        <CardBody>
          {data.recentActivity.length ? (
            <ul className="divide-y divide-olive-700" data-testid="recent-activity">
              {data.recentActivity.map((o) => (
                <li key={o.id} className="flex flex-wrap items-center justify-between gap-3 py-2.5 text-sm">
                  <span className="min-w-0">
                    <span className="font-mono font-semibold text-khaki-50">#{o.orderNumber}</span>{' '}
                    <span className="text-khaki-200">{o.customerName}</span>{' '}
                    <span className="capitalize text-khaki-300">
                      · {o.itemType} × {o.quantity.toLocaleString('en-US')}
                    </span>
                  </span>
                  <span className="flex items-center gap-3">
                    <span className="font-mono">{formatMoney(o.total)}</span>
                    <StatusBadge status={o.status} />
                    <span className="text-xs text-khaki-300">{formatDateTime(o.lastUpdate)}</span>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-khaki-300">No orders yet.</p>
          )}
        </CardBody>
      </Card>
    </>
  );
}

export function AnalyticsView() {
  const [period, setPeriod] = useState<AnalyticsPeriod>('30d');
  const analytics = useQuery({
    queryKey: ordersKeys.analytics(period),
    queryFn: ({ signal }) => fetchAnalytics(period, signal),
    placeholderData: keepPreviousData,
    retry: 1,
  });
  const data = analytics.data;
  const comparable = period !== 'total';

  return (
    <div className="flex flex-col gap-6" data-testid="analytics-view">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Sales Analytics</h2>
        <div role="group" aria-label="Period" className="flex flex-wrap gap-1.5">
          {analyticsPeriods.map((p) => (
            <button
              key={p}
              type="button"
              aria-pressed={period === p}
              onClick={() => setPeriod(p)}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-brass-300',
                period === p ? 'bg-brass-400 text-ink-950' : 'bg-olive-800 text-khaki-100 hover:bg-olive-700',
              )}
            >
              {analyticsPeriod.labels[p]}
            </button>
          ))}
        </div>
      </div>
      {analytics.isError && !data ? (
        <ErrorState
          title="Analytics could not be loaded"
          message={reasonOf(analytics.error)}
          onRetry={() => void analytics.refetch()}
          retrying={analytics.isFetching}
        />
      ) : (
        <>
          <section
            aria-label="Key figures"
            className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
            aria-busy={analytics.isFetching || undefined}
          >
            <MetricCard
              title="Revenue"
              value={data ? formatMoney(data.revenue) : undefined}
              icon={DollarSign}
              change={comparable ? (data?.revenueChange ?? null) : undefined}
              changeLabel="revenue against the previous period"
              hint={data ? `${formatPercent(data.completionRate)} completed` : undefined}
              testId="analytics-revenue"
            />
            <MetricCard
              title="Average Order"
              value={data ? formatMoney(data.averageOrderValue) : undefined}
              icon={Wallet}
              change={comparable ? (data?.averageOrderValueChange ?? null) : undefined}
              changeLabel="average order against the previous period"
              testId="analytics-average"
            />
            <MetricCard
              title="Monthly Orders"
              value={data ? data.monthlyOrders.toLocaleString('en-US', { maximumFractionDigits: 1 }) : undefined}
              icon={CalendarClock}
              change={comparable ? (data?.ordersChange ?? null) : undefined}
              changeLabel="orders against the previous period"
              hint={data ? `${data.totalOrders.toLocaleString('en-US')} orders in the period` : undefined}
              testId="analytics-monthly"
            />
            <MetricCard
              title="Pending Revenue"
              value={data ? formatMoney(data.pendingRevenue) : undefined}
              icon={Hourglass}
              hint="Open orders, neither completed nor cancelled"
              testId="analytics-pending"
            />
          </section>
          {data ? <Body data={data} /> : <Skeleton className="h-72 w-full" />}
        </>
      )}
    </div>
  );
}
