// The order's email history (admin part A §2 details view) is a projection kept here: the email
// service announces every email it sent or gave up on (email.sent / email.failed, with orderId and the
// emailRecordId this service put on the event that asked for it). Chosen over asking the email service
// on each details view: the view stays one read, and works while the email service is down.
// An entry asked for by this service (queued at request time) is updated in place; an email about the
// order that the email service sent on its own (e.g. the order confirmation) is added once by its id.
import { consumeEvent } from '@shop/service-kit';
import { erasedText, isErasedEmail, type EmailHistoryType } from '@shop/contracts';
import type { EmailHistoryEntry, OrderModels } from '../models/order.js';

/** Emails that went to the team, not the customer: not part of the customer's email history. */
const teamTemplates = new Set(['admin_new_order', 'admin_payment_received']);

function typeOfTemplate(template: string): EmailHistoryType {
  return /status|quote|confirmation|receipt/.test(template) ? 'status_update' : 'admin_message';
}

export function emailHistoryConsumers(models: OrderModels) {
  const { Order } = models;
  return [
    consumeEvent(
      'email.sent',
      async (event, { session }) => {
        const email = event.data;
        if (!email.orderId || teamTemplates.has(email.template)) return;
        // An email sent before the customer's erasure can be reported after it: it must not write the
        // address and text back into an anonymised order (the history keeps only date, subject, status).
        const order = await Order.findById(email.orderId, { emailKey: 1 })
          .session(session)
          .lean<{ emailKey?: string }>();
        if (!order) return;
        const erased = Boolean(order.emailKey && isErasedEmail(order.emailKey));
        const to = erased ? order.emailKey! : email.to;
        const preview = erased ? erasedText : email.preview;
        const sentAt = new Date(email.sentAt);
        if (email.emailRecordId) {
          const result = await Order.updateOne(
            { _id: email.orderId, 'emailHistory.id': email.emailRecordId },
            {
              $set: {
                'emailHistory.$.status': 'sent',
                'emailHistory.$.sentAt': sentAt,
                'emailHistory.$.emailId': email.emailId,
                'emailHistory.$.subject': email.subject,
                ...(preview ? { 'emailHistory.$.preview': preview } : {}),
              },
            },
            { session, timestamps: false },
          );
          if (result.matchedCount > 0) return;
        }
        const entry: EmailHistoryEntry = {
          id: email.emailRecordId ?? email.emailId,
          subject: email.subject,
          to,
          type: typeOfTemplate(email.template),
          preview: preview ?? '',
          status: 'sent',
          timestamp: sentAt,
          sentAt,
          emailId: email.emailId,
        };
        // Added once: the filter skips an order that already lists this email.
        await Order.updateOne(
          { _id: email.orderId, 'emailHistory.id': { $ne: entry.id } },
          { $push: { emailHistory: entry } },
          { session, timestamps: false },
        );
      },
      // Two emails per quote request reach this consumer: the team's notice is acked without a transaction.
      { relevant: (event) => Boolean(event.data.orderId) && !teamTemplates.has(event.data.template) },
    ),
    consumeEvent('email.failed', async (event, { session }) => {
      const email = event.data;
      if (!email.orderId || !email.emailRecordId) return;
      await Order.updateOne(
        { _id: email.orderId, 'emailHistory.id': email.emailRecordId },
        { $set: { 'emailHistory.$.status': 'failed', 'emailHistory.$.emailId': email.emailId } },
        { session, timestamps: false },
      );
    }),
  ];
}
