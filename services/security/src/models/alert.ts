// Security alerts (spec §3). One open alert per rule and address: a unique index over (type, ip) of the
// unresolved ones, so two replicas raising the same alert at once end with one that counts both.
import { Schema, type Connection } from 'mongoose';
import type { AlertSeverity } from '@shop/contracts';

export interface AlertDoc {
  _id: string;
  type: string;
  ip: string;
  description: string;
  severity: AlertSeverity;
  timestamp: Date;
  lastSeenAt: Date;
  count: number;
  resolved: boolean;
  resolvedBy: string | null;
  resolvedAt: Date | null;
}

const alertSchema = new Schema<AlertDoc>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    ip: { type: String, default: '' },
    description: { type: String, required: true },
    severity: { type: String, required: true },
    timestamp: { type: Date, required: true },
    lastSeenAt: { type: Date, required: true },
    count: { type: Number, default: 1 },
    resolved: { type: Boolean, default: false },
    resolvedBy: { type: String, default: null },
    resolvedAt: { type: Date, default: null },
  },
  { collection: 'security_alerts', versionKey: false, _id: false },
);
alertSchema.index(
  { type: 1, ip: 1 },
  { unique: true, partialFilterExpression: { resolved: false }, name: 'one_open_alert_per_rule_and_address' },
);
alertSchema.index({ resolved: 1, timestamp: -1 });
alertSchema.index({ timestamp: -1 });

export function alertModel(connection: Connection) {
  return connection.model<AlertDoc>('SecurityAlert', alertSchema);
}
