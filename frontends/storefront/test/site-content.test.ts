// The home page checks the public content answer with the contracts' hasSiteContentShape (no zod on its
// first load): it must accept what the contracts' schema accepts and refuse answers whose shape the pages
// could not render, field by field as the schema does.
import { describe, expect, it } from 'vitest';
import { contentResponseSchema, defaultSiteContent } from '@shop/contracts';
import { siteContentOf } from '../src/content.js';

const answer = (content: unknown) => ({
  success: true,
  content,
  version: 4,
  updatedAt: '2026-11-24T10:00:00.000Z',
  updatedBy: 'admin',
});

describe('siteContentOf', () => {
  it('answers the content of a valid answer, as the schema does', () => {
    const edited = {
      ...defaultSiteContent,
      homepage: { ...defaultSiteContent.homepage, heroTitle: 'Coins for the 1st Cavalry' },
      products: { ...defaultSiteContent.products, coin: { ...defaultSiteContent.products.coin, basePrice: 13.37 } },
      features: { ...defaultSiteContent.features, aiGenerationEnabled: false },
    };
    for (const content of [defaultSiteContent, edited]) {
      const body = answer(content);
      expect(contentResponseSchema.safeParse(body).success).toBe(true);
      expect(siteContentOf(body)).toEqual(content);
    }
  });

  it('refuses answers the pages could not render, as the schema does', () => {
    const broken: unknown[] = [
      null,
      'ok',
      { ...answer(defaultSiteContent), success: false },
      answer(undefined),
      answer({ ...defaultSiteContent, homepage: { ...defaultSiteContent.homepage, heroTitle: 42 } }),
      answer({ ...defaultSiteContent, products: { coin: defaultSiteContent.products.coin } }),
      answer({
        ...defaultSiteContent,
        products: {
          ...defaultSiteContent.products,
          shirt: { ...defaultSiteContent.products.shirt, basePrice: '39.99' },
        },
      }),
      answer({
        ...defaultSiteContent,
        products: { ...defaultSiteContent.products, patch: { ...defaultSiteContent.products.patch, features: [1] } },
      }),
      answer({ ...defaultSiteContent, seo: { ...defaultSiteContent.seo, keywords: 'coins' } }),
      answer({ ...defaultSiteContent, contact: { ...defaultSiteContent.contact, phone: null } }),
      answer({ ...defaultSiteContent, features: { ...defaultSiteContent.features, liveChatEnabled: 'yes' } }),
    ];
    for (const body of broken) {
      expect(contentResponseSchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
      expect(siteContentOf(body), JSON.stringify(body)).toBeNull();
    }
  });

  it('refuses a wrong type in any one field of the content, as the schema does', () => {
    // Every field of the defaults in turn, replaced by null (no field of the content may be null).
    const leaves = (value: unknown, path: string[] = []): string[][] =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.entries(value).flatMap(([key, field]) => leaves(field, [...path, key]))
        : [path];
    const withNull = (value: unknown, [key, ...rest]: string[]): unknown =>
      key === undefined
        ? null
        : { ...(value as object), [key]: withNull((value as Record<string, unknown>)[key], rest) };
    const paths = leaves(defaultSiteContent);
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) {
      const body = answer(withNull(defaultSiteContent, path));
      expect(contentResponseSchema.safeParse(body).success, path.join('.')).toBe(false);
      expect(siteContentOf(body), path.join('.')).toBeNull();
    }
  });
});
