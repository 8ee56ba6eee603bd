// Shipping addresses: the 50 US states and the two countries the shop ships to (storefront §3, §5).
import { z } from 'zod';

export const usStates = [
  { code: 'AL', name: 'Alabama' },
  { code: 'AK', name: 'Alaska' },
  { code: 'AZ', name: 'Arizona' },
  { code: 'AR', name: 'Arkansas' },
  { code: 'CA', name: 'California' },
  { code: 'CO', name: 'Colorado' },
  { code: 'CT', name: 'Connecticut' },
  { code: 'DE', name: 'Delaware' },
  { code: 'FL', name: 'Florida' },
  { code: 'GA', name: 'Georgia' },
  { code: 'HI', name: 'Hawaii' },
  { code: 'ID', name: 'Idaho' },
  { code: 'IL', name: 'Illinois' },
  { code: 'IN', name: 'Indiana' },
  { code: 'IA', name: 'Iowa' },
  { code: 'KS', name: 'Kansas' },
  { code: 'KY', name: 'Kentucky' },
  { code: 'LA', name: 'Louisiana' },
  { code: 'ME', name: 'Maine' },
  { code: 'MD', name: 'Maryland' },
  { code: 'MA', name: 'Massachusetts' },
  { code: 'MI', name: 'Michigan' },
  { code: 'MN', name: 'Minnesota' },
  { code: 'MS', name: 'Mississippi' },
  { code: 'MO', name: 'Missouri' },
  { code: 'MT', name: 'Montana' },
  { code: 'NE', name: 'Nebraska' },
  { code: 'NV', name: 'Nevada' },
  { code: 'NH', name: 'New Hampshire' },
  { code: 'NJ', name: 'New Jersey' },
  { code: 'NM', name: 'New Mexico' },
  { code: 'NY', name: 'New York' },
  { code: 'NC', name: 'North Carolina' },
  { code: 'ND', name: 'North Dakota' },
  { code: 'OH', name: 'Ohio' },
  { code: 'OK', name: 'Oklahoma' },
  { code: 'OR', name: 'Oregon' },
  { code: 'PA', name: 'Pennsylvania' },
  { code: 'RI', name: 'Rhode Island' },
  { code: 'SC', name: 'South Carolina' },
  { code: 'SD', name: 'South Dakota' },
  { code: 'TN', name: 'Tennessee' },
  { code: 'TX', name: 'Texas' },
  { code: 'UT', name: 'Utah' },
  { code: 'VT', name: 'Vermont' },
  { code: 'VA', name: 'Virginia' },
  { code: 'WA', name: 'Washington' },
  { code: 'WV', name: 'West Virginia' },
  { code: 'WI', name: 'Wisconsin' },
  { code: 'WY', name: 'Wyoming' },
] as const;
export type UsStateCode = (typeof usStates)[number]['code'];
export const usStateCodes = usStates.map((s) => s.code) as [UsStateCode, ...UsStateCode[]];

/** The spec names the countries "US" and "Canada"; those words are the stored values. */
export const countries = ['US', 'Canada'] as const;
export const countrySchema = z.enum(countries, { error: 'Country must be US or Canada' });
export type Country = z.infer<typeof countrySchema>;
export const countryLabels: Record<Country, string> = { US: 'United States', Canada: 'Canada' };
export const defaultCountry: Country = 'US';

export const postalCodeMaxLength = 10;

const required = (field: string) => z.string({ error: `${field} is required` }).trim().min(1, `${field} is required`);

/** A shipping address as the order flow collects it; line2 is optional. */
export const shippingAddressSchema = z.object({
  line1: required('Address line 1').max(200),
  line2: z.string().trim().max(200).optional().default(''),
  city: required('City').max(100),
  state: required('State').max(100),
  postalCode: required('Postal code').max(postalCodeMaxLength, `Postal code must be at most ${postalCodeMaxLength} characters`),
  country: countrySchema.default(defaultCountry),
});
export type ShippingAddress = z.infer<typeof shippingAddressSchema>;
