import type { HTMLAttributes } from 'react';
import { cn } from './cn.js';

/** A placeholder block shown while a list or panel loads. */
export function Skeleton({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      aria-hidden="true"
      className={cn('rounded-md bg-olive-700 animate-shimmer motion-reduce:animate-none', className)}
      {...rest}
    />
  );
}
