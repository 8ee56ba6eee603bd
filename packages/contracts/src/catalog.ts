// The shop's vocabulary, written once. Every value here is taken word for word from the spec
// (storefront.md, admin-*.md); services, gateway and frontends import these instead of retyping them.
import { z } from 'zod';
import { designMethods, itemTypes } from './catalog-options.js';

/** Turns a readonly tuple of values into a zod enum plus a label map lookup. */
function labelled<const T extends readonly [string, ...string[]]>(values: T, labels: Record<T[number], string>) {
  return { values, schema: z.enum(values), labels } as const;
}

// ---------------------------------------------------------------------------------------------
// Catalog (storefront §3, §9): the values live in catalog-options.ts (no zod), the schemas here.
// ---------------------------------------------------------------------------------------------
export * from './catalog-options.js';
export const itemTypeSchema = z.enum(itemTypes, { error: 'Please select a valid item type' });
export const designMethodSchema = z.enum(designMethods);

// ---------------------------------------------------------------------------------------------
// Customers
// ---------------------------------------------------------------------------------------------
export const customerCategory = labelled(['military', 'first_responder', 'general'] as const, {
  military: 'Military Personnel',
  first_responder: 'First Responder',
  general: 'General Customer',
});
export const customerCategories = customerCategory.values;
export const customerCategorySchema = customerCategory.schema;
export type CustomerCategory = z.infer<typeof customerCategorySchema>;

export const customerStatuses = ['vip', 'active', 'inactive'] as const;
export const customerStatusSchema = z.enum(customerStatuses);
export type CustomerStatus = z.infer<typeof customerStatusSchema>;

// ---------------------------------------------------------------------------------------------
// Orders (admin part A §4, storefront §4)
// ---------------------------------------------------------------------------------------------
export const orderStatus = labelled(
  [
    'pending',
    'pending_quote',
    'quote_sent',
    'awaiting_payment',
    'paid',
    'in_progress',
    'design_review',
    'production',
    'shipped',
    'completed',
    'cancelled',
  ] as const,
  {
    pending: 'Pending Review',
    pending_quote: 'Quote Pending',
    quote_sent: 'Quote Sent',
    awaiting_payment: 'Awaiting Payment',
    paid: 'Paid',
    in_progress: 'In Progress',
    design_review: 'Design Review',
    production: 'In Production',
    shipped: 'Shipped',
    completed: 'Completed',
    cancelled: 'Cancelled',
  },
);
export const orderStatuses = orderStatus.values;
export const orderStatusSchema = orderStatus.schema;
export type OrderStatus = z.infer<typeof orderStatusSchema>;
export const orderStatusLabels = orderStatus.labels;

/**
 * What a tracker is told about a status: the spec's words for the five tracking steps (storefront §4),
 * and plain words for the statuses around them (quote, payment, shipping, cancelled).
 */
export const orderStatusDescriptions: Record<OrderStatus, string> = {
  pending: 'Your order has been received and is being processed.',
  pending_quote: 'Your quote request has been received. We will email your quote within 24 hours.',
  quote_sent: 'Your quote has been sent by email.',
  awaiting_payment: 'Your quote is waiting for payment.',
  paid: 'Your payment has been received. Work on your order begins now.',
  in_progress: 'Design work is in progress.',
  design_review: 'Your design is being reviewed and approved.',
  production: 'Your order is in production.',
  shipped: 'Your order has been shipped.',
  completed: 'Your order has been completed and shipped.',
  cancelled: 'This order has been cancelled.',
};

/** The five tracking steps; progress = position (from 1) / 5 (storefront §4). */
export const trackingSequence = ['pending', 'in_progress', 'design_review', 'production', 'completed'] as const;

/**
 * Where the statuses outside the five steps sit on the bar, as a position counted like the steps (1 to
 * 5): a request still at the quote or payment stage has been received (step 1); a paid order is on its
 * way from received to design work (half a step on); a shipped one is between production and completed.
 * Cancelled stays at 0% (spec).
 */
const trackingPositions: Partial<Record<string, number>> = {
  pending_quote: 1,
  quote_sent: 1,
  awaiting_payment: 1,
  paid: 1.5,
  shipped: 4.5,
};

export function trackingProgressPercent(status: string): number {
  const index = (trackingSequence as readonly string[]).indexOf(status);
  const position = index >= 0 ? index + 1 : (trackingPositions[status] ?? 0);
  return (position / trackingSequence.length) * 100;
}

/** Bulk status change offers every status but these two (admin part A §4). */
export const bulkStatusChoices = orderStatuses.filter((s) => s !== 'pending' && s !== 'cancelled');
/** The payment page shows its success screen for these (storefront §4). */
export const alreadyPaidStatuses = ['paid', 'in_progress', 'completed'] as const satisfies readonly OrderStatus[];

export const carrier = labelled(['UPS', 'FEDEX', 'USPS', 'DHL'] as const, {
  UPS: 'UPS',
  FEDEX: 'FedEx',
  USPS: 'USPS',
  DHL: 'DHL',
});
export const carriers = carrier.values;
export const carrierSchema = carrier.schema;
export type Carrier = z.infer<typeof carrierSchema>;
export const defaultCarrier: Carrier = 'UPS';

export const emailHistoryTypes = ['admin_message', 'status_update', 'customer_inquiry'] as const;
export const emailHistoryTypeSchema = z.enum(emailHistoryTypes);
export type EmailHistoryType = z.infer<typeof emailHistoryTypeSchema>;

export const analyticsPeriod = labelled(['7d', '30d', '6m', '1y', 'total'] as const, {
  '7d': '7 days',
  '30d': '30 days',
  '6m': '6 months',
  '1y': '1 year',
  total: 'All time',
});
export const analyticsPeriods = analyticsPeriod.values;
export const analyticsPeriodSchema = analyticsPeriod.schema;
export type AnalyticsPeriod = z.infer<typeof analyticsPeriodSchema>;

// ---------------------------------------------------------------------------------------------
// Support and returns
// ---------------------------------------------------------------------------------------------
export const supportPriorities = ['low', 'normal', 'high', 'urgent'] as const;
export const supportPrioritySchema = z.enum(supportPriorities);
export type SupportPriority = z.infer<typeof supportPrioritySchema>;
export const supportStatuses = ['open', 'in_progress', 'resolved', 'closed'] as const;
export const supportStatusSchema = z.enum(supportStatuses);
export type SupportStatus = z.infer<typeof supportStatusSchema>;

export const returnReasons = [
  'quality',
  'wrong_item',
  'size_issue',
  'design_error',
  'damaged',
  'not_as_described',
] as const;
export const returnConditions = [
  'new_unopened',
  'opened_unused',
  'quality_issue',
  'wrong_item',
  'shipping_damage',
] as const;

export const faqCategories = [
  'Ordering Process',
  'Pricing & Payment',
  'Production & Timeline',
  'Shipping & Delivery',
  'Quality & Specifications',
] as const;

// ---------------------------------------------------------------------------------------------
// Marketing (admin part B)
// ---------------------------------------------------------------------------------------------
export const discountCategories = ['military', 'first_responder', 'loyalty', 'general'] as const;
export const discountCategorySchema = z.enum(discountCategories);
export type DiscountCategory = z.infer<typeof discountCategorySchema>;
export const discountTypes = ['percentage', 'fixed'] as const;
export const discountTypeSchema = z.enum(discountTypes);
export type DiscountType = z.infer<typeof discountTypeSchema>;

export const campaignTypes = ['newsletter', 'promotion', 'announcement', 'order_update'] as const;
export const campaignTypeSchema = z.enum(campaignTypes);
export const campaignStatuses = ['draft', 'scheduled', 'sending', 'sent'] as const;
export const campaignStatusSchema = z.enum(campaignStatuses);
export const subscriberStatuses = ['active', 'unsubscribed', 'bounced'] as const;
export const subscriberStatusSchema = z.enum(subscriberStatuses);

// ---------------------------------------------------------------------------------------------
// Security (admin part B)
// ---------------------------------------------------------------------------------------------
export const riskLevels = ['low', 'medium', 'high'] as const;
export const riskLevelSchema = z.enum(riskLevels);
export type RiskLevel = z.infer<typeof riskLevelSchema>;
export const alertSeverities = ['low', 'medium', 'high', 'critical'] as const;
export const alertSeveritySchema = z.enum(alertSeverities);
export type AlertSeverity = z.infer<typeof alertSeveritySchema>;

export const banDuration = labelled(['1h', '6h', '1d', '7d', '30d', 'permanent'] as const, {
  '1h': '1 hour',
  '6h': '6 hours',
  '1d': '1 day',
  '7d': '7 days',
  '30d': '30 days',
  permanent: 'Permanent',
});
export const banDurations = banDuration.values;
/** Milliseconds per ban duration; permanent bans never expire. */
export const banDurationMs: Record<(typeof banDurations)[number], number | null> = {
  '1h': 3_600_000,
  '6h': 21_600_000,
  '1d': 86_400_000,
  '7d': 604_800_000,
  '30d': 2_592_000_000,
  permanent: null,
};

// ---------------------------------------------------------------------------------------------
// Production readiness report (admin part A)
// ---------------------------------------------------------------------------------------------
export const readinessOverall = ['ready', 'issues', 'critical'] as const;
export const readinessResultStatuses = ['pass', 'warning', 'fail'] as const;
