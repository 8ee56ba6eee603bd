// Pure rules of a quote request on the server (storefront §5, §6, §9): the description the order keeps,
// the estimate the server computes itself, tax exemption from the category, and the body fingerprint
// that tells a retried submit from a different one.
import { createHash } from 'node:crypto';
import {
  catalog,
  customizerPrice,
  estimatedTotal,
  isCustomizerOrder,
  limits,
  type ParsedOrderRequest,
  type PriceList,
} from '@shop/contracts';

/**
 * The description stored with the order: the customer's own words when they wrote at least 5
 * characters, else (uploads with files only; the schema refuses the rest) one naming the files,
 * worded as the browser words it.
 */
export function orderDescription(
  body: Pick<ParsedOrderRequest, 'description' | 'designMethod' | 'files' | 'itemType'>,
): string {
  const text = body.description.trim();
  if (text.length >= limits.descriptionMin) return text;
  const item = catalog[body.itemType].cardTitle;
  if (body.designMethod === 'upload' && body.files.length > 0) {
    const named = `Custom ${item} design from uploaded files: ${body.files.map((f) => f.originalName).join(', ')}`;
    return named.length > limits.descriptionMax ? `${named.slice(0, limits.descriptionMax - 3)}...` : named;
  }
  return `Custom ${item} design as specified`;
}

/**
 * Guided flow: base price x quantity less the volume discount, whole dollars. Customizer: its own price
 * rule. The base price is the price list in force (site content, src/models/site-settings.ts) when given.
 */
export function serverEstimate(
  body: Pick<ParsedOrderRequest, 'itemType' | 'finish' | 'size' | 'quantity'>,
  prices?: PriceList,
): number {
  const basePrice = prices?.[body.itemType];
  if (isCustomizerOrder(body)) {
    return customizerPrice({
      itemType: body.itemType,
      size: body.size ?? '',
      material: body.finish,
      quantity: body.quantity,
      basePrice,
    });
  }
  return estimatedTotal(body.itemType, body.quantity, basePrice);
}

/** Military customers' orders are marked tax exempt (§6); the browser's flag is not trusted. */
export const isTaxExempt = (category: ParsedOrderRequest['customerCategory']) => category === 'military';

/** JSON with object keys sorted, so the same body always has the same fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Fingerprint of a parsed order body (after trimming and defaults). */
export const bodyFingerprint = (body: ParsedOrderRequest) =>
  createHash('sha256').update(canonicalJson(body)).digest('hex');

/** An Idempotency-Key is an opaque token from the browser: printable ASCII, at most 200 characters. */
export const idempotencyKeyPattern = /^[\x21-\x7e]{1,200}$/;
