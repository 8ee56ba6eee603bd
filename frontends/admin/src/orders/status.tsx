// The eleven order statuses with their labels (from @shop/contracts) and colours. A status the view
// does not know is drawn with the pending colours (spec §4).
import { orderStatusLabels, orderStatuses, type OrderStatus } from '@shop/contracts';
import { cn } from '@shop/ui';

const statusColours: Record<OrderStatus, string> = {
  pending: 'border-caution-400/60 bg-caution-400/15 text-caution-400',
  pending_quote: 'border-brass-300/70 bg-brass-400/15 text-brass-300',
  quote_sent: 'border-sky-300/60 bg-sky-500/15 text-sky-300',
  awaiting_payment: 'border-orange-300/60 bg-orange-500/15 text-orange-300',
  paid: 'border-ok-400/60 bg-ok-600/25 text-ok-400',
  in_progress: 'border-indigo-300/60 bg-indigo-500/15 text-indigo-200',
  design_review: 'border-fuchsia-300/60 bg-fuchsia-500/15 text-fuchsia-200',
  production: 'border-cyan-300/60 bg-cyan-500/15 text-cyan-200',
  shipped: 'border-teal-300/60 bg-teal-500/15 text-teal-200',
  completed: 'border-ok-400/80 bg-ok-600/40 text-khaki-50',
  cancelled: 'border-alert-400/60 bg-alert-600/25 text-alert-400',
};

export const isKnownStatus = (status: string): status is OrderStatus =>
  (orderStatuses as readonly string[]).includes(status);
export const statusLabel = (status: string) =>
  isKnownStatus(status) ? orderStatusLabels[status] : status.replaceAll('_', ' ');
export const statusClasses = (status: string) => statusColours[isKnownStatus(status) ? status : 'pending'];

/**
 * A row's status dropdown (spec §2: any status from any status), drawn in the status's colours so it is
 * also the row's status badge: one control instead of a badge plus a dropdown keeps the table within
 * 1024 px.
 */
export function StatusSelect({
  status,
  label,
  disabled,
  onChange,
}: {
  status: string;
  label: string;
  disabled?: boolean;
  onChange: (next: OrderStatus) => void;
}) {
  return (
    <select
      aria-label={label}
      data-status={status}
      value={isKnownStatus(status) ? status : 'pending'}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value as OrderStatus)}
      className={cn(
        'h-7 max-w-36 rounded-full border px-2 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brass-300 disabled:opacity-60',
        statusClasses(status),
      )}
    >
      {orderStatuses.map((s) => (
        // The open list is drawn by the browser: plain shop colours, readable for every status.
        <option key={s} value={s} className="bg-ink-900 text-khaki-50">
          {orderStatusLabels[s]}
        </option>
      ))}
    </select>
  );
}

export function StatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <span
      data-status={status}
      className={cn(
        'inline-flex items-center whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-semibold uppercase tracking-wide',
        statusClasses(status),
        className,
      )}
    >
      {statusLabel(status)}
    </span>
  );
}
