// What support knows of orders (for the return window): a projection of the orders service's events
// (order.created, order.status_changed), never a read of its database. `shippedAt` is the first time
// the order reached shipped or completed.
import { Schema } from 'mongoose';

export const knownOrderSchema = new Schema(
  {
    _id: { type: String, required: true },
    orderNumber: { type: String, required: true },
    email: { type: String, required: true },
    customerName: { type: String, default: '' },
    status: { type: String, required: true },
    shippedAt: { type: Date, default: null },
    /** Time of the last event applied: an older, late event never overwrites a newer status. */
    updatedAt: { type: Date, required: true },
  },
  { collection: 'known_orders' },
);
knownOrderSchema.index({ orderNumber: 1 }, { unique: true });
