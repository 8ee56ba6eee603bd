// alert.raised becomes the team's notice over real SMTP (dev mailbox): high and critical alerts only,
// once however often the event is delivered, and not while admin notifications are off.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventData } from '@shop/contracts';
import type { DevMailbox } from '@shop/dev-mailbox';
import {
  consumed as consumedBy,
  publishEvent,
  startEmailStack,
  stopEmailStack,
  type EmailService,
  type EmailStack,
} from './support/harness.js';

let stack: EmailStack;
let mailbox: DevMailbox;
let service: EmailService;
const team = 'watch-officer@shop.test';

beforeAll(async () => {
  stack = await startEmailStack(team);
  ({ mailbox, service } = stack);
}, 60_000);
afterAll(() => stopEmailStack(stack));

const alert = (over: Partial<EventData<'alert.raised'>> = {}): EventData<'alert.raised'> => ({
  alertId: randomUUID(),
  type: 'brute_force',
  severity: 'high',
  description: `Sign-in brute force: 5 failed admin sign-ins from 192.0.2.7 within 15 minutes <${randomUUID().slice(0, 6)}>`,
  ip: '192.0.2.7',
  raisedAt: '2026-11-24T10:00:00.000Z',
  ...over,
});
const publish = (data: EventData<'alert.raised'>, copies = 1) =>
  publishEvent(stack.nats.url, 'alert.raised', 'security', data, copies);
const consumed = () => consumedBy(service, 'SECURITY', 'email--alert-raised');

describe('security alert emails', () => {
  it('a high alert emails the notification address once, escaped, with where to act', async () => {
    const data = alert();
    await publish(data, 2);
    const mail = await mailbox.waitFor((m) => m.to.includes(team) && m.text.includes(data.description));
    await consumed();
    expect((await mailbox.messages({ to: team })).filter((m) => m.text.includes(data.description))).toHaveLength(1);
    expect(mail.subject).toBe(`[High] Security alert: ${data.description}`);
    expect(mail.text).toContain('192.0.2.7');
    expect(mail.text).toContain('/admin');
    expect(mail.html).toContain('&lt;');
    expect(mail.html).not.toContain(`<${data.description.split('<')[1]}`);
  });

  it('a critical alert emails too; low and medium alerts do not', async () => {
    const critical = alert({ severity: 'critical', description: `critical ${randomUUID()}` });
    const medium = alert({ severity: 'medium', type: 'not_found_burst', description: `medium ${randomUUID()}` });
    const low = alert({ severity: 'low', type: 'banned_ip_retry', description: `low ${randomUUID()}` });
    await publish(medium);
    await publish(low);
    await publish(critical);
    await mailbox.waitFor((m) => m.text.includes(critical.description));
    await consumed();
    expect(
      (await mailbox.messages({ to: team })).filter(
        (m) => m.text.includes(medium.description) || m.text.includes(low.description),
      ),
    ).toHaveLength(0);
  });

  it('no email while admin notifications are off', async () => {
    await service.ctx.models.AdminSettings.updateOne(
      { _id: 'admin' },
      { $set: { notificationEmail: team, emailNotificationsEnabled: false } },
      { upsert: true },
    );
    try {
      const quiet = alert({ description: `quiet ${randomUUID()}` });
      const marker = alert({ description: `after ${randomUUID()}` });
      await publish(quiet);
      await consumed();
      await service.ctx.models.AdminSettings.deleteMany({});
      await publish(marker);
      await mailbox.waitFor((m) => m.text.includes(marker.description));
      expect((await mailbox.messages({ to: team })).filter((m) => m.text.includes(quiet.description))).toHaveLength(0);
    } finally {
      await service.ctx.models.AdminSettings.deleteMany({});
    }
  });
});
