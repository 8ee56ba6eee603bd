// Tracking rules (storefront §4, §5): the badge tone of a status, the progress percentage, dates.
import { orderStatusDescriptions, orderStatusLabels, trackingProgressPercent, trackingSequence, type OrderStatus } from '@shop/contracts';
import type { BadgeTone } from '@shop/ui';

export function statusLabel(status: string): string {
  return orderStatusLabels[status as OrderStatus] ?? status.replace(/_/g, ' ');
}

export function statusTone(status: string): BadgeTone {
  if (status === 'cancelled') return 'alert';
  if (status === 'completed' || status === 'shipped' || status === 'paid') return 'ok';
  if (status === 'pending_quote' || status === 'quote_sent' || status === 'awaiting_payment') return 'caution';
  return 'brass';
}

export function statusDescription(status: string): string {
  return orderStatusDescriptions[status as OrderStatus] ?? `Status: ${statusLabel(status)}.`;
}

/** Position in pending, in_progress, design_review, production, completed (from 1) / 5; else 0. */
export function progressPercent(status: string): number {
  return trackingProgressPercent(status);
}

/** The five tracking steps with whether each is reached for this status. */
export function trackingSteps(status: string): Array<{ status: string; label: string; reached: boolean }> {
  const at = (trackingSequence as readonly string[]).indexOf(status);
  return trackingSequence.map((s, i) => ({ status: s, label: statusLabel(s), reached: at >= 0 && i <= at }));
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(value: string | undefined | null): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : dateFormat.format(d);
}
