// The address rules without zod (address.ts re-exports all of it and adds the schemas): states and
// provinces, countries, postal code formats and addressIssues, which the storefront's order flow uses in
// the browser. With "sideEffects": false (package.json) a browser bundle takes this file without zod.

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

/** Canada's 10 provinces and 3 territories (Canada Post's two-letter codes). */
export const canadianProvinces = [
  { code: 'AB', name: 'Alberta' },
  { code: 'BC', name: 'British Columbia' },
  { code: 'MB', name: 'Manitoba' },
  { code: 'NB', name: 'New Brunswick' },
  { code: 'NL', name: 'Newfoundland and Labrador' },
  { code: 'NS', name: 'Nova Scotia' },
  { code: 'NT', name: 'Northwest Territories' },
  { code: 'NU', name: 'Nunavut' },
  { code: 'ON', name: 'Ontario' },
  { code: 'PE', name: 'Prince Edward Island' },
  { code: 'QC', name: 'Quebec' },
  { code: 'SK', name: 'Saskatchewan' },
  { code: 'YT', name: 'Yukon' },
] as const;
export type CanadianProvinceCode = (typeof canadianProvinces)[number]['code'];

/**
 * The two countries the shop ships to (spec: "US and Canada"), sent and stored as ISO 3166 codes. Orders
 * stored before the codes were settled say "Canada": `countryCodeOf` reads those (and "United States",
 * "USA"...) as the code, so old orders, events and saved profiles still parse.
 */
export const countries = ['US', 'CA'] as const;
export type Country = (typeof countries)[number];
export const countryLabels: Record<Country, string> = { US: 'United States', CA: 'Canada' };
export const defaultCountry: Country = 'US';

const countryAliases: Record<string, Country> = {
  us: 'US',
  usa: 'US',
  'u.s.': 'US',
  'u.s.a.': 'US',
  'united states': 'US',
  'united states of america': 'US',
  ca: 'CA',
  can: 'CA',
  canada: 'CA',
};

/** "US", "usa", "United States" -> "US"; "CA", "Canada" -> "CA"; anything else -> undefined. */
export function countryCodeOf(value: string | null | undefined): Country | undefined {
  return value == null ? undefined : countryAliases[value.trim().toLowerCase()];
}

/** The country as people read it: "CA" and "Canada" -> "Canada"; an unknown value as it was written. */
export function countryName(value: string | null | undefined): string {
  const code = countryCodeOf(value);
  return code ? countryLabels[code] : (value ?? '').trim();
}

/** The state picker per country: the 50 US states, or Canada's provinces and territories. */
export const regionsByCountry: Record<Country, ReadonlyArray<{ code: string; name: string }>> = {
  US: usStates,
  CA: canadianProvinces,
};
/** What the picker is called per country. */
export const regionLabels: Record<Country, string> = { US: 'State', CA: 'Province or territory' };

export const postalCodeMaxLength = 10;

/**
 * Postal code formats per country: US ZIP (12345 or ZIP+4 12345-6789), Canadian postal code (A1A 1A1,
 * the letters Canada Post uses; the space may be left out and any case is fine, `normalizePostalCode`
 * writes it the standard way).
 */
export const postalCodeFormats: Record<Country, { pattern: RegExp; message: string }> = {
  US: { pattern: /^\d{5}(-\d{4})?$/, message: 'ZIP code must be 5 digits, or ZIP+4 (12345 or 12345-6789)' },
  CA: {
    pattern: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i,
    message: 'Postal code must be a Canadian postal code (A1A 1A1)',
  },
};

/** "k1a0b1" -> "K1A 0B1" for Canada; trimmed otherwise. */
export function normalizePostalCode(country: Country, postalCode: string): string {
  const text = postalCode.trim();
  if (country === 'CA' && postalCodeFormats.CA.pattern.test(text)) {
    const compact = text.replace(' ', '').toUpperCase();
    return `${compact.slice(0, 3)} ${compact.slice(3)}`;
  }
  return text;
}

/**
 * The rules that tie an address's parts to its country (storefront §3, §5): the state is one of the
 * country's states or provinces (two-letter code, as the picker sends it) and the postal code has the
 * country's format. Empty fields are left to the required-field rules. Used by the order request schema
 * on the server and by the shipping step in the browser, so both refuse the same addresses.
 */
export function addressIssues(address: {
  state: string;
  postalCode: string;
  country: Country;
}): Array<{ path: ['state' | 'postalCode']; message: string }> {
  const issues: Array<{ path: ['state' | 'postalCode']; message: string }> = [];
  const state = address.state.trim();
  const regions = regionsByCountry[address.country];
  if (state !== '' && !regions.some((r) => r.code === state)) {
    issues.push({
      path: ['state'],
      message:
        address.country === 'US'
          ? 'State must be one of the 50 US states (two-letter code, e.g. TX)'
          : 'Province must be one of the Canadian provinces or territories (two-letter code, e.g. NS)',
    });
  }
  const postalCode = address.postalCode.trim();
  if (postalCode !== '' && !postalCodeFormats[address.country].pattern.test(postalCode)) {
    issues.push({ path: ['postalCode'], message: postalCodeFormats[address.country].message });
  }
  return issues;
}
