// The audit of privacy requests on customers (issue 16): who exported or erased which customer, when, and
// why. It keeps no personal data of the customer: their id, and for an erasure a SHA-256 of the erased
// address (so "was this address erased?" can be answered without keeping the address).
import { Schema, type InferSchemaType } from 'mongoose';

export const privacyRequestKinds = ['export', 'erasure'] as const;

export const privacyRequestSchema = new Schema(
  {
    /** The erasure id (also in the event) or a random id for an export. */
    _id: { type: String, required: true },
    kind: { type: String, enum: privacyRequestKinds, required: true },
    customerId: { type: String, required: true },
    /** The admin from the gateway's signed identity (`admin:<email>`). */
    requestedBy: { type: String, required: true },
    requestedAt: { type: Date, required: true },
    reason: { type: String, default: '' },
    /** Erasure only: sha256 of the lower-cased address that was erased. */
    emailHash: { type: String, default: null },
    anonymisedEmail: { type: String, default: null },
  },
  { collection: 'privacy_requests', versionKey: false },
);
privacyRequestSchema.index({ customerId: 1, requestedAt: -1 });
export type PrivacyRequestDoc = InferSchemaType<typeof privacyRequestSchema>;
