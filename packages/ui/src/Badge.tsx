import type { HTMLAttributes } from 'react';
import { cn } from './cn.js';

export type BadgeTone = 'neutral' | 'brass' | 'ok' | 'alert' | 'caution';

const tones: Record<BadgeTone, string> = {
  neutral: 'border-khaki-400/60 bg-olive-800 text-khaki-100',
  brass: 'border-brass-400/70 bg-brass-400/15 text-brass-300',
  ok: 'border-ok-400/60 bg-ok-600/25 text-ok-400',
  alert: 'border-alert-400/60 bg-alert-600/25 text-alert-400',
  caution: 'border-caution-400/60 bg-caution-400/15 text-caution-400',
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

export function Badge({ tone = 'neutral', className, ...rest }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold uppercase tracking-wide',
        tones[tone],
        className,
      )}
      {...rest}
    />
  );
}
