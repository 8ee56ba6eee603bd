// privacy.erasure_requested (issue 16): the email history keeps that an email of a template went out
// when, and loses what it said and to whom. Emails to the customer (any case of the address) or about
// their orders or made by the same event (the admin's notices name them) lose subject and body; those to the customer get the
// erasure's anonymous address; any still waiting is not sent. A replay finds nothing left to change.
import { erasedText, sameEmailPattern } from '@shop/contracts';
import { consumeEvent } from '@shop/service-kit';
import type { EmailModels } from '../models/index.js';

export const erasedEmailError = 'Not sent: the customer was erased on request';

export function erasureRequestedConsumer(models: EmailModels) {
  return consumeEvent('privacy.erasure_requested', async (event, { session, log }) => {
    const { email, anonymisedEmail, orderIds, orderNumbers, erasureId } = event.data;
    const toCustomer = { to: sameEmailPattern(email) };
    // The admin's notices name the customer: those about their orders, and those made by the same event
    // as an email to them (order.created makes the confirmation and the admin's notice).
    const events = await models.Email.distinct('sourceEventId', {
      ...toCustomer,
      sourceEventId: { $ne: null },
    }).session(session);
    const aboutOrders = {
      $or: [{ orderId: { $in: orderIds } }, { orderNumber: { $in: orderNumbers } }, { sourceEventId: { $in: events } }],
      subject: { $ne: erasedText },
    };
    const waiting = { status: { $in: ['queued', 'sending'] as ('queued' | 'sending')[] } };
    await models.Email.updateMany(
      { $and: [{ $or: [toCustomer, aboutOrders] }, waiting] },
      {
        $set: {
          status: 'failed',
          lastError: erasedEmailError,
          failedAt: new Date(event.occurredAt),
          lockedUntil: null,
        },
      },
      { session },
    );
    const erasedContent = { subject: erasedText, html: erasedText, text: erasedText, headers: null };
    const mine = await models.Email.updateMany(
      toCustomer,
      { $set: { ...erasedContent, to: anonymisedEmail } },
      { session },
    );
    const notices = await models.Email.updateMany(aboutOrders, { $set: erasedContent }, { session });
    log.info(
      { erasureId, toCustomer: mine.modifiedCount, aboutTheirOrders: notices.modifiedCount },
      'email history of the customer erased',
    );
  });
}
