// The site content's defaults (the server's Reset to Defaults: the shop's texts and its catalog prices)
// and the shape check derived from them, without zod (content.ts re-exports them): the storefront's home
// checks every public content answer with hasSiteContentShape on its first load, where zod (about 7 KiB
// brotli even as zod/mini) does not fit the 150 KiB budget. With "sideEffects": false (package.json) a
// browser bundle takes this file without content.ts and its schemas.
import { catalog, itemTypes, type ItemType } from './catalog-options.js';
import { priceListOf, type PriceList } from './content-constants.js';
import type { ProductContent, SiteContent } from './content.js';
import { shopName } from './shop.js';

const productDefaults: Record<ItemType, Omit<ProductContent, 'basePrice' | 'title'>> = {
  coin: {
    description: 'Die-struck coins in antique or polished finishes, enamel fills, custom edges and shapes.',
    features: [
      'Six sizes from 1.25 to 2.5 inches',
      'Antique, polished and black nickel finishes',
      'Enamel fill, cutouts and custom edges',
    ],
  },
  patch: {
    description: 'Embroidered, woven, PVC or leather patches with hook-and-loop or sew-on backing.',
    features: [
      'Embroidered, woven, PVC or leather',
      'Hook-and-loop or sew-on backing',
      'Thread colors matched to your design',
    ],
  },
  shirt: {
    description: 'Tactical shirts in performance and ripstop fabrics, printed or embroidered with your unit mark.',
    features: [
      'Sizes S to XXXL in one order',
      'Cotton, poly-cotton, performance and tactical fabrics',
      'Printed or embroidered unit marks',
    ],
  },
};

/** The server's defaults (Reset to Defaults): the shop's texts and its catalog prices. */
export const defaultSiteContent: SiteContent = {
  homepage: {
    heroTitle: 'Challenge coins, patches and tactical shirts, made for your unit',
    heroSubtitle: 'Tell us what you need and our team sends you a quote within 24 hours. No account needed.',
    companyName: shopName,
    tagline: 'Custom military gear',
    description:
      'Custom challenge coins, patches and tactical shirts for military units, first responders and veterans, quoted by our team within 24 hours.',
  },
  products: Object.fromEntries(
    itemTypes.map((t) => [t, { title: catalog[t].cardTitle, basePrice: catalog[t].basePrice, ...productDefaults[t] }]),
  ) as Record<ItemType, ProductContent>,
  seo: {
    title: `${shopName} | Custom Challenge Coins, Patches and Tactical Shirts`,
    description:
      'Custom challenge coins, patches and tactical shirts for military units and first responders. Free quote within 24 hours.',
    ogTitle: `${shopName}: custom military gear`,
    ogImage: '',
    ogDescription: 'Challenge coins, patches and tactical shirts made for your unit. Request a free quote.',
    keywords: ['challenge coins', 'custom patches', 'tactical shirts', 'military coins', 'unit patches'],
  },
  contact: { email: 'support@shop.local', phone: '', address: '', businessHours: 'Monday to Friday, 8:00 to 17:00' },
  features: { aiGenerationEnabled: true, manualDesignEnabled: true, fileUploadEnabled: true, liveChatEnabled: false },
};

/** The price list the storefront and the orders service use: dollars per piece by kind. */
export const defaultPriceList: PriceList = priceListOf(defaultSiteContent);

/**
 * Whether `value` has the shape of the site content: every section and field the defaults have, each of
 * the same type (text, number, switch, list of texts). The one description of that shape is the
 * contracts' siteContentSchema: SiteContent is inferred from it and the defaults are a SiteContent, so
 * a field added to or retyped in the schema changes what this checks. The schema's finer rules (lengths,
 * trimming, whole cents, the email and image formats) are checked where content is saved (the marketing
 * service); the storefront needs to know that what it renders is there.
 */
export function hasSiteContentShape(value: unknown): value is SiteContent {
  return hasShapeOf(defaultSiteContent, value);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` has the shape of `example`: the same keys (more are allowed) with values of the same types. */
function hasShapeOf(example: unknown, value: unknown): boolean {
  // The defaults' lists are never empty, so their first item shows what every item must be.
  if (Array.isArray(example)) return Array.isArray(value) && value.every((item) => hasShapeOf(example[0], item));
  if (isRecord(example))
    return isRecord(value) && Object.entries(example).every(([key, field]) => hasShapeOf(field, value[key]));
  if (typeof example === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === typeof example;
}
