// The contact config: one document, `_id: 'contact'`, written by an administrator's save (until then the
// defaults from the environment apply).
import { Schema } from 'mongoose';

export const contactConfigSchema = new Schema(
  {
    _id: { type: String, required: true },
    supportEmail: { type: String, required: true },
    supportPhone: { type: String, default: '' },
    showPhone: { type: Boolean, default: false },
    supportHours: {
      weekday: { type: String, default: '' },
      weekend: { type: String, default: '' },
      showHours: { type: Boolean, default: false },
    },
    /** The admin who saved it last (the email signedInAdmin reads from the gateway's token), for the record. */
    updatedBy: { type: String, default: null },
  },
  { collection: 'contact_config', timestamps: true },
);
