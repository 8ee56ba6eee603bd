// Paid orders attributed to marketing (see the README's definition of revenueFromMarketing): one per
// order, written by the order.paid consumer, summed by the stats route.
import { Schema, type Connection } from 'mongoose';

export interface AttributedOrderDoc {
  /** The order id: an order is attributed once. */
  _id: string;
  orderNumber: string;
  email: string;
  /** Cents, as paid. */
  amountCents: number;
  paidAt: Date;
  campaignId: string;
}

const attributedOrderSchema = new Schema<AttributedOrderDoc>(
  {
    _id: { type: String, required: true },
    orderNumber: { type: String, required: true },
    email: { type: String, required: true },
    amountCents: { type: Number, required: true },
    paidAt: { type: Date, required: true },
    campaignId: { type: String, required: true },
  },
  { collection: 'attributed_orders' },
);
attributedOrderSchema.index({ paidAt: -1 });

export function attributedOrderModels(connection: Connection) {
  return { AttributedOrder: connection.model<AttributedOrderDoc>('AttributedOrder', attributedOrderSchema) };
}
