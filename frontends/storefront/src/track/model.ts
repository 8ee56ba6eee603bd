// Tracking rules (storefront §4, §5): the badge tone of a status, the progress percentage, dates.
import {
  orderStatusDescriptions,
  orderStatusLabels,
  sizeLabel,
  trackingProgressPercent,
  trackingSequence,
  type ItemType,
  type OrderStatus,
} from '@shop/contracts';
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

/**
 * Position in pending, in_progress, design_review, production, completed (from 1) / 5; the statuses
 * around them have their place on the bar too (quote and payment at received, paid half a step on,
 * shipped between production and completed); cancelled shows 0%.
 */
export function progressPercent(status: string): number {
  return trackingProgressPercent(status);
}

/** The five tracking steps, each reached once the order's progress has got that far. */
export function trackingSteps(
  status: string,
): Array<{ status: string; label: string; reached: boolean; current: boolean }> {
  const percent = progressPercent(status);
  const step = 100 / trackingSequence.length;
  return trackingSequence.map((s, i) => ({
    status: s,
    label: statusLabel(s),
    reached: percent >= (i + 1) * step,
    current: percent >= (i + 1) * step && percent < (i + 2) * step,
  }));
}

/** The order's size with its unit and label: 'Large (2")', '3" x 3"', "M: 4, XL: 6" for shirts. */
export function sizeText(order: {
  itemType?: ItemType | null;
  size?: string | null;
  sizeBreakdown?: Record<string, number> | null;
}): string {
  if (order.sizeBreakdown && Object.keys(order.sizeBreakdown).length) {
    return Object.entries(order.sizeBreakdown)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
  }
  return order.size ? sizeLabel(order.itemType, order.size) : '';
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(value: string | undefined | null): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : dateFormat.format(d);
}
