// order.created: a quote request. The customer becomes (or stays) a subscriber when they ticked
// "subscribe" (email and/or SMS with a phone); every subscriber's totalOrders counts their quote
// requests; the quote_request_received SMS goes out to SMS subscribers.
import { consumeEvent } from '@shop/service-kit';
import type { CommunicationModels } from '../models/index.js';
import type { SubscriberDoc } from '../models/subscriber.js';
import { queueTriggeredSms } from '../sms/queue-sms.js';

export function orderCreatedConsumer(models: CommunicationModels, smsQueued: () => void) {
  return consumeEvent('order.created', async (event, { session, log }) => {
    const order = event.data;
    const email = order.email.toLowerCase();
    const phone = order.phone?.trim() || null;
    const wantsSms = order.subscribeSMS && Boolean(phone);
    const existing = await models.Subscriber.findOne({ email }).session(session).lean<SubscriberDoc>();
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
      await models.Subscriber.updateOne({ _id: existing._id }, { $set: set, $inc: { totalOrders: 1 } }, { session });
    } else if (order.subscribeEmail || wantsSms) {
      await models.Subscriber.create(
        [
          {
            name: order.customerName,
            email,
            phone,
            category: order.customerCategory,
            emailSubscribed: order.subscribeEmail,
            smsSubscribed: wantsSms,
            source: 'quote_request',
            totalOrders: 1,
          },
        ],
        { session },
      );
      log.info(
        { orderNumber: order.orderNumber, email: order.subscribeEmail, sms: wantsSms },
        'subscriber added from a quote request',
      );
    }
    const queued = await queueTriggeredSms(models, session, log, {
      eventId: event.id,
      trigger: 'quote_request_received',
      email,
      phone: phone ?? undefined,
      values: { name: order.customerName, orderNumber: order.orderNumber, amount: order.estimatedTotal },
    });
    if (queued) smsQueued();
  });
}
