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

export const isKnownStatus = (status: string): status is OrderStatus => (orderStatuses as readonly string[]).includes(status);
export const statusLabel = (status: string) => (isKnownStatus(status) ? orderStatusLabels[status] : status.replaceAll('_', ' '));
export const statusClasses = (status: string) => statusColours[isKnownStatus(status) ? status : 'pending'];

export function StatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <span
      data-status={status}
      className={cn('inline-flex items-center whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-semibold uppercase tracking-wide', statusClasses(status), className)}
    >
      {statusLabel(status)}
    </span>
  );
}
