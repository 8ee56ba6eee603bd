// order.status_changed: the order_shipped SMS (with the tracking number) when an order ships.
import { consumeEvent } from '@shop/service-kit';
import type { CommunicationModels } from '../models/index.js';
import { queueTriggeredSms } from '../sms/queue-sms.js';

export function orderStatusChangedConsumer(models: CommunicationModels, smsQueued: () => void) {
  return consumeEvent('order.status_changed', async (event, { session, log }) => {
    const change = event.data;
    if (change.status !== 'shipped' || change.previousStatus === 'shipped') return;
    const queued = await queueTriggeredSms(models, session, log, {
      eventId: event.id,
      trigger: 'order_shipped',
      email: change.email,
      values: {
        name: change.customerName,
        orderNumber: change.orderNumber,
        trackingNumber: change.tracking?.trackingNumber,
      },
    });
    if (queued) smsQueued();
  });
}
