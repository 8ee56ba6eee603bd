// Site content (back office part B §2.1, §3, §5, §7, §8): the texts, price list, SEO tags, contact block
// and feature switches an administrator edits in the Content view. The marketing service owns it and
// validates every save with this schema; the storefront renders from the public read, whose shape it
// checks without zod against the defaults (content-defaults.ts: hasSiteContentShape, typed by this schema);
// the orders service keeps the price list and switches (content.changed). The defaults are the shop's
// texts and prices.
import { z } from 'zod';
import { itemTypes, type ItemType } from './catalog.js';

// Paths and the price list read without zod (the shell and the storefront's first screen): content-constants.ts.
export * from './content-constants.js';
// The defaults and the shape check the storefront's first screen uses, without zod: content-defaults.ts.
export * from './content-defaults.js';

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(max, { error: `${field} must be at most ${max} characters` });
const required = (field: string, max: number) => text(field, max).min(1, { error: `${field} is required` });

/** Dollars per piece: at least 0, at most 100,000, whole cents. */
export const basePriceSchema = z
  .number({ error: 'basePrice must be a number' })
  .min(0, { error: 'basePrice must be at least 0' })
  .max(100_000, { error: 'basePrice must be at most 100000' })
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: 'basePrice must be in whole cents' });

export const homepageContentSchema = z.object({
  heroTitle: required('heroTitle', 200),
  heroSubtitle: text('heroSubtitle', 500),
  companyName: required('companyName', 100),
  tagline: text('tagline', 200),
  description: text('description', 2000),
});

export const productContentSchema = z.object({
  title: required('title', 100),
  basePrice: basePriceSchema,
  description: text('description', 1000),
  features: z.array(required('feature', 200)).max(20, { error: 'At most 20 features per product' }),
});

/** Products keyed by kind: exactly the shop's item types. */
export const productsContentSchema = z.object(
  Object.fromEntries(itemTypes.map((t) => [t, productContentSchema])) as Record<ItemType, typeof productContentSchema>,
);

export const seoContentSchema = z.object({
  title: required('seo title', 120),
  description: text('seo description', 320),
  ogTitle: text('ogTitle', 120),
  /** An absolute http(s) URL or a path on this site; empty: none. */
  ogImage: text('ogImage', 500).refine((v) => v === '' || /^\/[^/]/.test(v) || /^https?:\/\/\S+$/.test(v), {
    error: 'ogImage must be an http(s) URL or a path starting with /',
  }),
  ogDescription: text('ogDescription', 320),
  keywords: z.array(required('keyword', 60)).max(30, { error: 'At most 30 keywords' }),
});

export const contactContentSchema = z.object({
  email: z.union([z.literal(''), z.email({ error: 'contact email must be a valid email address' })]),
  phone: text('phone', 40),
  address: text('address', 300),
  businessHours: text('businessHours', 200),
});

export const featureSwitchesSchema = z.object({
  aiGenerationEnabled: z.boolean({ error: 'aiGenerationEnabled must be true or false' }),
  manualDesignEnabled: z.boolean({ error: 'manualDesignEnabled must be true or false' }),
  fileUploadEnabled: z.boolean({ error: 'fileUploadEnabled must be true or false' }),
  liveChatEnabled: z.boolean({ error: 'liveChatEnabled must be true or false' }),
});
export type FeatureSwitches = z.infer<typeof featureSwitchesSchema>;

/** The whole content object: PUT /api/content sends it, every answer carries it. */
export const siteContentSchema = z.object({
  homepage: homepageContentSchema,
  products: productsContentSchema,
  seo: seoContentSchema,
  contact: contactContentSchema,
  features: featureSwitchesSchema,
});
export type SiteContent = z.infer<typeof siteContentSchema>;
export type ProductContent = z.infer<typeof productContentSchema>;

export const contentActions = ['save', 'reset', 'restore'] as const;
export type ContentAction = (typeof contentActions)[number];

export const contentVersionSchema = z.object({
  id: z.string(),
  version: z.number().int().positive(),
  action: z.enum(contentActions),
  /** The version a restore brought back. */
  restoredFrom: z.number().int().positive().nullable(),
  savedBy: z.string(),
  savedAt: z.string(),
});
export type ContentVersion = z.infer<typeof contentVersionSchema>;

/** GET, PUT /api/content, POST /api/content/reset and a restore answer this. */
export const contentResponseSchema = z.object({
  success: z.literal(true),
  content: siteContentSchema,
  /** 0 before the first save (the defaults). */
  version: z.number().int().nonnegative(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type ContentResponse = z.infer<typeof contentResponseSchema>;

export const contentVersionsResponseSchema = z.object({
  success: z.literal(true),
  versions: z.array(contentVersionSchema),
});
export type ContentVersionsResponse = z.infer<typeof contentVersionsResponseSchema>;

export const contentMessages = {
  saved: 'Content saved successfully!',
  reset: 'Content reset to defaults!',
  fetchFailed: 'Failed to fetch content',
  saveFailed: 'Failed to save content',
  resetFailed: 'Failed to reset content',
  loadErrorTitle: 'Error Loading Content',
  versionNotFound: 'Content version not found',
  restored: (version: number) => `Version ${version} restored`,
  aiDisabled: 'The AI design tool is turned off. Describe your design or upload it instead.',
  uploadDisabled: 'File upload is turned off. Describe your design instead.',
} as const;

/** content.changed: the price list and switches the orders service copies (newest version wins). */
export const contentChangedData = z.object({
  version: z.number().int().positive(),
  prices: z.record(z.string(), z.number().nonnegative()),
  features: featureSwitchesSchema,
  changedBy: z.string(),
  changedAt: z.iso.datetime({ offset: true }),
});
