// Marketing & Communications (back office part B §2.4): six tabs, overview (stat cards, quick actions,
// the 5 most recent campaigns), Email Campaigns, SMS & Notifications, Subscribers, Discount Codes and
// Analytics. The tabs follow the WAI-ARIA tabs pattern (arrow keys, Home/End move between them); a
// quick action opens its tab with the create form already open.
import { useState } from 'react';
import { TabList, TabPanel } from '@shop/ui';
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

  const choose = (id: MarketingTabId, create: QuickAction | null = null) => {
    setTab(id);
    setCreating(create);
  };

  return (
    <div className="flex flex-col gap-6" data-testid="marketing-view">
      <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">
        Marketing &amp; Communications
      </h2>
      <TabList
        tabs={marketingTabs}
        selected={tab}
        onSelect={(id) => choose(id)}
        label="Marketing"
        idPrefix="marketing"
      />
      <TabPanel idPrefix="marketing" selected={tab}>
        {tab === 'overview' ? (
          <OverviewTab onQuickAction={(action) => choose(action, action)} onShowCampaigns={() => choose('emails')} />
        ) : null}
        {tab === 'emails' ? <EmailsTab startCreating={creating === 'emails'} /> : null}
        {tab === 'sms' ? <SmsTab startCreating={creating === 'sms'} /> : null}
        {tab === 'subscribers' ? <SubscribersTab /> : null}
        {tab === 'discounts' ? <DiscountCodesTab startCreating={creating === 'discounts'} /> : null}
        {tab === 'analytics' ? <MarketingAnalyticsTab /> : null}
      </TabPanel>
    </div>
  );
}
