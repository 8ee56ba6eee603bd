// A term/value list of an order's facts: plain inside the details overlay, boxed inside a dialog.
import type { ReactNode } from 'react';
import { cn } from '@shop/ui';

export function Facts({ rows, boxed = false }: { rows: Array<[string, ReactNode]>; boxed?: boolean }) {
  return (
    <dl
      className={cn(
        'grid grid-cols-[max-content_1fr] gap-x-4 text-sm',
        boxed ? 'gap-y-1 rounded-md border border-olive-700 bg-ink-900 p-3' : 'gap-y-1.5',
      )}
    >
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className={cn('text-khaki-300', boxed && 'font-semibold')}>{term}</dt>
          <dd className="min-w-0 break-words text-khaki-50">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
