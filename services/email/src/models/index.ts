// The email service's collections: the durable email queue and the admin notification settings.
import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { emailStatuses, emailTemplates } from '@shop/contracts';

const emailSchema = new Schema(
  {
    to: { type: String, required: true },
    subject: { type: String, required: true },
    html: { type: String, required: true },
    text: { type: String, required: true },
    template: { type: String, enum: emailTemplates, required: true },
    status: { type: String, enum: emailStatuses, default: 'queued' },
    attempts: { type: Number, default: 0 },
    maxAttempts: { type: Number, required: true },
    /** When a worker may (re)try it; a worker claims only due emails. */
    nextAttemptAt: { type: Date, required: true },
    /** While `sending`: the claim's lease. A worker that died mid-send lets another take over after it. */
    lockedUntil: { type: Date, default: null },
    /** While `sending`: the claim (one worker's batch) that holds it; how a worker finds what it just claimed. */
    claimId: { type: String, default: null },
    lastError: { type: String, default: null },
    orderId: { type: String, default: null },
    orderNumber: { type: String, default: null },
    /** The event that asked for this email. */
    sourceEventId: { type: String, default: null },
    /**
     * `<sourceEventId>:<template>`, unique: one event makes each of its emails once (order.created makes
     * two: the customer's confirmation and the admin's notification).
     */
    dedupeKey: { type: String, required: true, unique: true },
    emailRecordId: { type: String, default: null },
    /** A campaign email: its campaign and subscriber (echoed in email.sent / email.failed for marketing). */
    campaignId: { type: String, default: null },
    subscriberId: { type: String, default: null },
    /** Extra headers of this email (a campaign's List-Unsubscribe and List-Unsubscribe-Post). */
    headers: { type: Schema.Types.Mixed, default: null },
    sentAt: { type: Date, default: null },
    failedAt: { type: Date, default: null },
    smtpMessageId: { type: String, default: null },
  },
  { collection: 'emails', timestamps: true },
);
emailSchema.index({ status: 1, nextAttemptAt: 1 });
emailSchema.index({ sourceEventId: 1 });
export type EmailDoc = InferSchemaType<typeof emailSchema> & { _id: import('mongoose').Types.ObjectId };

const adminSettingsSchema = new Schema(
  {
    /** One document, `_id: 'admin'`. */
    _id: { type: String, required: true },
    notificationEmail: { type: String, required: true },
    emailNotificationsEnabled: { type: Boolean, default: true },
  },
  { collection: 'admin_settings', timestamps: true },
);

export function registerModels(connection: Connection) {
  return {
    Email: connection.model('Email', emailSchema),
    AdminSettings: connection.model('AdminSettings', adminSettingsSchema),
  };
}
export type EmailModels = ReturnType<typeof registerModels>;
