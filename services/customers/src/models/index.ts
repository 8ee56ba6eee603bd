// The customers service's collections: customer profiles and their orders (a projection of the orders
// service's events), verification codes (hashes only) and rate-limit counters shared by every replica.
import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { rateCounterModel } from '@shop/service-kit';
import { customerSchema } from './customer.js';
import { customerOrderSchema } from './customer-order.js';
import { privacyRequestSchema } from './privacy-request.js';

export type { CustomerDoc } from './customer.js';
export type { CustomerOrderDoc } from './customer-order.js';
export type { PrivacyRequestDoc } from './privacy-request.js';

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
    CustomerOrder: connection.model('CustomerOrder', customerOrderSchema),
    VerificationCode: connection.model('VerificationCode', verificationCodeSchema),
    PrivacyRequest: connection.model('PrivacyRequest', privacyRequestSchema),
    // The lookup limits count in the service kit's shared fixed-window counters (`rate_counters`).
    RateCounter: rateCounterModel(connection),
  };
}
export type CustomersModels = ReturnType<typeof registerModels>;
