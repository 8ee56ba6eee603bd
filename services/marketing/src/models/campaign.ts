// Email campaigns and their deliveries. A delivery is one (campaign, subscriber) pair, created in the
// same transaction as the batch event that hands it to the email service: its _id makes a second one
// impossible, and its random token signs that email's open image, click links and unsubscribe link.
// Counters on the campaign move only when a delivery's state changes (conditional updates), so an
// event delivered twice or a second click never counts twice.
import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import {
  campaignStatuses,
  campaignTypes,
  ratePercent,
  type Campaign,
  type CampaignStatus,
  type CampaignType,
} from '@shop/contracts';

export interface CampaignDoc {
  _id: string;
  name: string;
  subject: string;
  content: string;
  type: CampaignType;
  status: CampaignStatus;
  recipients: number;
  sent: number;
  failed: number;
  opens: number;
  clicks: number;
  tags: string[];
  scheduledDate: Date | null;
  sentDate: Date | null;
  /** Sending: the last subscriber _id handed to the email service (the walk resumes after it). */
  cursor: string | null;
  /** Sending: every batch has been handed over; the campaign is sent once each delivery is settled. */
  queuedAll: boolean;
  batches: number;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

const campaignSchema = new Schema<CampaignDoc>(
  {
    _id: { type: String, default: () => randomUUID() },
    name: { type: String, required: true },
    subject: { type: String, required: true },
    content: { type: String, required: true },
    type: { type: String, enum: campaignTypes, required: true },
    status: { type: String, enum: campaignStatuses, default: 'draft' },
    recipients: { type: Number, default: 0 },
    sent: { type: Number, default: 0 },
    failed: { type: Number, default: 0 },
    opens: { type: Number, default: 0 },
    clicks: { type: Number, default: 0 },
    tags: { type: [String], default: [] },
    scheduledDate: { type: Date, default: null },
    sentDate: { type: Date, default: null },
    cursor: { type: String, default: null },
    queuedAll: { type: Boolean, default: false },
    batches: { type: Number, default: 0 },
    createdBy: { type: String, default: 'admin' },
  },
  { collection: 'campaigns', timestamps: true },
);
campaignSchema.index({ createdAt: -1 });
campaignSchema.index({ status: 1, scheduledDate: 1 });

export type DeliveryStatus = 'queued' | 'sent' | 'failed';

export interface DeliveryDoc {
  /** `${campaignId}:${subscriberId}` */
  _id: string;
  campaignId: string;
  subscriberId: string;
  email: string;
  token: string;
  status: DeliveryStatus;
  queuedAt: Date;
  sentAt: Date | null;
  failedAt: Date | null;
  openedAt: Date | null;
  clickedAt: Date | null;
}

const deliverySchema = new Schema<DeliveryDoc>(
  {
    _id: { type: String, required: true },
    campaignId: { type: String, required: true },
    subscriberId: { type: String, required: true },
    email: { type: String, required: true },
    token: { type: String, required: true },
    status: { type: String, enum: ['queued', 'sent', 'failed'], default: 'queued' },
    queuedAt: { type: Date, required: true },
    sentAt: { type: Date, default: null },
    failedAt: { type: Date, default: null },
    openedAt: { type: Date, default: null },
    clickedAt: { type: Date, default: null },
  },
  { collection: 'campaign_deliveries' },
);
deliverySchema.index({ token: 1 }, { unique: true });
deliverySchema.index({ email: 1, sentAt: -1 });
deliverySchema.index({ campaignId: 1, status: 1 });

export const deliveryId = (campaignId: string, subscriberId: string) => `${campaignId}:${subscriberId}`;

export function campaignModels(connection: Connection) {
  return {
    Campaign: connection.model<CampaignDoc>('Campaign', campaignSchema),
    CampaignDelivery: connection.model<DeliveryDoc>('CampaignDelivery', deliverySchema),
  };
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function campaignView(doc: CampaignDoc): Campaign {
  return {
    id: doc._id,
    name: doc.name,
    subject: doc.subject,
    content: doc.content,
    type: doc.type,
    status: doc.status,
    recipients: doc.recipients,
    sent: doc.sent,
    failed: doc.failed ?? 0,
    opens: doc.opens,
    clicks: doc.clicks,
    openRate: ratePercent(doc.opens, doc.sent),
    clickRate: ratePercent(doc.clicks, doc.opens),
    tags: doc.tags ?? [],
    createdDate: new Date(doc.createdAt).toISOString(),
    sentDate: iso(doc.sentDate),
    scheduledDate: iso(doc.scheduledDate),
  };
}
