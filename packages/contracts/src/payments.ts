// Quote payment (storefront §2 payment page, §3 payment fields, §4 payment transitions, §7 calls, §8
// messages, §9 constants): the HTTP shapes of the payments service, the public payment view and payment
// confirmation of the orders service, and the NATS request/reply between the two.
//
// The rule the shapes serve: an order becomes paid only when the payment provider (Stripe, or the
// payments service's own test mode) confirms it to the server. The browser's amount is never charged;
// payments asks orders for the quote and charges subtotal - discount + tax.
import { z } from 'zod';
import { itemTypeSchema, orderStatusSchema } from './catalog.js';
import { rpcSubject } from './rpc.js';

const isoDate = z.iso.datetime({ offset: true });

// ---------------------------------------------------------------------------------------------
// Paths and constants
// ---------------------------------------------------------------------------------------------
export const paymentPaths = {
  /** GET: which provider the page uses, and Stripe's publishable key. Public. */
  config: '/api/payments/config',
  /** POST: the spec's create-intent body; answers the payment intent with its client secret. Public. */
  createIntent: '/api/payments/create-intent',
  /** POST: Stripe's webhook (raw body, `stripe-signature` header). Public, signature-checked. */
  webhook: '/api/payments/webhook',
  /** POST: test mode only, the built-in card form's confirmation (stands in for Stripe.js). Public. */
  testModeConfirm: '/api/payments/test-mode/confirm',
} as const;

/** The public payment view and the payment confirmation of one order (orders service). */
export const orderPublicPaths = {
  paymentView: (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}`,
  statusConfirm: (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/status`,
} as const;

export const paymentCurrency = 'usd' as const;

/** Test-mode cards (the same numbers Stripe uses in its test mode). */
export const testModeCards = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
} as const;

export const paymentModeSchema = z.enum(['stripe', 'test_mode']);
export type PaymentMode = z.infer<typeof paymentModeSchema>;

/** Statuses in which an order's quote can be paid. */
export const awaitingPaymentStatuses = ['quote_sent', 'awaiting_payment'] as const;

/** Dollars to the integer cents a payment is made in (storefront §9). */
export const toCents = (dollars: number) => Math.round(dollars * 100);

/**
 * Every message of the payment flow. The page's messages are the spec's words (storefront §2, §5, §8);
 * the server's refusals are written for the customer who reads them on the page.
 */
export const paymentMessages = {
  // Page (storefront §8)
  loadingOrder: 'Loading order details...',
  loadOrderFailed: 'Unable to load order details. Please check your link or contact support.',
  loadErrorTitle: 'Unable to Load Order',
  scriptLoadFailed: 'Payment system unavailable. Please contact support.',
  formInitFailed: 'Failed to initialize payment form. Please refresh the page.',
  notReady: 'Payment system not ready. Please refresh the page.',
  incompleteCard: 'Please enter complete card information.',
  invalidIntent: 'Invalid payment intent received',
  notSucceeded: 'Payment was not completed successfully',
  createFailed: 'Failed to create payment',
  cardFailed: 'Payment failed',
  generic: 'Payment failed. Please try again.',
  processing: 'Processing Payment...',
  successTitle: 'Payment Successful!',
  quoteExpiredTitle: 'Quote Expired',
  testModeNotice: 'Test mode: no real charge',
  // Server refusals
  orderNotFound: 'Order not found',
  noQuote: 'This order has no quote to pay yet.',
  notAwaitingPayment: 'This order is not awaiting payment.',
  alreadyPaid: 'This order has already been paid.',
  quoteExpired: 'This quote has expired. Please contact us for a new quote.',
  orderMismatch: 'This payment does not belong to this order.',
  cardDeclined: 'Your card was declined.',
  testCardUnknown:
    'Test mode accepts only the test cards 4242 4242 4242 4242 (succeeds) and 4000 0000 0000 0002 (declined).',
  cardExpired: 'Your card has expired.',
  intentNotFound: 'Payment not found.',
  badClientSecret: 'The payment could not be confirmed: its client secret does not match.',
  stripeNotConfigured: 'Stripe is not configured: this shop takes payments in test mode.',
  badSignature: 'Webhook signature verification failed.',
  paymentNotVerified: 'The payment could not be verified for this order.',
  publicStatusRefused: 'Only a verified payment can change the status of an order here.',
  paymentIdRequired: 'paymentIntentId is required to mark an order paid.',
} as const;

// ---------------------------------------------------------------------------------------------
// Payments service HTTP
// ---------------------------------------------------------------------------------------------
export const paymentConfigResponseSchema = z.object({
  success: z.literal(true),
  mode: paymentModeSchema,
  /** Stripe's publishable key, only in stripe mode. */
  publishableKey: z.string().optional(),
});
export type PaymentConfigResponse = z.infer<typeof paymentConfigResponseSchema>;

/** The spec's body (storefront §7). `amount` is the browser's figure: logged when it differs, never charged. */
export const createIntentBodySchema = z.object({
  amount: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("The browser's figure in cents; the server charges the quote"),
  currency: z.literal(paymentCurrency, { error: 'currency must be "usd"' }).default(paymentCurrency),
  customerInfo: z.object({ name: z.string().max(200).optional(), email: z.string().max(254).optional() }).optional(),
  orderNumber: z.string().max(64).optional(),
  description: z.string().max(1000).optional(),
  metadata: z.object(
    {
      orderId: z.string({ error: 'metadata.orderId is required' }).min(1, 'metadata.orderId is required').max(64),
      orderNumber: z.string().max(64).optional(),
    },
    { error: 'metadata.orderId is required' },
  ),
});
export type CreateIntentBody = z.infer<typeof createIntentBodySchema>;

export const paymentIntentViewSchema = z.object({
  id: z.string(),
  client_secret: z.string(),
  /** Cents. */
  amount: z.number().int().positive(),
  currency: z.literal(paymentCurrency),
  status: z.string(),
});
export type PaymentIntentView = z.infer<typeof paymentIntentViewSchema>;

export const createIntentResponseSchema = z.object({
  success: z.literal(true),
  mode: paymentModeSchema,
  paymentIntent: paymentIntentViewSchema,
});
export type CreateIntentResponse = z.infer<typeof createIntentResponseSchema>;

export const testModeConfirmBodySchema = z.object({
  paymentIntentId: z.string().min(1).max(100),
  clientSecret: z.string().min(1).max(200),
  card: z.object({
    number: z.string().regex(/^\d{12,19}$/, 'Card number must be 12 to 19 digits'),
    expMonth: z.number().int().min(1).max(12),
    /** Four digits. */
    expYear: z.number().int().min(2000).max(2100),
    cvc: z.string().regex(/^\d{3,4}$/, 'CVC must be 3 or 4 digits'),
  }),
  billingDetails: z.object({ name: z.string().max(200).optional(), email: z.string().max(254).optional() }).optional(),
});
export type TestModeConfirmBody = z.infer<typeof testModeConfirmBodySchema>;

/** Success (200) or a decline (402, `error` is the card message, shown inline under the card field). */
export const testModeConfirmResponseSchema = z.object({
  success: z.literal(true),
  paymentIntent: z.object({
    id: z.string(),
    status: z.string(),
    amount: z.number().int(),
    currency: z.literal(paymentCurrency),
  }),
});
export type TestModeConfirmResponse = z.infer<typeof testModeConfirmResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Orders service: public payment view and payment confirmation
// ---------------------------------------------------------------------------------------------
/** `GET /api/orders/:id`: only what the payment page shows (no email, address, files or history). */
export const orderPaymentViewSchema = z
  .object({
    id: z.string(),
    orderNumber: z.string(),
    customerName: z.string(),
    itemType: itemTypeSchema,
    quantity: z.number().int().nonnegative(),
    description: z.string(),
    status: orderStatusSchema,
    quoteNotes: z.string().optional(),
    /** The quoted subtotal in dollars; null until a quote is sent. */
    quoteAmount: z.number().nullable(),
    discountAmount: z.number(),
    /** A fraction (0.0725 is 7.25%). */
    taxRate: z.number(),
    taxAmount: z.number(),
    /** Total in dollars: quote - discount + tax. */
    finalAmount: z.number().nullable(),
    quoteExpiresAt: isoDate.nullable(),
    paidAt: isoDate.optional(),
  })
  .meta({ id: 'OrderPaymentView' });
export type OrderPaymentView = z.infer<typeof orderPaymentViewSchema>;
export const orderPaymentViewResponseSchema = z.object({ success: z.literal(true), order: orderPaymentViewSchema });

/** `PATCH /api/orders/:id/status` from the payment page (storefront §7): only `paid` with a verified intent. */
export const orderPaymentConfirmBodySchema = z.object({
  status: z.string().min(1).max(40),
  paymentIntentId: z.string().min(1).max(100).optional(),
  notes: z.string().max(1000).optional(),
});
export type OrderPaymentConfirmBody = z.infer<typeof orderPaymentConfirmBodySchema>;

// ---------------------------------------------------------------------------------------------
// NATS request/reply between payments and orders
// ---------------------------------------------------------------------------------------------
/** payments -> orders: the quote of an order, to compute and check the amount charged. */
export const orderPaymentQuoteSubject = rpcSubject('orders', 'payment.quote');
export const orderPaymentQuoteRequestSchema = z.object({ orderId: z.string().min(1) });
export const orderPaymentQuoteSchema = z.object({
  orderId: z.string(),
  orderNumber: z.string(),
  customerName: z.string(),
  email: z.string(),
  status: orderStatusSchema,
  quote: z
    .object({
      amount: z.number(),
      discountAmount: z.number(),
      taxRate: z.number(),
      taxAmount: z.number(),
      finalAmount: z.number(),
      expiresAt: isoDate,
    })
    .nullable(),
  payment: z.object({ paymentIntentId: z.string(), paidAt: isoDate }).nullable(),
});
export type OrderPaymentQuote = z.infer<typeof orderPaymentQuoteSchema>;

/** orders -> payments: did this intent succeed, for this order, and for how much? */
export const paymentVerifySubject = rpcSubject('payments', 'intent.verify');
export const paymentVerifyRequestSchema = z.object({ orderId: z.string().min(1), paymentIntentId: z.string().min(1) });
export const paymentVerifyResultSchema = z.object({
  verified: z.boolean(),
  paymentIntentId: z.string(),
  /** The intent's metadata.orderId as the provider has it. */
  orderId: z.string().nullable(),
  /** Cents, as the provider charged it. */
  amount: z.number().int().nonnegative(),
  status: z.string(),
  provider: paymentModeSchema,
  paidAt: isoDate.optional(),
  /** Why not verified (for logs and the refusal). */
  reason: z.string().optional(),
});
export type PaymentVerifyResult = z.infer<typeof paymentVerifyResultSchema>;

/** orders -> payments: the tax rate of a quote, from the payments domain's table by shipping state. */
export const taxRateSubject = rpcSubject('payments', 'tax.rate');
export const taxRateRequestSchema = z.object({
  /** Shipping state (two-letter code) and country of the order; absent when the order has no address. */
  state: z.string().optional(),
  country: z.string().optional(),
  taxExempt: z.boolean(),
});
export const taxRateResultSchema = z.object({
  /** A fraction, e.g. 0.06. */
  taxRate: z.number().min(0).max(1),
  /** Why this rate (shown to the admin, e.g. "VA state sales tax" or "Tax-exempt military order"). */
  basis: z.string(),
});
export type TaxRateResult = z.infer<typeof taxRateResultSchema>;

// ---------------------------------------------------------------------------------------------
// Refunds due (back office): payments the provider took that did not pay their order
// ---------------------------------------------------------------------------------------------
export const refundsDuePaths = {
  /** GET ?state=open|refunded|all (open by default): newest first. Admin. */
  list: '/api/payments/refunds-due',
  /** PATCH: the team refunded it (in Stripe's dashboard); records who and when. Admin. */
  markRefunded: (paymentIntentId: string) =>
    `/api/payments/refunds-due/${encodeURIComponent(paymentIntentId)}/refunded`,
} as const;

export const refundDueStates = ['open', 'refunded', 'all'] as const;
export const refundsDueQuerySchema = z.object({
  state: z.enum(refundDueStates, { error: 'state must be open, refunded or all' }).default('open'),
});

export const refundDueSchema = z.object({
  paymentIntentId: z.string(),
  provider: paymentModeSchema,
  orderId: z.string(),
  orderNumber: z.string(),
  /** Dollars taken. */
  amount: z.number(),
  /** Dollars the order's total was when the payment arrived; null without a quote or an order. */
  orderTotal: z.number().nullable(),
  reason: z.string(),
  paidAt: isoDate.nullable(),
  recordedAt: isoDate,
  stripeEventId: z.string().nullable(),
  /** When the team marked it refunded, and who (`admin:<email>`); null while open. */
  refundedAt: isoDate.nullable(),
  refundedBy: z.string().nullable(),
});
export type RefundDue = z.infer<typeof refundDueSchema>;

export const refundsDueResponseSchema = z.object({ success: z.literal(true), refundsDue: z.array(refundDueSchema) });
export type RefundsDueResponse = z.infer<typeof refundsDueResponseSchema>;
export const refundDueResponseSchema = z.object({ success: z.literal(true), refundDue: refundDueSchema });
export type RefundDueResponse = z.infer<typeof refundDueResponseSchema>;

export const refundDueMessages = {
  notFound: 'No payment due for a refund has this id.',
  alreadyRefunded: 'This payment is already marked refunded.',
  markedRefunded: (orderNumber: string) => `Payment for order #${orderNumber} marked refunded`,
  markFailed: 'The payment could not be marked refunded. Please try again.',
  loadFailed: 'Refunds due could not be loaded.',
} as const;
