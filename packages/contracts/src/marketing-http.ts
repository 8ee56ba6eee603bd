// HTTP shapes of the marketing service's campaigns, subscribers, SMS templates and stats (admin part B
// §2.4 Marketing & Communications, §3 entities, §5 validation, §7 calls, §8 errors, §9 constants).
// Browser-safe: the back office's forms use these same schemas.
import { z } from 'zod';
import { campaignStatusSchema, campaignTypeSchema, customerCategorySchema, subscriberStatusSchema } from './catalog.js';

export const marketingPaths = {
  emails: '/api/marketing/emails',
  email: (id: string) => `/api/marketing/emails/${encodeURIComponent(id)}`,
  sendEmail: (id: string) => `/api/marketing/emails/${encodeURIComponent(id)}/send`,
  subscribers: '/api/marketing/subscribers',
  subscriber: (id: string) => `/api/marketing/subscribers/${encodeURIComponent(id)}`,
  sms: '/api/marketing/sms',
  smsTemplate: (id: string) => `/api/marketing/sms/${encodeURIComponent(id)}`,
  /** The local development SMS outbox (admin-only; empty when Twilio is configured). */
  smsOutbox: '/api/marketing/sms/outbox',
  stats: '/api/marketing/stats',
  /** Public: the one-click unsubscribe (RFC 8058 POST) and its confirmation page (GET). */
  unsubscribe: (token: string) => `/api/marketing/unsubscribe/${encodeURIComponent(token)}`,
  /** Public: the open-tracking image and the click redirect of one campaign email. */
  trackOpen: (token: string) => `/api/marketing/track/open/${encodeURIComponent(token)}`,
  trackClick: (token: string, link: number) => `/api/marketing/track/click/${encodeURIComponent(token)}/${link}`,
} as const;

/** The spec's words (§8 errors, §2.4 titles). */
export const marketingMessages = {
  addSubscriberFailed: 'Failed to add subscriber',
  updateCampaignFailed: 'Failed to update email campaign',
  duplicateSubscriber: 'A subscriber with this email already exists',
  onlyDraftsEditable: 'Only a draft campaign can be edited',
  onlyDraftsSendable: 'Only a draft campaign can be sent',
  campaignNotFound: 'Campaign not found',
  subscriberNotFound: 'Subscriber not found',
  smsTemplateNotFound: 'SMS template not found',
  unsubscribeLinkUnknown: 'This unsubscribe link is not valid.',
} as const;

// ---------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------
export type CampaignType = z.infer<typeof campaignTypeSchema>;
export const campaignTypeLabels: Record<CampaignType, string> = {
  newsletter: 'Newsletter',
  promotion: 'Promotion',
  announcement: 'Announcement',
  order_update: 'Order Update',
};

export type CampaignStatus = z.infer<typeof campaignStatusSchema>;
export type SubscriberStatus = z.infer<typeof subscriberStatusSchema>;

/** The shop events an SMS template can be tied to. */
export const smsTriggers = ['quote_request_received', 'quote_sent', 'payment_received', 'order_shipped'] as const;
export const smsTriggerSchema = z.enum(smsTriggers, { error: 'Trigger must be one of the shop events' });
export type SmsTrigger = z.infer<typeof smsTriggerSchema>;
export const smsTriggerLabels: Record<SmsTrigger, string> = {
  quote_request_received: 'Quote request received',
  quote_sent: 'Quote sent',
  payment_received: 'Payment received',
  order_shipped: 'Order shipped',
};
/** Placeholders an SMS template may use; each is filled from the event. */
export const smsPlaceholders = ['{name}', '{orderNumber}', '{amount}', '{trackingNumber}'] as const;

export const marketingLimits = {
  name: 120,
  subject: 200,
  content: 20_000,
  smsContent: 480,
  email: 254,
  phone: 30,
  /** §9: recent marketing activity shows 5 campaigns. */
  recentCampaigns: 5,
} as const;

// ---------------------------------------------------------------------------------------------
// Campaigns
// ---------------------------------------------------------------------------------------------
const isoDate = z.iso.datetime({ offset: true });

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** Create and Edit Campaign (§5): name, type, subject and content are required. */
export const campaignDraftSchema = z.object({
  name: requiredText('Name', marketingLimits.name),
  type: campaignTypeSchema,
  subject: requiredText('Subject', marketingLimits.subject),
  content: requiredText('Content', marketingLimits.content),
});
export type CampaignDraft = z.infer<typeof campaignDraftSchema>;

/** POST /api/marketing/emails: a draft, or a scheduled campaign when scheduledDate (in the future) is given. */
export const campaignCreateSchema = campaignDraftSchema.extend({
  scheduledDate: isoDate
    .optional()
    .describe('When set, the campaign is scheduled and the service sends it at that time'),
});
export type CampaignCreate = z.infer<typeof campaignCreateSchema>;

export const campaignSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    subject: z.string(),
    content: z.string(),
    type: campaignTypeSchema,
    status: campaignStatusSchema,
    recipients: z.number().int().nonnegative(),
    sent: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    opens: z.number().int().nonnegative(),
    clicks: z.number().int().nonnegative(),
    /** opens / sent, in percent with 1 decimal (§9). */
    openRate: z.number(),
    /** clicks / opens, in percent with 1 decimal (§9). */
    clickRate: z.number(),
    tags: z.array(z.string()),
    createdDate: isoDate,
    sentDate: isoDate.nullable(),
    scheduledDate: isoDate.nullable(),
  })
  .meta({ id: 'EmailCampaign' });
export type Campaign = z.infer<typeof campaignSchema>;

export const campaignListResponseSchema = z.object({ campaigns: z.array(campaignSchema) });
export const campaignResponseSchema = z.object({ success: z.literal(true), campaign: campaignSchema });
export const campaignSendResponseSchema = z.object({ success: z.literal(true), campaign: campaignSchema });

/** A percentage with 1 decimal (§9); 0 when the denominator is 0. */
export function ratePercent(part: number, whole: number): number {
  if (!whole) return 0;
  return Math.round((part / whole) * 1000) / 10;
}

/** The http(s) links of a campaign's text, in order; a click link names one by its index. */
export function campaignLinks(content: string): string[] {
  return [...content.matchAll(/https?:\/\/[^\s<>"')\]]+/gi)].map((m) => m[0].replace(/[.,;:!?]+$/, ''));
}

// ---------------------------------------------------------------------------------------------
// Subscribers
// ---------------------------------------------------------------------------------------------
const phoneField = z
  .string()
  .trim()
  .max(marketingLimits.phone, `Phone must be at most ${marketingLimits.phone} characters`)
  .refine(
    (v) => v === '' || /^(?=(?:\D*\d){7})[0-9+().\s-]+$/.test(v),
    'Phone must be a phone number (digits, spaces and + ( ) - . only)',
  );

/** Add Subscriber (§5): name and email required, email format, phone optional, category default general, email on and SMS off. */
export const subscriberCreateSchema = z.object({
  name: requiredText('Name', marketingLimits.name),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(marketingLimits.email)
    .pipe(z.email('Email must be a valid email address'))
    .transform((v) => v.toLowerCase()),
  phone: phoneField.optional(),
  category: customerCategorySchema.default('general'),
  emailSubscribed: z.boolean().default(true),
  smsSubscribed: z.boolean().default(false),
});
export type SubscriberCreate = z.input<typeof subscriberCreateSchema>;

/** PATCH: the email and SMS flags toggled independently (and the other editable fields). */
export const subscriberPatchSchema = z
  .object({
    name: requiredText('Name', marketingLimits.name).optional(),
    phone: phoneField.optional(),
    category: customerCategorySchema.optional(),
    emailSubscribed: z.boolean().optional(),
    smsSubscribed: z.boolean().optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change');
export type SubscriberPatch = z.infer<typeof subscriberPatchSchema>;

export const subscriberSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    category: customerCategorySchema,
    emailSubscribed: z.boolean(),
    smsSubscribed: z.boolean(),
    status: subscriberStatusSchema,
    emailOpens: z.number().int().nonnegative(),
    totalOrders: z.number().int().nonnegative(),
    source: z.enum(['admin', 'quote_request']),
    subscribedDate: isoDate,
  })
  .meta({ id: 'Subscriber' });
export type Subscriber = z.infer<typeof subscriberSchema>;

export const subscriberListResponseSchema = z.object({ subscribers: z.array(subscriberSchema) });
export const subscriberResponseSchema = z.object({ success: z.literal(true), subscriber: subscriberSchema });

// ---------------------------------------------------------------------------------------------
// SMS templates
// ---------------------------------------------------------------------------------------------
export const smsTemplateCreateSchema = z.object({
  name: requiredText('Name', marketingLimits.name),
  content: requiredText('Message', marketingLimits.smsContent),
  trigger: smsTriggerSchema,
  isActive: z.boolean().default(true),
});
export type SmsTemplateCreate = z.input<typeof smsTemplateCreateSchema>;

export const smsTemplatePatchSchema = z
  .object({
    name: requiredText('Name', marketingLimits.name).optional(),
    content: requiredText('Message', marketingLimits.smsContent).optional(),
    trigger: smsTriggerSchema.optional(),
    isActive: z.boolean().optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change');
export type SmsTemplatePatch = z.infer<typeof smsTemplatePatchSchema>;

export const smsTemplateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    content: z.string(),
    trigger: smsTriggerSchema,
    isActive: z.boolean(),
    usageCount: z.number().int().nonnegative(),
    createdDate: isoDate,
  })
  .meta({ id: 'SmsTemplate' });
export type SmsTemplate = z.infer<typeof smsTemplateSchema>;

export const smsTemplateListResponseSchema = z.object({ templates: z.array(smsTemplateSchema) });
export const smsTemplateResponseSchema = z.object({ success: z.literal(true), template: smsTemplateSchema });

export const smsMessageStatuses = ['queued', 'sending', 'sent', 'failed'] as const;
export const smsMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  body: z.string(),
  trigger: smsTriggerSchema,
  templateName: z.string(),
  status: z.enum(smsMessageStatuses),
  provider: z.enum(['twilio', 'dev_outbox']).nullable(),
  error: z.string().nullable(),
  createdAt: isoDate,
  sentAt: isoDate.nullable(),
});
export type SmsMessage = z.infer<typeof smsMessageSchema>;
export const smsOutboxResponseSchema = z.object({ messages: z.array(smsMessageSchema) });

// ---------------------------------------------------------------------------------------------
// Stats (§3 Marketing stats; the overview and analytics tabs)
// ---------------------------------------------------------------------------------------------
export const marketingStatsSchema = z
  .object({
    /** Campaign emails delivered (email.sent) over all campaigns. */
    totalEmails: z.number().int().nonnegative(),
    /** SMS messages sent through the provider. */
    totalSMS: z.number().int().nonnegative(),
    activeDiscounts: z.number().int().nonnegative(),
    /** All campaigns' opens / sent, percent with 1 decimal. */
    emailOpenRate: z.number(),
    /** SMS sent / (sent + failed), percent with 1 decimal. */
    smsDeliveryRate: z.number(),
    /** Redemptions of discount codes (sum of usedCount). */
    discountUsage: z.number().int().nonnegative(),
    /** Dollars: see the marketing service README for the exact definition. */
    revenueFromMarketing: z.number().nonnegative(),
    /** Attributed revenue of the last 30 days against the 30 days before, percent with 1 decimal; null when there was none before. */
    revenueChange: z.number().nullable(),
    activeSubscribers: z.number().int().nonnegative(),
    /** Subscribers by the day they subscribed, last 30 days (analytics growth chart): cumulative active count. */
    subscriberGrowth: z.array(z.object({ date: z.string(), subscribers: z.number().int().nonnegative() })),
    /** The most recent SMS sends (the overview's recent SMS activity). */
    recentSms: z.array(smsMessageSchema),
  })
  .meta({ id: 'MarketingStats' });
export type MarketingStats = z.infer<typeof marketingStatsSchema>;
export const marketingStatsResponseSchema = z.object({ stats: marketingStatsSchema });
