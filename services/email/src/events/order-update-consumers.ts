// The back office's order events become one email each (exactly once: the service kit's processed
// events plus the queue's `<event id>:<template>` dedupe key). Each email carries the order's id and
// number and the order's emailRecordId, so email.sent lets the orders service fill the order's history.
import { consumeEvent } from '@shop/service-kit';
import { enqueueEmail } from '../queue/enqueue.js';
import { adminMessageEmail, infoRequestEmail, quoteEmail, statusUpdateEmail } from '../templates/order-updates.js';
import { paymentReceiptEmail, adminPaymentEmail } from '../templates/payments.js';
import { queueAdminNotice, type ConsumerDeps } from './consumers.js';

export function orderUpdateConsumers(deps: ConsumerDeps) {
  const { models, settings, clock, queued } = deps;
  const options = () => ({ maxAttempts: settings.maxAttempts, now: clock() });
  const common = (
    eventId: string,
    data: { orderId: string; orderNumber: string; email: string; emailRecordId?: string | undefined },
  ) => ({
    to: data.email,
    sourceEventId: eventId,
    orderId: data.orderId,
    orderNumber: data.orderNumber,
    ...(data.emailRecordId ? { emailRecordId: data.emailRecordId } : {}),
  });
  return [
    consumeEvent('order.quote_sent', async (event, { session }) => {
      await enqueueEmail(
        models.Email,
        session,
        { ...quoteEmail(event.data, settings.shopUrl), ...common(event.id, event.data) },
        options(),
      );
      queued();
    }),
    consumeEvent('order.info_requested', async (event, { session }) => {
      await enqueueEmail(
        models.Email,
        session,
        { ...infoRequestEmail(event.data, settings.shopUrl), ...common(event.id, event.data) },
        options(),
      );
      queued();
    }),
    consumeEvent('order.email_requested', async (event, { session }) => {
      await enqueueEmail(
        models.Email,
        session,
        { ...adminMessageEmail(event.data, settings.shopUrl), ...common(event.id, event.data) },
        options(),
      );
      queued();
    }),
    consumeEvent('order.status_changed', async (event, { session, log }) => {
      // Orders decides who hears of a change: it names the email-history entry of a status update it
      // wants sent. Without one (internal statuses, a payment whose email is the receipt) nothing goes out.
      if (!event.data.emailRecordId) {
        log.debug(
          { orderNumber: event.data.orderNumber, status: event.data.status, changedBy: event.data.changedBy },
          'status change not emailed to the customer',
        );
        return;
      }
      await enqueueEmail(
        models.Email,
        session,
        { ...statusUpdateEmail(event.data, settings.shopUrl), ...common(event.id, event.data) },
        options(),
      );
      queued();
    }),
    // A paid quote: the customer's receipt (matched back to the order's history by emailRecordId) and
    // the team's notice.
    consumeEvent('order.paid', async (event, { session, log }) => {
      await enqueueEmail(
        models.Email,
        session,
        { ...paymentReceiptEmail(event.data, settings.shopUrl), ...common(event.id, event.data) },
        options(),
      );
      const { emailRecordId: _receipt, to: _customer, ...team } = common(event.id, event.data);
      await queueAdminNotice(deps, session, log, { ...adminPaymentEmail(event.data, settings.shopUrl), ...team });
      queued();
    }),
  ];
}
