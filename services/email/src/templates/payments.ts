// Emails of a paid quote (order.paid): the customer's payment receipt and the team's notice of the
// payment; and the team's notice of a payment to refund (payment.refund_due). Same layout and escaping as
// the shop's other emails.
import { catalog, formatCents, type EventData } from '@shop/contracts';
import {
  dateTime,
  escapeHtml,
  firstName,
  formatMoney,
  layout,
  rowsHtml,
  rowsText,
  safeLink,
  shopName,
  type RenderedEmail,
  type Row,
} from './index.js';

type OrderPaid = EventData<'order.paid'>;

const itemTitle = (itemType: string) => catalog[itemType as keyof typeof catalog]?.title ?? itemType;

/** The figures both emails show: what was quoted, the tax, and what the provider charged. */
function paymentRows(data: OrderPaid): Row[] {
  return [
    ['Order number', data.orderNumber],
    ['Item', itemTitle(data.itemType)],
    ['Quantity', String(data.quantity)],
    ['Subtotal', data.quoteAmount !== undefined ? formatMoney(data.quoteAmount) : undefined],
    ['Tax', data.taxAmount !== undefined ? formatMoney(data.taxAmount) : undefined],
    ['Total charged', formatMoney(data.amount)],
    ['Payment date', dateTime(data.paidAt)],
    ['Payment reference', data.paymentIntentId],
  ];
}

const nextSteps =
  'Work on your order begins at once: our team starts on your design and sends you a proof to review before production. We will email you at each step.';

export function paymentReceiptEmail(data: OrderPaid, shopUrl: string): RenderedEmail {
  const subject = `Payment received for order #${data.orderNumber}`;
  const rows = paymentRows(data);
  const trackUrl = `${shopUrl}/track`;
  const html = layout(
    subject,
    `<h1 style="font-size:22px;margin:0 0 12px">Thank you for your payment, ${escapeHtml(firstName(data.customerName))}!</h1>
<p style="margin:0 0 12px">We have received your payment for order <strong>${escapeHtml(data.orderNumber)}</strong>. This email is your receipt.</p>
${rowsHtml(rows)}
<p style="margin:12px 0"><strong>What happens next:</strong> ${escapeHtml(nextSteps)}</p>
<p style="margin:12px 0">Follow your order on ${safeLink(trackUrl, trackUrl)} with your order number and this email address. Reply to this email with any questions.</p>`,
  );
  const text = [
    `Thank you for your payment, ${firstName(data.customerName)}!`,
    '',
    `We have received your payment for order ${data.orderNumber}. This email is your receipt.`,
    '',
    rowsText(rows),
    '',
    `What happens next: ${nextSteps}`,
    '',
    `Track your order: ${trackUrl}`,
    '',
    shopName,
  ].join('\n');
  return { template: 'order_payment_receipt', subject, html, text };
}

export function adminPaymentEmail(data: OrderPaid, shopUrl: string): RenderedEmail {
  const subject = `Payment received ${data.orderNumber}: ${formatMoney(data.amount)} from ${data.customerName}`;
  const rows: Row[] = [
    ['Customer', data.customerName],
    ['Email', data.email],
    ...paymentRows(data),
    ['Provider', data.provider === 'stripe' ? 'Stripe' : 'Test mode (no real charge)'],
  ];
  const adminUrl = `${shopUrl}/admin`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">Payment received for ${escapeHtml(data.orderNumber)}</h1>
<p style="margin:0 0 12px">The customer has paid the quote; the order is now Paid and ready for work to begin.</p>
${rowsHtml(rows)}
<p style="margin:16px 0">Open it in the back office: ${safeLink(adminUrl, adminUrl)}</p>`,
  );
  const text = [
    `Payment received for ${data.orderNumber}`,
    '',
    'The customer has paid the quote; the order is now Paid and ready for work to begin.',
    '',
    rowsText(rows),
    '',
    `Back office: ${adminUrl}`,
  ].join('\n');
  return { template: 'admin_payment_received', subject, html, text };
}

/** The team's notice of a payment taken that does not pay its order: what was taken, why, where to act. */
export function adminRefundDueEmail(data: EventData<'payment.refund_due'>, shopUrl: string): RenderedEmail {
  const subject = `Refund due ${data.orderNumber}: ${formatCents(data.amount)} does not pay the order`;
  const rows: Row[] = [
    ['Order number', data.orderNumber],
    ['Amount taken', formatCents(data.amount)],
    ["Order's total when it arrived", data.orderTotal === null ? 'No quote to pay' : formatCents(data.orderTotal)],
    ['Reason', data.reason],
    ['Recorded', dateTime(data.recordedAt)],
    ['Payment reference', data.paymentIntentId],
  ];
  const steps =
    "The order was not marked paid. Refund this payment in Stripe's dashboard (or keep it against a new quote, with the customer's agreement), then mark it refunded in the back office, above the orders list.";
  const adminUrl = `${shopUrl}/admin`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">A payment is due for a refund</h1>
<p style="margin:0 0 12px">A payment was taken for ${escapeHtml(data.orderNumber)} that does not pay the order.</p>
${rowsHtml(rows)}
<p style="margin:12px 0">${escapeHtml(steps)}</p>
<p style="margin:16px 0">Back office: ${safeLink(adminUrl, adminUrl)}</p>`,
  );
  const text = [
    'A payment is due for a refund',
    '',
    `A payment was taken for ${data.orderNumber} that does not pay the order.`,
    '',
    rowsText(rows),
    '',
    steps,
    '',
    `Back office: ${adminUrl}`,
  ].join('\n');
  return { template: 'admin_refund_due', subject, html, text };
}
