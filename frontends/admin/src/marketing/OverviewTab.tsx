// Marketing overview (part B §2.4): the stat cards of GET /api/marketing/stats, quick actions to create a
// campaign, a discount code or an SMS template, and the 5 most recent campaigns (§9). The revenue card's
// change is the server's period-over-period figure (the spec's fixed "+12.5%" made real), hidden when
// there is nothing to compare.
import { useQuery } from '@tanstack/react-query';
import { DollarSign, Mail, MailOpen, MessageSquare, Plus, Tag, Ticket, Users, type LucideIcon } from 'lucide-react';
import { formatMoney, marketingLimits, type MarketingStats } from '@shop/contracts';
import { Button, Card, CardBody, CardHeader, CardTitle, ErrorState, Skeleton } from '@shop/ui';
import { formatChange, formatDate } from '../orders/format.js';
import { fetchCampaigns, fetchStats, marketingKeys, percent } from './api.js';
import type { QuickAction } from './MarketingView.js';
import { CampaignStatusBadge, QueryState } from './parts.js';

function StatCard({
  title,
  value,
  icon: Icon,
  hint,
  testId,
}: {
  title: string;
  value: string;
  icon: LucideIcon;
  hint?: string;
  testId: string;
}) {
  return (
    <Card>
      <CardBody className="flex flex-col gap-1.5">
        <div className="flex items-center justify-between gap-2">
          <p className="text-xs font-semibold uppercase tracking-wide text-khaki-300">{title}</p>
          <Icon aria-hidden="true" className="size-5 text-brass-400" />
        </div>
        <p className="font-display text-3xl font-bold text-khaki-50" data-testid={testId}>
          {value}
        </p>
        {hint ? <p className="text-xs text-khaki-300">{hint}</p> : null}
      </CardBody>
    </Card>
  );
}

function StatCards({ stats }: { stats: MarketingStats }) {
  const revenueHint =
    stats.revenueChange === null
      ? 'Paid orders after a campaign email (30 days)'
      : `${formatChange(stats.revenueChange)} against the previous 30 days`;
  return (
    <section
      aria-label="Marketing figures"
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5"
      data-testid="marketing-stats"
    >
      <StatCard
        title="Emails Sent"
        value={stats.totalEmails.toLocaleString('en-US')}
        icon={Mail}
        hint={`${stats.activeSubscribers.toLocaleString('en-US')} active subscribers`}
        testId="stat-emails"
      />
      <StatCard title="Email Open Rate" value={percent(stats.emailOpenRate)} icon={MailOpen} testId="stat-open-rate" />
      <StatCard
        title="SMS Sent"
        value={stats.totalSMS.toLocaleString('en-US')}
        icon={MessageSquare}
        hint={`${percent(stats.smsDeliveryRate)} delivered`}
        testId="stat-sms"
      />
      <StatCard
        title="Active Discounts"
        value={stats.activeDiscounts.toLocaleString('en-US')}
        icon={Ticket}
        hint={`${stats.discountUsage.toLocaleString('en-US')} uses`}
        testId="stat-discounts"
      />
      <StatCard
        title="Revenue from Marketing"
        value={formatMoney(stats.revenueFromMarketing)}
        icon={DollarSign}
        hint={revenueHint}
        testId="stat-revenue"
      />
    </section>
  );
}

export function OverviewTab({
  onQuickAction,
  onShowCampaigns,
}: {
  onQuickAction: (action: QuickAction) => void;
  onShowCampaigns: () => void;
}) {
  const stats = useQuery({ queryKey: marketingKeys.stats, queryFn: ({ signal }) => fetchStats(signal) });
  const campaigns = useQuery({ queryKey: marketingKeys.campaigns, queryFn: ({ signal }) => fetchCampaigns(signal) });
  // The list comes newest first from the service; sorted again so the overview never depends on it.
  const recent = [...(campaigns.data ?? [])]
    .sort((a, b) => b.createdDate.localeCompare(a.createdDate))
    .slice(0, marketingLimits.recentCampaigns);

  return (
    <div className="flex flex-col gap-6">
      {stats.isPending ? (
        <div
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5"
          role="status"
          aria-busy="true"
          aria-label="Loading marketing figures"
        >
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} className="h-28" />
          ))}
        </div>
      ) : stats.isError ? (
        <ErrorState
          title="Marketing figures could not be loaded"
          message={stats.error.message}
          onRetry={() => void stats.refetch()}
        />
      ) : (
        <StatCards stats={stats.data} />
      )}

      <div className="grid gap-4 lg:grid-cols-[1fr_2fr]">
        <Card>
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
          </CardHeader>
          <CardBody className="flex flex-col gap-2">
            <Button variant="secondary" className="justify-start" onClick={() => onQuickAction('emails')}>
              <Plus aria-hidden="true" className="size-4" /> Create Campaign
            </Button>
            <Button variant="secondary" className="justify-start" onClick={() => onQuickAction('discounts')}>
              <Tag aria-hidden="true" className="size-4" /> Create Discount Code
            </Button>
            <Button variant="secondary" className="justify-start" onClick={() => onQuickAction('sms')}>
              <MessageSquare aria-hidden="true" className="size-4" /> Create SMS Template
            </Button>
          </CardBody>
        </Card>
        <Card>
          <CardHeader className="flex-row items-center justify-between">
            <CardTitle>Recent Campaigns</CardTitle>
            <Button variant="ghost" size="sm" onClick={onShowCampaigns}>
              <Users aria-hidden="true" className="size-4" /> All campaigns
            </Button>
          </CardHeader>
          <CardBody>
            <QueryState
              query={campaigns}
              what="campaigns"
              isEmpty={(list) => list.length === 0}
              empty={<p className="text-sm text-khaki-300">No campaigns yet. Create one with the quick action.</p>}
            >
              {() => (
                <ul className="divide-y divide-olive-700" data-testid="recent-campaigns">
                  {recent.map((c) => (
                    <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-2.5 text-sm">
                      <span className="min-w-0">
                        <span className="font-semibold text-khaki-50">{c.name}</span>{' '}
                        <span className="text-xs text-khaki-300">· {formatDate(c.sentDate ?? c.createdDate)}</span>
                      </span>
                      <span className="flex items-center gap-3 text-xs text-khaki-200">
                        <span>{c.sent.toLocaleString('en-US')} sent</span>
                        <span>{percent(c.openRate)} opened</span>
                        <CampaignStatusBadge status={c.status} />
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </QueryState>
          </CardBody>
        </Card>
      </div>
    </div>
  );
}
