// The order's email history (admin part A §2 details view) is a projection kept here: the email
// service announces every email it sent or gave up on (email.sent / email.failed, with orderId and the
// emailRecordId this service put on the event that asked for it). Chosen over asking the email service
// on each details view: the view stays one read, and works while the email service is down.
// An entry asked for by this service (queued at request time) is updated in place; an email about the
// order that the email service sent on its own (e.g. the order confirmation) is added once by its id.
import type { AnyBulkWriteOperation } from 'mongoose';
import { consumeEvent, consumeEventBatches } from '@shop/service-kit';
import { emailAudience, emailSentSubject, erasedText, isErasedEmail, type EmailHistoryType } from '@shop/contracts';
import type { EmailHistoryEntry, OrderDoc, OrderModels } from '../models/order.js';

function typeOfTemplate(template: string): EmailHistoryType {
  return /status|quote|confirmation|receipt/.test(template) ? 'status_update' : 'admin_message';
}

/** How long an email.sent batch waits for more to join it. */
const emailHistoryGatherMs = 100;

export function emailHistoryConsumers(models: OrderModels) {
  const { Order } = models;
  return [
    // The emails reported together are written together: one read of their orders and one write for the
    // batch (one confirmation per quote request reaches this consumer).
    consumeEventBatches(
      'email.sent',
      async (events, { session }) => {
        const orderIds = [...new Set(events.map((event) => event.data.orderId!))];
        const orders = await Order.find({ _id: { $in: orderIds } }, { emailKey: 1, 'emailHistory.id': 1 })
          .session(session)
          .lean<{ _id: string; emailKey?: string; emailHistory?: { id: string }[] }[]>();
        const byId = new Map(
          orders.map((order) => [
            order._id,
            {
              emailKey: order.emailKey,
              listed: new Set((order.emailHistory ?? []).map((entry) => entry.id)),
              writes: [] as AnyBulkWriteOperation<OrderDoc>[],
            },
          ]),
        );
        for (const event of events) {
          const email = event.data;
          const order = byId.get(email.orderId!);
          if (!order) continue;
          // An email sent before the customer's erasure can be reported after it: it must not write the
          // address and text back into an anonymised order (the history keeps only date, subject, status).
          const erased = Boolean(order.emailKey && isErasedEmail(order.emailKey));
          const to = erased ? order.emailKey! : email.to;
          const preview = erased ? erasedText : email.preview;
          const sentAt = new Date(email.sentAt);
          // The entry this service queued when it asked for the email: marked sent in place.
          if (email.emailRecordId && order.listed.has(email.emailRecordId)) {
            order.writes.push({
              updateOne: {
                filter: { _id: email.orderId!, 'emailHistory.id': email.emailRecordId },
                update: {
                  $set: {
                    'emailHistory.$.status': 'sent',
                    'emailHistory.$.sentAt': sentAt,
                    'emailHistory.$.emailId': email.emailId,
                    'emailHistory.$.subject': email.subject,
                    ...(preview ? { 'emailHistory.$.preview': preview } : {}),
                  },
                },
              },
            });
            continue;
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
          // Added once: an order that already lists this email is left as it is.
          if (order.listed.has(entry.id)) continue;
          order.listed.add(entry.id);
          order.writes.push({
            updateOne: {
              filter: { _id: email.orderId!, 'emailHistory.id': { $ne: entry.id } },
              update: { $push: { emailHistory: entry } },
            },
          });
        }
        // In stream order per order (an entry added before it is marked sent).
        const writes = [...byId.values()].flatMap((order) => order.writes);
        // Through the driver: the entries are typed already (no casting needed, no timestamps wanted).
        if (writes.length > 0) await Order.collection.bulkWrite(writes as never, { session, ordered: true });
      },
      // Only a customer's emails about an order are published on this subject (two emails per quote
      // request, the team's notice never reaches this consumer). The check stays for the events published
      // on `email.sent` itself before that subject existed: acked without a transaction.
      // The history is read by an admin, never waited on: a batch gathers for up to 100 ms, so a few hundred
      // confirmations a second cost a few transactions instead of one per outcome group the email service wrote.
      {
        subject: emailSentSubject('order'),
        relevant: (event) => emailAudience(event.data) === 'order',
        gatherMs: emailHistoryGatherMs,
      },
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
