// The support service's events become emails: a new message (the visitor's confirmation, and the
// team's notice while admin notifications are on), a reply from the shop, a return request (the
// customer's confirmation and the team's notice) and each return status change. Exactly once: the
// service kit's processed events plus the queue's `<event id>:<template>` dedupe key.
import { consumeEvent } from '@shop/service-kit';
import { enqueueEmail } from '../queue/enqueue.js';
import {
  returnAdminNoticeEmail,
  returnConfirmationEmail,
  returnStatusEmail,
  supportAdminNoticeEmail,
  supportConfirmationEmail,
  supportReplyEmail,
} from '../templates/support.js';
import { queueAdminNotice, type ConsumerDeps } from './consumers.js';

export function supportConsumers(deps: ConsumerDeps) {
  const { models, settings, clock, queued } = deps;
  const options = () => ({ maxAttempts: settings.maxAttempts, now: clock() });
  return [
    consumeEvent('support.message_created', async (event, { session, log }) => {
      await enqueueEmail(
        models.Email,
        session,
        { ...supportConfirmationEmail(event.data, settings.shopUrl), to: event.data.email, sourceEventId: event.id },
        options(),
      );
      await queueAdminNotice(deps, session, log, {
        ...supportAdminNoticeEmail(event.data, settings.shopUrl),
        sourceEventId: event.id,
      });
      queued();
    }),
    consumeEvent('support.replied', async (event, { session }) => {
      await enqueueEmail(
        models.Email,
        session,
        { ...supportReplyEmail(event.data, settings.shopUrl), to: event.data.email, sourceEventId: event.id },
        options(),
      );
      queued();
    }),
    consumeEvent('support.return_requested', async (event, { session, log }) => {
      await enqueueEmail(
        models.Email,
        session,
        { ...returnConfirmationEmail(event.data, settings.shopUrl), to: event.data.email, sourceEventId: event.id },
        options(),
      );
      await queueAdminNotice(deps, session, log, {
        ...returnAdminNoticeEmail(event.data, settings.shopUrl),
        sourceEventId: event.id,
      });
      queued();
    }),
    consumeEvent('support.return_status_changed', async (event, { session }) => {
      await enqueueEmail(
        models.Email,
        session,
        { ...returnStatusEmail(event.data, settings.shopUrl), to: event.data.email, sourceEventId: event.id },
        options(),
      );
      queued();
    }),
  ];
}
