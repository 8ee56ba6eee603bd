// Applies what an order event says to the projection, in the consumer's transaction. Events may come
// late or twice: the status only moves to a newer fact, and shippedAt keeps the first shipping time.
import type { ClientSession } from 'mongoose';
import type { SupportModels } from '../models/index.js';

const shippedStatuses = new Set(['shipped', 'completed']);

export interface OrderFacts {
  orderId: string;
  orderNumber: string;
  email: string;
  customerName: string;
  status: string;
  at: Date;
}

export async function applyOrderFacts(
  KnownOrder: SupportModels['KnownOrder'],
  session: ClientSession,
  facts: OrderFacts,
) {
  const current = await KnownOrder.findById(facts.orderId).session(session).lean();
  const shippedAt =
    shippedStatuses.has(facts.status) && (!current?.shippedAt || current.shippedAt > facts.at)
      ? facts.at
      : (current?.shippedAt ?? null);
  const newer = !current || current.updatedAt.getTime() <= facts.at.getTime();
  await KnownOrder.updateOne(
    { _id: facts.orderId },
    {
      $set: {
        orderNumber: facts.orderNumber,
        email: facts.email.toLowerCase(),
        customerName: facts.customerName,
        shippedAt,
        ...(newer ? { status: facts.status, updatedAt: facts.at } : {}),
      },
      ...(newer ? {} : { $setOnInsert: { status: facts.status, updatedAt: facts.at } }),
    },
    { upsert: true, session },
  );
}
