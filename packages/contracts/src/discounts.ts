// Discount codes (back office part B §2.4 Discount Codes tab, §3 discount code, §5 create rules, §7 calls;
// part A §2 Apply Discount modal, §3 discount code as offered on orders, §5 picker rules, §7-§9).
// The marketing service owns the codes; orders asks it over NATS to redeem a code for an order and to
// give the use back when the discount is removed.
import { z } from 'zod';
import {
  customerCategorySchema,
  discountCategorySchema,
  discountTypeSchema,
  type CustomerCategory,
  type DiscountCategory,
  type DiscountType,
} from './catalog.js';
import { rpcSubject } from './rpc.js';

/** Labels of the code categories (the tab's list and create form). */
export const discountCategoryLabels: Record<DiscountCategory, string> = {
  general: 'General',
  military: 'Military',
  first_responder: 'First Responder',
  loyalty: 'Loyalty',
};

export const discountCodeMaxLength = 40;

export const marketingDiscountPaths = {
  /** GET: every code (the tab and the Apply Discount picker); POST: create one. */
  list: '/api/marketing/discounts',
  /** PATCH { isActive }; DELETE. */
  one: (id: string) => `/api/marketing/discounts/${encodeURIComponent(id)}`,
} as const;

export const orderDiscountPath = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/discount`;

/** The spec's texts (part A §5, §8; part B §8) and the server's refusals. */
export const discountMessages = {
  selectCode: 'Please select a discount code',
  applyFailed: (message: string) => `Failed to apply discount: ${message}`,
  invalidResponse: 'Invalid response format',
  networkError: 'Network error',
  removeFailed: 'Failed to remove discount',
  deleteFailed: 'Failed to delete discount code',
  codeTaken: (code: string) => `A discount code ${code} already exists`,
  notFound: 'Discount code not found',
  inactive: 'This discount code is not active',
  notStarted: 'This discount code is not valid yet',
  expired: 'This discount code has expired',
  usedUp: 'This discount code has reached its maximum uses',
  minOrder: (min: string) => `This discount code needs an order of at least ${min}`,
  category: (label: string) => `This discount code is not offered to ${label}`,
  orderPaid: 'This order has already been paid: its discount cannot change.',
  noDiscount: 'This order has no discount to remove.',
  nothingToDiscount: 'This order has no amount to discount yet.',
  marketingUnavailable: 'Discount codes cannot be checked right now. Please try again in a moment.',
} as const;

// ---------------------------------------------------------------------------------------------
// The code as the tab and the picker see it
// ---------------------------------------------------------------------------------------------
export const discountCodeSchema = z
  .object({
    id: z.string(),
    code: z.string().describe('Upper case; unique regardless of case'),
    description: z.string(),
    category: discountCategorySchema,
    type: z.enum(discountTypeSchema.options, { error: 'Type must be percentage or fixed' }),
    value: z.number().describe('Percent (1..100) or dollars'),
    isActive: z.boolean(),
    startDate: z.string().describe('ISO; set when created'),
    endDate: z.string().nullable().describe('ISO; null never expires'),
    maxUses: z.number().int().nullable().describe('null means unlimited (shown as ∞)'),
    usedCount: z.number().int(),
    minOrder: z.number().nullable().describe('Dollars; null means no minimum'),
    createdDate: z.string(),
  })
  .meta({ id: 'DiscountCode' });
export type DiscountCode = z.infer<typeof discountCodeSchema>;

export const discountListResponseSchema = z.object({
  success: z.literal(true),
  discounts: z.array(discountCodeSchema),
});
export type DiscountListResponse = z.infer<typeof discountListResponseSchema>;
export const discountResponseSchema = z.object({ success: z.literal(true), discount: discountCodeSchema });
export type DiscountResponse = z.infer<typeof discountResponseSchema>;
export const discountDeleteResponseSchema = z.object({ success: z.literal(true), deleted: z.string() });

/** A form field left empty (the browser sends "" or null) means "not given". */
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const number = (name: string) =>
  z.coerce.number({ error: `${name} must be a number` }).refine(Number.isFinite, `${name} must be a number`);

/** Create Discount Code (part B §5): code, category, description, type and value required; value >= 1; maxUses optional >= 1; end date optional. */
export const discountCreateSchema = z
  .object({
    code: z
      .string({ error: 'Code is required' })
      .trim()
      .min(1, 'Code is required')
      .max(discountCodeMaxLength, `Code must be at most ${discountCodeMaxLength} characters`)
      .regex(/^[A-Za-z0-9_-]+$/, 'Code may use only letters, digits, - and _')
      .transform((s) => s.toUpperCase()),
    category: z.enum(discountCategorySchema.options, {
      error: 'Category must be general, military, first_responder or loyalty',
    }),
    description: z
      .string({ error: 'Description is required' })
      .trim()
      .min(1, 'Description is required')
      .max(500, 'Description must be at most 500 characters'),
    type: z.enum(discountTypeSchema.options, { error: 'Type must be percentage or fixed' }),
    value: number('Value').pipe(z.number().min(1, 'Value must be at least 1').max(1_000_000, 'Value is too large')),
    maxUses: z.preprocess(
      blankToUndefined,
      number('Max uses')
        .pipe(z.number().int('Max uses must be a whole number').min(1, 'Max uses must be at least 1'))
        .optional(),
    ),
    endDate: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .refine((s) => !Number.isNaN(Date.parse(s)), 'End date must be a date')
        .optional(),
    ),
    minOrder: z.preprocess(
      blankToUndefined,
      number('Minimum order').pipe(z.number().min(0, 'Minimum order cannot be negative')).optional(),
    ),
  })
  .superRefine((d, ctx) => {
    if (d.type === 'percentage' && d.value > 100)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'A percentage is at most 100' });
  });
export type DiscountCreate = z.input<typeof discountCreateSchema>;
export type ParsedDiscountCreate = z.output<typeof discountCreateSchema>;

export const discountToggleSchema = z
  .object({ isActive: z.boolean({ error: 'isActive must be true or false' }) })
  .strict();

// ---------------------------------------------------------------------------------------------
// Rules shared by the picker (browser) and the server
// ---------------------------------------------------------------------------------------------
/** General sees every code; military and first_responder see their own, general and loyalty codes. */
export function discountOfferedTo(customerCategory: CustomerCategory, discountCategory: DiscountCategory): boolean {
  if (customerCategory === 'general') return true;
  return discountCategory === customerCategory || discountCategory === 'general' || discountCategory === 'loyalty';
}

/** The picker's selectable codes (part A §5): active, not past their end date, below their maximum uses. */
export function discountSelectable(
  d: Pick<DiscountCode, 'isActive' | 'endDate' | 'maxUses' | 'usedCount'>,
  now: Date,
): boolean {
  if (!d.isActive) return false;
  if (d.endDate && Date.parse(d.endDate) < now.getTime()) return false;
  return d.maxUses === null || d.usedCount < d.maxUses;
}

/** The discount in cents: a percentage of the amount (rounded to the cent) or a fixed sum, never more than the amount. */
export function discountCents(type: DiscountType, value: number, amountCents: number): number {
  const raw = type === 'percentage' ? Math.round((amountCents * value) / 100) : Math.round(value * 100);
  return Math.max(0, Math.min(raw, amountCents));
}

// ---------------------------------------------------------------------------------------------
// Apply to an order (POST/DELETE /api/orders/{id}/discount)
// ---------------------------------------------------------------------------------------------
export const orderDiscountApplySchema = z.object({
  discountCode: z
    .string({ error: discountMessages.selectCode })
    .trim()
    .min(1, discountMessages.selectCode)
    .max(discountCodeMaxLength, `Code must be at most ${discountCodeMaxLength} characters`)
    .transform((s) => s.toUpperCase()),
  customerCategory: customerCategorySchema.default('general'),
});
export type OrderDiscountApply = z.input<typeof orderDiscountApplySchema>;

// ---------------------------------------------------------------------------------------------
// NATS request/reply: orders -> marketing
// ---------------------------------------------------------------------------------------------
export const discountRedeemSubject = rpcSubject('marketing', 'discount.redeem');
export const discountReleaseSubject = rpcSubject('marketing', 'discount.release');

/** Redeem a code for one order. Asking again for the same order and code uses nothing more. */
export const discountRedeemRequestSchema = z.object({
  orderId: z.string().min(1).max(64),
  code: z
    .string()
    .trim()
    .min(1)
    .max(discountCodeMaxLength)
    .transform((s) => s.toUpperCase()),
  customerCategory: customerCategorySchema,
  /** Cents the discount applies to (the quote amount, or the estimate before a quote). */
  orderAmountCents: z.number().int().nonnegative(),
});
export type DiscountRedeemRequest = z.input<typeof discountRedeemRequestSchema>;

export const discountRedeemResultSchema = z.object({
  discount: discountCodeSchema,
  discountCents: z.number().int().nonnegative(),
  /** false when this order already held the code (a retried apply): nothing more was used. */
  newlyRedeemed: z.boolean(),
});
export type DiscountRedeemResult = z.infer<typeof discountRedeemResultSchema>;

/** Give the use back (the discount was removed or replaced). Asking twice gives back once. */
export const discountReleaseRequestSchema = z.object({
  orderId: z.string().min(1).max(64),
  code: z
    .string()
    .trim()
    .min(1)
    .max(discountCodeMaxLength)
    .transform((s) => s.toUpperCase()),
});
export const discountReleaseResultSchema = z.object({ released: z.boolean() });
export type DiscountReleaseResult = z.infer<typeof discountReleaseResultSchema>;
