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

export interface SmsRequest {
  eventId: string;
  trigger: SmsTrigger;
  email: string;
  phone?: string | undefined;
  values: SmsValues;
}

/** What the decision to text a customer needs of their subscriber record (null: not a subscriber). */
export type SmsSubscriber = Pick<SubscriberDoc, 'smsSubscribed' | 'phone' | 'status'> | null;

export async function queueTriggeredSms(
  models: CommunicationModels,
  session: ClientSession,
  log: Logger,
  request: SmsRequest,
): Promise<boolean> {
  const template = await activeTemplate(models, session, request.trigger);
  if (!template) return false;
  const subscriber = await models.Subscriber.findOne(
    { email: request.email.toLowerCase() },
    { smsSubscribed: 1, phone: 1, status: 1 },
  )
    .session(session)
    .lean<NonNullable<SmsSubscriber>>();
  return (await queueSms(models, session, log, template, [{ request, subscriber }])) === 1;
}

/**
 * The SMS of several events of one trigger, each decided on the subscriber as it stood at that event
 * (the caller's snapshot), in three round trips whatever their number: the template, the dedupe keys
 * already queued, one insert. Returns how many were queued.
 */
export async function queueTriggeredSmsBatch(
  models: CommunicationModels,
  session: ClientSession,
  log: Logger,
  trigger: SmsTrigger,
  requests: { request: Omit<SmsRequest, 'trigger'>; subscriber: SmsSubscriber }[],
): Promise<number> {
  if (requests.length === 0) return 0;
  const template = await activeTemplate(models, session, trigger);
  if (!template) return 0;
  return queueSms(
    models,
    session,
    log,
    template,
    requests.map(({ request, subscriber }) => ({ request: { ...request, trigger }, subscriber })),
  );
}

function activeTemplate(models: CommunicationModels, session: ClientSession, trigger: SmsTrigger) {
  return models.SmsTemplate.findOne({ trigger, isActive: true })
    .sort({ updatedAt: -1 })
    .session(session)
    .lean<SmsTemplateDoc>();
}

async function queueSms(
  models: CommunicationModels,
  session: ClientSession,
  log: Logger,
  template: SmsTemplateDoc,
  requests: { request: SmsRequest; subscriber: SmsSubscriber }[],
): Promise<number> {
  const messages = requests.flatMap(({ request, subscriber }) => {
    if (!subscriber?.smsSubscribed || subscriber.status === 'unsubscribed') return [];
    const to = e164(subscriber.phone ?? request.phone ?? '');
    if (!to) {
      log.warn({ trigger: request.trigger }, 'SMS subscriber without a usable phone number; no SMS');
      return [];
    }
    return [
      {
        dedupeKey: `${request.eventId}:${template._id}`,
        templateId: template._id,
        templateName: template.name,
        trigger: request.trigger,
        to,
        body: renderSms(template.content, request.values),
        status: 'queued' as const,
      },
    ];
  });
  if (messages.length === 0) return 0;
  // One SMS per event and template, however often the event arrives.
  const seen = new Set(
    (
      await models.SmsMessage.find({ dedupeKey: { $in: messages.map((m) => m.dedupeKey) } }, { dedupeKey: 1 })
        .session(session)
        .lean<{ dedupeKey: string }[]>()
    ).map((m) => m.dedupeKey),
  );
  const fresh = messages.filter((m) => !seen.has(m.dedupeKey) && (seen.add(m.dedupeKey), true));
  if (fresh.length > 0) await models.SmsMessage.insertMany(fresh, { session });
  return fresh.length;
}
