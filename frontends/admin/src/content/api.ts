// The Content view's calls (admin part B §7): GET/PUT /api/content, POST /api/content/reset, and the
// version history with restore. Answers are checked with the contracts schemas.
import {
  contentMessages,
  contentPaths,
  contentResponseSchema,
  contentVersionsResponseSchema,
  itemTypes,
  siteContentSchema,
  type ItemType,
  type SiteContent,
} from '@shop/contracts';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { AdminApiError, adminFetch } from '../api.js';

export const contentKeys = {
  all: ['content'] as const,
  current: ['content', 'current'] as const,
  versions: ['content', 'versions'] as const,
};

/** The server's own message when it sent one, else the spec's wording for that call. */
const withFallback = (fallback: string) => (error: unknown) => {
  throw error instanceof AdminApiError && error.status !== 0
    ? error
    : new AdminApiError(fallback, error instanceof AdminApiError ? error.status : 0);
};

export async function fetchContent(signal?: AbortSignal) {
  return contentResponseSchema.parse(
    await adminFetch(contentPaths.admin, { signal }).catch(withFallback(contentMessages.fetchFailed)),
  );
}

export async function saveContent(content: SiteContent) {
  return contentResponseSchema.parse(
    await adminFetch(contentPaths.admin, { method: 'PUT', json: content }).catch(
      withFallback(contentMessages.saveFailed),
    ),
  );
}

export async function resetContent() {
  return contentResponseSchema.parse(
    await adminFetch(contentPaths.reset, { method: 'POST' }).catch(withFallback(contentMessages.resetFailed)),
  );
}

export async function fetchVersions(signal?: AbortSignal) {
  return contentVersionsResponseSchema.parse(await adminFetch(contentPaths.versions, { signal })).versions;
}

export async function restoreVersion(id: string) {
  return contentResponseSchema.parse(await adminFetch(contentPaths.restore(id), { method: 'POST' }));
}

// ---------------------------------------------------------------------------------------------
// The form: lists are edited one item per line, prices as typed text (parsed as a decimal, 0 if empty).
// ---------------------------------------------------------------------------------------------
type ProductForm = { title: string; basePrice: string; description: string; features: string };
export type ContentForm = Omit<SiteContent, 'products' | 'seo'> & {
  products: Record<ItemType, ProductForm>;
  seo: Omit<SiteContent['seo'], 'keywords'> & { keywords: string };
};

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** §5: basePrice is parsed as a decimal, defaulting to 0. */
export function parseBasePrice(text: string): number {
  const n = Number.parseFloat(text.replace(/[$,\s]/g, ''));
  return Number.isFinite(n) ? n : 0;
}

export function toForm(c: SiteContent): ContentForm {
  return {
    ...c,
    products: Object.fromEntries(
      itemTypes.map((t) => [
        t,
        { ...c.products[t], basePrice: String(c.products[t].basePrice), features: c.products[t].features.join('\n') },
      ]),
    ) as Record<ItemType, ProductForm>,
    seo: { ...c.seo, keywords: c.seo.keywords.join('\n') },
  };
}

export function fromForm(f: ContentForm): SiteContent {
  return {
    homepage: f.homepage,
    contact: f.contact,
    features: f.features,
    products: Object.fromEntries(
      itemTypes.map((t) => [
        t,
        {
          ...f.products[t],
          basePrice: parseBasePrice(f.products[t].basePrice),
          features: lines(f.products[t].features),
        },
      ]),
    ) as SiteContent['products'],
    seo: { ...f.seo, keywords: lines(f.seo.keywords) },
  };
}

/** Validates the converted object with the contracts schema; an error lands on the field that shows it. */
export const contentResolver: Resolver<ContentForm> = async (values) => {
  const parsed = siteContentSchema.safeParse(fromForm(values));
  if (parsed.success) return { values, errors: {} };
  const errors: Record<string, unknown> = {};
  for (const issue of parsed.error.issues) {
    // A list item's problem belongs to the list's text box.
    const listAt = issue.path.findIndex((p, i) => (p === 'features' && i > 0) || p === 'keywords');
    const path = (listAt >= 0 ? issue.path.slice(0, listAt + 1) : issue.path).map(String);
    let node = errors;
    path.slice(0, -1).forEach((key) => {
      node = (node[key] ??= {}) as Record<string, unknown>;
    });
    node[path.at(-1)!] ??= { type: issue.code, message: issue.message };
  }
  return { values: {}, errors: errors as FieldErrors<ContentForm> };
};
