// Marketing analytics (part B §2.4, §9): per-campaign open and click rates (opens / sent, clicks / opens,
// 1 decimal, computed by the service), discount code usage, and subscriber growth over the last 30 days.
// The growth chart is decorative (the figures beside it say the same): hidden from assistive technology
// and inert, so recharts' keyboard layer never joins the tab order.
import { useQuery } from '@tanstack/react-query';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { discountCategoryLabels } from '@shop/contracts';
import { Card, CardBody, CardHeader, CardTitle } from '@shop/ui';
import { fetchDiscounts, discountKeys } from './discounts/api.js';
import { usesText, valueText } from './discounts/DiscountCodesTab.js';
import { fetchCampaigns, fetchStats, marketingKeys, percent } from './api.js';
import { CampaignStatusBadge, QueryState, shortDay } from './parts.js';

function CampaignRates() {
  const campaigns = useQuery({ queryKey: marketingKeys.campaigns, queryFn: ({ signal }) => fetchCampaigns(signal) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Campaign Performance</CardTitle>
      </CardHeader>
      <CardBody>
        <QueryState
          query={campaigns}
          what="campaigns"
          isEmpty={(list) => list.length === 0}
          empty={<p className="text-sm text-khaki-300">No campaigns yet.</p>}
        >
          {(list) => (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm" data-testid="campaign-rates">
                <caption className="sr-only">
                  Open rate (opens / sent) and click rate (clicks / opens) of every campaign
                </caption>
                <thead className="text-xs uppercase tracking-wide text-khaki-300">
                  <tr>
                    <th scope="col" className="py-1.5 pr-3">
                      Campaign
                    </th>
                    <th scope="col" className="py-1.5 pr-3">
                      Status
                    </th>
                    <th scope="col" className="py-1.5 pr-3 text-right">
                      Sent
                    </th>
                    <th scope="col" className="py-1.5 pr-3 text-right">
                      Opens
                    </th>
                    <th scope="col" className="py-1.5 pr-3 text-right">
                      Clicks
                    </th>
                    <th scope="col" className="py-1.5 pr-3 text-right">
                      Open rate
                    </th>
                    <th scope="col" className="py-1.5 text-right">
                      Click rate
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-olive-700">
                  {list.map((c) => (
                    <tr key={c.id}>
                      <th scope="row" className="py-1.5 pr-3 font-semibold text-khaki-50">
                        {c.name}
                      </th>
                      <td className="py-1.5 pr-3">
                        <CampaignStatusBadge status={c.status} />
                      </td>
                      <td className="py-1.5 pr-3 text-right font-mono">{c.sent.toLocaleString('en-US')}</td>
                      <td className="py-1.5 pr-3 text-right font-mono">{c.opens.toLocaleString('en-US')}</td>
                      <td className="py-1.5 pr-3 text-right font-mono">{c.clicks.toLocaleString('en-US')}</td>
                      <td className="py-1.5 pr-3 text-right font-mono">{percent(c.openRate)}</td>
                      <td className="py-1.5 text-right font-mono">{percent(c.clickRate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryState>
      </CardBody>
    </Card>
  );
}

function DiscountUsage() {
  const discounts = useQuery({ queryKey: discountKeys.all, queryFn: ({ signal }) => fetchDiscounts(signal) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Discount Usage</CardTitle>
      </CardHeader>
      <CardBody>
        <QueryState
          query={discounts}
          what="discount codes"
          isEmpty={(list) => list.length === 0}
          empty={<p className="text-sm text-khaki-300">No discount codes yet.</p>}
        >
          {(list) => (
            <table className="w-full text-left text-sm" data-testid="discount-usage">
              <caption className="sr-only">Uses of every discount code, most used first</caption>
              <thead className="text-xs uppercase tracking-wide text-khaki-300">
                <tr>
                  <th scope="col" className="py-1.5 pr-3">
                    Code
                  </th>
                  <th scope="col" className="py-1.5 pr-3">
                    Category
                  </th>
                  <th scope="col" className="py-1.5 pr-3">
                    Discount
                  </th>
                  <th scope="col" className="py-1.5 text-right">
                    Uses
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-olive-700">
                {[...list]
                  .sort((a, b) => b.usedCount - a.usedCount)
                  .map((d) => (
                    <tr key={d.id}>
                      <th scope="row" className="py-1.5 pr-3 font-mono font-semibold text-khaki-50">
                        {d.code}
                      </th>
                      <td className="py-1.5 pr-3 text-khaki-200">{discountCategoryLabels[d.category]}</td>
                      <td className="py-1.5 pr-3 text-khaki-200">{valueText(d)}</td>
                      <td className="py-1.5 text-right font-mono">{usesText(d)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </CardBody>
    </Card>
  );
}

function SubscriberGrowth() {
  const stats = useQuery({ queryKey: marketingKeys.stats, queryFn: ({ signal }) => fetchStats(signal) });
  const growth = stats.data?.subscriberGrowth ?? [];
  const first = growth[0]?.subscribers ?? 0;
  const last = growth.at(-1)?.subscribers ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Subscriber Growth</CardTitle>
      </CardHeader>
      <CardBody className="flex flex-col gap-3">
        <QueryState query={stats} what="subscriber growth" skeletonClass="h-56">
          {() => (
            <>
              <p className="text-sm text-khaki-200" data-testid="subscriber-growth">
                {last.toLocaleString('en-US')} active subscribers; {last - first >= 0 ? '+' : ''}
                {(last - first).toLocaleString('en-US')} over the last 30 days
                {growth.length ? ` (${shortDay(growth[0].date)} to ${shortDay(growth.at(-1)!.date)})` : ''}.
              </p>
              {/* Decorative: the sentence above carries the figures. */}
              <div className="h-56" aria-hidden="true" inert>
                <ResponsiveContainer width="100%" height="100%">
                  <AreaChart accessibilityLayer={false} data={growth} margin={{ left: 8, right: 8, top: 8 }}>
                    <CartesianGrid stroke="#323b25" vertical={false} />
                    <XAxis dataKey="date" stroke="#c8b98d" fontSize={12} tickFormatter={shortDay} minTickGap={24} />
                    <YAxis stroke="#c8b98d" fontSize={12} allowDecimals={false} width={48} />
                    <Tooltip
                      labelFormatter={(d) => (typeof d === 'string' || typeof d === 'number' ? shortDay(String(d)) : d)}
                      contentStyle={{ background: '#1a1f14', border: '1px solid #5c6b43', color: '#ece5d0' }}
                      labelStyle={{ color: '#f7f3e8' }}
                    />
                    <Area
                      type="monotone"
                      dataKey="subscribers"
                      name="Active subscribers"
                      stroke="#d4a93c"
                      fill="#d4a93c"
                      fillOpacity={0.25}
                      isAnimationActive={false}
                    />
                  </AreaChart>
                </ResponsiveContainer>
              </div>
            </>
          )}
        </QueryState>
      </CardBody>
    </Card>
  );
}

export function MarketingAnalyticsTab() {
  return (
    <section
      aria-labelledby="marketing-analytics-heading"
      className="flex flex-col gap-4"
      data-testid="marketing-analytics"
    >
      <h2
        id="marketing-analytics-heading"
        className="font-display text-xl font-bold uppercase tracking-wide text-khaki-50"
      >
        Analytics
      </h2>
      <CampaignRates />
      <div className="grid gap-4 lg:grid-cols-2">
        <SubscriberGrowth />
        <DiscountUsage />
      </div>
    </section>
  );
}
