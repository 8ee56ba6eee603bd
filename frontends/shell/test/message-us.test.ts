import { contentResponseSchema, defaultSiteContent, sitePageMarkers } from '@shop/contracts';
import { describe, expect, it } from 'vitest';
import { liveChatSwitchOf, pageLiveChatSwitch } from '../src/layout/MessageUs.js';

// The shell reads one switch of GET /api/content/public by hand (no zod on first load): it must agree
// with the contracts' schema on what the content service answers.
describe('liveChatSwitchOf', () => {
  const answer = (liveChatEnabled: boolean) => ({
    success: true,
    content: { ...defaultSiteContent, features: { ...defaultSiteContent.features, liveChatEnabled } },
    version: 3,
    updatedAt: '2026-11-24T10:00:00.000Z',
    updatedBy: 'admin',
  });

  it.each([true, false])('reads liveChatEnabled = %s from a valid content answer', (on) => {
    const body = answer(on);
    expect(contentResponseSchema.parse(body).content.features.liveChatEnabled).toBe(on);
    expect(liveChatSwitchOf(body)).toBe(on);
  });

  it('answers null (keep what is shown) for anything without the switch', () => {
    for (const body of [null, undefined, 'ok', 42, [], {}, { content: null }, { content: { features: {} } }]) {
      expect(liveChatSwitchOf(body), JSON.stringify(body)).toBeNull();
    }
    expect(liveChatSwitchOf({ content: { features: { liveChatEnabled: 'yes' } } })).toBeNull();
  });

  it('reads the switch from the site content the gateway put into the page, null without it', () => {
    const page = (text: string | undefined) =>
      ({
        getElementById: (id: string) =>
          id === sitePageMarkers.contentElementId && text !== undefined ? { textContent: text } : null,
      }) as unknown as Pick<Document, 'getElementById'>;
    for (const on of [true, false]) {
      const content = { ...defaultSiteContent, features: { ...defaultSiteContent.features, liveChatEnabled: on } };
      expect(pageLiveChatSwitch(page(JSON.stringify(content)))).toBe(on);
    }
    expect(pageLiveChatSwitch(page(undefined))).toBeNull();
    expect(pageLiveChatSwitch(page('{not json'))).toBeNull();
    expect(pageLiveChatSwitch(page('{}'))).toBeNull();
    expect(pageLiveChatSwitch(undefined)).toBeNull();
  });
});
