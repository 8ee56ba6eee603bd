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

export interface CurrentSiteSettings {
  prices: PriceList;
  features: FeatureSwitches;
}

/**
 * How long a read copy is used before it is read again. The content.changed consumer that runs here
 * forgets the copy as soon as its change is committed; another replica of this service (the durable
 * consumer gives each event to one of them) sees the change within this time.
 */
export const siteSettingsReuseMs = 1000;

const copies = new WeakMap<Connection, { readAt: number; settings: Promise<CurrentSiteSettings> }>();

/** The price list and switches in force now (read at most once a second; every quote request needs them). */
export function currentSiteSettings(connection: Connection): Promise<CurrentSiteSettings> {
  const held = copies.get(connection);
  if (held && Date.now() - held.readAt < siteSettingsReuseMs) return held.settings;
  const settings = readSiteSettings(connection);
  const copy = { readAt: Date.now(), settings };
  copies.set(connection, copy);
  // A failed read is not kept: the next call reads again.
  settings.catch(() => {
    if (copies.get(connection) === copy) copies.delete(connection);
  });
  return settings;
}

/** Drops the copy (after a change was committed): the next call reads the database. */
export function forgetSiteSettings(connection: Connection): void {
  copies.delete(connection);
}

async function readSiteSettings(connection: Connection): Promise<CurrentSiteSettings> {
  const doc = await siteSettingsModel(connection).findById(siteSettingsId).lean<SiteSettingsDoc>();
  return {
    prices: { ...defaultPriceList, ...doc?.prices },
    features: { ...defaultSiteContent.features, ...doc?.features },
  };
}
