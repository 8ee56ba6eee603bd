// Support desk and returns emails (issue 12): the visitor's confirmation with the MSG- reference and the
// response promise, the team's notice of a new message, a reply from the shop, a return's confirmation
// with the RET- reference and the returns promises, the team's notice of a return, and each return
// status change. Same layout and escaping as the shop's other emails.
import {
  returnConditionLabels,
  returnReasonLabels,
  returnStatusLabels,
  supportTexts,
  type EventData,
} from '@shop/contracts';
import {
  dateTime,
  escapeHtml,
  firstName,
  layout,
  rowsHtml,
  rowsText,
  safeLink,
  shopName,
  type RenderedEmail,
  type Row,
} from './index.js';
import { paragraphs } from './order-updates.js';

const quoted = (text: string) =>
  `<blockquote style="margin:12px 0;padding:8px 12px;border-left:3px solid #d6d0bf;color:#3b3d33">${paragraphs(text)}</blockquote>`;
const priorityLabel = (p: string) => p.charAt(0).toUpperCase() + p.slice(1);
const referenceOf = (data: { reference?: string | undefined; messageId: string }) => data.reference ?? data.messageId;

export function supportConfirmationEmail(data: EventData<'support.message_created'>, shopUrl: string): RenderedEmail {
  const reference = referenceOf(data);
  const subject = `We received your message (${reference})`;
  const rows: Row[] = [
    ['Reference', reference],
    ['Subject', data.subject],
    ['Order number', data.orderNumber],
    ['Sent', dateTime(data.submittedDate)],
    ['We will answer by', data.respondBy ? dateTime(data.respondBy) : undefined],
  ];
  const faqUrl = `${shopUrl}/faq`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">Thank you, ${escapeHtml(firstName(data.name))}</h1>
<p style="margin:0 0 12px">Your message reached our support team. Please quote the reference <strong>${escapeHtml(reference)}</strong> if you write to us about it.</p>
<p style="margin:0 0 12px">${escapeHtml(supportTexts.responsePromise)}</p>
${rowsHtml(rows)}
<h2 style="font-size:16px;margin:16px 0 4px">Your message</h2>
${quoted(data.message)}
<p style="margin:12px 0">Many answers are already in our FAQ: ${safeLink(faqUrl, faqUrl)}</p>`,
  );
  const text = [
    `Thank you, ${firstName(data.name)}`,
    '',
    `Your message reached our support team. Please quote the reference ${reference} if you write to us about it.`,
    supportTexts.responsePromise,
    '',
    rowsText(rows),
    '',
    'Your message:',
    data.message.trim(),
    '',
    `FAQ: ${faqUrl}`,
    '',
    shopName,
  ].join('\n');
  return { template: 'support_confirmation', subject, html, text };
}

export function supportAdminNoticeEmail(data: EventData<'support.message_created'>, shopUrl: string): RenderedEmail {
  const reference = referenceOf(data);
  const subject = `New support message ${reference} [${priorityLabel(data.priority)}]: ${data.subject}`;
  const adminUrl = `${shopUrl}/admin`;
  const rows: Row[] = [
    ['Reference', reference],
    ['From', `${data.name} <${data.email}>`],
    ['Priority', priorityLabel(data.priority)],
    ['Order number', data.orderNumber],
    ['Respond by', data.respondBy ? dateTime(data.respondBy) : undefined],
  ];
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">New support message</h1>
${rowsHtml(rows)}
<h2 style="font-size:16px;margin:16px 0 4px">${escapeHtml(data.subject)}</h2>
${quoted(data.message)}
<p style="margin:12px 0">Answer it in the back office (Support): ${safeLink(adminUrl, adminUrl)}</p>`,
  );
  const text = [
    'New support message',
    '',
    rowsText(rows),
    '',
    `Subject: ${data.subject}`,
    '',
    data.message.trim(),
    '',
    `Back office: ${adminUrl}`,
  ].join('\n');
  return { template: 'support_admin_notice', subject, html, text };
}

export function supportReplyEmail(data: EventData<'support.replied'>, shopUrl: string): RenderedEmail {
  const reference = referenceOf(data);
  const subject = `Re: ${data.subject} (${reference})`;
  const supportUrl = `${shopUrl}/support`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">Hello ${escapeHtml(firstName(data.name))},</h1>
${paragraphs(data.content)}
<p style="margin:12px 0;color:#5b5d50">${escapeHtml(data.authorName)}, ${escapeHtml(shopName)} support &middot; reference ${escapeHtml(reference)}</p>
<p style="margin:12px 0">Reply to this email or write to us again on ${safeLink(supportUrl, supportUrl)}.</p>`,
  );
  const text = [
    `Hello ${firstName(data.name)},`,
    '',
    data.content.trim(),
    '',
    `${data.authorName}, ${shopName} support (reference ${reference})`,
    '',
    `Contact support: ${supportUrl}`,
  ].join('\n');
  return { template: 'support_reply', subject, html, text };
}

const returnRows = (data: EventData<'support.return_requested'>): Row[] => [
  ['Reference', data.reference],
  ['Order number', data.orderNumber],
  ['Reason', returnReasonLabels[data.reason]],
  ['Item condition', returnConditionLabels[data.itemCondition]],
  ['Photos', String(data.photoCount)],
  ['Requested', dateTime(data.requestedAt)],
];

export function returnConfirmationEmail(data: EventData<'support.return_requested'>, shopUrl: string): RenderedEmail {
  const subject = `Return request ${data.reference} received for order #${data.orderNumber}`;
  const rows = returnRows(data);
  const returnsUrl = `${shopUrl}/returns`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">We have your return request, ${escapeHtml(firstName(data.customerName))}</h1>
<p style="margin:0 0 12px">Your reference is <strong>${escapeHtml(data.reference)}</strong>.</p>
<p style="margin:0 0 12px">${escapeHtml(supportTexts.returnPromise)}</p>
${rowsHtml(rows)}
<h2 style="font-size:16px;margin:16px 0 4px">What you told us</h2>
${quoted(data.description)}
<p style="margin:12px 0">Our returns policy: ${safeLink(returnsUrl, returnsUrl)}</p>`,
  );
  const text = [
    `We have your return request, ${firstName(data.customerName)}`,
    '',
    `Your reference is ${data.reference}.`,
    supportTexts.returnPromise,
    '',
    rowsText(rows),
    '',
    'What you told us:',
    data.description.trim(),
    '',
    `Returns policy: ${returnsUrl}`,
    '',
    shopName,
  ].join('\n');
  return { template: 'return_confirmation', subject, html, text };
}

export function returnAdminNoticeEmail(data: EventData<'support.return_requested'>, shopUrl: string): RenderedEmail {
  const subject = `Return request ${data.reference} for order #${data.orderNumber}: ${returnReasonLabels[data.reason]}`;
  const rows: Row[] = [['Customer', `${data.customerName} <${data.email}>`], ...returnRows(data)];
  const adminUrl = `${shopUrl}/admin`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">New return request</h1>
${rowsHtml(rows)}
${quoted(data.description)}
<p style="margin:12px 0">Review it and send the label within 24 hours (back office, Support): ${safeLink(adminUrl, adminUrl)}</p>`,
  );
  const text = [
    'New return request',
    '',
    rowsText(rows),
    '',
    data.description.trim(),
    '',
    `Back office: ${adminUrl}`,
  ].join('\n');
  return { template: 'return_admin_notice', subject, html, text };
}

const statusLines: Record<string, string> = {
  approved:
    'Your return is approved. Your prepaid return label is on its way in a separate message from our team; pack the items securely and drop the parcel off with the carrier.',
  received: 'Your returned items have arrived. We process returns within 2-3 business days.',
  refunded:
    'Your refund has been issued to your original payment method. Depending on your bank it can take a few business days to show.',
  replaced: 'Your replacement is on its way. You will get its tracking details as soon as it ships.',
  rejected: 'We could not accept this return. The note below explains why; reply to this email if you have questions.',
};

export function returnStatusEmail(data: EventData<'support.return_status_changed'>, shopUrl: string): RenderedEmail {
  const label = returnStatusLabels[data.status];
  const subject = `Return ${data.reference} for order #${data.orderNumber}: ${label}`;
  const line = statusLines[data.status] ?? `Your return is now ${label}.`;
  const rows: Row[] = [
    ['Reference', data.reference],
    ['Order number', data.orderNumber],
    ['Status', label],
    ['Updated', dateTime(data.changedAt)],
  ];
  const supportUrl = `${shopUrl}/support`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">Hello ${escapeHtml(firstName(data.customerName))},</h1>
<p style="margin:0 0 12px">${escapeHtml(line)}</p>
${rowsHtml(rows)}
${data.note ? `<h2 style="font-size:16px;margin:16px 0 4px">Note from our team</h2>${paragraphs(data.note)}` : ''}
<p style="margin:12px 0">Questions? ${safeLink(supportUrl, 'Contact support')} and quote ${escapeHtml(data.reference)}.</p>`,
  );
  const text = [
    `Hello ${firstName(data.customerName)},`,
    '',
    line,
    '',
    rowsText(rows),
    ...(data.note ? ['', 'Note from our team:', data.note] : []),
    '',
    `Contact support: ${supportUrl}`,
    '',
    shopName,
  ].join('\n');
  return { template: 'return_status_update', subject, html, text };
}
