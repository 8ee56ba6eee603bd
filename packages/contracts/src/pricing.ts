// Price of an item built in the customizer modal (storefront §9). The browser shows it and the orders
// service recomputes it with this same function, so the two can never disagree.
import { catalog, type ItemType } from './catalog-options.js';

export interface CustomizerPriceInput {
  itemType: ItemType;
  size: string;
  material: string;
  quantity: number;
  /** The price list's base price (site content); the catalog's when not given. */
  basePrice?: number;
}

/**
 * basePrice x quantity, then: coin 2 inch x1.5; patch 5 inch x1.3; shirt XXL or XXXL +$5 once per
 * order; a material containing "Performance" or "Leather" +$10 once per order. Rounded to cents.
 */
export function customizerPrice({ itemType, size, material, quantity, basePrice }: CustomizerPriceInput): number {
  const pieces = Math.max(1, Math.floor(Number.isFinite(quantity) ? quantity : 1));
  let price = (basePrice ?? catalog[itemType].basePrice) * pieces;
  if (itemType === 'coin' && size === '2 inch') price *= 1.5;
  if (itemType === 'patch' && size === '5 inch') price *= 1.3;
  if (itemType === 'shirt' && (size === 'XXL' || size === 'XXXL')) price += 5;
  if (material.includes('Performance') || material.includes('Leather')) price += 10;
  return Math.round(price * 100) / 100;
}
