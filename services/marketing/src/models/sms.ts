// SMS templates and the SMS messages they produce. A message is queued inside the consumer's
// transaction (its dedupeKey `<event id>:<template id>` is unique, so one event sends one SMS per
// template), then the SMS sender job hands it to the provider (Twilio, or the local dev outbox).
import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import { smsMessageStatuses, smsTriggers, type SmsMessage, type SmsTemplate, type SmsTrigger } from '@shop/contracts';

export interface SmsTemplateDoc {
  _id: string;
  name: string;
  content: string;
  trigger: SmsTrigger;
  isActive: boolean;
  usageCount: number;
  createdAt: Date;
  updatedAt: Date;
}

const smsTemplateSchema = new Schema<SmsTemplateDoc>(
  {
    _id: { type: String, default: () => randomUUID() },
    name: { type: String, required: true },
    content: { type: String, required: true },
    trigger: { type: String, enum: smsTriggers, required: true },
    isActive: { type: Boolean, default: true },
    usageCount: { type: Number, default: 0 },
  },
  { collection: 'sms_templates', timestamps: true },
);
smsTemplateSchema.index({ trigger: 1, isActive: 1 });

export interface SmsMessageDoc {
  _id: string;
  dedupeKey: string;
  templateId: string;
  templateName: string;
  trigger: SmsTrigger;
  to: string;
  body: string;
  status: (typeof smsMessageStatuses)[number];
  provider: 'twilio' | 'dev_outbox' | null;
  providerId: string | null;
  error: string | null;
  attempts: number;
  lockedUntil: Date | null;
  sentAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const smsMessageSchema = new Schema<SmsMessageDoc>(
  {
    _id: { type: String, default: () => randomUUID() },
    dedupeKey: { type: String, required: true },
    templateId: { type: String, required: true },
    templateName: { type: String, required: true },
    trigger: { type: String, enum: smsTriggers, required: true },
    to: { type: String, required: true },
    body: { type: String, required: true },
    status: { type: String, enum: smsMessageStatuses, default: 'queued' },
    provider: { type: String, enum: ['twilio', 'dev_outbox', null], default: null },
    providerId: { type: String, default: null },
    error: { type: String, default: null },
    attempts: { type: Number, default: 0 },
    lockedUntil: { type: Date, default: null },
    sentAt: { type: Date, default: null },
  },
  { collection: 'sms_messages', timestamps: true },
);
smsMessageSchema.index({ dedupeKey: 1 }, { unique: true });
smsMessageSchema.index({ status: 1, createdAt: 1 });
smsMessageSchema.index({ createdAt: -1 });

export function smsModels(connection: Connection) {
  return {
    SmsTemplate: connection.model<SmsTemplateDoc>('SmsTemplate', smsTemplateSchema),
    SmsMessage: connection.model<SmsMessageDoc>('SmsMessage', smsMessageSchema),
  };
}

export function smsTemplateView(doc: SmsTemplateDoc): SmsTemplate {
  return {
    id: doc._id,
    name: doc.name,
    content: doc.content,
    trigger: doc.trigger,
    isActive: doc.isActive,
    usageCount: doc.usageCount ?? 0,
    createdDate: new Date(doc.createdAt).toISOString(),
  };
}

export function smsMessageView(doc: SmsMessageDoc): SmsMessage {
  return {
    id: doc._id,
    to: doc.to,
    body: doc.body,
    trigger: doc.trigger,
    templateName: doc.templateName,
    status: doc.status,
    provider: doc.provider ?? null,
    error: doc.error ?? null,
    createdAt: new Date(doc.createdAt).toISOString(),
    sentAt: doc.sentAt ? new Date(doc.sentAt).toISOString() : null,
  };
}
