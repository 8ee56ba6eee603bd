// Security Management (back office part B §2.3): four tabs, dashboard, logs, bans and alerts, following
// the WAI-ARIA tabs pattern (arrow keys, Home/End). Each tab loads its own data; a failed load shows
// "Error Loading Security Data" with Retry (spec §8) in that tab.
import { useState } from 'react';
import { TabList, TabPanel } from '@shop/ui';
import { AlertsTab } from './AlertsTab.js';
import { BansTab } from './BansTab.js';
import { DashboardTab } from './DashboardTab.js';
import { LogsTab } from './LogsTab.js';

export const securityTabs = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'logs', label: 'Logs' },
  { id: 'bans', label: 'Bans' },
  { id: 'alerts', label: 'Alerts' },
] as const;
type SecurityTabId = (typeof securityTabs)[number]['id'];

export function SecurityView() {
  const [tab, setTab] = useState<SecurityTabId>('dashboard');

  return (
    <div className="flex flex-col gap-6" data-testid="security-view">
      <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Security Management</h2>
      <TabList tabs={securityTabs} selected={tab} onSelect={setTab} label="Security" idPrefix="security" />
      <TabPanel idPrefix="security" selected={tab}>
        {tab === 'dashboard' ? <DashboardTab /> : null}
        {tab === 'logs' ? <LogsTab /> : null}
        {tab === 'bans' ? <BansTab /> : null}
        {tab === 'alerts' ? <AlertsTab /> : null}
      </TabPanel>
    </div>
  );
}
