// The business registration (admin part A §2 Site configuration, Business Registration tab; §3 Business
// config and Tax permit; §7 GET/POST /api/config/business; §9 default country US). The payments service
// owns it. Administrators read and replace the whole document; the storefront's /business page reads
// only its public part (names, registered address, active tax permits; never the EIN).
import { z } from 'zod';

export const businessConfigPaths = {
  /** GET: the whole config; POST: replace it. Admin only (the gateway's rule for /api/config/**). */
  admin: '/api/config/business',
  /** GET: what the /business page shows. Public. */
  public: '/api/config/business/public',
} as const;

export const defaultBusinessCountry = 'US';
export const defaultTaxPermitType = 'Sales Tax';
/** Employer Identification Number as the IRS writes it: NN-NNNNNNN. */
export const einPattern = /^\d{2}-\d{7}$/;
/** Permits expiring within this many days are flagged (production check). */
export const permitExpiryWarningDays = 30;
export const businessLimits = { name: 120, line: 200, short: 60, permits: 50 } as const;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);
const isoDay = /^\d{4}-\d{2}-\d{2}$/;

export const taxPermitSchema = z
  .object({
    id: text('Permit id', 64).default(''),
    jurisdiction: text('Jurisdiction', businessLimits.short).min(1, 'Each tax permit needs its jurisdiction'),
    permitNumber: text('Permit number', businessLimits.short).min(1, 'Each tax permit needs its permit number'),
    type: text('Permit type', businessLimits.short).default(defaultTaxPermitType),
    expirationDate: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || (isoDay.test(v) && !Number.isNaN(Date.parse(v))),
        'Expiration date must be a date (YYYY-MM-DD)',
      )
      .default(''),
    isActive: z.boolean({ error: 'isActive must be true or false' }).default(true),
  })
  .meta({ id: 'TaxPermit' });
export type TaxPermit = z.infer<typeof taxPermitSchema>;
export type TaxPermitInput = z.input<typeof taxPermitSchema>;

export const businessAddressSchema = z.object({
  line1: text('Address line 1', businessLimits.line).default(''),
  line2: text('Address line 2', businessLimits.line).default(''),
  city: text('City', businessLimits.short).default(''),
  state: text('State', businessLimits.short).default(''),
  postalCode: text('Postal code', 20).default(''),
  country: text('Country', businessLimits.short).default(defaultBusinessCountry),
});
export type BusinessAddress = z.infer<typeof businessAddressSchema>;

/** A business licence (the spec's entity lists them beside the permits): what, its number, who issued it. */
export const businessLicenseSchema = z.object({
  id: text('Licence id', 64).default(''),
  name: text('Licence name', businessLimits.short).min(1, 'Each licence needs its name'),
  number: text('Licence number', businessLimits.short).default(''),
  jurisdiction: text('Jurisdiction', businessLimits.short).default(''),
  expirationDate: z
    .string()
    .trim()
    .refine((v) => v === '' || isoDay.test(v), 'Expiration date must be a date (YYYY-MM-DD)')
    .default(''),
});
export type BusinessLicense = z.infer<typeof businessLicenseSchema>;

/** The business config as stored and as sent to POST /api/config/business. */
export const businessConfigSchema = z
  .object({
    businessName: text('Business name', businessLimits.name).default(''),
    legalName: text('Legal name', businessLimits.name).default(''),
    ein: text('EIN', 10)
      .refine((v) => v === '' || einPattern.test(v), 'EIN must be written NN-NNNNNNN (2 digits, a hyphen, 7 digits)')
      .default(''),
    businessAddress: businessAddressSchema.default({
      line1: '',
      line2: '',
      city: '',
      state: '',
      postalCode: '',
      country: defaultBusinessCountry,
    }),
    taxPermits: z
      .array(taxPermitSchema)
      .max(businessLimits.permits, `At most ${businessLimits.permits} tax permits`)
      .default([]),
    businessLicenses: z
      .array(businessLicenseSchema)
      .max(businessLimits.permits, `At most ${businessLimits.permits} licences`)
      .default([]),
  })
  .meta({ id: 'BusinessConfig' });
export type BusinessConfig = z.infer<typeof businessConfigSchema>;
export type BusinessConfigInput = z.input<typeof businessConfigSchema>;

export const businessConfigSavedSchema = z.object({ success: z.literal(true), config: businessConfigSchema });

export const publicBusinessConfigSchema = z
  .object({
    businessName: z.string(),
    legalName: z.string(),
    businessAddress: businessAddressSchema.nullable(),
    taxPermits: z.array(z.object({ jurisdiction: z.string(), permitNumber: z.string(), type: z.string() })),
  })
  .meta({ id: 'PublicBusinessConfig' });
export type PublicBusinessConfig = z.infer<typeof publicBusinessConfigSchema>;

/** A saved config with blanks filled: permit type 'Sales Tax', country US (no zod transforms: the schemas also encode answers). */
export function normalizeBusinessConfig(config: BusinessConfig): BusinessConfig {
  return {
    ...config,
    businessAddress: { ...config.businessAddress, country: config.businessAddress.country || defaultBusinessCountry },
    taxPermits: config.taxPermits.map((p) => ({ ...p, type: p.type || defaultTaxPermitType })),
  };
}

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** True while a permit counts: active and not past its expiration date. */
export function permitInForce(permit: TaxPermit, now = new Date()): boolean {
  return permit.isActive && (permit.expirationDate === '' || permit.expirationDate >= dayOf(now));
}

/** The public view: the EIN stays private; the address only once it names a street and a city. */
export function publicBusinessConfig(config: BusinessConfig, now = new Date()): PublicBusinessConfig {
  const a = config.businessAddress;
  return {
    businessName: config.businessName,
    legalName: config.legalName,
    businessAddress: a.line1 && a.city ? a : null,
    taxPermits: config.taxPermits
      .filter((p) => permitInForce(p, now))
      .map(({ jurisdiction, permitNumber, type }) => ({ jurisdiction, permitNumber, type })),
  };
}

/** The fields a complete registration still lacks, in words (production check). */
export function missingBusinessFields(config: BusinessConfig): string[] {
  const a = config.businessAddress;
  const wanted: [string, string][] = [
    ['business name', config.businessName],
    ['legal name', config.legalName],
    ['EIN', config.ein],
    ['address line 1', a.line1],
    ['city', a.city],
    ['state', a.state],
    ['postal code', a.postalCode],
  ];
  return wanted.filter(([, value]) => !value).map(([label]) => label);
}

/** Active permits whose expiration date falls within `days` from now (or already passed). */
export function permitsExpiringSoon(
  config: BusinessConfig,
  days = permitExpiryWarningDays,
  now = new Date(),
): TaxPermit[] {
  const limit = dayOf(new Date(now.getTime() + days * 86_400_000));
  return config.taxPermits.filter((p) => p.isActive && p.expirationDate !== '' && p.expirationDate <= limit);
}
