// The order document: a quote request as submitted, its status history, and the fields later issues
// fill (quote, discount, tracking, payment). Those stay empty until something real sets them.
import { randomBytes } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import type { OrderDiscount } from '../domain/discount.js';
import {
  carriers,
  customerCategories,
  designMethods,
  emailHistoryTypes,
  itemTypes,
  orderStatuses,
  type Carrier,
  type CustomerCategory,
  type DesignMethod,
  type EmailHistoryType,
  type ItemType,
  type OrderAddress,
  type OrderStatus,
  type PaymentMode,
} from '@shop/contracts';

/**
 * Order ids are 96 random bits in hex: the payment page link carries the id, so it must not be
 * guessable from a neighbour the way ObjectIds (time + counter) are.
 */
export const newOrderId = () => randomBytes(12).toString('hex');

export interface StatusHistoryEntry {
  status: OrderStatus;
  date: Date;
  note?: string;
  changedBy: string;
}

export interface EmailHistoryEntry {
  /** The emailRecordId the order put on its event, or the email service's id for emails it did not ask for. */
  id: string;
  subject: string;
  to: string;
  type: EmailHistoryType;
  preview: string;
  status: 'queued' | 'sent' | 'failed';
  timestamp: Date;
  sentAt?: Date;
  emailId?: string;
}

export interface OrderFile {
  fileId: string;
  originalName: string;
  filename: string;
  size: number;
  mimetype: string;
  url: string;
}

export interface OrderDoc {
  _id: string;
  orderNumber: string;
  customerName: string;
  email: string;
  /** Lower-cased email: tracking and history compare emails case-insensitively through this. */
  emailKey: string;
  phone?: string;
  itemType: ItemType;
  designMethod: DesignMethod;
  description: string;
  quantity: number;
  size?: string;
  sizeBreakdown?: Record<string, number>;
  colors: string[];
  finish: string;
  shape?: string;
  edge?: string;
  features: string[];
  files: OrderFile[];
  aiGenerated: boolean;
  aiDesignId?: string;
  subscribeEmail: boolean;
  subscribeSMS: boolean;
  shippingAddress?: OrderAddress;
  billingAddress?: OrderAddress;
  customerCategory: CustomerCategory;
  taxExempt: boolean;
  /** True for the item customizer's reduced order: its estimate is the customizer price. */
  customizer: boolean;
  /** Recomputed by the server. */
  estimatedTotal: number;
  /** What the browser showed, kept only to notice disagreements. */
  browserEstimatedTotal?: number;
  status: OrderStatus;
  statusHistory: StatusHistoryEntry[];
  /** Set when the team sends a quote (Apply Quote); tax comes from the payments domain's table. */
  quote?: {
    amount: number;
    notes?: string;
    /** A fraction (0.0725 is 7.25%). */
    taxRate: number;
    /** Why this rate, e.g. "VA state sales tax" (shown to the admin). */
    taxBasis?: string;
    taxAmount: number;
    finalAmount: number;
    expiresAt: Date;
    sentAt: Date;
  } | null;
  /** The discount code it holds (marketing counted the use); amount in dollars. See domain/discount.ts. */
  discount?: OrderDiscount | null;
  tracking?: { carrier: Carrier; trackingNumber: string; estimatedDelivery?: Date } | null;
  /** Set once, when the provider's payment is verified (amount in dollars, as charged). */
  payment?: { paymentIntentId: string; paidAt: Date; amount: number; provider: PaymentMode } | null;
  /** The Idempotency-Key the quote request came with: unique among orders (a retry finds this order). */
  idempotencyKey?: string;
  /** With idempotencyKey: the fingerprint of the body it came with (the same key with another body is refused). */
  idempotencyBodyHash?: string;
  /** Notes edited in the back office's details view. */
  notes?: string;
  /** Internal notes (Admin Notes modal), with who wrote them last. */
  adminNotes?: string;
  adminNotesUpdatedBy?: string;
  adminNotesUpdatedAt?: Date;
  /** Emails sent about this order, filled from email.sent / email.failed (newest last). */
  emailHistory?: EmailHistoryEntry[];
  createdAt: Date;
  updatedAt: Date;
}

const addressSchema = new Schema(
  {
    line1: { type: String, required: true },
    line2: { type: String, default: '' },
    city: { type: String, required: true },
    state: { type: String, required: true },
    postalCode: { type: String, required: true },
    country: { type: String, required: true },
  },
  { _id: false },
);

export const orderSchema = new Schema<OrderDoc>(
  {
    _id: { type: String, default: newOrderId },
    orderNumber: { type: String, required: true },
    customerName: { type: String, required: true },
    email: { type: String, required: true },
    emailKey: { type: String, required: true },
    phone: String,
    itemType: { type: String, enum: itemTypes, required: true },
    designMethod: { type: String, enum: designMethods, required: true },
    description: { type: String, required: true },
    // 0 is allowed: the back office's edit turns an invalid quantity into 0 (admin part A §5).
    quantity: { type: Number, required: true, min: 0 },
    size: String,
    sizeBreakdown: { type: Schema.Types.Mixed },
    colors: { type: [String], default: [] },
    finish: { type: String, required: true },
    shape: String,
    edge: String,
    features: { type: [String], default: [] },
    files: {
      type: [
        new Schema(
          { fileId: String, originalName: String, filename: String, size: Number, mimetype: String, url: String },
          { _id: false },
        ),
      ],
      default: [],
    },
    aiGenerated: { type: Boolean, default: false },
    aiDesignId: String,
    subscribeEmail: { type: Boolean, default: false },
    subscribeSMS: { type: Boolean, default: false },
    shippingAddress: { type: addressSchema, default: undefined },
    billingAddress: { type: addressSchema, default: undefined },
    customerCategory: { type: String, enum: customerCategories, required: true },
    taxExempt: { type: Boolean, required: true },
    customizer: { type: Boolean, default: false },
    estimatedTotal: { type: Number, required: true, min: 0 },
    browserEstimatedTotal: Number,
    status: { type: String, enum: orderStatuses, required: true },
    statusHistory: {
      type: [
        new Schema(
          {
            status: { type: String, enum: orderStatuses, required: true },
            date: { type: Date, required: true },
            note: String,
            changedBy: { type: String, required: true },
          },
          { _id: false },
        ),
      ],
      default: [],
    },
    quote: { type: Schema.Types.Mixed, default: null },
    discount: { type: Schema.Types.Mixed, default: null },
    tracking: {
      type: new Schema(
        { carrier: { type: String, enum: carriers }, trackingNumber: String, estimatedDelivery: Date },
        { _id: false },
      ),
      default: null,
    },
    payment: { type: Schema.Types.Mixed, default: null },
    idempotencyKey: String,
    idempotencyBodyHash: String,
    notes: { type: String, default: '' },
    adminNotes: { type: String, default: '' },
    adminNotesUpdatedBy: String,
    adminNotesUpdatedAt: Date,
    emailHistory: {
      type: [
        new Schema(
          {
            id: { type: String, required: true },
            subject: String,
            to: String,
            type: { type: String, enum: emailHistoryTypes },
            preview: String,
            status: { type: String, enum: ['queued', 'sent', 'failed'] },
            timestamp: Date,
            sentAt: Date,
            emailId: String,
          },
          { _id: false },
        ),
      ],
      default: [],
    },
  },
  { collection: 'orders', timestamps: true, minimize: false },
);

// Tracking looks an order up by its number; history lists an email's orders newest first; the back
// office lists by status and date.
orderSchema.index({ orderNumber: 1 }, { unique: true });
// A quote request's Idempotency-Key, kept on its order: the order's insert is the key's check, no
// write of its own (orders without a key are left out of the index).
orderSchema.index({ idempotencyKey: 1 }, { unique: true, sparse: true });
orderSchema.index({ emailKey: 1, createdAt: -1 });
orderSchema.index({ status: 1, createdAt: -1 });
orderSchema.index({ createdAt: -1 });
// Back-office list: item-type filter with date order, "recently updated", and the sortable columns.
orderSchema.index({ itemType: 1, createdAt: -1 });
orderSchema.index({ updatedAt: -1 });
orderSchema.index({ customerName: 1 });
orderSchema.index({ estimatedTotal: 1 });

/**
 * The order as `Order.create` would store it (the schema's defaults and version key; no undefined
 * fields), for an insert without mongoose's hydration and validation: the quote route builds the order
 * from a body the contracts schema already checked. test/stored-order.test.ts checks that the schema
 * adds nothing to a stored order and finds nothing wrong with it.
 */
export function storedOrder(order: OrderDoc): OrderDoc & { __v: number } {
  const doc: Record<string, unknown> = { notes: '', adminNotes: '', emailHistory: [] };
  for (const [field, value] of Object.entries(order)) if (value !== undefined) doc[field] = value;
  doc.__v = 0;
  return doc as unknown as OrderDoc & { __v: number };
}

/**
 * An Idempotency-Key seen on POST /api/orders before keys were kept on the order itself: the body it came
 * with and the order it made. Only read now, when a retry meets an order that has no body fingerprint.
 */
export interface IdempotencyDoc {
  _id: string;
  bodyHash: string;
  orderId: string;
  createdAt: Date;
}

export const idempotencySchema = new Schema<IdempotencyDoc>(
  {
    // The key itself is the _id: unique by construction.
    _id: { type: String, required: true },
    bodyHash: { type: String, required: true },
    orderId: { type: String, required: true },
    createdAt: { type: Date, default: () => new Date() },
  },
  { collection: 'idempotency_keys', versionKey: false },
);

/** A generated design: its prompt and where its image is stored (GridFS bucket `designs`). */
export interface DesignDoc {
  _id: string;
  prompt: string;
  itemType: ItemType;
  style: string;
  generator: 'openai' | 'offline';
  model?: string;
  fileId: string;
  contentType: string;
  size: number;
  ip?: string;
  createdAt: Date;
}

export const designSchema = new Schema<DesignDoc>(
  {
    _id: { type: String, required: true },
    prompt: { type: String, required: true },
    itemType: { type: String, enum: itemTypes, required: true },
    style: { type: String, required: true },
    generator: { type: String, enum: ['openai', 'offline'], required: true },
    model: String,
    fileId: { type: String, required: true },
    contentType: { type: String, required: true },
    size: { type: Number, required: true },
    ip: String,
    createdAt: { type: Date, default: () => new Date() },
  },
  { collection: 'designs', versionKey: false },
);
designSchema.index({ createdAt: -1 });

export function orderModels(connection: Connection) {
  return {
    Order: connection.model<OrderDoc>('Order', orderSchema),
    IdempotencyKey: connection.model<IdempotencyDoc>('IdempotencyKey', idempotencySchema),
    Design: connection.model<DesignDoc>('Design', designSchema),
  };
}
export type OrderModels = ReturnType<typeof orderModels>;
