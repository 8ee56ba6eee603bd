// NATS events: one envelope, one data schema per event type, and the JetStream stream each type lives
// in. The NATS subject of an event is its type (e.g. `order.created`).
import { z } from 'zod';
import { shippingAddressSchema } from './address.js';
import {
  alertSeveritySchema,
  carrierSchema,
  customerCategorySchema,
  designMethodSchema,
  emailHistoryTypeSchema,
  itemTypeSchema,
  orderStatusSchema,
  riskLevelSchema,
} from './catalog.js';
import { teamEmailTemplates } from './email-http.js';
import { eventSourceSchema } from './services.js';
import { gatewayAdminActionData } from './admin-auth.js';
import { campaignSendRequestedData } from './marketing-events.js';
import { gatewayRequestsLoggedData } from './security-events.js';
import { contentChangedData } from './content.js';
import { customerErasureRequestedData } from './privacy.js';
import {
  returnRequestedData,
  returnStatusChangedData,
  supportMessageCreatedData,
  supportRepliedData,
} from './support-events.js';

const isoDate = z.iso.datetime({ offset: true });
const money = z.number().nonnegative();

// ---------------------------------------------------------------------------------------------
// Per-event data
// ---------------------------------------------------------------------------------------------
export const orderCreatedData = z.object({
  orderId: z.string().min(1),
  orderNumber: z.string().min(1),
  customerName: z.string(),
  email: z.email(),
  phone: z.string().optional(),
  itemType: itemTypeSchema,
  designMethod: designMethodSchema,
  quantity: z.number().int().positive(),
  estimatedTotal: money,
  customerCategory: customerCategorySchema,
  taxExempt: z.boolean(),
  aiGenerated: z.boolean(),
  subscribeEmail: z.boolean(),
  subscribeSMS: z.boolean(),
  /**
   * Optional since the item customizer's reduced order may come without one (it may carry only a
   * billingAddress, or no address at all; the team then asks for it with the quote).
   */
  shippingAddress: shippingAddressSchema.optional(),
  status: orderStatusSchema,
  submittedDate: isoDate,
  // Added for the confirmation and new-order emails (all optional, so older events still parse).
  statusLabel: z.string().optional(),
  description: z.string().optional(),
  size: z.string().optional(),
  sizeBreakdown: z.record(z.string(), z.number().int().nonnegative()).optional(),
  colors: z.array(z.string()).optional(),
  finish: z.string().optional(),
  shape: z.string().optional(),
  edge: z.string().optional(),
  features: z.array(z.string()).optional(),
  files: z
    .array(z.object({ originalName: z.string(), url: z.string(), mimetype: z.string(), size: z.number() }))
    .optional(),
  billingAddress: shippingAddressSchema.optional(),
  /** True for the item customizer's reduced order (estimatedTotal is then the customizer price). */
  customizer: z.boolean().optional(),
});

export const orderStatusChangedData = z.object({
  orderId: z.string().min(1),
  orderNumber: z.string().min(1),
  customerName: z.string(),
  email: z.email(),
  itemType: itemTypeSchema,
  previousStatus: orderStatusSchema.nullable(),
  status: orderStatusSchema,
  /** Who caused it: an admin (by email), the payment provider, or the system. */
  changedBy: z.string(),
  notes: z.string().optional(),
  tracking: z
    .object({ carrier: carrierSchema, trackingNumber: z.string(), estimatedDelivery: isoDate.optional() })
    .optional(),
  /** The order's total at the time of the change (revenue projections use it). */
  total: money.optional(),
  changedAt: isoDate,
  /** Id of the order's email-history entry for the email this causes, so `email.sent` can be matched back. */
  emailRecordId: z.string().min(1).optional(),
});

export const orderQuoteSentData = z.object({
  orderId: z.string().min(1),
  orderNumber: z.string().min(1),
  customerName: z.string(),
  email: z.email(),
  itemType: itemTypeSchema,
  quantity: z.number().int().positive(),
  quoteAmount: money,
  quoteNotes: z.string().optional(),
  taxRate: z.number().min(0).max(1),
  taxAmount: money,
  finalAmount: money,
  quoteExpiresAt: isoDate,
  paymentPath: z.string().describe('Path of the payment page, e.g. /order/pay/{orderId}'),
  /** Id of the order's email-history entry for the email this causes, so `email.sent` can be matched back. */
  emailRecordId: z.string().min(1).optional(),
});

/**
 * The order's quote total changed without a new quote (a discount applied, replaced or removed, issue 13).
 * Payments cancels the order's open payment intents made for another amount, so a payment page still
 * holding one cannot charge the old total.
 */
export const orderTotalChangedData = z.object({
  orderId: z.string().min(1),
  orderNumber: z.string().min(1),
  /** Dollars: the quote's new final amount (quote - discount + tax). */
  finalAmount: money,
  discountCode: z.string().nullable(),
  /** Dollars. */
  discountAmount: money,
  reason: z.enum(['discount_applied', 'discount_removed']),
  changedBy: z.string(),
  changedAt: isoDate,
});

export const orderInfoRequestedData = z.object({
  orderId: z.string().min(1),
  orderNumber: z.string().min(1),
  customerName: z.string(),
  email: z.email(),
  subject: z.string().min(1),
  message: z.string().min(1),
  /** Id of the order's email-history entry for the email this causes, so `email.sent` can be matched back. */
  emailRecordId: z.string().min(1).optional(),
});

export const orderEmailRequestedData = z.object({
  orderId: z.string().min(1),
  orderNumber: z.string().min(1),
  customerName: z.string(),
  email: z.email(),
  subject: z.string().min(1),
  message: z.string().min(1),
  type: emailHistoryTypeSchema,
  /** Id of the order's email-history entry, so `email.sent` can be matched back to it. */
  emailRecordId: z.string().min(1),
});

/**
 * The order became paid (once, whichever came first: the provider's payment.succeeded or the payment
 * page's verified confirmation). The email service sends the customer's receipt and the admin's notice.
 */
export const orderPaidData = z.object({
  orderId: z.string().min(1),
  orderNumber: z.string().min(1),
  customerName: z.string(),
  email: z.email(),
  itemType: itemTypeSchema,
  quantity: z.number().int().nonnegative(),
  /** Dollars, as charged. */
  amount: money,
  quoteAmount: money.optional(),
  taxAmount: money.optional(),
  paymentIntentId: z.string().min(1),
  provider: z.enum(['stripe', 'test_mode']),
  paidAt: isoDate,
  /** Id of the order's email-history entry for the receipt, so `email.sent` can be matched back. */
  emailRecordId: z.string().min(1).optional(),
});

export const paymentSucceededData = z.object({
  orderId: z.string().min(1),
  orderNumber: z.string().min(1),
  paymentIntentId: z.string().min(1),
  /** Amount in cents, currency usd (storefront §9). */
  amount: z.number().int().positive(),
  currency: z.literal('usd'),
  provider: z.enum(['stripe', 'test_mode']),
  paidAt: isoDate,
});

export const paymentFailedData = paymentSucceededData.omit({ paidAt: true }).extend({
  reason: z.string(),
  failedAt: isoDate,
});

/**
 * The provider took a payment that does not pay its order (another amount than the order's total now, an
 * order paid another way or gone): the order stays unpaid and the team owes the money back. Emailed to the
 * team (email service); listed by `GET /api/payments/refunds-due`.
 */
export const paymentRefundDueData = paymentSucceededData.omit({ paidAt: true, provider: true }).extend({
  /** Cents the order's total was when the payment arrived (null: no quote, or no order). */
  orderTotal: z.number().int().nonnegative().nullable(),
  reason: z.string(),
  recordedAt: isoDate,
});

export const customerVerificationRequestedData = z.object({
  email: z.email(),
  customerName: z.string(),
  /** The 6-digit code in clear: only the email service reads it, the customers service stores a hash. */
  code: z.string().regex(/^\d{6}$/),
  expiresAt: isoDate,
});

// Support messages and returns: their data lives in support-events.ts.

// Campaign sends: their data lives in marketing-events.ts.

export const banChangedData = z.object({
  ip: z.string().min(1),
  action: z.enum(['banned', 'unbanned']),
  reason: z.string().optional(),
  expiresAt: isoDate.nullable(),
  changedBy: z.string(),
  changedAt: isoDate,
});

export const alertRaisedData = z.object({
  alertId: z.string().min(1),
  type: z.string(),
  severity: alertSeveritySchema,
  description: z.string(),
  ip: z.string().optional(),
  raisedAt: isoDate,
});

export const gatewayRequestLoggedData = z.object({
  ip: z.string(),
  method: z.string(),
  path: z.string(),
  userAgent: z.string().optional(),
  statusCode: z.number().int(),
  responseTime: z.number().nonnegative(),
  riskLevel: riskLevelSchema,
  requestId: z.string().optional(),
  timestamp: isoDate,
});

export const emailSentData = z.object({
  emailId: z.string().min(1),
  to: z.email(),
  subject: z.string(),
  template: z.string(),
  /** The event that asked for this email, if any (lets orders fill its email history). */
  causationId: z.uuid().optional(),
  orderId: z.string().optional(),
  emailRecordId: z.string().optional(),
  orderNumber: z.string().optional(),
  /** The start of the text part, for the order's email history. */
  preview: z.string().max(500).optional(),
  /** A campaign email: the campaign and subscriber it was for (marketing counts sends and bounces). */
  campaignId: z.string().optional(),
  subscriberId: z.string().optional(),
  sentAt: isoDate,
});

export const emailFailedData = emailSentData.omit({ sentAt: true }).extend({
  error: z.string(),
  attempts: z.number().int().nonnegative(),
  /** The receiving server refused it for good (an SMTP 5xx): no retry would help; marketing marks a bounce. */
  permanent: z.boolean().optional(),
  failedAt: isoDate,
});

// ---------------------------------------------------------------------------------------------
// Catalog of event types and streams
// ---------------------------------------------------------------------------------------------
export const eventDataSchemas = {
  'order.created': orderCreatedData,
  'order.status_changed': orderStatusChangedData,
  'order.quote_sent': orderQuoteSentData,
  'order.total_changed': orderTotalChangedData,
  'order.info_requested': orderInfoRequestedData,
  'order.email_requested': orderEmailRequestedData,
  'order.paid': orderPaidData,
  'payment.succeeded': paymentSucceededData,
  'payment.failed': paymentFailedData,
  'payment.refund_due': paymentRefundDueData,
  'customer.verification_requested': customerVerificationRequestedData,
  'privacy.erasure_requested': customerErasureRequestedData,
  'support.message_created': supportMessageCreatedData,
  'support.replied': supportRepliedData,
  'support.return_requested': returnRequestedData,
  'support.return_status_changed': returnStatusChangedData,
  'campaign.send_requested': campaignSendRequestedData,
  'content.changed': contentChangedData,
  'ban.changed': banChangedData,
  'alert.raised': alertRaisedData,
  'gateway.request_logged': gatewayRequestLoggedData,
  'gateway.requests_logged': gatewayRequestsLoggedData,
  'gateway.admin_action': gatewayAdminActionData,
  'email.sent': emailSentData,
  'email.failed': emailFailedData,
} as const;

export type EventType = keyof typeof eventDataSchemas;
export const eventTypes = Object.keys(eventDataSchemas) as EventType[];
export const eventTypeSchema = z.enum(eventTypes as [EventType, ...EventType[]]);
export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;

const day = 24 * 60 * 60_000;
/**
 * JetStream streams, one per publishing domain. Subjects never overlap. `maxAgeMs` bounds how long a
 * message is kept (service-kit's ensureStream also brings an existing stream to it); request logs are
 * high-volume and kept shorter. CUSTOMERS carries verification codes in clear, each useless after
 * `limits.verificationCodeTtlMinutes` (10): it keeps them just past that, so an email that could not go
 * out in time is dropped rather than sent late and no code lies in the stream for days.
 */
export const eventStreams = {
  ORDERS: { subjects: ['order.>'], maxAgeMs: 30 * day },
  PAYMENTS: { subjects: ['payment.>'], maxAgeMs: 30 * day },
  CUSTOMERS: { subjects: ['customer.>'], maxAgeMs: 15 * 60_000 },
  SUPPORT: { subjects: ['support.>'], maxAgeMs: 30 * day },
  MARKETING: { subjects: ['campaign.>', 'content.>'], maxAgeMs: 30 * day },
  SECURITY: { subjects: ['ban.>', 'alert.>'], maxAgeMs: 30 * day },
  GATEWAY: { subjects: ['gateway.>'], maxAgeMs: 3 * day },
  EMAIL: { subjects: ['email.>'], maxAgeMs: 30 * day },
  // Erasure requests: CUSTOMERS keeps minutes (codes), these must reach a service that is down for days.
  PRIVACY: { subjects: ['privacy.>'], maxAgeMs: 14 * day },
} as const satisfies Record<string, { subjects: readonly string[]; maxAgeMs: number }>;
export type StreamName = keyof typeof eventStreams;

/** The stream that stores an event type (the stream whose `x.>` prefix matches the type). */
export function streamForEventType(type: string): StreamName {
  const prefix = type.split('.')[0];
  for (const [name, def] of Object.entries(eventStreams)) {
    if (def.subjects.some((s) => s === `${prefix}.>`)) return name as StreamName;
  }
  throw new Error(`No stream holds events of type "${type}"`);
}

// ---------------------------------------------------------------------------------------------
// Subjects
// ---------------------------------------------------------------------------------------------
/**
 * Whom a sent email was for, as its email.sent subject says (`email.sent.<audience>`): `order` an email to
 * a customer about their order (the order's email history), `campaign` a campaign's email (marketing's
 * counts), `team` a notice to the shop's team, `other` the rest (e.g. a verification code).
 */
export type EmailAudience = 'order' | 'campaign' | 'team' | 'other';

export function emailAudience(data: { template: string; orderId?: string | undefined }): EmailAudience {
  if (teamEmailTemplates.has(data.template)) return 'team';
  if (data.orderId) return 'order';
  return data.template === 'campaign' ? 'campaign' : 'other';
}

/** The subject the email.sent events of one audience are published on. */
export const emailSentSubject = (audience: EmailAudience) => `email.sent.${audience}`;

/**
 * The subject an event is published on: its type, or for email.sent a subject under it naming the
 * email's audience. Two email.sent go out per quote request and each consumer acts on few of them:
 * a consumer that filters on its audience's subject is never delivered the rest (each such delivery
 * cost the consumer a parse and an ack, and nats-server a delivery).
 */
export function eventSubject<T extends EventType>(type: T, data: EventData<T>): string {
  return type === 'email.sent' ? emailSentSubject(emailAudience(data as EventData<'email.sent'>)) : type;
}

/** The subject filter that takes every event of a type, whatever subject under it each is published on. */
export function eventTypeFilter(type: EventType): string {
  return type === 'email.sent' ? `${type}.>` : type;
}

/** Whether a subject filter takes only events of this type (its own subject, or subjects under it). */
export function filterWithinType(type: EventType, filter: string): boolean {
  return filter === type || (filter.startsWith(`${type}.`) && filter.length > type.length + 1);
}

/**
 * Event types whose data carries a secret in clear (a verification code). The outbox relay removes the
 * event body from the outbox document as soon as JetStream has it, instead of keeping it for days.
 */
export const eventsWithSecrets: ReadonlySet<EventType> = new Set<EventType>(['customer.verification_requested']);

// ---------------------------------------------------------------------------------------------
// Envelope
// ---------------------------------------------------------------------------------------------
const envelopeBase = z.object({
  id: z.uuid(),
  type: eventTypeSchema,
  occurredAt: isoDate,
  source: eventSourceSchema,
  data: z.unknown(),
});

/** Any event, data not yet checked against its type. */
export const eventEnvelopeSchema = envelopeBase;
export type AnyEventEnvelope = z.infer<typeof envelopeBase>;

export type EventEnvelope<T extends EventType> = Omit<AnyEventEnvelope, 'type' | 'data'> & {
  type: T;
  data: EventData<T>;
};

/** The full schema of one event type: envelope with `type` fixed and `data` checked. */
const eventSchemas = new Map<EventType, z.ZodType>();

/**
 * The envelope schema of one event type, built once per type: every publish and every delivery parses
 * with it, and building it (with zod's compiled fast path) cost more than the parse itself (issue 20).
 */
export function eventSchema<T extends EventType>(type: T) {
  let schema = eventSchemas.get(type) as ReturnType<typeof buildEventSchema<T>> | undefined;
  if (!schema) eventSchemas.set(type, (schema = buildEventSchema(type)));
  return schema;
}

function buildEventSchema<T extends EventType>(type: T) {
  return envelopeBase.extend({ type: z.literal(type), data: eventDataSchemas[type] });
}

/** Parses an unknown message into a typed event; throws a ZodError naming the bad field. */
export function parseEvent<T extends EventType>(type: T, value: unknown): EventEnvelope<T> {
  return eventSchema(type).parse(value) as EventEnvelope<T>;
}

/** Builds a new event with a fresh id. Uses Web Crypto, so it runs in Node 20 and browsers alike. */
export function createEvent<T extends EventType>(
  type: T,
  source: z.infer<typeof eventSourceSchema>,
  data: EventData<T>,
  now: Date = new Date(),
): EventEnvelope<T> {
  return parseEvent(type, { id: globalThis.crypto.randomUUID(), type, occurredAt: now.toISOString(), source, data });
}
