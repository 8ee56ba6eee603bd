// The site content: one current document (`site_content`, _id 'site') and every saved version
// (`content_versions`). A save, a reset and a restore each write a new version with who and when, in the
// same transaction as the current document and the content.changed event (outbox). The version number
// only grows (a conditional update on the previous one), so two admins saving at once cannot both win.
import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import type { ContentAction, ContentVersion, SiteContent } from '@shop/contracts';

export const siteContentId = 'site';

export interface SiteContentDoc {
  _id: string;
  content: SiteContent;
  version: number;
  updatedAt: Date;
  updatedBy: string;
}

export interface ContentVersionDoc {
  _id: string;
  version: number;
  action: ContentAction;
  restoredFrom: number | null;
  content: SiteContent;
  savedBy: string;
  savedAt: Date;
}

const siteContentSchema = new Schema<SiteContentDoc>(
  {
    _id: { type: String, required: true },
    // The contracts schema validates it before it gets here; stored as given.
    content: { type: Schema.Types.Mixed, required: true },
    version: { type: Number, required: true, min: 1 },
    updatedAt: { type: Date, required: true },
    updatedBy: { type: String, required: true },
  },
  { collection: 'site_content', versionKey: false, minimize: false },
);

const contentVersionSchema = new Schema<ContentVersionDoc>(
  {
    _id: { type: String, default: () => randomUUID() },
    version: { type: Number, required: true },
    action: { type: String, enum: ['save', 'reset', 'restore'], required: true },
    restoredFrom: { type: Number, default: null },
    content: { type: Schema.Types.Mixed, required: true },
    savedBy: { type: String, required: true },
    savedAt: { type: Date, required: true },
  },
  { collection: 'content_versions', versionKey: false, minimize: false },
);
contentVersionSchema.index({ version: -1 }, { unique: true });

export function contentModels(connection: Connection) {
  return {
    SiteContent: connection.model<SiteContentDoc>('SiteContent', siteContentSchema),
    ContentVersion: connection.model<ContentVersionDoc>('ContentVersion', contentVersionSchema),
  };
}
export type ContentModels = ReturnType<typeof contentModels>;

export function contentVersionView(d: ContentVersionDoc): ContentVersion {
  return {
    id: d._id,
    version: d.version,
    action: d.action,
    restoredFrom: d.restoredFrom ?? null,
    savedBy: d.savedBy,
    savedAt: new Date(d.savedAt).toISOString(),
  };
}
