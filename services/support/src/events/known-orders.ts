// Applies what order events say to the projection, in the consumer's transaction. Events may come
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

interface KnownState {
  orderNumber: string;
  email: string;
  customerName: string;
  status: string;
  shippedAt: Date | null;
  updatedAt: Date;
}

export async function applyOrderFacts(
  KnownOrder: SupportModels['KnownOrder'],
  session: ClientSession,
  facts: OrderFacts,
) {
  await applyOrderFactsBatch(KnownOrder, session, [facts]);
}

/**
 * Applies the facts of several events in their order, as one at a time would, in two round trips
 * whatever their number: one read of the orders they name, one write of each order's final state.
 */
export async function applyOrderFactsBatch(
  KnownOrder: SupportModels['KnownOrder'],
  session: ClientSession,
  batch: readonly OrderFacts[],
) {
  if (batch.length === 0) return;
  const stored = await KnownOrder.find({ _id: { $in: [...new Set(batch.map((f) => f.orderId))] } })
    .session(session)
    .lean<(KnownState & { _id: string })[]>();
  const current = new Map<string, KnownState>(stored.map(({ _id, ...state }) => [_id, state]));
  const changed = new Set<string>();
  for (const facts of batch) {
    const known = current.get(facts.orderId);
    const shippedAt =
      shippedStatuses.has(facts.status) && (!known?.shippedAt || known.shippedAt > facts.at)
        ? facts.at
        : (known?.shippedAt ?? null);
    const newer = !known || known.updatedAt.getTime() <= facts.at.getTime();
    current.set(facts.orderId, {
      orderNumber: facts.orderNumber,
      email: facts.email.toLowerCase(),
      customerName: facts.customerName,
      shippedAt,
      status: newer ? facts.status : known.status,
      updatedAt: newer ? facts.at : known.updatedAt,
    });
    changed.add(facts.orderId);
  }
  // Through the driver: every field is set here already, and mongoose's casting of each update was most
  // of this consumer's CPU during a burst of quote requests.
  await KnownOrder.collection.bulkWrite(
    [...changed].map((id) => ({
      updateOne: { filter: { _id: id as never }, update: { $set: current.get(id)! }, upsert: true },
    })),
    { session },
  );
}
