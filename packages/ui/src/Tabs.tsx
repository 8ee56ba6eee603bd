// Tabs in the WAI-ARIA pattern (arrow keys, Home/End move between them and select), shared by the back
// office's tabbed views. `idPrefix` names the tab and panel ids: `${idPrefix}-tab-${id}`, `${idPrefix}-panel-${id}`.
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from './cn.js';

export interface TabItem<Id extends string> {
  id: Id;
  label: string;
}

export interface TabListProps<Id extends string> {
  tabs: readonly TabItem<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
  /** The tab list's accessible name. */
  label: string;
  idPrefix: string;
}

export function TabList<Id extends string>({ tabs, selected, onSelect, label, idPrefix }: TabListProps<Id>) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = tabs.findIndex((t) => t.id === selected);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    const id = tabs[next].id;
    onSelect(id);
    refs.current[id]?.focus();
  }

  return (
    <div role="tablist" aria-label={label} className="flex flex-wrap gap-1 border-b border-olive-700 pb-2">
      {tabs.map((t) => (
        <button
          key={t.id}
          ref={(el) => {
            refs.current[t.id] = el;
          }}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${t.id}`}
          aria-selected={selected === t.id}
          aria-controls={`${idPrefix}-panel-${t.id}`}
          tabIndex={selected === t.id ? 0 : -1}
          onClick={() => onSelect(t.id)}
          onKeyDown={onKeyDown}
          className={cn(
            'rounded-md px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300',
            selected === t.id ? 'bg-brass-400 text-ink-950' : 'text-khaki-100 hover:bg-olive-700',
          )}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** The panel of the selected tab, labelled by it. */
export function TabPanel({
  idPrefix,
  selected,
  children,
}: {
  idPrefix: string;
  selected: string;
  children: ReactNode;
}) {
  return (
    <div
      role="tabpanel"
      id={`${idPrefix}-panel-${selected}`}
      aria-labelledby={`${idPrefix}-tab-${selected}`}
      data-tab={selected}
    >
      {children}
    </div>
  );
}
