// The catalog part of the shop's vocabulary without zod (catalog.ts re-exports all of it and adds the
// schemas): the storefront's first screen and its order-flow rules import these, and with
// "sideEffects": false (package.json) a browser bundle takes this file without zod.
import type { CustomerCategory } from './catalog.js';

// ---------------------------------------------------------------------------------------------
// Catalog (storefront §3, §9)
// ---------------------------------------------------------------------------------------------
export const itemTypes = ['coin', 'patch', 'shirt'] as const;
export type ItemType = (typeof itemTypes)[number];

export interface CatalogItem {
  id: ItemType;
  /** Catalog title, e.g. shown in "Customize {item}". */
  title: string;
  /** Landing card heading. */
  cardTitle: string;
  /** Base price in US dollars per piece, shown as "From $". */
  basePrice: number;
}

export const catalog: Record<ItemType, CatalogItem> = {
  coin: { id: 'coin', title: 'Custom Challenge Coins', cardTitle: 'Challenge Coins', basePrice: 25.99 },
  patch: { id: 'patch', title: 'Custom Patches', cardTitle: 'Custom Patches', basePrice: 12.99 },
  shirt: { id: 'shirt', title: 'Custom Tactical Shirts', cardTitle: 'Tactical Shirts', basePrice: 39.99 },
};

export const designMethods = ['upload', 'describe', 'team', 'ai'] as const;
export type DesignMethod = (typeof designMethods)[number];

// Guided-flow options per item type (storefront §3 "Options by item type").
export const coinSizes = [
  { value: '1.25', label: 'Mini', inches: 1.25 },
  { value: '1.5', label: 'Small', inches: 1.5 },
  { value: '1.75', label: 'Medium', inches: 1.75 },
  { value: '2', label: 'Large', inches: 2 },
  { value: '2.25', label: 'XL', inches: 2.25 },
  { value: '2.5', label: 'XXL', inches: 2.5 },
] as const;
export const coinShapes = ['Round', 'Square', 'Rectangle', 'Shield', 'Star', 'Dog Tag', 'Badge', 'Custom'] as const;
export const coinColors = ['Black', 'Gold', 'Silver', 'Bronze', 'Red', 'Blue', 'Green', 'White'] as const;
export const coinFinishes = [
  'antique_bronze',
  'antique_gold',
  'antique_silver',
  'polished_gold',
  'polished_silver',
  'black_nickel',
] as const;
/** Finishes the review step also knows how to name (never offered as a choice in the flow). */
export const coinReviewOnlyFinishes = [
  'antique_copper',
  'polished_nickel',
  'dual_plating',
  'rainbow_plating',
  'sandblast',
  'brushed',
] as const;
export const coinEdges = ['plain', 'rope', 'reeded', 'cut', 'beveled', 'oblique'] as const;
export const coinFeatures = [
  '3D Design',
  'Cutouts',
  'Spinner',
  'Keychain',
  'Bottle Opener',
  'Enamel Fill',
  'Epoxy Dome',
  'Glow in Dark',
] as const;
export const patchSizes = ['2x2', '3x3', '4x4', 'custom'] as const;
export const patchFinishes = ['embroidered', 'woven', 'pvc', 'leather'] as const;
export const shirtSizes = ['S', 'M', 'L', 'XL', 'XXL', 'XXXL'] as const;
export const shirtMaterials = ['cotton', 'poly_cotton', 'performance', 'tactical'] as const;

/**
 * A guided-flow size as people read it, with its unit: coin "2" -> 'Large (2")', patch "3x3" ->
 * '3" x 3"', "custom" -> "Custom size". Other values (shirt sizes, the customizer's "2 inch") already
 * read well and are shown as stored.
 */
export function sizeLabel(itemType: ItemType | null | undefined, size: string): string {
  if (itemType === 'coin') {
    const coin = coinSizes.find((s) => s.value === size);
    if (coin) return `${coin.label} (${coin.value}")`;
  }
  if (itemType === 'patch') {
    if (size === 'custom') return 'Custom size';
    const patch = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$/.exec(size);
    if (patch) return `${patch[1]}" x ${patch[2]}"`;
  }
  return size;
}

// Item customizer modal options (storefront §3 "Customizer options").
export const customizerOptions: Record<
  ItemType,
  { sizes: readonly string[]; colors: readonly string[]; materials: readonly string[] }
> = {
  coin: {
    sizes: ['1 inch', '1.25 inch', '1.5 inch', '2 inch'],
    colors: ['Antique Bronze', 'Antique Gold', 'Antique Silver', 'Black Nickel'],
    materials: ['Brass', 'Iron', 'Zinc Alloy', 'Copper'],
  },
  shirt: {
    sizes: ['XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'],
    colors: ['OD Green', 'Black', 'Coyote Tan', 'Ranger Green', 'Navy'],
    materials: ['100% Cotton', 'Cotton/Poly Blend', 'Ripstop', 'Performance Fabric'],
  },
  patch: {
    sizes: ['2 inch', '3 inch', '4 inch', '5 inch'],
    colors: ['Full Color', 'Black & White', 'OD Green', 'Subdued'],
    materials: ['Embroidered', 'PVC', 'Woven', 'Leather'],
  },
};
/** Customizer draft fallbacks when a type has no option list. */
export const customizerDefaults = { size: '1 inch', color: 'Antique Bronze', material: 'Brass' } as const;

export const defaultCustomerCategory: CustomerCategory = 'general';
