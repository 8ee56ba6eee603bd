// The two bookkeeping collections every service database has: `outbox` (events written with the change
// that caused them, waiting to be published) and `processed_events` (event ids a consumer has acted on).
import { Schema, type Connection, type Model } from 'mongoose';

export interface OutboxDoc {
  _id: string; // the event id, also the JetStream message id
  type: string;
  /** The envelope as published. Removed right after publishing when the event carries a secret. */
  event?: Record<string, unknown>;
  /** The event carries a secret in clear (see `eventsWithSecrets`): its body is not kept once sent. */
  secret?: boolean;
  traceHeaders: Record<string, string>;
  status: 'pending' | 'sent';
  attempts: number;
  nextAttemptAt: Date;
  lastError?: string;
  createdAt: Date;
  sentAt?: Date;
}

export interface ProcessedEventDoc {
  _id: string; // the event id
  type: string;
  consumer: string;
  processedAt: Date;
}

const sentEventRetentionSeconds = 7 * 24 * 3600;
// Longer than the longest stream retention (30 days), so any redelivery still finds its record.
const processedRetentionSeconds = 35 * 24 * 3600;

const outboxSchema = new Schema<OutboxDoc>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    // Not required: a sent event that carried a secret keeps only its id, type and status.
    event: { type: Schema.Types.Mixed },
    secret: { type: Boolean },
    traceHeaders: { type: Schema.Types.Mixed, default: {} },
    status: { type: String, enum: ['pending', 'sent'], required: true, default: 'pending' },
    attempts: { type: Number, default: 0 },
    nextAttemptAt: { type: Date, required: true },
    lastError: { type: String },
    createdAt: { type: Date, required: true },
    sentAt: { type: Date },
  },
  { collection: 'outbox', versionKey: false, minimize: false, _id: false },
);
outboxSchema.index({ status: 1, createdAt: 1 });
outboxSchema.index({ sentAt: 1 }, { expireAfterSeconds: sentEventRetentionSeconds });

const processedSchema = new Schema<ProcessedEventDoc>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    consumer: { type: String, required: true },
    processedAt: { type: Date, required: true },
  },
  { collection: 'processed_events', versionKey: false, _id: false },
);
processedSchema.index({ processedAt: 1 }, { expireAfterSeconds: processedRetentionSeconds });

export function outboxModel(connection: Connection): Model<OutboxDoc> {
  return (
    (connection.models.OutboxEvent as Model<OutboxDoc>) ?? connection.model<OutboxDoc>('OutboxEvent', outboxSchema)
  );
}

export function processedEventModel(connection: Connection): Model<ProcessedEventDoc> {
  return (
    (connection.models.ProcessedEvent as Model<ProcessedEventDoc>) ??
    connection.model<ProcessedEventDoc>('ProcessedEvent', processedSchema)
  );
}
