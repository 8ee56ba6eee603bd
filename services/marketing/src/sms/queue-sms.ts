// A shop event for a customer becomes an SMS when the customer opted into SMS (a subscriber with SMS on,
// a phone, and not bounced/unsubscribed from everything) and the event's trigger has an active
// template. Written inside the consumer's transaction; the SMS sender job sends it.
import type { ClientSession } from 'mongoose';
import type { SmsTrigger } from '@shop/contracts';
import type { Logger } from '@shop/service-kit';
import { e164, renderSms, type SmsValues } from '../domain/sms-render.js';
import type { CommunicationModels } from '../models/index.js';
import type { SmsTemplateDoc } from '../models/sms.js';
import type { SubscriberDoc } from '../models/subscriber.js';

export async function queueTriggeredSms(
  models: CommunicationModels,
  session: ClientSession,
  log: Logger,
  request: { eventId: string; trigger: SmsTrigger; email: string; phone?: string | undefined; values: SmsValues },
): Promise<boolean> {
  const template = await models.SmsTemplate.findOne({ trigger: request.trigger, isActive: true })
    .sort({ updatedAt: -1 })
    .session(session)
    .lean<SmsTemplateDoc>();
  if (!template) return false;
  const subscriber = await models.Subscriber.findOne(
    { email: request.email.toLowerCase() },
    { smsSubscribed: 1, phone: 1, status: 1 },
  )
    .session(session)
    .lean<Pick<SubscriberDoc, 'smsSubscribed' | 'phone' | 'status'>>();
  if (!subscriber?.smsSubscribed || subscriber.status === 'unsubscribed') return false;
  const to = e164(subscriber.phone ?? request.phone ?? '');
  if (!to) {
    log.warn({ trigger: request.trigger }, 'SMS subscriber without a usable phone number; no SMS');
    return false;
  }
  const dedupeKey = `${request.eventId}:${template._id}`;
  if (await models.SmsMessage.exists({ dedupeKey }).session(session)) return false;
  await models.SmsMessage.create(
    [
      {
        dedupeKey,
        templateId: template._id,
        templateName: template.name,
        trigger: request.trigger,
        to,
        body: renderSms(template.content, request.values),
        status: 'queued',
      },
    ],
    { session },
  );
  return true;
}
