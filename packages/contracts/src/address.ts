// Shipping addresses: the 50 US states and the two countries the shop ships to (storefront §3, §5).
import { z } from 'zod';
import { countries, countryCodeOf, defaultCountry, postalCodeMaxLength } from './address-rules.js';

export * from './address-rules.js';

export const countrySchema = z.preprocess(
  (value) => (typeof value === 'string' ? (countryCodeOf(value) ?? value) : value),
  z.enum(countries, { error: 'Country must be US or Canada' }),
);

const required = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`);

/**
 * A shipping address as events and saved profiles carry it; line2 is optional. Deliberately without
 * `addressIssues`: events already in the stream must still parse (the order request checks them).
 */
export const shippingAddressSchema = z.object({
  line1: required('Address line 1').max(200),
  line2: z.string().trim().max(200).optional().default(''),
  city: required('City').max(100),
  state: required('State').max(100),
  postalCode: required('Postal code').max(
    postalCodeMaxLength,
    `Postal code must be at most ${postalCodeMaxLength} characters`,
  ),
  country: countrySchema.default(defaultCountry),
});
export type ShippingAddress = z.infer<typeof shippingAddressSchema>;
