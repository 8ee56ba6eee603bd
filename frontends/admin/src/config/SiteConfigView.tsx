// Site configuration (admin part A §2): two tabs, Contact & Support and Business Registration, in the
// WAI-ARIA tabs pattern (arrow keys, Home/End move between them).
import { useState } from 'react';
import { TabList, TabPanel } from '@shop/ui';
import { BusinessTab } from './BusinessTab.js';
import { ContactTab } from './ContactTab.js';

const tabs = [
  { id: 'contact', label: 'Contact & Support' },
  { id: 'business', label: 'Business Registration' },
] as const;
type TabId = (typeof tabs)[number]['id'];

export function SiteConfigView() {
  const [tab, setTab] = useState<TabId>('contact');

  return (
    <div className="flex flex-col gap-6" data-testid="site-config-view">
      <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Site Configuration</h2>
      <TabList tabs={tabs} selected={tab} onSelect={setTab} label="Site configuration" idPrefix="config" />
      <TabPanel idPrefix="config" selected={tab}>
        {tab === 'contact' ? <ContactTab /> : <BusinessTab />}
      </TabPanel>
    </div>
  );
}
