// Subscribers: one per email address (stored lower case, unique). Created by an administrator or by a
// quote request that opted in; the status moves to unsubscribed (the customer's one click) or bounced
// (a permanent delivery failure reported by the email service).
import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import {
  customerCategories,
  subscriberStatuses,
  type CustomerCategory,
  type Subscriber,
  type SubscriberStatus,
} from '@shop/contracts';

export interface SubscriberDoc {
  _id: string;
  name: string;
  email: string;
  phone: string | null;
  category: CustomerCategory;
  emailSubscribed: boolean;
  smsSubscribed: boolean;
  status: SubscriberStatus;
  emailOpens: number;
  totalOrders: number;
  source: 'admin' | 'quote_request';
  unsubscribedAt: Date | null;
  bouncedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const subscriberSchema = new Schema<SubscriberDoc>(
  {
    _id: { type: String, default: () => randomUUID() },
    name: { type: String, required: true },
    email: { type: String, required: true, lowercase: true, trim: true },
    phone: { type: String, default: null },
    category: { type: String, enum: customerCategories, default: 'general' },
    emailSubscribed: { type: Boolean, default: true },
    smsSubscribed: { type: Boolean, default: false },
    status: { type: String, enum: subscriberStatuses, default: 'active' },
    emailOpens: { type: Number, default: 0 },
    totalOrders: { type: Number, default: 0 },
    source: { type: String, enum: ['admin', 'quote_request'], default: 'admin' },
    unsubscribedAt: { type: Date, default: null },
    bouncedAt: { type: Date, default: null },
  },
  { collection: 'subscribers', timestamps: true },
);
subscriberSchema.index({ email: 1 }, { unique: true });
// The campaign sender walks the active, email-subscribed subscribers in _id order.
subscriberSchema.index({ status: 1, emailSubscribed: 1, _id: 1 });
subscriberSchema.index({ createdAt: -1 });

export function subscriberModels(connection: Connection) {
  return { Subscriber: connection.model<SubscriberDoc>('Subscriber', subscriberSchema) };
}

export function subscriberView(doc: SubscriberDoc): Subscriber {
  return {
    id: doc._id,
    name: doc.name,
    email: doc.email,
    phone: doc.phone ?? null,
    category: doc.category,
    emailSubscribed: doc.emailSubscribed,
    smsSubscribed: doc.smsSubscribed,
    status: doc.status,
    emailOpens: doc.emailOpens ?? 0,
    totalOrders: doc.totalOrders ?? 0,
    source: doc.source,
    subscribedDate: new Date(doc.createdAt).toISOString(),
  };
}
