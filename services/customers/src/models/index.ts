// The customers service's collections: customer profiles (a projection of order.created events),
// verification codes (hashes only) and rate-limit counters shared by every replica.
import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { customerCategories } from '@shop/contracts';
import { rateCounterModel } from '@shop/service-kit';

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

const customerSchema = new Schema(
  {
    /** Lower-cased and trimmed: one profile per address however it was typed. */
    email: { type: String, required: true, unique: true },
    customerName: { type: String, default: '' },
    phone: { type: String, default: '' },
    lastShippingAddress: { type: addressSchema, default: null },
    customerCategory: { type: String, enum: customerCategories, default: 'general' },
    orderCount: { type: Number, default: 0 },
    firstOrderAt: { type: Date, required: true },
    lastOrderAt: { type: Date, required: true },
    lastOrderId: { type: String, required: true },
    lastOrderNumber: { type: String, required: true },
  },
  { collection: 'customers', timestamps: true },
);
export type CustomerDoc = InferSchemaType<typeof customerSchema>;

export const codeStatuses = ['active', 'used', 'locked', 'superseded'] as const;

const verificationCodeSchema = new Schema(
  {
    email: { type: String, required: true },
    /** HMAC-SHA256(server secret, salt:email:code), base64url. The code itself is never stored here. */
    codeHash: { type: String, required: true },
    salt: { type: String, required: true },
    status: { type: String, enum: codeStatuses, default: 'active' },
    attempts: { type: Number, default: 0 },
    expiresAt: { type: Date, required: true },
    usedAt: { type: Date, default: null },
    requestedFrom: { type: String, default: '' },
    /** Removed by MongoDB a day after expiry (kept that long to explain a late "expired" answer). */
    deleteAt: { type: Date, required: true },
  },
  { collection: 'verification_codes', timestamps: true },
);
verificationCodeSchema.index({ email: 1, createdAt: -1 });
verificationCodeSchema.index({ deleteAt: 1 }, { expireAfterSeconds: 0 });
export type VerificationCodeDoc = InferSchemaType<typeof verificationCodeSchema>;

export function registerModels(connection: Connection) {
  return {
    Customer: connection.model('Customer', customerSchema),
    VerificationCode: connection.model('VerificationCode', verificationCodeSchema),
    // The lookup limits count in the service kit's shared fixed-window counters (`rate_counters`).
    RateCounter: rateCounterModel(connection),
  };
}
export type CustomersModels = ReturnType<typeof registerModels>;
