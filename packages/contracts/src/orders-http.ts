// Public HTTP shapes of the orders service (storefront §3, §5, §7): quote requests, uploads, AI designs,
// tracking and order history. The storefront builds its bodies from these types and the orders service
// parses them with these schemas, then checks the cross-field rules again with `orderRequestIssues`.
import { z } from 'zod';
import { addressIssues, countrySchema, postalCodeMaxLength } from './address.js';
import {
  carrierSchema,
  catalog,
  coinColors,
  coinEdges,
  coinFeatures,
  coinFinishes,
  coinShapes,
  coinSizes,
  customerCategorySchema,
  customizerOptions,
  designMethodSchema,
  itemTypeSchema,
  orderStatusSchema,
  patchFinishes,
  patchSizes,
  shirtMaterials,
  shirtSizes,
  type ItemType,
} from './catalog.js';
import { limits } from './rules.js';

export * from './orders-constants.js';

// ---------------------------------------------------------------------------------------------
// Uploads (POST /api/upload, multipart, repeated `files` field)
// ---------------------------------------------------------------------------------------------
/** Most files accepted in one upload request. */
export const uploadMaxFilesPerRequest = 10;

/** The uploaded file record the server answers with and the order body carries back (§3). */
export const uploadedFileSchema = z
  .object({
    originalName: z.string().min(1).max(255).describe("The name the file had on the customer's computer"),
    filename: z.string().min(1).max(255).describe('Stored name: the upload id plus the extension'),
    size: z.number().int().nonnegative().describe('Bytes'),
    mimetype: z.string().min(1).max(100),
    url: z.string().min(1).max(300).describe('Where the file is served: /api/upload/<id>'),
  })
  .meta({ id: 'UploadedFile' });
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

export const uploadResponseSchema = z.object({ success: z.literal(true), files: z.array(uploadedFileSchema) });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

/** Path of a stored upload; `uploadIdFromUrl` reads the id back out of an order body's file url. */
export const uploadUrl = (id: string) => `/api/upload/${id}`;
export function uploadIdFromUrl(url: string): string | null {
  const match = /^\/api\/upload\/([a-f0-9]{24,64})$/.exec(url);
  return match ? match[1] : null;
}

// ---------------------------------------------------------------------------------------------
// Quote requests (POST /api/orders)
// ---------------------------------------------------------------------------------------------
const requiredText = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

export const orderEmailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email({ error: 'Please enter a valid email address' }));

/**
 * A shipping (or billing) address of an order: the shared address shape, plus `addressIssues`: the state
 * is one of the country's states or provinces (two-letter code, as the picker sends it) and the postal
 * code has the country's format (US ZIP, Canadian A1A 1A1).
 */
export const orderAddressSchema = z
  .object({
    line1: requiredText('Address line 1', 200),
    line2: z.string().trim().max(200, 'Address line 2 must be at most 200 characters').optional().default(''),
    city: requiredText('City', 100),
    state: requiredText('State', 100),
    postalCode: requiredText('Postal code', postalCodeMaxLength),
    country: countrySchema.default('US'),
  })
  .superRefine((address, ctx) => {
    for (const issue of addressIssues(address)) ctx.addIssue({ code: 'custom', ...issue });
  })
  .meta({ id: 'OrderAddress' });
export type OrderAddress = z.infer<typeof orderAddressSchema>;

const optionText = (field: string) => z.string().trim().max(60, `${field} must be at most 60 characters`);

/**
 * POST /api/orders body exactly as storefront §7 lists it. The guided flow sends every field; the item
 * customizer sends a reduced variant (one colour, finish = the customizer material, optional
 * billingAddress, no files). `estimatedTotal` and `taxExempt` are the browser's view only: the server
 * recomputes both. The cross-field rules (§5) are in `orderRequestIssues`, applied by this schema.
 */
export const orderRequestShape = z.object({
  customerName: requiredText('Customer name', 200),
  email: orderEmailSchema,
  phone: z.string().trim().max(40, 'Phone must be at most 40 characters').optional(),
  itemType: itemTypeSchema,
  designMethod: designMethodSchema,
  description: z
    .string()
    .trim()
    .max(limits.descriptionMax, `Description must be at most ${limits.descriptionMax} characters`)
    .optional()
    .default(''),
  quantity: z
    .number({ error: 'Quantity must be a number' })
    .int('Quantity must be a whole number')
    .min(limits.quantity.min, `Quantity must be at least ${limits.quantity.min}`)
    .max(limits.quantity.max, `Quantity must be at most ${limits.quantity.max}`),
  size: optionText('Size').optional(),
  sizeBreakdown: z
    .partialRecord(
      z.enum(shirtSizes, { error: `Shirt sizes are ${shirtSizes.join(', ')}` }),
      z
        .number()
        .int('Shirt counts must be whole numbers')
        .min(0, 'Shirt counts cannot be negative')
        .max(limits.quantity.max),
    )
    .optional(),
  colors: z
    .array(optionText('Color').min(1, 'A color cannot be empty'))
    .max(20, 'At most 20 colors')
    .optional()
    .default([]),
  finish: optionText('Finish').optional().default(''),
  shape: optionText('Shape').optional(),
  edge: optionText('Edge').optional(),
  features: z.array(optionText('Feature')).max(20, 'At most 20 features').optional().default([]),
  estimatedTotal: z
    .number()
    .nonnegative()
    .optional()
    .describe("The browser's estimate, kept for audit; the server recomputes it"),
  files: z
    .array(uploadedFileSchema)
    .max(uploadMaxFilesPerRequest, `At most ${uploadMaxFilesPerRequest} files`)
    .optional()
    .default([]),
  aiGenerated: z.boolean().optional().default(false),
  /** Additive: the id of the stored AI design the order was finalized from, if any. */
  aiDesignId: z.string().trim().max(64).optional(),
  subscribeEmail: z.boolean().optional().default(false),
  subscribeSMS: z.boolean().optional().default(false),
  shippingAddress: orderAddressSchema.optional(),
  billingAddress: orderAddressSchema.optional(),
  customerCategory: customerCategorySchema.optional().default('general'),
  taxExempt: z.boolean().optional().describe('Ignored: the server sets it from the customer category'),
});

/** The guided flow's choices per item type (§3): sizes, finishes (or material / patch type), colours. */
export const guidedOptions: Record<
  ItemType,
  { sizes: readonly string[]; finishes: readonly string[]; colors: readonly string[] }
> = {
  coin: { sizes: coinSizes.map((s) => s.value), finishes: coinFinishes, colors: coinColors },
  patch: { sizes: patchSizes, finishes: patchFinishes, colors: coinColors },
  shirt: { sizes: shirtSizes, finishes: shirtMaterials, colors: coinColors },
};

type OrderRequestInput = z.output<typeof orderRequestShape>;

/** The customizer's reduced body is recognised by its finish: a customizer material ("Brass", "Ripstop"...). */
export function isCustomizerOrder(body: Pick<OrderRequestInput, 'itemType' | 'finish'>): boolean {
  return customizerOptions[body.itemType].materials.includes(body.finish);
}

/** Sum of the per-size shirt counts. */
export function sizeBreakdownTotal(breakdown: Partial<Record<string, number>> | undefined): number {
  return Object.values(breakdown ?? {}).reduce<number>((sum, n) => sum + (n ?? 0), 0);
}

/**
 * Every cross-field rule of storefront §5 for an order body: what Continue would have blocked in the
 * browser. Returns field problems (empty when the body is acceptable).
 */
export function orderRequestIssues(body: OrderRequestInput): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const add = (path: (string | number)[], message: string) => issues.push({ path, message });
  const customizer = isCustomizerOrder(body);
  const item = catalog[body.itemType].cardTitle;

  // The design content (§5): an upload order needs at least one file and may leave the description
  // short (the server names the files instead); every other method needs a description.
  const upload = body.designMethod === 'upload' && !customizer;
  if (upload && body.files.length === 0) add(['files'], 'Please upload at least one file');
  if (!upload && body.description.length < limits.descriptionMin) {
    add(['description'], `Description must be at least ${limits.descriptionMin} characters`);
  }
  if (customizer && body.files.length > 0) add(['files'], 'Customizer orders do not carry files');

  // Colours: at least one, from the item's list (the customizer sends exactly one of its own colours).
  const colorList = customizer ? customizerOptions[body.itemType].colors : guidedOptions[body.itemType].colors;
  if (body.colors.length === 0) add(['colors'], 'Please choose at least one color');
  if (customizer && body.colors.length > 1) add(['colors'], 'A customized item has one color');
  body.colors.forEach((color, i) => {
    if (!colorList.includes(color)) add(['colors', i], `Color "${color}" is not offered for ${item}`);
  });
  if (new Set(body.colors).size !== body.colors.length) add(['colors'], 'Each color can be chosen once');

  // Finish (plating, patch type or shirt material): required, from the item's list.
  if (!body.finish) add(['finish'], 'Please choose a finish');
  else if (!customizer && !guidedOptions[body.itemType].finishes.includes(body.finish)) {
    add(['finish'], `Finish "${body.finish}" is not offered for ${item}`);
  }

  // Size: shirts in the guided flow are a count per size; everything else one size from the list.
  if (body.itemType === 'shirt' && !customizer) {
    const total = sizeBreakdownTotal(body.sizeBreakdown);
    if (total < 1) add(['sizeBreakdown'], 'Please choose at least one shirt in the size breakdown');
    else if (total !== body.quantity) {
      add(['quantity'], `Quantity must equal the sum of the shirt size counts (${total})`);
    }
  } else {
    const sizes = customizer ? customizerOptions[body.itemType].sizes : guidedOptions[body.itemType].sizes;
    if (!body.size) add(['size'], 'Please choose a size');
    else if (!sizes.includes(body.size)) add(['size'], `Size "${body.size}" is not offered for ${item}`);
    if (body.sizeBreakdown && sizeBreakdownTotal(body.sizeBreakdown) > 0) {
      add(['sizeBreakdown'], 'A size breakdown is only for tactical shirts');
    }
  }

  // Coin-only options, each from its list.
  if (body.shape && !(coinShapes as readonly string[]).includes(body.shape))
    add(['shape'], `Shape "${body.shape}" is not offered`);
  if (body.edge && !(coinEdges as readonly string[]).includes(body.edge))
    add(['edge'], `Edge "${body.edge}" is not offered`);
  body.features.forEach((feature, i) => {
    if (!(coinFeatures as readonly string[]).includes(feature))
      add(['features', i], `Feature "${feature}" is not offered`);
  });
  if (body.itemType !== 'coin' && (body.shape || body.edge || body.features.length > 0)) {
    add(['itemType'], 'Shape, edge and special features apply to challenge coins only');
  }

  // The guided flow always collects a shipping address; the customizer may send a billing address only.
  if (!customizer && !body.shippingAddress) add(['shippingAddress'], 'Shipping address is required');
  if (body.subscribeSMS && !body.phone) add(['subscribeSMS'], 'SMS updates need a phone number');
  return issues;
}

export const orderRequestSchema = orderRequestShape
  .superRefine((body, ctx) => {
    for (const issue of orderRequestIssues(body))
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  })
  .meta({ id: 'OrderRequest' });
export type OrderRequest = z.input<typeof orderRequestSchema>;
export type ParsedOrderRequest = z.output<typeof orderRequestSchema>;

// idempotencyKeyHeader: orders-constants.ts (no zod; the storefront's first screen needs it).

export const createdOrderSchema = z
  .object({
    id: z.string(),
    orderNumber: z.string(),
    status: orderStatusSchema,
    statusLabel: z.string(),
    itemType: itemTypeSchema,
    quantity: z.number().int(),
    estimatedTotal: z.number().describe('Recomputed by the server (whole dollars in the guided flow)'),
    taxExempt: z.boolean(),
    submittedDate: z.string().describe('ISO date-time'),
  })
  .meta({ id: 'CreatedOrder' });
export type CreatedOrder = z.infer<typeof createdOrderSchema>;

export const createOrderResponseSchema = z.object({ success: z.literal(true), order: createdOrderSchema });
export type CreateOrderResponse = z.infer<typeof createOrderResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Tracking and history (POST /api/orders/track, POST /api/orders/history)
// ---------------------------------------------------------------------------------------------
// trackOrderNotFoundMessage, trackMissingFieldsMessage: orders-constants.ts (no zod).

export const trackRequestSchema = z.object({
  orderNumber: z.string().trim().max(40).describe('Upper-cased by the server'),
  email: z.string().trim().max(254),
});
export type TrackRequest = z.infer<typeof trackRequestSchema>;

export const historyRequestSchema = z.object({
  email: z.string().trim().max(254),
  orderNumber: z.string().trim().max(40).optional().describe('Required: an order of this email proves the email'),
});
export type HistoryRequest = z.infer<typeof historyRequestSchema>;

export const timelineEntrySchema = z.object({
  status: orderStatusSchema,
  label: z.string(),
  date: z.string().describe('ISO date-time'),
  note: z.string().optional(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

/** "Order as seen by tracking" (§3), plus what the order view shows: progress, timeline, product details. */
export const trackedOrderSchema = z
  .object({
    id: z.string(),
    orderNumber: z.string(),
    customerName: z.string(),
    email: z.string(),
    itemType: itemTypeSchema,
    quantity: z.number().int(),
    description: z.string(),
    estimatedTotal: z.number(),
    discountCode: z.string().nullable(),
    discountAmount: z.number(),
    finalAmount: z.number().nullable(),
    status: orderStatusSchema,
    statusLabel: z.string(),
    statusDescription: z.string().nullable(),
    progressPercent: z.number().min(0).max(100),
    submittedDate: z.string(),
    lastUpdate: z.string(),
    aiGenerated: z.boolean(),
    designMethod: designMethodSchema,
    size: z.string().nullable(),
    sizeBreakdown: z.record(z.string(), z.number()).nullable(),
    colors: z.array(z.string()),
    finish: z.string(),
    shape: z.string().nullable(),
    edge: z.string().nullable(),
    features: z.array(z.string()),
    timeline: z.array(timelineEntrySchema),
    tracking: z
      .object({ carrier: carrierSchema, trackingNumber: z.string(), estimatedDelivery: z.string().nullable() })
      .nullable(),
  })
  .meta({ id: 'TrackedOrder' });
export type TrackedOrder = z.infer<typeof trackedOrderSchema>;

export const trackResponseSchema = z.object({ success: z.literal(true), order: trackedOrderSchema });
export type TrackResponse = z.infer<typeof trackResponseSchema>;

export const historyMaxOrders = 50;
export const historyResponseSchema = z.object({ success: z.literal(true), orders: z.array(trackedOrderSchema) });
export type HistoryResponse = z.infer<typeof historyResponseSchema>;

/** `{ success: false, error, code, details? }`: the error envelope with the `success` flag the browser reads. */
export const failureSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string(),
  details: z.unknown().optional(),
  requestId: z.string().optional(),
});
export type Failure = z.infer<typeof failureSchema>;

// ---------------------------------------------------------------------------------------------
// AI designs (POST /api/ai/generate-design, GET /api/ai/designs/<id>/image)
// ---------------------------------------------------------------------------------------------
/** The exact error text the browser maps to its "Please check your input..." alert (§8). */
export const aiInvalidParametersMessage = 'Invalid request parameters';
/** Wording the browser maps to "AI service temporarily unavailable. Please try again later." (§8). */
export const aiUnavailableMessage = 'AI service temporarily unavailable. Please try again later.';

export const generateDesignRequestSchema = z.object({
  prompt: z
    .string({ error: 'Please provide a more detailed description (at least 5 characters)' })
    .trim()
    .min(limits.aiPrompt.min, 'Please provide a more detailed description (at least 5 characters)')
    .max(limits.aiPrompt.max, 'Description is too long. Please keep it under 500 characters.'),
  itemType: itemTypeSchema,
  style: z.string().trim().max(40).optional().default('military'),
});
export type GenerateDesignRequest = z.input<typeof generateDesignRequestSchema>;

export const generatedDesignSchema = z
  .object({
    id: z.string(),
    prompt: z.string(),
    imageUrl: z.string().describe('/api/ai/designs/<id>/image: stored, never expires'),
    variations: z.array(z.string()),
    itemType: itemTypeSchema,
  })
  .meta({ id: 'GeneratedDesign' });
export type GeneratedDesign = z.infer<typeof generatedDesignSchema>;

export const generateDesignResponseSchema = z.object({
  success: z.literal(true),
  design: generatedDesignSchema,
  warning: z.string().optional().describe('Set when the offline generator drew the design'),
});
export type GenerateDesignResponse = z.infer<typeof generateDesignResponseSchema>;

export const designImageUrl = (id: string) => `/api/ai/designs/${id}/image`;
