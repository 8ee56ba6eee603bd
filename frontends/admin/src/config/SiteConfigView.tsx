// Site configuration (admin part A §2): two tabs, Contact & Support and Business Registration, in the
// WAI-ARIA tabs pattern (arrow keys, Home/End move between them).
import { useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '@shop/ui';
import { BusinessTab } from './BusinessTab.js';
import { ContactTab } from './ContactTab.js';

const tabs = [
  { id: 'contact', label: 'Contact & Support' },
  { id: 'business', label: 'Business Registration' },
] as const;
type TabId = (typeof tabs)[number]['id'];

export function SiteConfigView() {
  const [tab, setTab] = useState<TabId>('contact');
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((t) => t.id === tab);
    const next =
      event.key === 'ArrowRight' ? (index + 1) % tabs.length
      : event.key === 'ArrowLeft' ? (index - 1 + tabs.length) % tabs.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? tabs.length - 1
      : -1;
    if (next < 0) return;
    event.preventDefault();
    const id = tabs[next]!.id;
    setTab(id);
    refs.current[id]?.focus();
  }

  return (
    <div className="flex flex-col gap-6" data-testid="site-config-view">
      <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Site Configuration</h2>
      <div role="tablist" aria-label="Site configuration" className="flex flex-wrap gap-1 border-b border-olive-700 pb-2" onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`config-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`config-panel-${t.id}`}
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
      <div role="tabpanel" id={`config-panel-${tab}`} aria-labelledby={`config-tab-${tab}`} data-tab={tab}>
        {tab === 'contact' ? <ContactTab /> : <BusinessTab />}
      </div>
    </div>
  );
}
