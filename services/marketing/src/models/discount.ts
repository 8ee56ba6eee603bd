// Discount codes and their redemptions. A code is stored upper case with a unique index, so codes are
// unique regardless of case. usedCount only moves through conditional updates (redeem: below maxUses;
// give back: above 0), and a redemption's _id is code id + order id, so one order counts once.
import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import {
  discountCategories,
  discountTypes,
  type DiscountCategory,
  type DiscountCode,
  type DiscountType,
} from '@shop/contracts';

export interface DiscountDoc {
  _id: string;
  code: string;
  description: string;
  category: DiscountCategory;
  type: DiscountType;
  value: number;
  isActive: boolean;
  startDate: Date;
  endDate: Date | null;
  /** null: unlimited. */
  maxUses: number | null;
  usedCount: number;
  /** Dollars; null: no minimum. */
  minOrder: number | null;
  createdBy?: string;
  createdAt: Date;
  updatedAt: Date;
}

export const discountSchema = new Schema<DiscountDoc>(
  {
    _id: { type: String, default: () => randomUUID() },
    code: { type: String, required: true, uppercase: true, trim: true },
    description: { type: String, required: true },
    category: { type: String, enum: discountCategories, required: true },
    type: { type: String, enum: discountTypes, required: true },
    value: { type: Number, required: true, min: 1 },
    isActive: { type: Boolean, default: true },
    startDate: { type: Date, required: true },
    endDate: { type: Date, default: null },
    maxUses: { type: Number, default: null, min: 1 },
    usedCount: { type: Number, default: 0, min: 0 },
    minOrder: { type: Number, default: null, min: 0 },
    createdBy: String,
  },
  { collection: 'discounts', timestamps: true },
);
discountSchema.index({ code: 1 }, { unique: true });
discountSchema.index({ createdAt: -1 });

/**
 * One order holding one code: a redeemed one is the use counted in the code's usedCount. The redeem
 * claims it first (pending, unique _id), so the same order applying the same code twice at once waits
 * for the first instead of taking a second use.
 */
export interface DiscountRedemptionDoc {
  /** `${discountId}:${orderId}` */
  _id: string;
  discountId: string;
  code: string;
  orderId: string;
  /** pending: the redeem that made it is still taking the use; redeemed: the use is counted. */
  state: 'pending' | 'redeemed';
  redeemedAt: Date;
}

export const discountRedemptionSchema = new Schema<DiscountRedemptionDoc>(
  {
    _id: { type: String, required: true },
    discountId: { type: String, required: true },
    code: { type: String, required: true },
    orderId: { type: String, required: true },
    state: { type: String, enum: ['pending', 'redeemed'], required: true },
    redeemedAt: { type: Date, required: true },
  },
  { collection: 'discount_redemptions', versionKey: false },
);
discountRedemptionSchema.index({ orderId: 1 });

export const redemptionId = (discountId: string, orderId: string) => `${discountId}:${orderId}`;

export function discountModels(connection: Connection) {
  return {
    Discount: connection.model<DiscountDoc>('Discount', discountSchema),
    DiscountRedemption: connection.model<DiscountRedemptionDoc>('DiscountRedemption', discountRedemptionSchema),
  };
}
export type DiscountModels = ReturnType<typeof discountModels>;

const iso = (d: Date) => new Date(d).toISOString();

export function discountView(d: DiscountDoc): DiscountCode {
  return {
    id: d._id,
    code: d.code,
    description: d.description,
    category: d.category,
    type: d.type,
    value: d.value,
    isActive: d.isActive,
    startDate: iso(d.startDate),
    endDate: d.endDate ? iso(d.endDate) : null,
    maxUses: d.maxUses ?? null,
    usedCount: d.usedCount,
    minOrder: d.minOrder ?? null,
    createdDate: iso(d.createdAt),
  };
}
