// order.quote_sent: the quote_sent SMS to customers who opted into SMS.
import { consumeEvent } from '@shop/service-kit';
import type { CommunicationModels } from '../models/index.js';
import { queueTriggeredSms } from '../sms/queue-sms.js';

export function orderQuoteSentConsumer(models: CommunicationModels, smsQueued: () => void) {
  return consumeEvent('order.quote_sent', async (event, { session, log }) => {
    const q = event.data;
    const queued = await queueTriggeredSms(models, session, log, {
      eventId: event.id,
      trigger: 'quote_sent',
      email: q.email,
      values: { name: q.customerName, orderNumber: q.orderNumber, amount: q.finalAmount },
    });
    if (queued) smsQueued();
  });
}
