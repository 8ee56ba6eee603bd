// content.changed (marketing): keeps the local copy of the price list and feature switches. Events may
// arrive twice or out of order; only a newer version replaces the copy. A price change reaches new quote
// requests only: a submitted order keeps the estimate it was made with. The routes keep a copy in
// memory (models/site-settings.ts), forgotten here once a change is committed.
import type { Connection } from 'mongoose';
import { consumeEvent } from '@shop/service-kit';
import { forgetSiteSettings, siteSettingsId, siteSettingsModel } from '../models/site-settings.js';

export function contentChangedConsumer(connection: Connection) {
  const SiteSettings = siteSettingsModel(connection);
  return consumeEvent('content.changed', async (event, { session, afterCommit }) => {
    const { version, prices, features, changedAt } = event.data;
    // The routes' in-memory copy goes once this change is committed.
    afterCommit(() => forgetSiteSettings(connection));
    const held = await SiteSettings.findById(siteSettingsId, { version: 1 })
      .session(session)
      .lean<{ version: number }>();
    if (held && held.version >= version) return;
    const fields = { version, prices, features, changedAt: new Date(changedAt) };
    if (held)
      await SiteSettings.updateOne({ _id: siteSettingsId, version: held.version }, { $set: fields }, { session });
    else await SiteSettings.create([{ _id: siteSettingsId, ...fields }], { session });
  });
}
