// Security Management (back office part B §2.3): four tabs, dashboard, logs, bans and alerts, following
// the WAI-ARIA tabs pattern (arrow keys, Home/End). Each tab loads its own data; a failed load shows
// "Error Loading Security Data" with Retry (spec §8) in that tab.
import { useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '@shop/ui';
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
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = securityTabs.findIndex((t) => t.id === tab);
    const next =
      event.key === 'ArrowRight' ? (index + 1) % securityTabs.length
      : event.key === 'ArrowLeft' ? (index - 1 + securityTabs.length) % securityTabs.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? securityTabs.length - 1
      : -1;
    if (next < 0) return;
    event.preventDefault();
    const id = securityTabs[next]!.id;
    setTab(id);
    tabRefs.current[id]?.focus();
  }

  return (
    <div className="flex flex-col gap-6" data-testid="security-view">
      <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Security Management</h2>
      <div role="tablist" aria-label="Security" className="flex flex-wrap gap-1 border-b border-olive-700 pb-2" onKeyDown={onKeyDown}>
        {securityTabs.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`security-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`security-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            className={cn(
              'rounded-md px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300',
              tab === t.id ? 'bg-brass-400 text-ink-950' : 'text-khaki-100 hover:bg-olive-700',
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`security-panel-${tab}`} aria-labelledby={`security-tab-${tab}`} data-tab={tab}>
        {tab === 'dashboard' ? <DashboardTab /> : null}
        {tab === 'logs' ? <LogsTab /> : null}
        {tab === 'bans' ? <BansTab /> : null}
        {tab === 'alerts' ? <AlertsTab /> : null}
      </div>
    </div>
  );
}
