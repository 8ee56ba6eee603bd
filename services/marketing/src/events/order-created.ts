// order.created: a quote request. The customer becomes (or stays) a subscriber when they ticked
// "subscribe" (email and/or SMS with a phone); every subscriber's totalOrders counts their quote
// requests; the quote_request_received SMS goes out to SMS subscribers. The quote requests that arrived
// together are handled together (one read of their subscribers, one write, one SMS insert), each as if
// alone: in order, an SMS decided on the subscriber as that event left it.
import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation } from 'mongoose';
import { consumeEventBatches } from '@shop/service-kit';
import type { CommunicationModels } from '../models/index.js';
import type { SubscriberDoc } from '../models/subscriber.js';
import { queueTriggeredSmsBatch, type SmsSubscriber } from '../sms/queue-sms.js';

type Known = Pick<SubscriberDoc, '_id' | 'smsSubscribed' | 'phone' | 'status'>;

export function orderCreatedConsumer(models: CommunicationModels, smsQueued: () => void) {
  return consumeEventBatches('order.created', async (events, { session, log }) => {
    const emails = [...new Set(events.map((event) => event.data.email.toLowerCase()))];
    const subscribers = new Map(
      (
        await models.Subscriber.find({ email: { $in: emails } }, { email: 1, smsSubscribed: 1, phone: 1, status: 1 })
          .session(session)
          .lean<(Known & Pick<SubscriberDoc, 'email'>)[]>()
      ).map(({ email, ...known }) => [email, known]),
    );
    const writes: AnyBulkWriteOperation<SubscriberDoc>[] = [];
    const sms: Parameters<typeof queueTriggeredSmsBatch>[4] = [];
    for (const event of events) {
      const order = event.data;
      const email = order.email.toLowerCase();
      const phone = order.phone?.trim() || null;
      const wantsSms = order.subscribeSMS && Boolean(phone);
      const existing = subscribers.get(email);
      if (existing) {
        const set: Partial<SubscriberDoc> = {};
        // Opting in again is a fresh consent: it re-activates an unsubscribed address (a bounced one stays bounced).
        if (order.subscribeEmail) {
          set.emailSubscribed = true;
          if (existing.status === 'unsubscribed') set.status = 'active';
        }
        if (wantsSms) {
          set.smsSubscribed = true;
          set.phone = phone;
        }
        writes.push({ updateOne: { filter: { _id: existing._id }, update: { $set: set, $inc: { totalOrders: 1 } } } });
        Object.assign(existing, set);
      } else if (order.subscribeEmail || wantsSms) {
        const added = {
          _id: randomUUID(),
          name: order.customerName,
          email,
          phone,
          category: order.customerCategory,
          emailSubscribed: order.subscribeEmail,
          smsSubscribed: wantsSms,
          source: 'quote_request' as const,
          totalOrders: 1,
        };
        writes.push({ insertOne: { document: added as SubscriberDoc } });
        subscribers.set(email, { _id: added._id, smsSubscribed: wantsSms, phone, status: 'active' });
        log.info(
          { orderNumber: order.orderNumber, email: order.subscribeEmail, sms: wantsSms },
          'subscriber added from a quote request',
        );
      }
      const now: SmsSubscriber = subscribers.get(email) ?? null;
      sms.push({
        request: {
          eventId: event.id,
          email,
          phone: phone ?? undefined,
          values: { name: order.customerName, orderNumber: order.orderNumber, amount: order.estimatedTotal },
        },
        // A copy: a later event of the batch must not change what this one saw.
        subscriber: now && { ...now },
      });
    }
    // In order: an insert before the updates of the same new subscriber.
    if (writes.length > 0) await models.Subscriber.bulkWrite(writes, { session, ordered: true });
    if ((await queueTriggeredSmsBatch(models, session, log, 'quote_request_received', sms)) > 0) smsQueued();
  });
}
