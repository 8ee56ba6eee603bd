// payment.refund_due: a payment the provider took that does not pay its order becomes the team's notice,
// to the notification address of the admin settings and only while notifications are on (the back office
// lists it either way). One email per payment: payments publishes the event once per payment, and the
// queue's `<event id>:<template>` dedupe key keeps a redelivered event to one email.
import { consumeEvent } from '@shop/service-kit';
import { adminRefundDueEmail } from '../templates/payments.js';
import { queueAdminNotice, type ConsumerDeps } from './consumers.js';

export function refundDueConsumer(deps: ConsumerDeps) {
  return consumeEvent('payment.refund_due', async (event, { session, log }) => {
    await queueAdminNotice(deps, session, log, {
      ...adminRefundDueEmail(event.data, deps.settings.shopUrl),
      sourceEventId: event.id,
      orderId: event.data.orderId,
      orderNumber: event.data.orderNumber,
    });
    deps.queued();
  });
}
