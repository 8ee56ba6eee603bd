// alert.raised: a high or critical security alert becomes the team's notice, to the notification
// address of the admin settings and only while notifications are on (low and medium alerts are only
// in the back office). One email per alert: the queue's `<event id>:<template>` dedupe key.
import { consumeEvent } from '@shop/service-kit';
import { securityAlertEmail } from '../templates/security.js';
import { queueAdminNotice, type ConsumerDeps } from './consumers.js';

export const emailedAlertSeverities: ReadonlySet<string> = new Set(['high', 'critical']);

export function alertRaisedConsumer(deps: ConsumerDeps) {
  return consumeEvent('alert.raised', async (event, { session, log }) => {
    if (!emailedAlertSeverities.has(event.data.severity)) {
      log.debug({ alert: event.data.type, severity: event.data.severity }, 'security alert below high: no email');
      return;
    }
    await queueAdminNotice(deps, session, log, {
      ...securityAlertEmail(event.data, deps.settings.shopUrl),
      sourceEventId: event.id,
    });
    deps.queued();
  });
}
