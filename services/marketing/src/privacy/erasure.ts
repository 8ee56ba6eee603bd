// privacy.erasure_requested (issue 16): the customer leaves every mailing and SMS list and their name,
// email and phone leave marketing. The subscriber record stays as an anonymous, unsubscribed entry (the
// subscriber counts and campaign figures stay right); campaign deliveries and attributed orders keep
// their dates and amounts under the anonymous address; SMS to their numbers lose number and text, and
// any still waiting will not be sent. Found by the old address and numbers; a replay finds nothing left.
import { erasedName, erasedText, sameEmailPattern } from '@shop/contracts';
import { consumeEvent } from '@shop/service-kit';
import { e164 } from '../domain/sms-render.js';
import type { CommunicationModels } from '../models/index.js';

export const erasedSmsError = 'Not sent: the customer was erased on request';

export function erasureRequestedConsumer(models: CommunicationModels, clock: () => Date = () => new Date()) {
  return consumeEvent('privacy.erasure_requested', async (event, { session, log }) => {
    const { email, anonymisedEmail, phones, erasureId } = event.data;
    const now = clock();
    const subscriber = await models.Subscriber.findOne({ email: email.toLowerCase() }).session(session).lean();
    const numbers = [
      ...new Set([...phones, subscriber?.phone ?? ''].map((p) => e164(p)).filter((p): p is string => Boolean(p))),
    ];
    if (subscriber) {
      await models.Subscriber.updateOne(
        { _id: subscriber._id },
        {
          $set: {
            name: erasedName,
            email: anonymisedEmail,
            phone: null,
            emailSubscribed: false,
            smsSubscribed: false,
            status: 'unsubscribed',
            unsubscribedAt: subscriber.unsubscribedAt ?? now,
          },
        },
        { session },
      );
    }
    const deliveries = await models.CampaignDelivery.updateMany(
      { email: sameEmailPattern(email) },
      { $set: { email: anonymisedEmail } },
      { session },
    );
    const attributed = await models.AttributedOrder.updateMany(
      { email: sameEmailPattern(email) },
      { $set: { email: anonymisedEmail } },
      { session },
    );
    let sms = 0;
    if (numbers.length) {
      await models.SmsMessage.updateMany(
        { to: { $in: numbers }, status: { $in: ['queued', 'sending'] } },
        { $set: { status: 'failed', error: erasedSmsError, lockedUntil: null } },
        { session },
      );
      sms = (
        await models.SmsMessage.updateMany(
          { to: { $in: numbers } },
          { $set: { to: 'erased', body: erasedText } },
          { session },
        )
      ).modifiedCount;
    }
    log.info(
      {
        erasureId,
        subscriber: Boolean(subscriber),
        deliveries: deliveries.modifiedCount,
        attributedOrders: attributed.modifiedCount,
        sms,
      },
      'marketing data of the customer erased',
    );
  });
}
