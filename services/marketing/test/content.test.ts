// Site content: validation, save as a version with who and when, reset, restore, the public cacheable
// read, and content.changed published through the outbox (real MongoDB and nats-server).
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contentMessages,
  defaultSiteContent,
  type ContentResponse,
  type ContentVersionsResponse,
  type ErrorEnvelope,
  type SiteContent,
} from '@shop/contracts';
import { call, eventually, startInfra, startMarketing, type MarketingService } from './support/harness.js';

let infra: Awaited<ReturnType<typeof startInfra>>;
let service: MarketingService;

beforeAll(async () => {
  infra = await startInfra();
  service = await startMarketing(infra);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await Promise.all([infra?.mongo.stop(), infra?.nats.stop()]);
});

const edited = (): SiteContent => structuredClone(defaultSiteContent);

async function lastContentChanged() {
  const jsm = await jetstreamManager(service.ctx.bus.connection!);
  const msg = await jsm.streams.getMessage('MARKETING', { last_by_subj: 'content.changed' });
  return msg
    ? msg.json<{
        data: { version: number; prices: Record<string, number>; features: SiteContent['features']; changedBy: string };
      }>()
    : null;
}

describe('site content', () => {
  it('answers the defaults (the shop texts and catalog prices) before the first save', async () => {
    const res = await call<ContentResponse>(service, 'GET', '/api/content');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, version: 0, updatedBy: null });
    expect(res.body.content.products.coin.basePrice).toBe(25.99);
    expect(res.body.content.homepage.heroTitle).toBe(defaultSiteContent.homepage.heroTitle);
  });

  it('refuses an invalid object with a 400 naming the field, and saves nothing', async () => {
    const badPrice = edited();
    badPrice.products.patch.basePrice = -1;
    let res = await call(service, 'PUT', '/api/content', badPrice);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('basePrice must be at least 0');

    const badEmail = edited();
    badEmail.contact.email = 'not-an-email';
    res = await call(service, 'PUT', '/api/content', badEmail);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('contact email must be a valid email address');

    const { seo: _seo, ...noSeo } = edited();
    res = await call(service, 'PUT', '/api/content', noSeo);
    expect(res.status).toBe(400);

    const emptyTitle = edited();
    emptyTitle.homepage.heroTitle = '   ';
    res = await call(service, 'PUT', '/api/content', emptyTitle);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('heroTitle is required');

    expect((await call<ContentResponse>(service, 'GET', '/api/content')).body.version).toBe(0);
  });

  it('saves the whole object as a version with who and when, publishes content.changed, resets and restores', async () => {
    const first = edited();
    first.homepage.heroTitle = 'Coins for every unit';
    first.products.coin.basePrice = 31.5;
    first.features.aiGenerationEnabled = false;
    const saved = await call<ContentResponse>(service, 'PUT', '/api/content', first);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ success: true, version: 1, updatedBy: 'admin:ops@shop.local' });
    expect(saved.body.content.homepage.heroTitle).toBe('Coins for every unit');
    expect((await call<ContentResponse>(service, 'GET', '/api/content')).body.content.products.coin.basePrice).toBe(
      31.5,
    );

    await eventually(async () => (await lastContentChanged())?.data.version === 1);
    const event = await lastContentChanged();
    expect(event!.data).toMatchObject({
      version: 1,
      prices: { coin: 31.5, patch: 12.99, shirt: 39.99 },
      changedBy: 'admin:ops@shop.local',
    });
    expect(event!.data.features.aiGenerationEnabled).toBe(false);

    const reset = await call<ContentResponse>(service, 'POST', '/api/content/reset');
    expect(reset.status).toBe(200);
    expect(reset.body.version).toBe(2);
    expect(reset.body.content).toEqual(defaultSiteContent);

    const versions = await call<ContentVersionsResponse>(service, 'GET', '/api/content/versions');
    expect(versions.status).toBe(200);
    expect(versions.body.versions.map((v) => [v.version, v.action])).toEqual([
      [2, 'reset'],
      [1, 'save'],
    ]);
    expect(versions.body.versions[1].savedBy).toBe('admin:ops@shop.local');
    expect(Date.parse(versions.body.versions[1].savedAt)).toBeGreaterThan(Date.now() - 60_000);

    const restored = await call<ContentResponse>(
      service,
      'POST',
      `/api/content/versions/${versions.body.versions[1].id}/restore`,
    );
    expect(restored.status).toBe(200);
    expect(restored.body.version).toBe(3);
    expect(restored.body.content.homepage.heroTitle).toBe('Coins for every unit');
    expect(restored.body.content.products.coin.basePrice).toBe(31.5);
    const after = await call<ContentVersionsResponse>(service, 'GET', '/api/content/versions');
    expect(after.body.versions[0]).toMatchObject({ version: 3, action: 'restore', restoredFrom: 1 });
    await eventually(async () => (await lastContentChanged())?.data.version === 3);

    const missing = await call<ErrorEnvelope>(service, 'POST', '/api/content/versions/no-such-version/restore');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(contentMessages.versionNotFound);
  });

  it('serves a public, cacheable read with an ETag that changes with the content', async () => {
    const first = await service.app.inject({ method: 'GET', url: '/api/content/public' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=5, must-revalidate');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await service.app.inject({
      method: 'GET',
      url: '/api/content/public',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);

    const next = edited();
    next.homepage.tagline = 'Made for your unit';
    expect((await call(service, 'PUT', '/api/content', next)).status).toBe(200);
    const changed = await service.app.inject({
      method: 'GET',
      url: '/api/content/public',
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<ContentResponse>().content.homepage.tagline).toBe('Made for your unit');
    expect(changed.headers.etag).not.toBe(etag);
  });
});
