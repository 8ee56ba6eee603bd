// The shop's emails as plain, self-contained HTML (inline styles: mail clients ignore style sheets) plus
// a text part. Every value that comes from a customer or an event is escaped.
import {
  catalog,
  countryName,
  customerCategory,
  formatMoney,
  orderStatusLabels,
  shopName,
  sizeLabel,
  type EventData,
  type EmailTemplate,
} from '@shop/contracts';

export { formatMoney, shopName };

export interface RenderedEmail {
  template: EmailTemplate;
  subject: string;
  html: string;
  text: string;
}

export function escapeHtml(value: string | number | boolean | null | undefined): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A tax rate fraction as the customer reads it: 0.0625 is "6.25%". */
export const formatPercent = (fraction: number) => `${Number((fraction * 100).toFixed(3))}%`;
/** The tax row: shown only when there is tax, with its rate (storefront §2 payment details). */
export const taxLabel = (taxRate: number) => (taxRate > 0 ? `Tax (${formatPercent(taxRate)})` : 'Tax');
// One formatter for every email: toLocaleString with options builds a new one on each call.
const longDateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
export const dateTime = (iso: string) => longDateTime.format(new Date(iso)) + ' UTC';

export function firstName(name: string) {
  return name.trim().split(/\s+/)[0] || 'there';
}

/** Only http(s) links go into an href; anything else is shown as text. */
export function safeLink(url: string, label: string) {
  return /^https?:\/\//i.test(url)
    ? `<a href="${escapeHtml(url)}" style="color:#7a5c12">${escapeHtml(label)}</a>`
    : escapeHtml(label);
}

export function layout(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background:#eeeae0;font-family:Arial,Helvetica,sans-serif;color:#1d1f17">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#eeeae0;padding:24px 0"><tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border:1px solid #d6d0bf">
<tr><td style="background:#2f3524;padding:18px 24px;color:#e9d9a6;font-size:20px;font-weight:bold;letter-spacing:.5px">${escapeHtml(shopName)}</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5">${bodyHtml}</td></tr>
<tr><td style="padding:16px 24px;background:#f6f3ea;color:#5b5d50;font-size:12px">${escapeHtml(shopName)} &middot; Custom challenge coins, patches and tactical shirts. This message was sent because of a request made on our website.</td></tr>
</table></td></tr></table></body></html>`;
}

export type Row = [label: string, value: string | undefined];

export function rowsHtml(rows: Row[]) {
  const filled = rows.filter(([, v]) => v !== undefined && v !== '');
  return `<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;border-collapse:collapse;margin:12px 0">${filled
    .map(
      ([label, value]) =>
        `<tr><td style="padding:6px 8px;border-bottom:1px solid #ece7da;color:#5b5d50;width:40%">${escapeHtml(label)}</td><td style="padding:6px 8px;border-bottom:1px solid #ece7da;font-weight:bold">${escapeHtml(value)}</td></tr>`,
    )
    .join('')}</table>`;
}

export function rowsText(rows: Row[]) {
  return rows
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([label, value]) => `${label}: ${value}`)
    .join('\n');
}

type OrderCreated = EventData<'order.created'>;

function itemTitle(order: OrderCreated) {
  return catalog[order.itemType]?.title ?? order.itemType;
}

function specificationRows(order: OrderCreated): Row[] {
  const sizes = order.sizeBreakdown
    ? Object.entries(order.sizeBreakdown)
        .filter(([, n]) => n > 0)
        .map(([size, n]) => `${size} x ${n}`)
        .join(', ')
    : undefined;
  return [
    ['Size', order.size ? sizeLabel(order.itemType, order.size) : undefined],
    ['Sizes', sizes],
    ['Colors', order.colors?.join(', ')],
    ['Finish', order.finish],
    ['Shape', order.shape],
    ['Edge', order.edge],
    ['Features', order.features?.join(', ')],
  ];
}

function addressLines(address: OrderCreated['shippingAddress']): string[] {
  if (!address) return [];
  return [
    address.line1,
    address.line2,
    `${address.city}, ${address.state} ${address.postalCode}`,
    // Stored as the ISO code ("CA"), read as the country's name.
    countryName(address.country),
  ].filter((line): line is string => Boolean(line && line.trim()));
}

export function orderConfirmationEmail(order: OrderCreated, shopUrl: string): RenderedEmail {
  const status = order.statusLabel ?? orderStatusLabels[order.status] ?? 'Quote Pending';
  const subject = `Quote request received: order ${order.orderNumber}`;
  const rows: Row[] = [
    ['Order number', order.orderNumber],
    ['Status', status],
    ['Item', itemTitle(order)],
    ['Quantity', String(order.quantity)],
    ['Estimated total', formatMoney(order.estimatedTotal)],
    ...specificationRows(order),
  ];
  const trackUrl = `${shopUrl}/track`;
  const html = layout(
    subject,
    `<h1 style="font-size:22px;margin:0 0 12px">Thank you, ${escapeHtml(firstName(order.customerName))}!</h1>
<p style="margin:0 0 12px">We have received your quote request. Your order number is <strong>${escapeHtml(order.orderNumber)}</strong>.</p>
<p style="margin:0 0 12px"><span style="display:inline-block;background:#f4e7bf;color:#5a4310;border:1px solid #d9c07a;padding:3px 10px;font-weight:bold">${escapeHtml(status)}</span></p>
${rowsHtml(rows)}
<p style="margin:12px 0">The estimated total is a guide; your quote may differ once our team has reviewed the design.</p>
<p style="margin:12px 0"><strong>What happens next:</strong> our team reviews your request and emails you a quote within 24 hours, with a link to pay it online.</p>
<p style="margin:12px 0">You can follow your order at any time on ${safeLink(trackUrl, trackUrl)} with your order number and this email address.</p>`,
  );
  const text = [
    `Thank you, ${firstName(order.customerName)}!`,
    '',
    `We have received your quote request. Your order number is ${order.orderNumber}.`,
    '',
    rowsText(rows),
    '',
    'The estimated total is a guide; your quote may differ once our team has reviewed the design.',
    'What happens next: our team reviews your request and emails you a quote within 24 hours, with a link to pay it online.',
    '',
    `Track your order: ${trackUrl} (order number and this email address).`,
    '',
    `${shopName}`,
  ].join('\n');
  return { template: 'order_confirmation', subject, html, text };
}

export function adminNewOrderEmail(order: OrderCreated, shopUrl: string): RenderedEmail {
  const subject = `New quote request ${order.orderNumber}: ${order.quantity} x ${itemTitle(order)} (${formatMoney(order.estimatedTotal)})`;
  const category = customerCategory.labels[order.customerCategory] ?? order.customerCategory;
  const customerRows: Row[] = [
    ['Customer', order.customerName],
    ['Email', order.email],
    ['Phone', order.phone],
    ['Category', category],
    ['Tax exempt', order.taxExempt ? 'Yes' : 'No'],
  ];
  const orderRows: Row[] = [
    ['Order number', order.orderNumber],
    ['Submitted', dateTime(order.submittedDate)],
    ['Item', itemTitle(order)],
    ['Quantity', String(order.quantity)],
    ['Estimated total', formatMoney(order.estimatedTotal)],
    ['Design method', order.designMethod],
    ['AI generated', order.aiGenerated ? 'Yes' : 'No'],
    ['From the customizer', order.customizer ? 'Yes' : undefined],
    ...specificationRows(order),
  ];
  const address = addressLines(order.shippingAddress);
  const files = (order.files ?? []).map((file) => ({
    name: file.originalName,
    url: /^https?:\/\//i.test(file.url) ? file.url : `${shopUrl}${file.url.startsWith('/') ? '' : '/'}${file.url}`,
  }));
  const adminUrl = `${shopUrl}/admin`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">New quote request ${escapeHtml(order.orderNumber)}</h1>
<p style="margin:0 0 12px">A customer is waiting for a quote (promised within 24 hours).</p>
<h2 style="font-size:16px;margin:16px 0 4px">Customer</h2>${rowsHtml(customerRows)}
<h2 style="font-size:16px;margin:16px 0 4px">Order</h2>${rowsHtml(orderRows)}
${order.description ? `<h2 style="font-size:16px;margin:16px 0 4px">Description</h2><p style="margin:0 0 12px;white-space:pre-wrap">${escapeHtml(order.description)}</p>` : ''}
${files.length ? `<h2 style="font-size:16px;margin:16px 0 4px">Artwork</h2><ul style="margin:0 0 12px;padding-left:20px">${files.map((f) => `<li>${safeLink(f.url, f.name)}</li>`).join('')}</ul>` : ''}
${address.length ? `<h2 style="font-size:16px;margin:16px 0 4px">Ship to</h2><p style="margin:0 0 12px">${address.map(escapeHtml).join('<br>')}</p>` : ''}
<p style="margin:16px 0">Review it in the back office: ${safeLink(adminUrl, adminUrl)}</p>`,
  );
  const text = [
    `New quote request ${order.orderNumber}`,
    '',
    'Customer',
    rowsText(customerRows),
    '',
    'Order',
    rowsText(orderRows),
    ...(order.description ? ['', 'Description', order.description] : []),
    ...(files.length ? ['', 'Artwork', ...files.map((f) => `- ${f.name}: ${f.url}`)] : []),
    ...(address.length ? ['', 'Ship to', ...address] : []),
    '',
    `Back office: ${adminUrl}`,
  ].join('\n');
  return { template: 'admin_new_order', subject, html, text };
}

/**
 * Templates whose body is a one-time secret (a verification code): once the email has been sent or has
 * finally failed, the stored copy keeps only this note, and no event carries a preview of it.
 */
export const secretBodyTemplates: ReadonlySet<string> = new Set(['verification_code']);
export const removedSecretBody = '[Removed after delivery: this email carried a one-time verification code.]';

export function verificationCodeEmail(data: EventData<'customer.verification_requested'>): RenderedEmail {
  const subject = `Your ${shopName} verification code`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">Welcome back${data.customerName ? `, ${escapeHtml(firstName(data.customerName))}` : ''}!</h1>
<p style="margin:0 0 12px">Your verification code is <strong style="font-size:22px;letter-spacing:4px">${escapeHtml(data.code)}</strong></p>
<p style="margin:0 0 12px">Enter it on our website to fill in your saved details. It is valid for 10 minutes (until ${escapeHtml(dateTime(data.expiresAt))}) and works once.</p>
<p style="margin:0 0 12px;color:#5b5d50">If you did not ask for this code, you can ignore this email: nobody can see your details without it.</p>`,
  );
  const text = [
    `Welcome back${data.customerName ? `, ${firstName(data.customerName)}` : ''}!`,
    '',
    `Your verification code is ${data.code}`,
    '',
    `Enter it on our website to fill in your saved details. It is valid for 10 minutes (until ${dateTime(data.expiresAt)}) and works once.`,
    'If you did not ask for this code, you can ignore this email: nobody can see your details without it.',
    '',
    shopName,
  ].join('\n');
  return { template: 'verification_code', subject, html, text };
}
