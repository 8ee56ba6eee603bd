// The content service's paths and the price list read from site content, without zod (content.ts
// re-exports them): the shell reads the public content on every page and the storefront's home shows the
// prices. With "sideEffects": false (package.json) a browser bundle takes this file without zod.
import type { ItemType } from './catalog-options.js';
import { itemTypes } from './catalog-options.js';
import type { SiteContent } from './content.js';

export const contentPaths = {
  admin: '/api/content',
  reset: '/api/content/reset',
  versions: '/api/content/versions',
  restore: (id: string) => `/api/content/versions/${encodeURIComponent(id)}/restore`,
  /** Public, cacheable (ETag): what the storefront renders and the gateway puts into the HTML. */
  public: '/api/content/public',
} as const;

/**
 * What the gateway writes into a storefront page's HTML for the scripts to read (gateway/src/first-paint.ts):
 * the id of the JSON script element holding the site content, and the attribute marking #root while it
 * holds the home page's first paint.
 */
export const sitePageMarkers = {
  contentElementId: 'shop-site-content',
  firstPaintAttribute: 'data-first-paint',
} as const;

export type PriceList = Record<ItemType, number>;
export const priceListOf = (content: Pick<SiteContent, 'products'>): PriceList =>
  Object.fromEntries(itemTypes.map((t) => [t, content.products[t].basePrice])) as PriceList;
