// The guided order flow's data and its pure rules (storefront spec §3, §4, §5, §7, §9): what each step
// needs before Continue, the quantity rules, the default description and the POST /api/orders body.
import {
  addressIssues,
  coinColors,
  coinEdges,
  coinFeatures,
  coinFinishes,
  coinShapes,
  coinSizes,
  defaultCountry,
  defaultCustomerCategory,
  estimatedTotal,
  limits,
  normalizePostalCode,
  patchFinishes,
  patchSizes,
  shirtMaterials,
  shirtSizes,
  sizeLabel,
  uploadExtensions,
  volumeTier,
  type Country,
  type CustomerCategory,
  type DesignMethod,
  type ItemType,
  type OrderRequest,
  type PriceList,
  type UploadedFile,
} from '@shop/contracts';

export type ShirtSize = (typeof shirtSizes)[number];

export interface ShippingAddressForm {
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  country: Country;
}

export interface OrderForm {
  itemType: ItemType | null;
  designMethod: DesignMethod | null;
  uploadedFiles: File[];
  description: string;
  quantity: number;
  colors: string[];
  finish: string;
  size: string;
  features: string[];
  shape: string;
  edge: string;
  sizeBreakdown: Record<ShirtSize, number>;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  subscribeEmail: boolean;
  subscribeSMS: boolean;
  shippingAddress: ShippingAddressForm;
  customerCategory: CustomerCategory;
  /** The stored AI design a Finalize Order came from (additive field of the orders API). */
  aiDesignId: string | null;
}

export function emptySizeBreakdown(): Record<ShirtSize, number> {
  return Object.fromEntries(shirtSizes.map((s) => [s, 0])) as Record<ShirtSize, number>;
}

export function initialOrderForm(): OrderForm {
  return {
    itemType: null,
    designMethod: null,
    uploadedFiles: [],
    description: '',
    quantity: limits.quantity.default,
    colors: [],
    finish: '',
    size: '',
    features: [],
    shape: '',
    edge: '',
    sizeBreakdown: emptySizeBreakdown(),
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
    subscribeEmail: false,
    subscribeSMS: false,
    shippingAddress: { line1: '', line2: '', city: '', state: '', postalCode: '', country: defaultCountry },
    customerCategory: defaultCustomerCategory,
    aiDesignId: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Steps and the progress bar
// ---------------------------------------------------------------------------------------------
export const STEP = { item: 0, method: 1, content: 2, specs: 3, shipping: 4, contact: 5, review: 6, done: 7 } as const;
export type Step = (typeof STEP)[keyof typeof STEP];

export const progressLabels = ['Design', 'Details', 'Options', 'Contact', 'Done'] as const;

/**
 * The eight screens fold into the bar's five phases: item and method are Design, the design content is
 * Details, specifications are Options, shipping, contact and review are Contact, confirmation is Done.
 */
export function progressOf(step: number): { phase: number; percent: number; label: string } {
  const phase = step <= 1 ? 1 : step === 2 ? 2 : step === 3 ? 3 : step <= 6 ? 4 : 5;
  return { phase, percent: (phase / progressLabels.length) * 100, label: progressLabels[phase - 1] };
}

// ---------------------------------------------------------------------------------------------
// Options by item type, with the words shown to people
// ---------------------------------------------------------------------------------------------
export interface Choice {
  value: string;
  label: string;
  hint?: string;
}

const words: Record<string, string> = { pvc: 'PVC', poly_cotton: 'Poly/Cotton' };

/** "antique_bronze" -> "Antique Bronze", "pvc" -> "PVC". */
export function humanize(value: string): string {
  return (
    words[value] ??
    value
      .split('_')
      .map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w))
      .join(' ')
  );
}

export const shirtChest: Record<ShirtSize, string> = {
  S: '34-36"',
  M: '38-40"',
  L: '42-44"',
  XL: '46-48"',
  XXL: '50-52"',
  XXXL: '54-56"',
};

export function sizeChoices(itemType: ItemType): Choice[] {
  if (itemType === 'coin') return coinSizes.map((s) => ({ value: s.value, label: s.label, hint: `${s.value}"` }));
  if (itemType === 'patch') {
    return patchSizes.map((s) =>
      s === 'custom' ? { value: s, label: 'Custom', hint: 'Any size' } : { value: s, label: sizeLabel('patch', s) },
    );
  }
  return shirtSizes.map((s) => ({ value: s, label: s, hint: `Chest ${shirtChest[s]}` }));
}

/** The "finish" choice: plating for coins, patch type for patches, fabric for shirts. */
export function finishChoices(itemType: ItemType): Choice[] {
  const list = itemType === 'coin' ? coinFinishes : itemType === 'patch' ? patchFinishes : shirtMaterials;
  return list.map((value) => ({ value, label: humanize(value) }));
}

export function finishHeading(itemType: ItemType): string {
  return itemType === 'coin' ? 'Finish' : itemType === 'patch' ? 'Patch Type' : 'Material';
}

export const colorChoices: Choice[] = coinColors.map((c) => ({ value: c, label: c }));
export const shapeChoices: Choice[] = coinShapes.map((s) => ({ value: s, label: s }));
export const edgeChoices: Choice[] = coinEdges.map((e) => ({ value: e, label: humanize(e) }));
export const featureChoices: Choice[] = coinFeatures.map((f) => ({ value: f, label: f }));

/** Swatch colours for the color names the flow offers. */
export const colorSwatches: Record<string, string> = {
  Black: '#111111',
  Gold: '#d4a93c',
  Silver: '#c0c0c0',
  Bronze: '#b08d57',
  Red: '#b4382b',
  Blue: '#2f5fa8',
  Green: '#4d7a35',
  White: '#f7f3e8',
};

// ---------------------------------------------------------------------------------------------
// Quantity and price
// ---------------------------------------------------------------------------------------------
/**
 * A number field as a person edits it: the text stays as typed (empty included) and the value follows
 * only while the text is already an allowed whole number; leaving the field applies the spec's rules
 * (`parseQuantity` / `parseShirtCount`) and writes the result back into the text.
 */
export function countWhileTyping(draft: string, range: { min: number; max: number }): number | null {
  if (!/^\d+$/.test(draft.trim())) return null;
  const n = Number.parseInt(draft, 10);
  return n >= range.min && n <= range.max ? n : null;
}

export const quantityRange = { min: limits.quantity.min, max: limits.quantity.max } as const;
export const shirtCountRange = { min: 0, max: limits.quantity.max } as const;

/** Quantity typed by a person: non-numeric becomes 1, then held within 1..10000 (whole pieces). */
export function parseQuantity(raw: string | number): number {
  const n = typeof raw === 'number' ? raw : Number.parseInt(raw, 10);
  if (!Number.isFinite(n)) return limits.quantity.min;
  return Math.min(limits.quantity.max, Math.max(limits.quantity.min, Math.trunc(n)));
}

/** A per-size shirt count: never below 0, non-numeric becomes 0. */
export function parseShirtCount(raw: string | number): number {
  const n = typeof raw === 'number' ? raw : Number.parseInt(raw, 10);
  if (!Number.isFinite(n)) return 0;
  return Math.min(limits.quantity.max, Math.max(0, Math.trunc(n)));
}

export function shirtTotal(breakdown: Record<string, number>): number {
  return Object.values(breakdown).reduce((sum, n) => sum + (Number.isFinite(n) ? n : 0), 0);
}

/** Pieces in the order: the sum of the size counts for shirts, the quantity for the rest. */
export function orderQuantity(form: Pick<OrderForm, 'itemType' | 'quantity' | 'sizeBreakdown'>): number {
  return form.itemType === 'shirt' ? shirtTotal(form.sizeBreakdown) : form.quantity;
}

export function quantityLabel(quantity: number): string {
  return volumeTier(quantity).label;
}

/**
 * The flow's estimate with the site content's price list (the one the orders service recomputes new
 * quote requests with); the catalog's prices only until the content has loaded.
 */
export function orderEstimate(
  form: Pick<OrderForm, 'itemType' | 'quantity' | 'sizeBreakdown'>,
  prices?: PriceList,
): number {
  return form.itemType ? estimatedTotal(form.itemType, orderQuantity(form), prices?.[form.itemType]) : 0;
}

// ---------------------------------------------------------------------------------------------
// Uploads
// ---------------------------------------------------------------------------------------------
export const uploadAcceptAttribute = uploadExtensions.map((e) => `.${e}`).join(',');

/** Accepted by name: JPG, JPEG, PNG, PDF, SVG, and files ending .ai or .eps (spec §5). */
export function isAcceptedUpload(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return false;
  return (uploadExtensions as readonly string[]).includes(name.slice(dot + 1).toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// What each step needs before Continue (spec §5)
// ---------------------------------------------------------------------------------------------
export function descriptionOk(form: Pick<OrderForm, 'designMethod' | 'uploadedFiles' | 'description'>): boolean {
  if (form.designMethod === 'upload') return form.uploadedFiles.length >= 1;
  return form.description.trim().length >= limits.descriptionMin;
}

export function specsOk(form: Pick<OrderForm, 'itemType' | 'size' | 'finish' | 'colors' | 'sizeBreakdown'>): boolean {
  const sized = form.itemType === 'shirt' ? shirtTotal(form.sizeBreakdown) > 0 : form.size !== '';
  return sized && form.finish !== '' && form.colors.length > 0;
}

/**
 * What is wrong with the address, by field: the shared `addressIssues` (the country's states or
 * provinces, its postal code format), the same rules the orders service applies to the request.
 */
export function shippingProblems(address: ShippingAddressForm): Partial<Record<'state' | 'postalCode', string>> {
  return Object.fromEntries(addressIssues(address).map((issue) => [issue.path[0], issue.message]));
}

export function shippingOk(address: ShippingAddressForm): boolean {
  const filled = [address.line1, address.city, address.state, address.postalCode].every((v) => v.trim() !== '');
  return filled && addressIssues(address).length === 0;
}

export function contactOk(form: Pick<OrderForm, 'firstName' | 'lastName' | 'email'>): boolean {
  return [form.firstName, form.lastName, form.email].every((v) => v.trim() !== '');
}

export function canContinue(step: number, form: OrderForm): boolean {
  switch (step) {
    case STEP.item:
      return form.itemType !== null;
    case STEP.method:
      return form.designMethod !== null;
    case STEP.content:
      return descriptionOk(form);
    case STEP.specs:
      return specsOk(form);
    case STEP.shipping:
      return shippingOk(form.shippingAddress);
    case STEP.contact:
      return contactOk(form);
    default:
      return true;
  }
}

// ---------------------------------------------------------------------------------------------
// The order body (spec §7)
// ---------------------------------------------------------------------------------------------
/** A description under 5 characters at submit is replaced by one naming the files or the item. */
export function finalDescription(
  form: Pick<OrderForm, 'itemType' | 'designMethod' | 'uploadedFiles' | 'description'>,
): string {
  const text = form.description.trim();
  if (text.length >= limits.descriptionMin) return text;
  // "{item}" is the item type's own word: "Custom coin design as specified".
  const item = form.itemType ?? 'item';
  if (form.designMethod === 'upload' && form.uploadedFiles.length > 0) {
    return `Custom ${item} design from uploaded files: ${form.uploadedFiles.map((f) => f.name).join(', ')}`;
  }
  return `Custom ${item} design as specified`;
}

export type UploadedFileRecord = UploadedFile;
/** The POST /api/orders body (§7), typed by the orders service's own schema in @shop/contracts. */
export type OrderRequestBody = OrderRequest;

export function buildOrderBody(form: OrderForm, files: UploadedFileRecord[], prices?: PriceList): OrderRequestBody {
  if (!form.itemType || !form.designMethod) throw new Error('Choose an item and a design method first.');
  const shirt = form.itemType === 'shirt';
  const phone = form.phone.trim();
  const address = form.shippingAddress;
  const line2 = address.line2.trim();
  return {
    customerName: `${form.firstName.trim()} ${form.lastName.trim()}`,
    email: form.email.trim(),
    ...(phone ? { phone } : {}),
    itemType: form.itemType,
    designMethod: form.designMethod,
    description: finalDescription(form),
    quantity: orderQuantity(form),
    ...(shirt
      ? { sizeBreakdown: Object.fromEntries(Object.entries(form.sizeBreakdown).filter(([, n]) => n > 0)) }
      : { size: form.size }),
    colors: form.colors,
    finish: form.finish,
    ...(form.itemType === 'coin' && form.shape ? { shape: form.shape } : {}),
    ...(form.itemType === 'coin' && form.edge ? { edge: form.edge } : {}),
    features: form.itemType === 'coin' ? form.features : [],
    estimatedTotal: orderEstimate(form, prices),
    files,
    aiGenerated: form.designMethod === 'ai',
    ...(form.designMethod === 'ai' && form.aiDesignId ? { aiDesignId: form.aiDesignId } : {}),
    subscribeEmail: form.subscribeEmail,
    // SMS needs a phone number: the checkbox is only offered with one.
    subscribeSMS: phone ? form.subscribeSMS : false,
    shippingAddress: {
      line1: address.line1.trim(),
      line2,
      city: address.city.trim(),
      state: address.state,
      postalCode: normalizePostalCode(address.country, address.postalCode),
      country: address.country,
    },
    customerCategory: form.customerCategory,
    taxExempt: form.customerCategory === 'military',
  };
}

/** Fallback order number when the server answer lacks one: product prefix + last 6 digits of the time. */
export function fallbackOrderNumber(itemType: ItemType | null, now = Date.now()): string {
  const prefix = itemType === 'coin' ? 'CC' : itemType === 'patch' ? 'CP' : itemType === 'shirt' ? 'TS' : 'ORD';
  return `${prefix}-${String(now).slice(-6)}`;
}
