// The item customizer's draft and the reduced order it sends (storefront §3, §5, §7, §9).
import {
  catalog,
  customizerDefaults,
  customizerOptions,
  customizerPrice,
  limits,
  type ItemType,
  type PriceList,
} from '@shop/contracts';
import type { CustomizerOrderBody } from '../api/shop.js';

export interface CustomizerItem {
  id: ItemType;
  title: string;
  basePrice: number;
}

/** The catalog's item with the site content's price (the catalog's until the content has loaded). */
export function customizerItemOf(itemType: ItemType, prices?: PriceList): CustomizerItem {
  return { ...catalog[itemType], basePrice: prices?.[itemType] ?? catalog[itemType].basePrice };
}

export interface CustomizerDraft {
  size: string;
  color: string;
  material: string;
  text: string;
  quantity: number;
  uploadedImage: File | null;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}

export const customizerSteps = ['Design', 'Text', 'Specifications', 'Review'] as const;

export function initialDraft(itemType: ItemType): CustomizerDraft {
  const options = customizerOptions[itemType];
  return {
    size: options?.sizes[0] ?? customizerDefaults.size,
    color: options?.colors[0] ?? customizerDefaults.color,
    material: options?.materials[0] ?? customizerDefaults.material,
    text: '',
    quantity: 1,
    uploadedImage: null,
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
  };
}

/** Quantity moves by a delta and never goes below 1 (§4). */
export function changeQuantity(quantity: number, delta: number): number {
  return Math.max(1, Math.min(limits.quantity.max, Math.trunc(quantity) + delta));
}

/** `basePrice`: the site content's price list (the catalog's until the content has loaded). */
export function draftPrice(
  itemType: ItemType,
  draft: Pick<CustomizerDraft, 'size' | 'material' | 'quantity'>,
  basePrice?: number,
): number {
  return customizerPrice({ itemType, size: draft.size, material: draft.material, quantity: draft.quantity, basePrice });
}

/** The swatch of each customizer colour; Full Color is a rainbow and Black & White a gradient (§3). */
export const customizerSwatches: Record<string, string> = {
  'Antique Bronze': '#8c6a3f',
  'Antique Gold': '#b8913a',
  'Antique Silver': '#a8a9ad',
  'Black Nickel': '#2b2b2e',
  'OD Green': '#4b5320',
  Black: '#111111',
  'Coyote Tan': '#81613c',
  'Ranger Green': '#5b6142',
  Navy: '#1f2a44',
  'Full Color': 'linear-gradient(135deg, #e53935, #fb8c00, #fdd835, #43a047, #1e88e5, #8e24aa)',
  'Black & White': 'linear-gradient(135deg, #000000 0%, #000000 50%, #ffffff 50%, #ffffff 100%)',
  Subdued: '#6b6b4e',
};

export function contactMissing(draft: Pick<CustomizerDraft, 'firstName' | 'lastName' | 'email'>): boolean {
  return [draft.firstName, draft.lastName, draft.email].some((v) => v.trim() === '');
}

/** The reduced POST /api/orders body: one colour in a list, finish = material, no files (§7). */
export function customizerOrderBody(
  item: CustomizerItem,
  draft: CustomizerDraft,
  aiPrompt: string | null,
  aiDesignId: string | null = null,
): CustomizerOrderBody {
  const parts = [
    aiPrompt ? aiPrompt.trim() : null,
    draft.text.trim() ? `Text: "${draft.text.trim()}"` : null,
    draft.uploadedImage ? `Reference image: ${draft.uploadedImage.name}` : null,
  ].filter(Boolean);
  const description = parts.length
    ? `Custom ${catalog[item.id].cardTitle}: ${parts.join('. ')}`
    : `Custom ${catalog[item.id].cardTitle} design as specified`;
  const phone = draft.phone.trim();
  return {
    customerName: `${draft.firstName.trim()} ${draft.lastName.trim()}`,
    email: draft.email.trim(),
    ...(phone ? { phone } : {}),
    itemType: item.id,
    designMethod: aiPrompt ? 'ai' : 'describe',
    description: description.slice(0, limits.descriptionMax),
    quantity: draft.quantity,
    size: draft.size,
    colors: [draft.color],
    finish: draft.material,
    features: [],
    estimatedTotal: draftPrice(item.id, draft, item.basePrice),
    files: [],
    aiGenerated: Boolean(aiPrompt),
    ...(aiPrompt && aiDesignId ? { aiDesignId } : {}),
    subscribeEmail: false,
    subscribeSMS: false,
    customerCategory: 'general',
    taxExempt: false,
  };
}
