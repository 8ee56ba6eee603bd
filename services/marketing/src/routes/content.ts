// Site content (back office part B §2.1, §7): the admin calls GET/PUT /api/content, POST /api/content/reset,
// the version history and a restore; and the storefront's public, cacheable read GET /api/content/public.
// The gateway lets the admin calls through only with an admin session (its signed token names the admin).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  contentMessages,
  contentPaths,
  contentResponseSchema,
  contentVersionsResponseSchema,
  defaultSiteContent,
  priceListOf,
  siteContentSchema,
  type ContentAction,
  type SiteContent,
} from '@shop/contracts';
import { adminActor, conflict, notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import {
  contentVersionView,
  siteContentId,
  type ContentModels,
  type ContentVersionDoc,
  type SiteContentDoc,
} from '../models/content.js';
import { errors } from './admin/common.js';

const tags = ['site content'];
/** The storefront re-reads within seconds of a change; the ETag makes most of those reads a 304. */
const publicCacheControl = 'public, max-age=5, must-revalidate';
const versionsShown = 50;

export function registerContentRoutes(app: ServiceApp, ctx: ServiceContext<ContentModels>) {
  const { SiteContent, ContentVersion } = ctx.models;

  async function current() {
    const doc = await SiteContent.findById(siteContentId).lean<SiteContentDoc>();
    return doc
      ? {
          success: true as const,
          content: doc.content,
          version: doc.version,
          updatedAt: doc.updatedAt.toISOString(),
          updatedBy: doc.updatedBy,
        }
      : { success: true as const, content: defaultSiteContent, version: 0, updatedAt: null, updatedBy: null };
  }

  /** One new version: the current document, its history entry and content.changed, in one transaction. */
  async function write(content: SiteContent, action: ContentAction, by: string, restoredFrom: number | null = null) {
    const saved = await ctx.withOutbox(async (session, outbox) => {
      const previous = await SiteContent.findById(siteContentId).session(session).lean<SiteContentDoc>();
      const version = (previous?.version ?? 0) + 1;
      const now = new Date();
      if (previous) {
        const moved = await SiteContent.updateOne(
          { _id: siteContentId, version: previous.version },
          { $set: { content, version, updatedAt: now, updatedBy: by } },
          { session },
        );
        if (moved.modifiedCount !== 1)
          throw conflict('The content was changed by someone else at the same moment: reload it and try again.');
      } else {
        await SiteContent.create([{ _id: siteContentId, content, version, updatedAt: now, updatedBy: by }], {
          session,
        });
      }
      await ContentVersion.create([{ version, action, restoredFrom, content, savedBy: by, savedAt: now }], { session });
      outbox.add('content.changed', {
        version,
        prices: priceListOf(content),
        features: content.features,
        changedBy: by,
        changedAt: now.toISOString(),
      });
      return { version, now };
    });
    ctx.log.info({ version: saved.version, action, admin: by, restoredFrom }, 'site content changed');
    return {
      success: true as const,
      content,
      version: saved.version,
      updatedAt: saved.now.toISOString(),
      updatedBy: by,
    };
  }

  app.get(
    contentPaths.public,
    {
      schema: {
        tags,
        summary: 'The site content the storefront renders (public; ETag, cached for a few seconds)',
        response: { 200: contentResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await current();
      const etag = `"${createHash('sha256')
        .update(JSON.stringify([answer.version, answer.content]))
        .digest('base64url')
        .slice(0, 27)}"`;
      reply.header('etag', etag).header('cache-control', publicCacheControl);
      const asked = request.headers['if-none-match'];
      if (asked && asked.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
        return reply.status(304).send(undefined as never); // a 304 has no body (the typed reply expects the 200 one)
      return answer;
    },
  );

  app.get(
    contentPaths.admin,
    {
      schema: {
        tags,
        summary: 'The site content to edit (the defaults until the first save)',
        response: { 200: contentResponseSchema, ...errors },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return current();
    },
  );

  app.put(
    contentPaths.admin,
    {
      schema: {
        tags,
        summary:
          'Save the whole content object (validated); kept as a new version with who and when; answers the saved content',
        body: siteContentSchema,
        response: { 200: contentResponseSchema, ...errors },
      },
    },
    async (request) => write(request.body, 'save', adminActor(request)),
  );

  app.post(
    contentPaths.reset,
    {
      schema: {
        tags,
        summary: "Replace the content with the server's defaults (kept as a new version)",
        response: { 200: contentResponseSchema, ...errors },
      },
    },
    async (request) => write(defaultSiteContent, 'reset', adminActor(request)),
  );

  app.get(
    contentPaths.versions,
    {
      schema: {
        tags,
        summary: `The last ${versionsShown} versions, newest first`,
        response: { 200: contentVersionsResponseSchema, ...errors },
      },
    },
    async () => {
      const versions = await ContentVersion.find({}, { content: 0 })
        .sort({ version: -1 })
        .limit(versionsShown)
        .lean<ContentVersionDoc[]>();
      return { success: true as const, versions: versions.map(contentVersionView) };
    },
  );

  app.post(
    `${contentPaths.versions}/:id/restore`,
    {
      schema: {
        tags,
        summary: 'Bring back an earlier version: its content becomes a new version',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: contentResponseSchema, ...errors },
      },
    },
    async (request) => {
      const old = await ContentVersion.findById(request.params.id).lean<ContentVersionDoc>();
      if (!old) throw notFound(contentMessages.versionNotFound);
      // A version saved before a field existed still parses: the defaults fill what it lacks.
      const content = siteContentSchema.parse(withDefaults(old.content));
      return write(content, 'restore', adminActor(request), old.version);
    },
  );
}

function withDefaults(content: Partial<SiteContent>): SiteContent {
  const d = defaultSiteContent;
  return {
    homepage: { ...d.homepage, ...content.homepage },
    products: { ...d.products, ...content.products },
    seo: { ...d.seo, ...content.seo },
    contact: { ...d.contact, ...content.contact },
    features: { ...d.features, ...content.features },
  };
}
