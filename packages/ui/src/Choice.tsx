import { Check } from 'lucide-react';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from './cn.js';

export interface ChoiceTileProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'title'> {
  /** Whether this option is chosen (announced as a pressed toggle). */
  selected: boolean;
  title: ReactNode;
  hint?: ReactNode;
  /** Optional leading art (an icon, a swatch, a drawing). */
  media?: ReactNode;
}

/**
 * One option of a set (an item, a size, a finish...): a toggle button with aria-pressed, a clear
 * selected state (brass border and a check) that does not rely on colour alone.
 */
export function ChoiceTile({ selected, title, hint, media, className, type = 'button', ...rest }: ChoiceTileProps) {
  return (
    <button
      type={type}
      aria-pressed={selected}
      className={cn(
        'relative flex min-h-11 items-center gap-3 rounded-md border px-3 py-2 text-left transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300',
        'disabled:cursor-not-allowed disabled:opacity-50',
        selected
          ? 'border-brass-400 bg-brass-400/15 text-khaki-50'
          : 'border-olive-500 bg-ink-900 text-khaki-100 hover:border-khaki-400 hover:bg-olive-800',
        className,
      )}
      {...rest}
    >
      {media ? <span className="shrink-0">{media}</span> : null}
      <span className="flex min-w-0 flex-col">
        <span className="font-semibold">{title}</span>
        {hint ? <span className="text-xs text-khaki-300">{hint}</span> : null}
      </span>
      {selected ? <Check aria-hidden="true" className="ml-auto size-4 shrink-0 text-brass-300" /> : null}
    </button>
  );
}

export interface ChoiceGroupProps {
  /** The visible heading of the group (also its accessible name). */
  label: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Grid columns on wider screens. */
  columns?: 2 | 3 | 4;
  required?: boolean;
}

const columnClasses = { 2: 'sm:grid-cols-2', 3: 'sm:grid-cols-3', 4: 'sm:grid-cols-4' } as const;

/** A labelled group of ChoiceTiles (role=group, named by its heading). */
export function ChoiceGroup({ label, hint, children, className, columns = 3, required }: ChoiceGroupProps) {
  return (
    <fieldset className={cn('flex min-w-0 flex-col gap-2', className)}>
      <legend className="mb-2 text-sm font-semibold text-khaki-100">
        {label}
        {required ? (
          <span aria-hidden="true" className="ml-0.5 text-brass-400">
            *
          </span>
        ) : null}
      </legend>
      {hint ? <p className="-mt-1 text-xs text-khaki-300">{hint}</p> : null}
      <div className={cn('grid grid-cols-2 gap-2', columnClasses[columns])}>{children}</div>
    </fieldset>
  );
}
