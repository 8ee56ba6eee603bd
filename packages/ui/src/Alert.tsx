import { CircleAlert, CircleCheck, Info, TriangleAlert } from 'lucide-react';
import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from './cn.js';

export type AlertTone = 'error' | 'warning' | 'info' | 'success';

const tones: Record<AlertTone, { box: string; Icon: typeof Info }> = {
  error: { box: 'border-alert-400/60 bg-alert-600/15 text-alert-400', Icon: CircleAlert },
  warning: { box: 'border-caution-400/60 bg-caution-400/10 text-caution-400', Icon: TriangleAlert },
  info: { box: 'border-khaki-400/50 bg-olive-800 text-khaki-100', Icon: Info },
  success: { box: 'border-ok-400/60 bg-ok-600/20 text-ok-400', Icon: CircleCheck },
};

export interface AlertProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  tone?: AlertTone;
  title?: ReactNode;
}

/**
 * A message in the page (not window.alert): errors are announced at once (role=alert), the other
 * tones politely (role=status).
 */
export function Alert({ tone = 'info', title, children, className, ...rest }: AlertProps) {
  const { box, Icon } = tones[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-md border px-3 py-2.5 text-sm', box, className)}
      {...rest}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className={title ? 'mt-0.5' : undefined}>{children}</div> : null}
      </div>
    </div>
  );
}
