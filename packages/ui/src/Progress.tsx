import { cn } from './cn.js';

export interface ProgressBarProps {
  /** 0 to 100. */
  value: number;
  /** Accessible name, e.g. "Order progress". */
  label: string;
  /** Read out instead of the bare percent, e.g. "Step 2 of 5: Details". */
  valueText?: string;
  className?: string;
}

export function ProgressBar({ value, label, valueText, className }: ProgressBarProps) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      aria-valuetext={valueText}
      className={cn('h-2.5 w-full overflow-hidden rounded-full bg-olive-700', className)}
    >
      <div
        className="h-full rounded-full bg-brass-400 transition-[width] duration-300 motion-reduce:transition-none"
        style={{ width: `${clamped}%` }}
      />
    </div>
  );
}
