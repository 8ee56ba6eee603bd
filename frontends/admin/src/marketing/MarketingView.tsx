// Marketing & Communications (back office part B §2.4): six tabs, overview (stat cards, quick actions,
// the 5 most recent campaigns), Email Campaigns, SMS & Notifications, Subscribers, Discount Codes and
// Analytics. The tabs follow the WAI-ARIA tabs pattern (arrow keys, Home/End move between them); a
// quick action opens its tab with the create form already open.
import { useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '@shop/ui';
import { DiscountCodesTab } from './discounts/DiscountCodesTab.js';
import { EmailsTab } from './EmailsTab.js';
import { MarketingAnalyticsTab } from './MarketingAnalyticsTab.js';
import { OverviewTab } from './OverviewTab.js';
import { SmsTab } from './SmsTab.js';
import { SubscribersTab } from './SubscribersTab.js';

export const marketingTabs = [
  { id: 'overview', label: 'Overview' },
  { id: 'emails', label: 'Email Campaigns' },
  { id: 'sms', label: 'SMS & Notifications' },
  { id: 'subscribers', label: 'Subscribers' },
  { id: 'discounts', label: 'Discount Codes' },
  { id: 'analytics', label: 'Analytics' },
] as const;
export type MarketingTabId = (typeof marketingTabs)[number]['id'];

/** Where a quick action leads: the tab, with its create form open. */
export type QuickAction = 'emails' | 'discounts' | 'sms';

export function MarketingView() {
  const [tab, setTab] = useState<MarketingTabId>('overview');
  // Which tab should open its create form on arrival (a quick action); cleared by any other tab change.
  const [creating, setCreating] = useState<QuickAction | null>(null);
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  const choose = (id: MarketingTabId, create: QuickAction | null = null) => {
    setTab(id);
    setCreating(create);
  };

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = marketingTabs.findIndex((t) => t.id === tab);
    const next =
      event.key === 'ArrowRight' ? (index + 1) % marketingTabs.length
      : event.key === 'ArrowLeft' ? (index - 1 + marketingTabs.length) % marketingTabs.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? marketingTabs.length - 1
      : -1;
    if (next < 0) return;
    event.preventDefault();
    const id = marketingTabs[next]!.id;
    choose(id);
    tabRefs.current[id]?.focus();
  }

  return (
    <div className="flex flex-col gap-6" data-testid="marketing-view">
      <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Marketing &amp; Communications</h2>
      <div role="tablist" aria-label="Marketing" className="flex flex-wrap gap-1 border-b border-olive-700 pb-2" onKeyDown={onKeyDown}>
        {marketingTabs.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`marketing-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`marketing-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => choose(t.id)}
            className={cn(
              'rounded-md px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300',
              tab === t.id ? 'bg-brass-400 text-ink-950' : 'text-khaki-100 hover:bg-olive-700',
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`marketing-panel-${tab}`} aria-labelledby={`marketing-tab-${tab}`} data-tab={tab}>
        {tab === 'overview' ? <OverviewTab onQuickAction={(action) => choose(action, action)} onShowCampaigns={() => choose('emails')} /> : null}
        {tab === 'emails' ? <EmailsTab startCreating={creating === 'emails'} /> : null}
        {tab === 'sms' ? <SmsTab startCreating={creating === 'sms'} /> : null}
        {tab === 'subscribers' ? <SubscribersTab /> : null}
        {tab === 'discounts' ? <DiscountCodesTab startCreating={creating === 'discounts'} /> : null}
        {tab === 'analytics' ? <MarketingAnalyticsTab /> : null}
      </div>
    </div>
  );
}
