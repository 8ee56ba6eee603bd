// Emails the back office causes (admin part A order modals): the quote with its payment link, the
// request for more information, a status update the customer should know about, and a message the
// admin wrote. Same layout and escaping as the shop's other emails; every value is escaped and the
// admin's own text keeps its line breaks.
import {
  carrier,
  catalog,
  orderStatusLabels,
  orderStatusDescriptions,
  orderPaymentPath,
  type EventData,
} from '@shop/contracts';
import {
  dateTime,
  escapeHtml,
  firstName,
  formatMoney,
  layout,
  taxLabel,
  rowsHtml,
  rowsText,
  safeLink,
  shopName,
  type RenderedEmail,
  type Row,
} from './index.js';

/** Text the team wrote, as escaped HTML paragraphs with its line breaks kept. */
export const paragraphs = (text: string) =>
  text
    .trim()
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');

const button = (url: string, label: string) =>
  /^https?:\/\//i.test(url)
    ? `<p style="margin:16px 0"><a href="${escapeHtml(url)}" style="display:inline-block;background:#2f3524;color:#e9d9a6;padding:12px 22px;text-decoration:none;font-weight:bold">${escapeHtml(label)}</a></p>`
    : '';

const itemTitle = (itemType: string) => catalog[itemType as keyof typeof catalog]?.title ?? itemType;

/** The quote: amount, notes, expiry and the absolute payment link `{shopUrl}/order/pay/{orderId}`. */
export function quoteEmail(data: EventData<'order.quote_sent'>, shopUrl: string): RenderedEmail {
  const subject = `Your quote for order #${data.orderNumber}: ${formatMoney(data.finalAmount)}`;
  const payUrl = `${shopUrl}${data.paymentPath.startsWith('/') ? data.paymentPath : orderPaymentPath(data.orderId)}`;
  const rows: Row[] = [
    ['Order number', data.orderNumber],
    ['Item', `${data.quantity} x ${itemTitle(data.itemType)}`],
    ['Subtotal', formatMoney(data.quoteAmount)],
    [taxLabel(data.taxRate), data.taxAmount > 0 ? formatMoney(data.taxAmount) : undefined],
    ['Total to pay', formatMoney(data.finalAmount)],
    ['Valid until', dateTime(data.quoteExpiresAt)],
  ];
  const html = layout(
    subject,
    `<h1 style="font-size:22px;margin:0 0 12px">Your quote is ready, ${escapeHtml(firstName(data.customerName))}</h1>
<p style="margin:0 0 12px">Thank you for your request. Here is our quote for order <strong>${escapeHtml(data.orderNumber)}</strong>.</p>
${rowsHtml(rows)}
${data.quoteNotes ? `<h2 style="font-size:16px;margin:16px 0 4px">Notes from our team</h2>${paragraphs(data.quoteNotes)}` : ''}
${button(payUrl, 'Review and pay your quote')}
<p style="margin:12px 0">Or open this link: ${safeLink(payUrl, payUrl)}</p>
<p style="margin:12px 0">The quote is valid until ${escapeHtml(dateTime(data.quoteExpiresAt))}. Reply to this email with any questions.</p>`,
  );
  const text = [
    `Your quote is ready, ${firstName(data.customerName)}`,
    '',
    `Here is our quote for order ${data.orderNumber}.`,
    '',
    rowsText(rows),
    ...(data.quoteNotes ? ['', 'Notes from our team:', data.quoteNotes] : []),
    '',
    `Review and pay your quote: ${payUrl}`,
    '',
    `The quote is valid until ${dateTime(data.quoteExpiresAt)}.`,
    '',
    shopName,
  ].join('\n');
  return { template: 'order_quote', subject, html, text };
}

export function infoRequestEmail(data: EventData<'order.info_requested'>, shopUrl: string): RenderedEmail {
  const trackUrl = `${shopUrl}/track`;
  const html = layout(
    data.subject,
    `<h1 style="font-size:20px;margin:0 0 12px">Hello ${escapeHtml(firstName(data.customerName))},</h1>
<p style="margin:0 0 12px">We need a little more information about order <strong>${escapeHtml(data.orderNumber)}</strong> to prepare your quote.</p>
${paragraphs(data.message)}
<p style="margin:12px 0">Please reply to this email with the details. You can follow your order on ${safeLink(trackUrl, trackUrl)}.</p>`,
  );
  const text = [
    `Hello ${firstName(data.customerName)},`,
    '',
    `We need a little more information about order ${data.orderNumber} to prepare your quote.`,
    '',
    data.message.trim(),
    '',
    'Please reply to this email with the details.',
    `Track your order: ${trackUrl}`,
    '',
    shopName,
  ].join('\n');
  return { template: 'order_info_request', subject: data.subject, html, text };
}

const statusLines: Partial<Record<string, string>> = {
  awaiting_payment: 'Your quote is waiting for payment.',
  paid: 'We have received your payment. Thank you!',
  shipped: 'Your order is on its way.',
  cancelled: 'Your order has been cancelled. If this is unexpected, please reply to this email.',
};

export function statusUpdateEmail(data: EventData<'order.status_changed'>, shopUrl: string): RenderedEmail {
  const label = orderStatusLabels[data.status];
  const subject = `Order #${data.orderNumber} update: ${label}`;
  const line = statusLines[data.status] ?? orderStatusDescriptions[data.status] ?? `Your order is now ${label}.`;
  const trackUrl = `${shopUrl}/track`;
  const rows: Row[] = [
    ['Order number', data.orderNumber],
    ['Item', itemTitle(data.itemType)],
    ['Status', label],
    ['Carrier', data.tracking ? carrier.labels[data.tracking.carrier] : undefined],
    ['Tracking number', data.tracking?.trackingNumber],
    ['Estimated delivery', data.tracking?.estimatedDelivery ? dateTime(data.tracking.estimatedDelivery) : undefined],
  ];
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">Hello ${escapeHtml(firstName(data.customerName))},</h1>
<p style="margin:0 0 12px">${escapeHtml(line)}</p>
${rowsHtml(rows)}
${data.notes ? paragraphs(data.notes) : ''}
<p style="margin:12px 0">Follow your order on ${safeLink(trackUrl, trackUrl)} with your order number and this email address.</p>`,
  );
  const text = [
    `Hello ${firstName(data.customerName)},`,
    '',
    line,
    '',
    rowsText(rows),
    ...(data.notes ? ['', data.notes] : []),
    '',
    `Track your order: ${trackUrl}`,
    '',
    shopName,
  ].join('\n');
  return { template: 'order_status_update', subject, html, text };
}

export function adminMessageEmail(data: EventData<'order.email_requested'>, shopUrl: string): RenderedEmail {
  const trackUrl = `${shopUrl}/track`;
  const html = layout(
    data.subject,
    `<h1 style="font-size:20px;margin:0 0 12px">Hello ${escapeHtml(firstName(data.customerName))},</h1>
${paragraphs(data.message)}
<p style="margin:12px 0;color:#5b5d50">About order <strong>${escapeHtml(data.orderNumber)}</strong> &middot; ${safeLink(trackUrl, 'track your order')}</p>`,
  );
  const text = [
    `Hello ${firstName(data.customerName)},`,
    '',
    data.message.trim(),
    '',
    `About order ${data.orderNumber}. Track it: ${trackUrl}`,
    '',
    shopName,
  ].join('\n');
  return { template: 'order_admin_message', subject: data.subject, html, text };
}
