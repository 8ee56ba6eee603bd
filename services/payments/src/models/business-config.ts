// The business registration (admin part A §3 Business config): one document, `_id: 'business'`, replaced
// whole by an administrator's save. Until the first save the shop has none (blank fields, country US).
import { Schema, type Connection, type Model } from 'mongoose';
import { businessConfigSchema, type BusinessConfig } from '@shop/contracts';

export const businessConfigId = 'business';

export interface BusinessConfigDoc extends BusinessConfig {
  _id: string;
  /** The admin who saved it last (the email signedInAdmin reads from the gateway's token), for the record. */
  updatedBy: string | null;
}

// Stored as the contract's shape; reads go back through the zod schema, so an older document gains the
// fields added since with their defaults.
const schema = new Schema<BusinessConfigDoc>(
  {
    _id: { type: String, required: true },
    businessName: String,
    legalName: String,
    ein: String,
    businessAddress: { type: Schema.Types.Mixed },
    taxPermits: { type: Schema.Types.Mixed, default: [] },
    businessLicenses: { type: Schema.Types.Mixed, default: [] },
    updatedBy: { type: String, default: null },
  },
  { collection: 'business_config', timestamps: true, minimize: false },
);

export function businessConfigModel(connection: Connection): Model<BusinessConfigDoc> {
  return (
    (connection.models.BusinessConfig as Model<BusinessConfigDoc>) ??
    connection.model<BusinessConfigDoc>('BusinessConfig', schema)
  );
}

export async function currentBusinessConfig(BusinessConfigModel: Model<BusinessConfigDoc>): Promise<BusinessConfig> {
  const saved = await BusinessConfigModel.findById(businessConfigId).lean();
  const {
    _id,
    updatedBy: _updatedBy,
    ...fields
  } = (saved ?? {}) as Partial<BusinessConfigDoc> & Record<string, unknown>;
  delete fields.createdAt;
  delete fields.updatedAt;
  return businessConfigSchema.parse(fields);
}
