// The shop's vocabulary, written once. Every value here is taken word for word from the spec
// (storefront.md, admin-*.md); services, gateway and frontends import these instead of retyping them.
import { z } from 'zod';

/** Turns a readonly tuple of values into a zod enum plus a label map lookup. */
function labelled<const T extends readonly [string, ...string[]]>(values: T, labels: Record<T[number], string>) {
  return { values, schema: z.enum(values), labels } as const;
}

// ---------------------------------------------------------------------------------------------
// Catalog (storefront §3, §9)
// ---------------------------------------------------------------------------------------------
export const itemTypes = ['coin', 'patch', 'shirt'] as const;
export const itemTypeSchema = z.enum(itemTypes, { error: 'Please select a valid item type' });
export type ItemType = z.infer<typeof itemTypeSchema>;

export interface CatalogItem {
  id: ItemType;
  /** Catalog title, e.g. shown in "Customize {item}". */
  title: string;
  /** Landing card heading. */
  cardTitle: string;
  /** Base price in US dollars per piece, shown as "From $". */
  basePrice: number;
}

export const catalog: Record<ItemType, CatalogItem> = {
  coin: { id: 'coin', title: 'Custom Challenge Coins', cardTitle: 'Challenge Coins', basePrice: 25.99 },
  patch: { id: 'patch', title: 'Custom Patches', cardTitle: 'Custom Patches', basePrice: 12.99 },
  shirt: { id: 'shirt', title: 'Custom Tactical Shirts', cardTitle: 'Tactical Shirts', basePrice: 39.99 },
};

export const designMethods = ['upload', 'describe', 'team', 'ai'] as const;
export const designMethodSchema = z.enum(designMethods);
export type DesignMethod = z.infer<typeof designMethodSchema>;

// Guided-flow options per item type (storefront §3 "Options by item type").
export const coinSizes = [
  { value: '1.25', label: 'Mini', inches: 1.25 },
  { value: '1.5', label: 'Small', inches: 1.5 },
  { value: '1.75', label: 'Medium', inches: 1.75 },
  { value: '2', label: 'Large', inches: 2 },
  { value: '2.25', label: 'XL', inches: 2.25 },
  { value: '2.5', label: 'XXL', inches: 2.5 },
] as const;
export const coinShapes = ['Round', 'Square', 'Rectangle', 'Shield', 'Star', 'Dog Tag', 'Badge', 'Custom'] as const;
export const coinColors = ['Black', 'Gold', 'Silver', 'Bronze', 'Red', 'Blue', 'Green', 'White'] as const;
export const coinFinishes = [
  'antique_bronze',
  'antique_gold',
  'antique_silver',
  'polished_gold',
  'polished_silver',
  'black_nickel',
] as const;
/** Finishes the review step also knows how to name (never offered as a choice in the flow). */
export const coinReviewOnlyFinishes = [
  'antique_copper',
  'polished_nickel',
  'dual_plating',
  'rainbow_plating',
  'sandblast',
  'brushed',
] as const;
export const coinEdges = ['plain', 'rope', 'reeded', 'cut', 'beveled', 'oblique'] as const;
export const coinFeatures = [
  '3D Design',
  'Cutouts',
  'Spinner',
  'Keychain',
  'Bottle Opener',
  'Enamel Fill',
  'Epoxy Dome',
  'Glow in Dark',
] as const;
export const patchSizes = ['2x2', '3x3', '4x4', 'custom'] as const;
export const patchFinishes = ['embroidered', 'woven', 'pvc', 'leather'] as const;
export const shirtSizes = ['S', 'M', 'L', 'XL', 'XXL', 'XXXL'] as const;
export const shirtMaterials = ['cotton', 'poly_cotton', 'performance', 'tactical'] as const;

/**
 * A guided-flow size as people read it, with its unit: coin "2" -> 'Large (2")', patch "3x3" ->
 * '3" x 3"', "custom" -> "Custom size". Other values (shirt sizes, the customizer's "2 inch") already
 * read well and are shown as stored.
 */
export function sizeLabel(itemType: ItemType | null | undefined, size: string): string {
  if (itemType === 'coin') {
    const coin = coinSizes.find((s) => s.value === size);
    if (coin) return `${coin.label} (${coin.value}")`;
  }
  if (itemType === 'patch') {
    if (size === 'custom') return 'Custom size';
    const patch = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$/.exec(size);
    if (patch) return `${patch[1]}" x ${patch[2]}"`;
  }
  return size;
}

// Item customizer modal options (storefront §3 "Customizer options").
export const customizerOptions: Record<
  ItemType,
  { sizes: readonly string[]; colors: readonly string[]; materials: readonly string[] }
> = {
  coin: {
    sizes: ['1 inch', '1.25 inch', '1.5 inch', '2 inch'],
    colors: ['Antique Bronze', 'Antique Gold', 'Antique Silver', 'Black Nickel'],
    materials: ['Brass', 'Iron', 'Zinc Alloy', 'Copper'],
  },
  shirt: {
    sizes: ['XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'],
    colors: ['OD Green', 'Black', 'Coyote Tan', 'Ranger Green', 'Navy'],
    materials: ['100% Cotton', 'Cotton/Poly Blend', 'Ripstop', 'Performance Fabric'],
  },
  patch: {
    sizes: ['2 inch', '3 inch', '4 inch', '5 inch'],
    colors: ['Full Color', 'Black & White', 'OD Green', 'Subdued'],
    materials: ['Embroidered', 'PVC', 'Woven', 'Leather'],
  },
};
/** Customizer draft fallbacks when a type has no option list. */
export const customizerDefaults = { size: '1 inch', color: 'Antique Bronze', material: 'Brass' } as const;

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
export const defaultCustomerCategory: CustomerCategory = 'general';

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
