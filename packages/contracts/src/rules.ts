// Business constants and small pure rules the browser shows and the server recomputes (storefront §9).
import { catalog, type ItemType } from './catalog-options.js';

// Kept in a module without zod: the shell's header and footer need it on every first load.
export { shopName } from './shop.js';

export const limits = {
  quantity: { min: 1, max: 10_000, default: 50 },
  descriptionMax: 1000,
  descriptionMin: 5,
  aiPrompt: { min: 5, max: 500 },
  customizerTextMax: 100,
  postalCodeMax: 10,
  uploadMaxBytes: 10 * 1024 * 1024,
  latestDesignsShown: 4,
  verificationCodeDigits: 6,
  verificationCodeTtlMinutes: 10,
  quoteValidityDays: 30,
  returnPhotosMax: 5,
} as const;

/** Accepted upload extensions (storefront §5) and the spec's rejection text. */
export const uploadExtensions = ['jpg', 'jpeg', 'png', 'pdf', 'svg', 'ai', 'eps'] as const;
export const uploadRejectedMessage =
  'Some files were rejected. Please upload only JPG, PNG, PDF, AI, EPS, or SVG files.';

/** A file's size in MB with 2 decimals, as the storefront and the back office show uploads (DESIGN.md). */
export const formatMegabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(2)} MB`;

/** Volume pricing tiers of the guided flow: 10% off from 50 pieces, 20% off from 100. */
export const volumeTiers = [
  { minQuantity: 100, discount: 0.2, label: 'Volume Discount Applied' },
  { minQuantity: 50, discount: 0.1, label: 'Bulk Pricing Available' },
  { minQuantity: 0, discount: 0, label: 'Standard Pricing' },
] as const;

export function volumeTier(quantity: number) {
  return volumeTiers.find((t) => quantity >= t.minQuantity) ?? volumeTiers[volumeTiers.length - 1];
}

/**
 * Estimated total of the guided flow: base price x quantity less the volume discount, whole dollars.
 * `basePrice`: the price list's (site content); the catalog's when not given.
 */
export function estimatedTotal(
  itemType: ItemType,
  quantity: number,
  basePrice: number = catalog[itemType].basePrice,
): number {
  const tier = volumeTier(quantity);
  return Math.round(basePrice * quantity * (1 - tier.discount));
}
