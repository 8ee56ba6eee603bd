// One document per order the customer placed: the facts the customer's figures are derived from. Each
// fact keeps the time it was true at (statusAt, totalAt), so an older event arriving late (a retry, a
// replay) never overwrites a newer one, and applying an event twice changes nothing.
import { Schema, type InferSchemaType } from 'mongoose';
import { itemTypes, orderStatuses } from '@shop/contracts';

export const customerOrderSchema = new Schema(
  {
    /** The order's id in the orders service. */
    _id: { type: String, required: true },
    /** The profile's email; null while only a status event was seen (order.created still on its way). */
    customerEmail: { type: String, default: null },
    orderNumber: { type: String, required: true },
    itemType: { type: String, enum: itemTypes, required: true },
    quantity: { type: Number, default: 0 },
    /** Dollars: the order's total as the back office defines it (orderTotalOf). */
    total: { type: Number, default: 0 },
    totalAt: { type: Date, default: null },
    status: { type: String, enum: orderStatuses, required: true },
    statusAt: { type: Date, default: null },
    /** Null until order.created arrived; such an order is not counted yet. */
    submittedDate: { type: Date, default: null },
  },
  { collection: 'customer_orders', timestamps: true },
);
customerOrderSchema.index({ customerEmail: 1, submittedDate: -1 });
export type CustomerOrderDoc = InferSchemaType<typeof customerOrderSchema>;
