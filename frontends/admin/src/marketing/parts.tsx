// Small pieces the marketing tabs share: an on/off switch (Radix, the same look as the discount codes'
// active switch), a confirmation dialog before anything destructive, the campaign status badge and a
// query's loading / error / empty states.
import type { ReactNode } from 'react';
import * as Switch from '@radix-ui/react-switch';
import type { UseQueryResult } from '@tanstack/react-query';
import type { CampaignStatus } from '@shop/contracts';
import { Badge, Button, ErrorState, Modal, Skeleton } from '@shop/ui';

export function Toggle({
  checked,
  onChange,
  label,
  disabled,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
  label: string;
  disabled?: boolean;
}) {
  return (
    <Switch.Root
      checked={checked}
      disabled={disabled}
      onCheckedChange={onChange}
      aria-label={label}
      className="relative h-6 w-11 shrink-0 rounded-full border border-olive-500 bg-ink-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300 disabled:opacity-60 data-[state=checked]:bg-brass-400"
    >
      <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-khaki-100 transition-transform data-[state=checked]:translate-x-5 motion-reduce:transition-none" />
    </Switch.Root>
  );
}

export function ConfirmModal({
  title,
  description,
  confirmLabel,
  busyText,
  busy,
  onConfirm,
  onClose,
}: {
  title: string;
  description: string;
  confirmLabel: string;
  /** The confirm button's text while the server works ("Removing...", "Deleting..."). */
  busyText: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal
      open
      size="sm"
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={busy} loadingText={busyText}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p className="text-sm text-khaki-200">This cannot be undone.</p>
    </Modal>
  );
}

const statusTone = { draft: 'neutral', scheduled: 'brass', sending: 'caution', sent: 'ok' } as const;

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <Badge tone={statusTone[status]} data-testid="campaign-status">
      {status}
    </Badge>
  );
}

/** A day as "Nov 24" (chart axis; the data is per UTC day). */
export const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * A query's three faces, the same in every marketing list: a skeleton while it loads, the error with
 * Retry, an empty state with a next step, then the data.
 */
export function QueryState<T>({
  query,
  what,
  skeletonClass = 'h-32',
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  /** Used in "Could not load {what}". */
  what: string;
  skeletonClass?: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Skeleton className={skeletonClass} />;
  if (query.isError)
    return (
      <ErrorState title={`Could not load ${what}`} message={query.error.message} onRetry={() => void query.refetch()} />
    );
  if (isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
