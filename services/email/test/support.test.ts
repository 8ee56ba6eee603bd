// The support service's events become emails over real SMTP (dev mailbox): the visitor's confirmation
// with the MSG- reference and the response promise, the team's notice (only while notifications are on),
// a reply, a return's confirmation with the promises, the team's notice of a return, a return status change.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportTexts, type EventData, type EventType } from '@shop/contracts';
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
const team = 'support-desk@shop.test';

beforeAll(async () => {
  stack = await startEmailStack(team);
  ({ mailbox, service } = stack);
}, 60_000);
afterAll(() => stopEmailStack(stack));

const visitor = () => `visitor-${randomUUID().slice(0, 8)}@example.com`;
const publish = <T extends EventType>(type: T, data: EventData<T>, copies = 1) =>
  publishEvent(stack.nats.url, type, 'support', data, copies);
const consumed = (durable: string) => consumedBy(service, 'SUPPORT', durable);

describe('support emails', () => {
  it('a new message: the visitor gets the reference and the promise once; the team gets a notice', async () => {
    const email = visitor();
    const reference = `MSG-123456-${randomUUID().slice(0, 4).toUpperCase()}`;
    await publish(
      'support.message_created',
      {
        messageId: 'm1',
        reference,
        name: 'Pat <i>Doe</i>',
        email,
        subject: 'Edge options',
        message: 'Diamond cut?',
        priority: 'urgent',
        submittedDate: '2026-11-24T10:00:00.000Z',
        respondBy: '2026-11-24T14:00:00.000Z',
      },
      2,
    );
    const mail = await mailbox.waitFor((m) => m.to.includes(email));
    const notice = await mailbox.waitFor((m) => m.to.includes(team) && m.subject.includes(reference));
    await consumed('email--support-message_created');
    expect(await mailbox.messages({ to: email })).toHaveLength(1);
    expect(mail.subject).toBe(`We received your message (${reference})`);
    expect(mail.text).toContain(supportTexts.responsePromise);
    expect(mail.text).toContain('Diamond cut?');
    expect(notice.html).toContain('Pat &lt;i&gt;Doe&lt;/i&gt;');
    expect(notice.html).not.toContain('<i>Doe');
    expect(notice.subject).toBe(`New support message ${reference} [Urgent]: Edge options`);
  });

  it('no team notice while admin notifications are off', async () => {
    await service.ctx.models.AdminSettings.updateOne(
      { _id: 'admin' },
      { $set: { notificationEmail: team, emailNotificationsEnabled: false } },
      { upsert: true },
    );
    try {
      const email = visitor();
      const reference = 'MSG-654321-QUIET';
      await publish('support.message_created', {
        messageId: 'm2',
        reference,
        name: 'Lee',
        email,
        subject: 'Hi',
        message: 'Hello',
        priority: 'low',
        submittedDate: '2026-11-24T10:00:00.000Z',
      });
      await mailbox.waitFor((m) => m.to.includes(email));
      await consumed('email--support-message_created');
      expect((await mailbox.messages({ to: team })).filter((m) => m.subject.includes(reference))).toHaveLength(0);
    } finally {
      await service.ctx.models.AdminSettings.deleteMany({});
    }
  });

  it('a reply from the shop reaches the visitor', async () => {
    const email = visitor();
    await publish('support.replied', {
      messageId: 'm3',
      responseId: 'r1',
      reference: 'MSG-111111-ABCD',
      name: 'Pat Doe',
      email,
      subject: 'Edge options',
      content: 'Yes, diamond cut works.',
      authorName: 'Sam',
      repliedAt: '2026-11-24T11:00:00.000Z',
    });
    const mail = await mailbox.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe('Re: Edge options (MSG-111111-ABCD)');
    expect(mail.text).toContain('Yes, diamond cut works.');
    expect(mail.text).toContain('Sam, Tactical Gear Co. support');
  });

  it('a return: confirmation with the promises, the team notice, and each status change', async () => {
    const email = visitor();
    const common = {
      returnId: 'ret1',
      reference: 'RET-222222-WXYZ',
      orderNumber: 'CC-ABCDEFGH',
      email,
      customerName: 'Casey Ray',
    };
    await publish('support.return_requested', {
      ...common,
      reason: 'damaged',
      itemCondition: 'shipping_damage',
      description: 'Bent coins',
      photoCount: 2,
      requestedAt: '2026-11-24T10:00:00.000Z',
    });
    const confirmation = await mailbox.waitFor((m) => m.to.includes(email));
    expect(confirmation.subject).toBe('Return request RET-222222-WXYZ received for order #CC-ABCDEFGH');
    expect(confirmation.text).toContain(supportTexts.returnPromise);
    expect(confirmation.text).toContain('Reason: Damaged in shipping');
    await mailbox.waitFor(
      (m) => m.to.includes(team) && m.subject.startsWith('Return request RET-222222-WXYZ for order #CC-ABCDEFGH'),
    );
    await publish('support.return_status_changed', {
      ...common,
      previousStatus: 'requested',
      status: 'approved',
      note: 'Label attached',
      changedBy: 'admin@shop.local',
      changedAt: '2026-11-24T12:00:00.000Z',
    });
    const update = await mailbox.waitFor((m) => m.to.includes(email) && m.subject.includes('Approved'));
    expect(update.subject).toBe('Return RET-222222-WXYZ for order #CC-ABCDEFGH: Approved (label sent)');
    expect(update.text).toContain('Label attached');
  });
});
