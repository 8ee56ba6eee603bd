// Banned addresses and ranges (spec §3 Banned IP). An unban deletes the document (spec §4: banned to
// removed); an expired ban stays until a sweep-free TTL removes it a day later, and is ignored meanwhile.
import { Schema, type Connection } from 'mongoose';

export interface BanDoc {
  _id: string;
  /** Canonical address or CIDR range. */
  ip: string;
  reason: string;
  bannedDate: Date;
  expiresAt: Date | null;
  bannedBy: string;
  /** expiresAt plus a day for the TTL index (permanent bans: none). */
  removeAt: Date | null;
}

const banSchema = new Schema<BanDoc>(
  {
    _id: { type: String, required: true },
    ip: { type: String, required: true },
    reason: { type: String, required: true },
    bannedDate: { type: Date, required: true },
    expiresAt: { type: Date, default: null },
    bannedBy: { type: String, required: true },
    removeAt: { type: Date, default: null },
  },
  { collection: 'banned_ips', versionKey: false, _id: false },
);
banSchema.index({ ip: 1 });
banSchema.index({ bannedDate: -1 });
banSchema.index({ removeAt: 1 }, { expireAfterSeconds: 0 });

export function banModel(connection: Connection) {
  return connection.model<BanDoc>('Ban', banSchema);
}
