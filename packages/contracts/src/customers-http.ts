// Public HTTP shapes of the customers service: the returning-customer lookup (storefront §2 lookup
// modal, §5 lookup rules, §7 calls, §8 messages). The storefront shows these messages as they are.
import { z } from 'zod';
import { customerCategorySchema } from './catalog.js';
import { limits } from './rules.js';
import { customerLookupMessages } from './customers-lookup-messages.js';

export * from './customers-lookup-messages.js';

export const customerLookupRequestSchema = z
  .object({
    email: z
      .string({ error: customerLookupMessages.emailRequired })
      .trim()
      .min(1, customerLookupMessages.emailRequired)
      .max(254, customerLookupMessages.emailInvalid)
      .pipe(z.email(customerLookupMessages.emailInvalid)),
  })
  .meta({ id: 'CustomerLookupRequest' });
export type CustomerLookupRequest = z.infer<typeof customerLookupRequestSchema>;

export const customerLookupResponseSchema = z
  .object({
    success: z.boolean(),
    verificationSent: z.boolean(),
    message: z.string(),
    /** When the code stops working (only when one was sent). */
    expiresAt: z.iso.datetime().optional(),
  })
  .meta({ id: 'CustomerLookupResponse' });
export type CustomerLookupResponse = z.infer<typeof customerLookupResponseSchema>;

const codeDigits = new RegExp(`^\\d{${limits.verificationCodeDigits}}$`);

export const customerVerifyRequestSchema = z
  .object({
    email: customerLookupRequestSchema.shape.email,
    verificationCode: z
      .string({ error: customerLookupMessages.codeRequired })
      .trim()
      .min(1, customerLookupMessages.codeRequired)
      .regex(codeDigits, customerLookupMessages.codeFormat),
  })
  .meta({ id: 'CustomerVerifyRequest' });
export type CustomerVerifyRequest = z.infer<typeof customerVerifyRequestSchema>;

/** The last shipping address a customer used (the order flow's address fields). */
export const savedAddressSchema = z
  .object({
    line1: z.string(),
    line2: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    country: z.string(),
  })
  .meta({ id: 'SavedAddress' });
export type SavedAddress = z.infer<typeof savedAddressSchema>;

/**
 * The verified customer's saved details. The spec names the address `shippingAddress` in the lookup
 * result and `lastShippingAddress` where the form reads it (storefront §3); both carry the same last
 * address, so either reading prefills the flow. firstName/lastName split customerName for the contact step.
 */
export const verifiedCustomerSchema = z
  .object({
    customerName: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string(),
    shippingAddress: savedAddressSchema.nullable(),
    lastShippingAddress: savedAddressSchema.nullable(),
    customerCategory: customerCategorySchema,
    orderCount: z.number().int().nonnegative(),
    lastOrderAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'VerifiedCustomer' });
export type VerifiedCustomer = z.infer<typeof verifiedCustomerSchema>;

export const customerVerifyResponseSchema = z
  .object({
    success: z.literal(true),
    customer: verifiedCustomerSchema,
    message: z.string(),
  })
  .meta({ id: 'CustomerVerifyResponse' });
export type CustomerVerifyResponse = z.infer<typeof customerVerifyResponseSchema>;

/**
 * A refused lookup or verification: the shop's error envelope plus `success: false` and `message` (the
 * same text as `error`), so a browser reading either field shows the right sentence.
 */
export const customerLookupErrorSchema = z
  .object({
    success: z.literal(false),
    verificationSent: z.literal(false).optional(),
    error: z.string(),
    message: z.string(),
    code: z.string(),
    details: z
      .object({
        remainingAttempts: z.number().int().nonnegative().optional(),
        retryAfterSeconds: z.number().int().positive().optional(),
        field: z.string().optional(),
      })
      .optional(),
    requestId: z.string().optional(),
  })
  .meta({ id: 'CustomerLookupError' });
export type CustomerLookupError = z.infer<typeof customerLookupErrorSchema>;

/** Machine codes of the lookup refusals. */
export const customerLookupErrorCodes = {
  validation: 'VALIDATION_FAILED',
  rateLimited: 'RATE_LIMITED',
  invalidCode: 'INVALID_VERIFICATION_CODE',
  codeLocked: 'VERIFICATION_CODE_LOCKED',
  codeExpired: 'VERIFICATION_CODE_EXPIRED',
  noPendingCode: 'NO_VERIFICATION_CODE',
} as const;

/** Fills `{name}`-style placeholders of the messages above. */
export function lookupMessage(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
