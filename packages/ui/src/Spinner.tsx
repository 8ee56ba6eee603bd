import { LoaderCircle } from 'lucide-react';
import { cn } from './cn.js';

export interface SpinnerProps {
  /** Read by screen readers; the spinner itself is decorative. */
  label?: string;
  className?: string;
  size?: 'sm' | 'md' | 'lg';
}

const sizes = { sm: 'size-4', md: 'size-6', lg: 'size-10' } as const;

export function Spinner({ label = 'Loading', className, size = 'md' }: SpinnerProps) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-2', className)}>
      <LoaderCircle
        aria-hidden="true"
        className={cn(sizes[size], 'animate-spin text-brass-400 motion-reduce:animate-none')}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}
