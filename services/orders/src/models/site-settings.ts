// The orders service's copy of the site content it enforces (content.changed from marketing): the price
// list new quote requests are estimated with, and the feature switches its routes obey. One document,
// _id 'content'; only a newer version replaces it. Before any event: the catalog prices, every switch on
// as in the defaults.
import { Schema, type Connection, type Model } from 'mongoose';
import { defaultPriceList, defaultSiteContent, type FeatureSwitches, type PriceList } from '@shop/contracts';

export interface SiteSettingsDoc {
  _id: string;
  version: number;
  prices: PriceList;
  features: FeatureSwitches;
  changedAt: Date;
}

const siteSettingsSchema = new Schema<SiteSettingsDoc>(
  {
    _id: { type: String, required: true },
    version: { type: Number, required: true },
    prices: { type: Schema.Types.Mixed, required: true },
    features: { type: Schema.Types.Mixed, required: true },
    changedAt: { type: Date, required: true },
  },
  { collection: 'site_settings', versionKey: false, minimize: false },
);

export const siteSettingsId = 'content';

/** The model on this connection (made once; routes and the consumer share it). */
export function siteSettingsModel(connection: Connection): Model<SiteSettingsDoc> {
  return (
    (connection.models.SiteSettings as Model<SiteSettingsDoc> | undefined) ??
    connection.model<SiteSettingsDoc>('SiteSettings', siteSettingsSchema)
  );
}

/** The price list and switches in force now. */
export async function currentSiteSettings(
  connection: Connection,
): Promise<{ prices: PriceList; features: FeatureSwitches }> {
  const doc = await siteSettingsModel(connection).findById(siteSettingsId).lean<SiteSettingsDoc>();
  return {
    prices: { ...defaultPriceList, ...doc?.prices },
    features: { ...defaultSiteContent.features, ...doc?.features },
  };
}
