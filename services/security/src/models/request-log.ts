// Request log entries as the gateways reported them. Kept for the retention (SECURITY_LOG_RETENTION_DAYS,
// default 30) by a TTL index that start-up brings to the configured length (ensureLogRetention).
import { Schema, type Connection } from 'mongoose';
import type { RequestSignal, RiskLevel } from '@shop/contracts';

export interface RequestLogDoc {
  _id: string;
  timestamp: Date;
  ip: string;
  method: string;
  path: string;
  userAgent: string;
  statusCode: number;
  responseTime: number;
  riskLevel: RiskLevel;
  signals: RequestSignal[];
  requestId: string | null;
  gateway: string;
}

const requestLogSchema = new Schema<RequestLogDoc>(
  {
    _id: { type: String, required: true },
    timestamp: { type: Date, required: true },
    ip: { type: String, required: true },
    method: { type: String, required: true },
    path: { type: String, required: true },
    userAgent: { type: String, default: '' },
    statusCode: { type: Number, required: true },
    responseTime: { type: Number, required: true },
    riskLevel: { type: String, required: true },
    signals: { type: [String], default: [] },
    requestId: { type: String, default: null },
    gateway: { type: String, required: true },
  },
  { collection: 'request_logs', versionKey: false, _id: false },
);
// The three ways the logs tab reads: newest, newest of one address, newest of one risk level.
requestLogSchema.index({ timestamp: -1 });
requestLogSchema.index({ ip: 1, timestamp: -1 });
requestLogSchema.index({ riskLevel: 1, timestamp: -1 });

export const retentionIndexName = 'request_log_retention';

export function requestLogModel(connection: Connection) {
  return connection.model<RequestLogDoc>('RequestLog', requestLogSchema);
}

/**
 * The TTL index with the configured retention: created when missing, changed in place (collMod) when
 * the retention changed, so a new SECURITY_LOG_RETENTION_DAYS needs no manual index work.
 */
export async function ensureLogRetention(model: ReturnType<typeof requestLogModel>, seconds: number) {
  const indexes = (await model.collection.indexes()) as Array<{ name?: string; expireAfterSeconds?: number }>;
  const current = indexes.find((i) => i.name === retentionIndexName);
  if (!current) {
    await model.collection.createIndex({ timestamp: 1 }, { name: retentionIndexName, expireAfterSeconds: seconds });
  } else if (current.expireAfterSeconds !== seconds) {
    await model.db.db!.command({
      collMod: model.collection.collectionName,
      index: { name: retentionIndexName, expireAfterSeconds: seconds },
    });
  }
}
