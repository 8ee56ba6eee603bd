// Hourly counters behind the dashboard, so it reads at most 24 small documents (plus one per risky
// address and hour) however many log entries are stored. Kept two days (TTL).
import { Schema, type Connection } from 'mongoose';

export interface HourlyStatsDoc {
  _id: Date; // start of the hour
  total: number;
  suspicious: number;
  errors: number;
  dropped: number;
  expiresAt: Date;
}

export interface AddressHourDoc {
  _id: string; // `<hour ISO>|<ip>`
  hour: Date;
  ip: string;
  count: number;
  suspicious: number;
  highRisk: number;
  expiresAt: Date;
}

export const statsKeepMs = 48 * 3_600_000;

const hourlySchema = new Schema<HourlyStatsDoc>(
  {
    _id: { type: Date, required: true },
    total: { type: Number, default: 0 },
    suspicious: { type: Number, default: 0 },
    errors: { type: Number, default: 0 },
    dropped: { type: Number, default: 0 },
    expiresAt: { type: Date, required: true },
  },
  // `errors` is the spec's own word for the trend's third series.
  { collection: 'request_stats_hourly', versionKey: false, _id: false, suppressReservedKeysWarning: true },
);
hourlySchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

const addressHourSchema = new Schema<AddressHourDoc>(
  {
    _id: { type: String, required: true },
    hour: { type: Date, required: true },
    ip: { type: String, required: true },
    count: { type: Number, default: 0 },
    suspicious: { type: Number, default: 0 },
    highRisk: { type: Number, default: 0 },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'request_stats_address_hourly', versionKey: false, _id: false },
);
// The dashboard's top risky addresses: only hours with suspicious requests, newest hours.
addressHourSchema.index({ hour: -1, suspicious: -1 });
addressHourSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export function requestStatsModels(connection: Connection) {
  return {
    HourlyStats: connection.model<HourlyStatsDoc>('HourlyStats', hourlySchema),
    AddressHour: connection.model<AddressHourDoc>('AddressHour', addressHourSchema),
  };
}
