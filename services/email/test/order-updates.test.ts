// The back office's order events become exactly one email each over real SMTP (dev mailbox): the quote
// with an absolute payment link, the more-information request, an admin message and status updates
// (only for statuses the customer should know about); every email record carries the order's ids so
// email.sent can fill the order's email history.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infoRequestSubject, type EventData, type EventType } from '@shop/contracts';
import type { DevMailbox } from '@shop/dev-mailbox';
import {
  consumed as consumedBy,
  eventually,
  publishEvent,
  startEmailStack,
  stopEmailStack,
  type EmailService,
  type EmailStack,
} from './support/harness.js';

let stack: EmailStack;
let mailbox: DevMailbox;
let service: EmailService;
const teamAddress = 'payments-desk@shop.test';

beforeAll(async () => {
  stack = await startEmailStack(teamAddress);
  ({ mailbox, service } = stack);
}, 60_000);

afterAll(() => stopEmailStack(stack));

const publish = <T extends EventType>(type: T, data: EventData<T>, copies = 1) =>
  publishEvent(stack.nats.url, type, 'orders', data, copies);
const consumed = (durable: string) => consumedBy(service, 'ORDERS', durable);

const customer = () => ({
  orderId: randomUUID().replace(/-/g, '').slice(0, 24),
  orderNumber: `CC-${randomUUID().slice(0, 8).toUpperCase()}`,
  customerName: 'Jordan <b>Lee</b>',
  email: `buyer-${randomUUID().slice(0, 8)}@example.com`,
});

describe('order emails from the back office', () => {
  it('quote: one email with amount, notes, expiry and the absolute payment link, even when delivered twice', async () => {
    const c = customer();
    const event = await publish(
      'order.quote_sent',
      {
        ...c,
        itemType: 'coin',
        quantity: 100,
        quoteAmount: 1250.5,
        quoteNotes: 'Includes <script>alert(1)</script> rush\nproduction',
        taxRate: 0,
        taxAmount: 0,
        finalAmount: 1250.5,
        quoteExpiresAt: '2026-12-22T12:00:00.000Z',
        paymentPath: `/order/pay/${c.orderId}`,
        emailRecordId: 'rec-quote-1',
      },
      2,
    );
    const mail = await mailbox.waitFor((m) => m.to.includes(c.email));
    await consumed('email--order-quote_sent');
    const record = await eventually(
      () => service.ctx.models.Email.findOne({ sourceEventId: event.id }).lean(),
      (r) => r?.status === 'sent',
    );
    expect(await mailbox.messages({ to: c.email })).toHaveLength(1);
    expect(record).toMatchObject({
      template: 'order_quote',
      orderId: c.orderId,
      orderNumber: c.orderNumber,
      emailRecordId: 'rec-quote-1',
    });
    const payUrl = `https://shop.example.com/order/pay/${c.orderId}`;
    expect(mail.subject).toBe(`Your quote for order #${c.orderNumber}: $1,250.50`);
    expect(mail.text).toContain(`Review and pay your quote: ${payUrl}`);
    expect(mail.html).toContain(`href="${payUrl}"`);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('$1,250.50');
      expect(part).toContain('December 22, 2026');
    }
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).not.toContain('<b>Lee</b>');
  });

  it('more information request: the spec subject and the message', async () => {
    const c = customer();
    await publish('order.info_requested', {
      ...c,
      subject: infoRequestSubject(c.orderNumber),
      message: 'Which colours do you want?',
      emailRecordId: 'rec-info',
    });
    const mail = await mailbox.waitFor((m) => m.to.includes(c.email));
    expect(mail.subject).toBe(`Additional Information Needed - Order #${c.orderNumber}`);
    expect(mail.text).toContain('Which colours do you want?');
  });

  it('admin message: subject and text as written, line breaks kept', async () => {
    const c = customer();
    await publish('order.email_requested', {
      ...c,
      subject: `Update on your order #${c.orderNumber}`,
      message: 'Line one\nLine two',
      type: 'admin_message',
      emailRecordId: 'rec-msg',
    });
    const mail = await mailbox.waitFor((m) => m.to.includes(c.email));
    expect(mail.subject).toBe(`Update on your order #${c.orderNumber}`);
    expect(mail.text).toContain('Line one\nLine two');
    expect(mail.html).toContain('Line one<br>Line two');
  });

  it('status updates only for statuses the customer should know about', async () => {
    const quiet = customer();
    const loud = customer();
    const base = { itemType: 'coin' as const, changedBy: 'admin:boss@shop.test', changedAt: new Date().toISOString() };
    await publish('order.status_changed', { ...quiet, ...base, previousStatus: 'pending', status: 'pending_quote' });
    await publish('order.status_changed', {
      ...loud,
      ...base,
      previousStatus: 'production',
      status: 'shipped',
      tracking: { carrier: 'FEDEX', trackingNumber: '7712 3456' },
      emailRecordId: 'rec-status',
    });
    const mail = await mailbox.waitFor((m) => m.to.includes(loud.email));
    await consumed('email--order-status_changed');
    expect(mail.subject).toBe(`Order #${loud.orderNumber} update: Shipped`);
    expect(mail.text).toContain('Carrier: FedEx');
    expect(mail.text).toContain('Tracking number: 7712 3456');
    expect(await mailbox.messages({ to: quiet.email })).toHaveLength(0);
    expect(await service.ctx.models.Email.countDocuments({ orderId: quiet.orderId })).toBe(0);
  });
});

describe('a paid quote (order.paid)', () => {
  const paid = (c: ReturnType<typeof customer>): EventData<'order.paid'> => ({
    ...c,
    itemType: 'coin',
    quantity: 100,
    amount: 1062.5,
    quoteAmount: 1000,
    taxAmount: 62.5,
    paymentIntentId: 'pi_3QabcDEF',
    provider: 'stripe',
    paidAt: '2026-11-22T10:15:00.000Z',
    emailRecordId: 'rec-receipt-1',
  });

  it("sends the customer one receipt and the team one notice, even when delivered twice; the provider's status change sends nothing more", async () => {
    const c = customer();
    const event = await publish('order.paid', paid(c), 2);
    await publish('order.status_changed', {
      ...c,
      itemType: 'coin',
      previousStatus: 'quote_sent',
      status: 'paid',
      changedBy: 'payment:stripe',
      total: 1062.5,
      changedAt: '2026-11-22T10:15:01.000Z',
    });
    const receipt = await mailbox.waitFor((m) => m.to.includes(c.email));
    const notice = await mailbox.waitFor((m) => m.to.includes(teamAddress) && m.subject.includes(c.orderNumber));
    await consumed('email--order-paid');
    await consumed('email--order-status_changed');
    await eventually(
      () => service.ctx.models.Email.countDocuments({ sourceEventId: event.id, status: 'sent' }),
      (n) => n === 2,
    );

    expect(await mailbox.messages({ to: c.email })).toHaveLength(1);
    expect((await mailbox.messages({ to: teamAddress })).filter((m) => m.subject.includes(c.orderNumber))).toHaveLength(
      1,
    );
    expect(receipt.subject).toBe(`Payment received for order #${c.orderNumber}`);
    for (const line of [
      `Order number: ${c.orderNumber}`,
      'Item: Custom Challenge Coins',
      'Quantity: 100',
      'Subtotal: $1,000.00',
      'Tax: $62.50',
      'Total charged: $1,062.50',
      'Payment date: November 22, 2026',
      'Payment reference: pi_3QabcDEF',
      'Work on your order begins at once',
    ]) {
      expect(receipt.text).toContain(line);
    }
    expect(receipt.html).toContain('Total charged');
    expect(receipt.html).not.toContain('<b>Lee</b>');
    const records = await service.ctx.models.Email.find({ sourceEventId: event.id }).lean();
    expect(records.find((r) => r.template === 'order_payment_receipt')).toMatchObject({
      to: c.email,
      orderId: c.orderId,
      emailRecordId: 'rec-receipt-1',
    });
    // The team's copy is not part of the customer's email history.
    expect(records.find((r) => r.template === 'admin_payment_received')).toMatchObject({
      to: teamAddress,
      orderId: c.orderId,
      emailRecordId: null,
    });
    expect(notice.subject).toBe(`Payment received ${c.orderNumber}: $1,062.50 from Jordan <b>Lee</b>`);
    expect(notice.text).toContain(`Email: ${c.email}`);
    expect(notice.text).toContain('Provider: Stripe');
  });

  it('an admin setting a status to paid by hand still emails the status update', async () => {
    const c = customer();
    await publish('order.status_changed', {
      ...c,
      itemType: 'coin',
      previousStatus: 'quote_sent',
      status: 'paid',
      changedBy: 'admin:boss@shop.test',
      changedAt: new Date().toISOString(),
      emailRecordId: 'rec-manual',
    });
    const mail = await mailbox.waitFor((m) => m.to.includes(c.email));
    expect(mail.subject).toBe(`Order #${c.orderNumber} update: Paid`);
  });

  it('with admin notifications off, only the receipt goes out', async () => {
    await service.ctx.models.AdminSettings.create({
      _id: 'admin',
      notificationEmail: teamAddress,
      emailNotificationsEnabled: false,
    });
    try {
      const c = customer();
      const event = await publish('order.paid', paid(c));
      await mailbox.waitFor((m) => m.to.includes(c.email));
      await consumed('email--order-paid');
      const records = await service.ctx.models.Email.find({ sourceEventId: event.id }).lean();
      expect(records.map((r) => r.template)).toEqual(['order_payment_receipt']);
    } finally {
      await service.ctx.models.AdminSettings.deleteOne({ _id: 'admin' });
    }
  });
});

const refundDue = (over: Partial<EventData<'payment.refund_due'>> = {}): EventData<'payment.refund_due'> => ({
  orderId: randomUUID(),
  orderNumber: `CC-${randomUUID().slice(0, 8).toUpperCase()}`,
  paymentIntentId: `pi_${randomUUID().replace(/-/g, '')}`,
  amount: 31875,
  currency: 'usd',
  orderTotal: 28688,
  reason: "$318.75 was charged but the order's total is now $286.88: the total changed after this payment was started.",
  recordedAt: '2026-11-24T10:00:00.000Z',
  ...over,
});
const publishRefundDue = (data: EventData<'payment.refund_due'>, copies = 1) =>
  publishEvent(stack.nats.url, 'payment.refund_due', 'payments', data, copies);
const refundDueConsumed = () => consumedBy(service, 'PAYMENTS', 'email--payment-refund_due');

describe("the team's notice of a payment due for a refund (payment.refund_due)", () => {
  it('emails the notification address once with the amounts, the reason and what to do', async () => {
    const data = refundDue();
    await publishRefundDue(data, 2);
    const mail = await mailbox.waitFor((m) => m.to.includes(teamAddress) && m.text.includes(data.paymentIntentId));
    await refundDueConsumed();
    expect(
      (await mailbox.messages({ to: teamAddress })).filter((m) => m.text.includes(data.paymentIntentId)),
    ).toHaveLength(1);
    expect(mail.subject).toBe(`Refund due ${data.orderNumber}: $318.75 does not pay the order`);
    expect(mail.text).toContain('$286.88');
    expect(mail.text).toContain(data.reason);
    expect(mail.text).toContain('mark it refunded in the back office');
    // The reason's apostrophe is escaped in the HTML part.
    expect(mail.html).toContain('order&#39;s total is now');
  });

  it('says there was no quote to pay when the order had none', async () => {
    const data = refundDue({ orderTotal: null, reason: 'The order has no quote to pay.' });
    await publishRefundDue(data);
    const mail = await mailbox.waitFor((m) => m.to.includes(teamAddress) && m.text.includes(data.paymentIntentId));
    expect(mail.text).toContain('No quote to pay');
  });

  it('is not sent while admin notifications are off', async () => {
    await service.ctx.models.AdminSettings.updateOne(
      { _id: 'admin' },
      { $set: { notificationEmail: teamAddress, emailNotificationsEnabled: false } },
      { upsert: true },
    );
    try {
      const quiet = refundDue();
      await publishRefundDue(quiet);
      await refundDueConsumed();
      await service.ctx.models.AdminSettings.deleteMany({});
      const marker = refundDue();
      await publishRefundDue(marker);
      await mailbox.waitFor((m) => m.text.includes(marker.paymentIntentId));
      expect(
        (await mailbox.messages({ to: teamAddress })).filter((m) => m.text.includes(quiet.paymentIntentId)),
      ).toHaveLength(0);
    } finally {
      await service.ctx.models.AdminSettings.deleteMany({});
    }
  });
});
