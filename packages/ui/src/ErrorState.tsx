import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './Button.js';
import { cn } from './cn.js';

export interface ErrorStateProps {
  title: string;
  message?: ReactNode;
  /** When given, a Retry button calls it. */
  onRetry?: () => void;
  retrying?: boolean;
  className?: string;
}

/** A failure a person can act on: what went wrong, and a way to try again. */
export function ErrorState({ title, message, onRetry, retrying = false, className }: ErrorStateProps) {
  return (
    <div
      role="alert"
      className={cn(
        'flex flex-col items-center gap-3 rounded-lg border border-alert-400/50 bg-alert-600/10 px-6 py-8 text-center',
        className,
      )}
    >
      <TriangleAlert aria-hidden="true" className="size-8 text-alert-400" />
      <h2 className="font-display text-xl font-bold uppercase tracking-wide text-khaki-50">{title}</h2>
      {message ? <div className="max-w-prose text-sm text-khaki-200">{message}</div> : null}
      {onRetry ? (
        <Button variant="secondary" onClick={onRetry} loading={retrying} loadingText="Retrying...">
          Retry
        </Button>
      ) : null}
    </div>
  );
}
