// The customer profile: one document per lower-cased email, a projection of the orders service's events.
// It holds the saved details the returning-customer lookup prefills, and the figures the back office
// lists (derived from the per-order facts in customer_orders after every event, never incremented, so a
// replay gives the same figures). Indexes serve every sort and filter of GET /api/customers at 100,000
// customers: each sort key leads an index, vip is counted from its index, status filters are ranges on
// lastOrderAt.
import { Schema, type InferSchemaType } from 'mongoose';
import { customerCategories, itemTypes } from '@shop/contracts';

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

export const customerSchema = new Schema(
  {
    /** Lower-cased and trimmed: one profile per address however it was typed. */
    email: { type: String, required: true, unique: true },
    customerName: { type: String, default: '' },
    phone: { type: String, default: '' },
    lastShippingAddress: { type: addressSchema, default: null },
    customerCategory: { type: String, enum: customerCategories, default: 'general' },
    /** totalOrders: every order placed, whatever its status. */
    orderCount: { type: Number, default: 0 },
    /** firstOrderDate / lastOrderDate of the spec. */
    firstOrderAt: { type: Date, required: true },
    lastOrderAt: { type: Date, required: true },
    lastOrderId: { type: String, required: true },
    lastOrderNumber: { type: String, required: true },
    // Figures (domain/customer-status.ts deriveFigures).
    spentOrders: { type: Number, default: 0 },
    totalSpent: { type: Number, default: 0 },
    averageOrderValue: { type: Number, default: 0 },
    preferredItemType: { type: String, enum: [...itemTypes, null], default: null },
    completedOrders: { type: Number, default: 0 },
    avgDaysBetweenOrders: { type: Number, default: 0 },
    /** From the configured thresholds at the last event (and re-applied at start when they change). */
    vip: { type: Boolean, default: false },
    /** Lower-cased name, for sorting by name. */
    nameKey: { type: String, default: '' },
    /** Lower-cased name, email, phone and order numbers: what the list's search box matches. */
    searchText: { type: String, default: '' },
    /** Set when an administrator erased the customer (privacy/erasure.ts): the personal fields are gone, the figures stay. */
    erasedAt: { type: Date, default: null },
    erasureId: { type: String, default: null },
  },
  { collection: 'customers', timestamps: true },
);
customerSchema.index({ lastOrderAt: -1 });
customerSchema.index({ firstOrderAt: -1 });
customerSchema.index({ totalSpent: -1 });
customerSchema.index({ orderCount: -1 });
customerSchema.index({ nameKey: 1 });
customerSchema.index({ vip: 1 });
export type CustomerDoc = InferSchemaType<typeof customerSchema>;
